"""What the terminal takes from Textual beyond its public API, pinned in one place.

`dealer_tui/widgets/textual_internals.py` is the one module that names Textual's unpublished
parts; each is pinned here by name and shape, so a Textual upgrade that changes one fails here.
The last test keeps it the one module: no other module of `dealer_tui` imports a private Textual
module, reaches for a private Textual attribute, or overrides one.
"""

from __future__ import annotations

import ast
import asyncio
import importlib
import importlib.util
import inspect
import pkgutil
import re
import textwrap
from functools import cache
from pathlib import Path

import pytest
import textual
from textual._queue import Queue
from textual.app import App, ComposeResult
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widgets import Static

import dealer_tui
from dealer_tui.widgets.fitted import FittedStatic
from dealer_tui.widgets.textual_internals import TOAST_LAYER, waiting_for_message

INTERNALS = "dealer_tui.widgets.textual_internals"
PACKAGE = Path(dealer_tui.__file__).parent


# -- the names pinned -------------------------------------------------------------------------

async def test_every_screen_has_the_toast_layer_the_notice_line_lies_on() -> None:
    assert isinstance(inspect.getattr_static(Screen, "layers"), property)
    app = App[None]()
    async with app.run_test(notifications=True):  # as the terminal runs (Pilot's default has no toasts)
        assert TOAST_LAYER in app.screen.layers
        assert app.screen.layers.index(TOAST_LAYER) > app.screen.layers.index("default")  # drawn above


def test_a_pump_has_a_message_queue_with_a_ready_event_its_task_waits_on() -> None:
    pump = MessagePump()
    assert isinstance(pump._message_queue, Queue) and pump._message_queue is pump._message_queue
    assert isinstance(pump._message_queue.ready_event, asyncio.Event)
    assert len(pump._message_queue.ready_event._waiters) == 0  # the tasks waiting on it


async def test_a_pump_waiting_for_its_next_message_is_told_from_one_handling_a_message() -> None:
    seen: list[bool] = []

    class Probe(App[None]):
        def on_key(self) -> None:
            seen.append(waiting_for_message(self))

    app = Probe()
    async with app.run_test() as pilot:
        await pilot.pause()
        assert waiting_for_message(app)       # idle: its task waits on the queue
        await pilot.press("x")
        assert seen == [False]                # handling the key: nothing waits on the queue


async def test_a_settled_leaf_takes_its_new_size_without_asking_for_one_more_layout() -> None:
    """Textual lays a grown widget out, then sets its virtual size, which asks for another layout
    (one more frame); a settled leaf's virtual size asks for nothing."""
    class Both(App[None]):
        def compose(self) -> ComposeResult:
            yield FittedStatic("one line", id="settled")
            yield Static("one line", id="plain")

    app = Both()
    async with app.run_test() as pilot:
        await pilot.pause()
        layouts: dict[str, int] = {}
        for widget in app.query(Static):
            assert widget.id is not None
            layouts[widget.id] = 0
            own = widget.refresh

            def counted(*regions, _id=widget.id, _own=own, **kw):  # type: ignore[no-untyped-def]
                layouts[_id] += bool(kw.get("layout"))
                return _own(*regions, **kw)

            widget.refresh = counted  # type: ignore[method-assign]
            widget.update("three\nlines\nnow")
        await pilot.pause()
        assert app.query_one("#settled").size.height == app.query_one("#plain").size.height == 3
        assert layouts["plain"] == layouts["settled"] + 1


# -- the one module ---------------------------------------------------------------------------

@cache
def textual_private_names() -> frozenset[str]:
    """Every `_name` Textual's own source defines or uses (not dunders)."""
    names: set[str] = set()
    for path in Path(textual.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Attribute):
                names.add(node.attr)
    return frozenset(n for n in names if n.startswith("_") and not n.startswith("__"))


def _written(source: str) -> set[str]:
    """The `_names` a piece of source defines: functions, class attributes, `self._x = ...`."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(textwrap.dedent(source))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            out.add(node.attr)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            out.update(t.id for t in targets if isinstance(t, ast.Name))
    return {n for n in out if n.startswith("_") and not n.startswith("__")}


@cache
def _theirs(base: type) -> frozenset[str]:
    """The `_names` a Textual class defines in its source or holds."""
    return frozenset(_written(inspect.getsource(base)) | set(vars(base)))


def _modules() -> list[str]:
    return [m.name for m in pkgutil.walk_packages([str(PACKAGE)], "dealer_tui.") if m.name != INTERNALS]


def _source(module: str) -> tuple[Path, str]:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin), Path(spec.origin).read_text(encoding="utf-8")


@pytest.mark.slow
def test_no_module_but_the_one_names_a_private_part_of_textual() -> None:
    private = textual_private_names()
    own = set().union(*(_written(_source(m)[1]) for m in _modules()))
    found: list[str] = []
    for module in _modules():
        path, text = _source(module)
        for node in ast.walk(ast.parse(text)):
            where = f"{path.relative_to(PACKAGE.parent)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "textual":
                parts = [*node.module.split("."), *(a.name for a in node.names)]
                if any(p.startswith("_") for p in parts):
                    found.append(f"{where}: from {node.module} import {', '.join(a.name for a in node.names)}")
            elif isinstance(node, ast.Import):
                found += [f"{where}: import {a.name}" for a in node.names
                          if a.name.split(".")[0] == "textual" and any(p.startswith("_") for p in a.name.split("."))]
            elif isinstance(node, ast.Attribute) and node.attr in private and node.attr not in own:
                found.append(f"{where}: .{node.attr}")
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                found += [f"{where}: CSS {m}" for m in re.findall(r"\blayers?\s*:[^;}]*\b_\w+", node.value)]
    for tcss in PACKAGE.rglob("*.tcss"):
        found += [f"{tcss.relative_to(PACKAGE.parent)}: CSS {m}"
                  for m in re.findall(r"\blayers?\s*:[^;}]*\b_\w+", tcss.read_text(encoding="utf-8"))]
    # a class of ours that overrides (or sets) a private name of the Textual class it extends
    for module in _modules():
        for name, cls in vars(importlib.import_module(module)).items():
            if not inspect.isclass(cls) or cls.__module__ != module:
                continue
            bases = [b for b in cls.__mro__[1:] if b.__module__.split(".")[0] == "textual"]
            if not bases:
                continue
            theirs = frozenset().union(*(_theirs(b) for b in bases))
            found += [f"{module}.{name}: overrides {n}" for n in sorted(_written(inspect.getsource(cls)) & theirs)]
    assert not found, "private Textual names outside " + INTERNALS + ":\n" + "\n".join(found)
