"""Generate the Reference section of docs/language.md from the primitives of ``builtins.py``.

    python -m interpreter.language.reference           # print the section
    python -m interpreter.language.reference --write   # rewrite it in docs/language.md
    python -m interpreter.language.reference --check   # exit 1 if docs/language.md is out of date

The section sits between the markers ``<!-- reference:start -->`` and
``<!-- reference:end -->``; everything else in the document is written by hand.
tests/test_language_reference.py fails when the two drift apart.
"""

from __future__ import annotations

import sys
from pathlib import Path

from . import types as T
from .builtins import BUILTINS, CONSTANTS, STATUSES, Builtin
from .calls import signature

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "language.md"
START = "<!-- reference:start -->"
END = "<!-- reference:end -->"

_KINDS = [
    (
        "query",
        "Queries",
        "A query computes a value and changes nothing. Used alone as a statement it is an error (E307).",
    ),
    (
        "action",
        "Actions",
        "An action changes the game and reports whether it fully resolved; one that did not stops the "
        "next `then`. Most actions given `none` or an empty list do nothing and count as not fully resolved.",
    ),
    (
        "choice",
        "Choices",
        "A choice asks a player (`by`, default `self`) and yields the answer. A choice from an empty list "
        "yields `none` and counts as not fully resolved.",
    ),
]


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def _returns(b: Builtin) -> str:
    """The result type in words; choices derive theirs from the type of `from` (shuffled from its list's)."""
    if not callable(b.returns):
        return b.returns
    first = b.params[0].name if b.params else "from"
    probes = {t: b.returns({first: t}) for t in (T.CARDS, T.PLAYERS)}
    if all(r == T.element_of(t) for t, r in probes.items()):
        return f"one item of `{first}`"
    if all(r == t for t, r in probes.items()):
        return f"a list like `{first}`"
    return "depends on the arguments"


def _where(b: Builtin) -> str:
    if b.contexts is None:
        return "in an effect (not in a condition nor a target rule: it draws)" if b.draws else "anywhere"
    return "only " + ", ".join(f"`{c}`" for c in sorted(b.contexts))


def markdown_reference() -> str:
    """The Reference section (Markdown), generated from BUILTINS, STATUSES and CONSTANTS."""
    out = [
        "_Generated from `interpreter/language/builtins.py` by "
        "`python -m interpreter.language.reference --write`; do not edit by hand._",
        "",
    ]
    for kind, title, intro in _KINDS:
        items = [b for b in BUILTINS.values() if b.kind == kind]
        if not items:
            continue
        out += [
            f"### {title} (kind: {kind})",
            "",
            intro,
            "",
            "| Signature | Returns | 中文 | Where | Meaning |",
            "|---|---|---|---|---|",
        ]
        for b in items:
            out.append(
                f"| `{_cell(signature(b))}` | {_cell(_returns(b))} | {_cell(b.zh)} | "
                f"{_cell(_where(b))} | {_cell(b.doc)} |"
            )
        out.append("")
    out += [
        "### Statuses",
        "",
        "Names accepted by `add_status` (bare, `add_status(p, must_receive)`, or quoted). "
        "Each lasts to the end of the turn (or `turns` turns more).",
        "",
        "| Status | 中文 |",
        "|---|---|",
    ]
    for name, zh in STATUSES.items():
        out.append(f"| `{name}` | {_cell(zh)} |")
    out += ["", "### Constants", "", "| Name | Type |", "|---|---|"]
    for name, (typ, _value) in CONSTANTS.items():
        out.append(f"| `{name}` | {typ} |")
    out.append("")
    return "\n".join(out)


def section_of(text: str) -> str | None:
    """The text between the reference markers, or None if the markers are missing."""
    i, j = text.find(START), text.find(END)
    if i < 0 or j < i:
        return None
    return text[i + len(START) : j]


def with_section(text: str, reference: str) -> str:
    """`text` with the part between the markers replaced by `reference`."""
    i, j = text.find(START), text.find(END)
    if i < 0 or j < i:
        raise ValueError(f"the markers {START} and {END} are missing")
    return text[: i + len(START)] + "\n" + reference + text[j:]


def write(path: Path = DOC_PATH) -> bool:
    """Rewrite the section in place; True if the file changed."""
    text = path.read_text(encoding="utf-8")
    new = with_section(text, markdown_reference())
    if new == text:
        return False
    path.write_text(new, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "--write" in args:
        changed = write()
        print(f"{DOC_PATH}: {'updated' if changed else 'already up to date'}")
        return 0
    if "--check" in args:
        current = section_of(DOC_PATH.read_text(encoding="utf-8"))
        if current != "\n" + markdown_reference():
            print(f"{DOC_PATH} is out of date: run python -m interpreter.language.reference --write")
            return 1
        return 0
    sys.stdout.write(markdown_reference())
    return 0


if __name__ == "__main__":
    sys.exit(main())
