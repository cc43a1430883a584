"""What one PIN guess costs: the scrypt parameters every new PIN is stored with, timed on this
machine beside the older cost (n=2**14) for the ratio. An offline search of every 6-digit PIN
takes 10**6 guesses."""

from __future__ import annotations

import time

from dealer_tui.staff.pins import SCRYPT_N, SCRYPT_P, SCRYPT_R, _scrypt

ROUNDS = 5


def timed(n: int, r: int, p: int) -> float:
    start = time.perf_counter()
    for i in range(ROUNDS):
        _scrypt(f"{246813 + i}", b"\x01" * 16, n, r, p)
    return (time.perf_counter() - start) / ROUNDS


def main() -> None:
    old = timed(2**14, 8, 1)
    now = timed(SCRYPT_N, SCRYPT_R, SCRYPT_P)
    print(f"one guess now (n={SCRYPT_N}, r={SCRYPT_R}, p={SCRYPT_P}): {now * 1000:.0f} ms; "
          f"before (n=16384): {old * 1000:.0f} ms; ratio {now / old:.2f}x")
    print(f"every 6-digit PIN, one core: {now * 10**6 / 3600:.0f} h")


if __name__ == "__main__":
    main()
