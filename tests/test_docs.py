"""What the code defines, the README documents: every setting, every illegal-action reason."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_environment_variable_is_documented():
    code = "".join(p.read_text() for folder in ("service", "gateway", "proto/parlor")
                   for p in (ROOT / folder).rglob("*.py"))
    used = set(re.findall(r'"((?:PARLOR|REDIS|PROMETHEUS)_[A-Z_]+)"', code))
    readme = (ROOT / "README.md").read_text()
    table = set(re.findall(r"^\| `([A-Z_]+)` \|", readme, re.MULTILINE))
    assert used, "found no settings in the code"
    assert used <= table, f"undocumented: {sorted(used - table)}"
    assert table <= used, f"documented but never read: {sorted(table - used)}"


# How the README's table of reasons names each game.
_TABLE_NAMES = {"what_the_heck": "What the Heck?", "hi_fu": "Hi-Fu", "heul_doch": "Heul doch",
                "whatever": "Whatever", "heck": "Heck"}


def test_every_reason_an_engine_gives_is_in_the_readme():
    """ILLEGAL_ACTION's details.reason: every code an engine raises (read from
    the engines' source: the first argument of each RulesError) is in the
    README's table of reasons, with the games that give it ("all" for the
    shared base's and those every game gives), and the table names no other."""
    import ast

    from parlor.service.games import GAMES

    assert set(_TABLE_NAMES) == set(GAMES)
    games_dir = ROOT / "service" / "games"
    raised: dict[str, set[str]] = {}
    for path in games_dir.rglob("*.py"):
        module = path.relative_to(games_dir).parts[0].removesuffix(".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RulesError":
                assert isinstance(node.args[0], ast.Constant), f"{path}:{node.lineno}: a reason in a variable"
                raised.setdefault(node.args[0].value, set()).add(module)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| reason | games |"):]
    table = table[:table.index("\n\n")]
    listed = dict(re.findall(r"^  \| `([A-Z_]+)` \| ([^|]+?) \|", table, flags=re.M))
    assert len(raised) > 25
    assert sorted(listed) == sorted(raised)
    for reason, modules in raised.items():
        games = "all" if "base" in modules or modules >= set(GAMES) else {_TABLE_NAMES[m] for m in modules}
        assert (listed[reason] if games == "all" else set(listed[reason].split(", "))) == games, reason
