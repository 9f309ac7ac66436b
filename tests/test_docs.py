"""Every setting the code reads is documented in the README's configuration table."""

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
