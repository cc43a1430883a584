"""The pit server's standby promoted while tables play: a primary and a standby by streaming
replication (throwaway clusters on this machine), three terminal processes delivering through a
multi-host URL (`target_session_attrs=read-write`); the primary is killed mid-play and the standby
promoted. Afterwards every event of every terminal is on the new primary exactly once, no round
was paid twice and the pit verifies; reports how long the terminals could not deliver.

    python bench/failover.py [--terminals 3] [--rounds 120]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dealer_tui.audit.pit_audit import verify_pit
from dealer_tui.games import GAMES
from dealer_tui.ledger.postgres import init_schema
from tests.pg_support import Cluster, _as_owner, bindir, paid_twice, tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--terminals", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=120)
    args = parser.parse_args()
    where = bindir()
    if where is None:
        raise SystemExit("PostgreSQL is not installed here (no initdb/pg_ctl)")
    primary = Cluster(where, port=5511)
    primary.start()
    standby_root = Path(tempfile.mkdtemp(prefix="pit-standby-"))
    if os.geteuid() == 0:
        shutil.chown(standby_root, "postgres")
    standby_data = standby_root / "data"
    try:
        primary.database("pit")
        url = (f"host={primary.root},{standby_root} port={primary.port},5512 dbname=pit user=pit"
               " target_session_attrs=read-write connect_timeout=2")
        init_schema(url)
        subprocess.run(_as_owner([str(where / "pg_basebackup"), "-h", str(primary.root), "-p", str(primary.port),
                                  "-U", "pit", "-D", str(standby_data), "-R", "-X", "stream"]),
                       check=True, capture_output=True, timeout=300)
        subprocess.run(_as_owner([str(where / "pg_ctl"), "-D", str(standby_data), "-l", str(standby_root / "log"),
                                  "-w", "-o", f"-k {standby_root} -p 5512 -c listen_addresses=''", "start"]),
                       check=True, capture_output=True, timeout=120)
        with tempfile.TemporaryDirectory() as tmp:
            paths = [Path(tmp) / f"t{n}.sqlite" for n in range(1, args.terminals + 1)]
            processes = [subprocess.Popen([sys.executable, "-m", "tests.pit_terminal", str(p), url, str(args.rounds),
                                           str(n), "0.1"], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                                          env={**os.environ, "PYTHONPATH": str(ROOT)})
                         for n, p in enumerate(paths, start=1)]
            for process in processes:  # a third of the rounds played and delivered to the primary
                assert process.stdout is not None
                while int(process.stdout.readline() or 0) < args.rounds // 3:
                    pass
            with psycopg.connect(f"host={primary.root} port={primary.port} dbname=pit user=pit") as db:
                before = db.execute("SELECT COUNT(*) FROM pit_events").fetchone()
            killed = time.monotonic()
            primary.stop("immediate")
            subprocess.run(_as_owner([str(where / "pg_ctl"), "-D", str(standby_data), "-w", "promote"]),
                           check=True, capture_output=True, timeout=120)
            promoted = time.monotonic() - killed
            with psycopg.connect(url) as db:
                at_promotion = db.execute("SELECT COUNT(*) FROM pit_events").fetchone()
            while True:  # the first delivery the new primary takes after the kill
                with psycopg.connect(url) as db:
                    row = db.execute("SELECT COUNT(*) FROM pit_events").fetchone()
                if row is not None and at_promotion is not None and row[0] > at_promotion[0]:
                    break
                time.sleep(0.05)
            gap = time.monotonic() - killed
            for process in processes:
                assert process.stdout is not None
                process.stdout.read()
                assert process.wait(300) == 0
            counts = [tally(p, url) for p in paths]
            lost, duplicated, twice = sum(c.lost for c in counts), sum(c.duplicated for c in counts), paid_twice(url)
            with psycopg.connect(url) as db:
                after = db.execute("SELECT COUNT(*) FROM pit_events").fetchone()
            problems = verify_pit(url, GAMES).problems
        assert before is not None and after is not None
        print(f"{args.terminals} terminals x {args.rounds} rounds through {url}")
        print(f"  primary killed with {before[0]} events; standby promoted in {promoted:.2f} s holding "
              f"{at_promotion[0] if at_promotion else '?'} events; the first delivery to it {gap:.2f} s after the kill")
        print(f"  afterwards {after[0]} events on the new primary: lost {lost}, duplicated {duplicated}, "
              f"paid twice {twice}; verify: {len(problems)} problem(s)")
        for line in problems[:10]:
            print(f"    {line}")
    finally:
        subprocess.run(_as_owner([str(where / "pg_ctl"), "-D", str(standby_data), "-m", "immediate", "stop"]),
                       capture_output=True, timeout=120, check=False)
        shutil.rmtree(standby_root, ignore_errors=True)
        primary.remove()


if __name__ == "__main__":
    main()
