"""What the repository holds for the next engineer: the rules and the settle contract its code
cites (`docs/rules.md`, `docs/settle.md`), and a suite whose shared helpers live in support
modules (no test module imports another)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULE = re.compile(r"\b(?:C|HCF|R|CP|PP)-\d+\b")


def cited_rules() -> dict[str, set[str]]:
    """Each rule number the code cites beside `docs/rules.md`, with the files citing it."""
    cited: dict[str, set[str]] = {}
    for path in [*ROOT.glob("rules/**/*.py"), *ROOT.glob("dealer_tui/**/*.py")]:
        for number in RULE.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(number, set()).add(str(path.relative_to(ROOT)))
    return cited


def test_every_rule_number_the_code_cites_is_a_rule_of_docs_rules_md() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    numbered = set(re.findall(r"^- \*\*((?:C|HCF|R|CP|PP)-\d+)\*\*", rules, flags=re.MULTILINE))
    assert {"C-1", "HCF-10", "R-4", "CP-13", "PP-18"} <= numbered        # one of each game's, and the common rules
    cited = cited_rules()
    assert len(cited) > 40
    missing = {number: sorted(files) for number, files in cited.items() if number not in numbered}
    assert missing == {}


def test_docs_settle_md_names_every_game_the_settle_command_takes() -> None:
    contract = (ROOT / "docs" / "settle.md").read_text(encoding="utf-8")
    for game in ("high-card-flush", "one-or-five", "chinese-poker", "palace-poker"):
        assert f'"game": "{game}"' in contract


def test_no_test_module_imports_another_test_module() -> None:
    """Helpers two test modules share live in `tests/*_support.py` (or `conftest.py`)."""
    imports = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom)
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            imports += [(path.name, name) for name in names if name.split(".")[-1].startswith("test_")]
    assert imports == []
