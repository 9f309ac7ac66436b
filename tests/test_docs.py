"""What the code defines, the README documents: every setting, every illegal-action reason."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_environment_variable_is_documented():
    code = "".join(p.read_text() for folder in ("service", "gateway")
                   for p in (ROOT / folder).rglob("*.py"))
    used = set(re.findall(r'"((?:PARLOR|REDIS|PROMETHEUS)_[A-Z_]+)"', code))
    readme = (ROOT / "README.md").read_text()
    table = set(re.findall(r"^\| `([A-Z_]+)` \|", readme, re.MULTILINE))
    assert used, "found no settings in the code"
    assert used <= table, f"undocumented: {sorted(used - table)}"
    assert table <= used, f"documented but never read: {sorted(table - used)}"


def test_every_reason_an_engine_gives_is_in_the_readme():
    """ILLEGAL_ACTION's details.reason: every code an engine raises (read from
    the engines' source: the first argument of each RulesError) is in the
    README's table of reasons, and the table names no other."""
    import ast

    reasons = set()
    for path in (ROOT / "service" / "games").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RulesError":
                assert isinstance(node.args[0], ast.Constant), f"{path}:{node.lineno}: a reason in a variable"
                reasons.add(node.args[0].value)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| reason | games |"):]
    table = table[:table.index("\n\n")]
    listed = re.findall(r"^  \| `([A-Z_]+)` \|", table, flags=re.M)
    assert len(reasons) > 25
    assert sorted(listed) == sorted(reasons)
