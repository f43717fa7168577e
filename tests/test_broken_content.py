"""Break every bundled content file in typical ways: each gives a clean error, never a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.content.loader import BUNDLED_CONTENT, validate_paths

FILES = sorted(p for p in BUNDLED_CONTENT.rglob("*.yaml"))


def _everyday(path: Path) -> bool:
    """Every top-level file (rules, deck) and the first file of each folder (a card, a role, a task)."""
    return path.parent == BUNDLED_CONTENT or path == min(p for p in FILES if p.parent == path.parent)


# The everyday run breaks one file of each kind in every way; CI (slow tests included) breaks every file.
BROKEN = [p if _everyday(p) else pytest.param(p, marks=pytest.mark.slow) for p in FILES]


def _typo_in_key(text: str) -> str:
    # the first top-level key that is not a comment gets a letter doubled: "name:" -> "namme:"
    return re.sub(r"^([a-z_]+)(:)", lambda m: m.group(1) + m.group(1)[-1] + m.group(2), text, count=1, flags=re.M)


def _unknown_card_name(text: str) -> str | None:
    if "effect:" in text or "condition:" in text:
        return (
            re.sub(r"(effect: \|\n)(\s+)", r"\1\2let zz = declare(from: [【不存在的牌】])\n\2", text, count=1)
            if "effect: |" in text
            else None
        )
    return None


def _wrong_indentation(text: str) -> str:
    lines = text.splitlines()
    for i, ln in enumerate(lines):
        if ln and not ln.startswith((" ", "#", "-")) and i > 1:
            lines[i] = "   " + ln
            break
    return "\n".join(lines) + "\n"


def _tab(text: str) -> str:
    lines = text.splitlines()
    for i, ln in enumerate(lines):
        if ln.startswith("  "):
            lines[i] = "\t" + ln[2:]
            break
    return "\n".join(lines) + "\n"


MUTATIONS = {
    "typo_in_key": (lambda t: _typo_in_key(t), {"E111", "E112"}),
    "unknown_card_name": (_unknown_card_name, {"E305"}),
    "wrong_indentation": (_wrong_indentation, {"E101", "E111", "E112", "E113"}),
    "tab": (_tab, {"E101"}),
    "non_utf8": (lambda t: t.encode("utf-8") + b"\n# \xff\xfe\n", {"E102"}),
    "empty": (lambda t: "", {"E103"}),
    "huge": (lambda t: t + "#" + "x" * 1_100_000 + "\n", {"E104"}),
}


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize("path", BROKEN, ids=lambda p: str(p.relative_to(BUNDLED_CONTENT)))
def test_broken_file_gives_clean_error(tmp_path, path: Path, mutation: str):
    """Each typical mistake in each bundled file is reported with an expected code and a position."""
    fn, codes = MUTATIONS[mutation]
    broken = fn(path.read_text(encoding="utf-8"))
    if broken is None:
        pytest.skip("this kind of file has no effect code")
    target = tmp_path / path.relative_to(BUNDLED_CONTENT)
    target.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(broken, bytes):
        target.write_bytes(broken)
    else:
        target.write_text(broken, encoding="utf-8")
    errors = validate_paths([target])
    assert errors, f"{mutation} of {path.name} was not noticed"
    assert {e.code for e in errors} & codes, f"{mutation}: got {[str(e) for e in errors]}"
    for e in errors:
        assert e.line >= 1 and e.col >= 1 and e.path == str(target)


def test_bundled_content_is_clean():
    """The bundled content itself validates without a problem."""
    assert validate_paths([BUNDLED_CONTENT]) == []
    for f in FILES:
        assert validate_paths([f]) == [], f
