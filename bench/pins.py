"""What one PIN guess costs, and so what one PIN costs to guess from a copied ledger: the scrypt
parameters every new PIN is stored with, timed on this machine beside the older cost (n=2**14) for
the ratio. An offline search finds a PIN after half its space on average: a dealer's 8 digits
(10**8 / 2 guesses), an approver's 9 digits (10**9 / 2)."""

from __future__ import annotations

import time

from dealer_tui.staff.pins import APPROVER_DIGITS, MIN_DIGITS, SCRYPT_N, SCRYPT_P, SCRYPT_R, _scrypt

ROUNDS = 5
CORE_MONTH = 30.44 * 24 * 3600
CORE_YEAR = 365.25 * 24 * 3600


def timed(n: int, r: int, p: int) -> float:
    start = time.perf_counter()
    for i in range(ROUNDS):
        _scrypt(f"{246813579 + i}", b"\x01" * 16, n, r, p)
    return (time.perf_counter() - start) / ROUNDS


def main() -> None:
    old = timed(2**14, 8, 1)
    now = timed(SCRYPT_N, SCRYPT_R, SCRYPT_P)
    print(f"one guess now (n={SCRYPT_N}, r={SCRYPT_R}, p={SCRYPT_P}): {now * 1000:.0f} ms; "
          f"before (n=16384): {old * 1000:.0f} ms; ratio {now / old:.2f}x")
    for who, digits, unit, name in (("a dealer's", MIN_DIGITS, CORE_MONTH, "core-months"),
                                    ("an approver's", APPROVER_DIGITS, CORE_YEAR, "core-years")):
        average = now * 10**digits / 2
        print(f"{who} PIN ({digits} digits), one core, on average: {average / unit:.1f} {name} "
              f"(every PIN: {2 * average / unit:.1f})")
    print(f"a 6-digit PIN as before, on average: {now * 10**6 / 2 / 3600:.0f} core-hours")


if __name__ == "__main__":
    main()
