"""Test settings: on CI, hypothesis draws the same examples every run (reproducible results);
the suite's lanes (`tui`, `pit`, `crash`, `slow`: pyproject.toml) are marked here where a test's
own fixtures say which it is, and in the test modules where they do not."""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.pg_support import pg_cluster, pit_db  # noqa: F401  (the throwaway PostgreSQL cluster's fixtures)

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(autouse=True, scope="session")
def _state_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The witnesses `demo` and the terminal write go to a state directory of the test run's own,
    never the user's (subprocesses inherit it)."""
    saved = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(tmp_path_factory.mktemp("state"))
    yield
    if saved is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = saved


@pytest.fixture(autouse=True, scope="session")
def _quick_pins() -> Iterator[None]:
    """PINs hashed with a small scrypt cost in this process (the tests sign in thousands of
    times); the hash keeps its parameters, so checking works the same. Subprocesses use the
    real cost (`bench/pins.py` measures it; `test_staff` checks new PINs get it)."""
    from tests.staff_support import QUICK_SCRYPT

    patch = pytest.MonkeyPatch()
    for name, value in QUICK_SCRYPT.items():
        patch.setattr(f"dealer_tui.staff.pins.{name}", value)
    yield
    patch.undo()


@pytest.fixture()
def staff_pins() -> Iterator[None]:
    """Standard input holds the test dealer's and supervisor's PINs for every `demo` run in the
    test (each run reads two lines)."""
    from tests.staff_support import pins_on_stdin

    with pins_on_stdin():
        yield


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """`pit` for every test on the session's PostgreSQL cluster; `tui` for every test that drives
    Textual (the suite's coroutine tests run a Pilot; a snapshot renders a screen); `slow` for
    every `tui`, `pit` and `crash` test, each starting Textual, a server or a process. Tests with
    a cluster of their own, real terminals, browsers, crashes and the rules' tests that take a
    second or more are marked in their modules."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "pg_cluster" in fixtures:
            item.add_marker(pytest.mark.pit)
        if "snap_compare" in fixtures or inspect.iscoroutinefunction(getattr(item, "function", None)):
            item.add_marker(pytest.mark.tui)
        if any(item.get_closest_marker(lane) for lane in ("tui", "pit", "crash")):
            item.add_marker(pytest.mark.slow)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: two workers per core, at most 8. Much of the suite waits on a terminal, a server
    or a process it started, so a core has room for a second test (on two cores: 5 min 30 s with
    four workers against 7 min with two)."""
    return min(8, 2 * (os.cpu_count() or 1))


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """Each test starts and ends with the terminal in English (a test that switches the language
    leaves the next one as it found it)."""
    from dealer_tui.language import ENGLISH, use_terminal

    use_terminal(ENGLISH)
    yield
    use_terminal(ENGLISH)
