"""What a sign-in costs as the staff register grows (every sign-in is an event of it): the
register read afresh for each sign-in (a terminal's first read: the accounts' events only, sign-ins
looked up when named), side by side with the register kept per connection and brought up to date
with what was written since; and the first read alone. One run, the same ledger, the hash cost
small (`pins.py` measures the hash itself)."""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from dealer_tui.events.staff import StaffSignedIn
from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER
from dealer_tui.staff import FLOOR, MANAGE, Purpose, StaffDesk, StaffRegister, pins, register


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=20000, help="sign-ins already in the register")
    parser.add_argument("--tries", type=int, default=20)
    args = parser.parse_args()
    pins.SCRYPT_N, pins.SCRYPT_R = 2**4, 1
    with tempfile.TemporaryDirectory() as tmp:
        ledger = SqliteLedger(Path(tmp) / "l.sqlite")
        desk = StaffDesk(ledger)
        desk.add_first_manager("M1", "Mona", "246813579")
        by = desk.sign_in("M1", "246813579", Purpose(MANAGE, "x"))
        desk.add("S1", "Sam", "supervisor", "975318642", by)
        batch = [StaffSignedIn(account="S1", act=FLOOR, purpose="earlier").record()] * 1000
        for _ in range(args.events // 1000):
            ledger.append(STAFF_REGISTER, None, batch)
        timings = {}
        for name, keep in (("read afresh each time", False), ("kept and brought up to date", True)):
            start = time.perf_counter()
            for _ in range(args.tries):
                if not keep:
                    register._KEPT.pop(ledger, None)
                desk.sign_in("S1", "975318642", Purpose(FLOOR, "bench"))
            timings[name] = (time.perf_counter() - start) / args.tries
        whole, kept = timings.values()
        print(f"{args.events} sign-ins in the register: one sign-in {whole * 1000:.1f} ms read afresh, "
              f"{kept * 1000:.2f} ms kept ({whole / kept:.0f}x)")
        register._KEPT.pop(ledger, None)
        start = time.perf_counter()
        first = StaffRegister.read(ledger)
        print(f"a terminal's first read of that register: {(time.perf_counter() - start) * 1000:.1f} ms")
        assert first.seq == len(ledger.table_events(STAFF_REGISTER))
        ledger.close()


if __name__ == "__main__":
    main()
