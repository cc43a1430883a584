"""The layers and the types hold: the import contracts in pyproject.toml (import-linter) and
`mypy --strict` over `rules` and `dealer_tui`, each a test, so a wrong import or a type error
fails the suite, not a review."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_import_contracts_are_kept() -> None:
    linter = shutil.which("lint-imports")
    if linter is None:
        pytest.skip("import-linter is not installed (the test extra installs it)")
    done = subprocess.run([linter, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]


def test_mypy_strict_over_rules_and_dealer_tui() -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (the test extra installs it)")
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "rules", "dealer_tui"], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
