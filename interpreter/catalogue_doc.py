"""Write the catalogue's tables into the documents, or check that they are up to date.

    python -m interpreter.catalogue_doc            # print every table
    python -m interpreter.catalogue_doc --write    # rewrite them in docs/
    python -m interpreter.catalogue_doc --check    # exit 1 if a document is out of date

Each table sits between ``<!-- catalogue:NAME:start -->`` and
``<!-- catalogue:NAME:end -->`` in its document; the prose around it is
written by hand. tests/test_catalogue.py fails when a table drifts from
``interpreter/catalogue.py``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from . import catalogue as C

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ").strip()


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def context_vars() -> str:
    return _table(
        ["Variable", "Type", "Meaning", "Available in", "中文"],
        [[f"`{v.name}`", v.type, v.meaning, v.where, v.zh] for v in C.CONTEXT_VARS.values()],
    )


def timings() -> str:
    return _table(
        ["`timing`", "When", "Who may act", "中文", "speed (stack timing)"],
        [[f"`{t.name}`", t.when, t.who, t.zh_at, t.speed] for t in C.TIMINGS.values()],
    )


def victory_checks() -> str:
    return _table(
        ["`check`", "Evaluated when", "`subject`", "中文"],
        [[f"`{v.name}`", v.doc, v.subject or "—", v.zh] for v in C.VICTORY_CHECKS.values()],
    )


def victory_wins() -> str:
    return _table(["`wins`", "who wins with the holder"], [[f"`{k}`", doc] for k, doc in C.VICTORY_WINS.items()])


def face_down_uses() -> str:
    return _table(
        ["`while_face_down`", "what the others hear of its use", "中文 (describe)"],
        [[f"`{k}`", doc, zh] for k, (doc, zh) in C.FACE_DOWN_USES.items()],
    )


def triggers() -> str:
    return _table(
        ["`trigger`", "The event (`subject`, `this_card`)", "中文"],
        [
            [f"`{e.name}`", e.doc, e.zh.format(s="X", c="牌" if e.card_noun == "牌" else "情报")]
            for e in C.TRIGGER_EVENTS.values()
        ],
    )


def limits() -> str:
    return _table(
        ["limit", "value", "code", "what it bounds"],
        [[f"`{lim.name}`", f"{lim.value:,}", lim.code, lim.doc] for lim in C.LIMITS.values()],
    )


def phase_kinds() -> str:
    return _table(
        ["phase kind", "中文", "what it does", "settings", "timing nodes", "idle points (`timing`)", "decisions"],
        [
            [
                f"`{k.name}`",
                k.zh,
                k.doc + (f" (needs a `{k.after}` phase before it)" if k.after else ""),
                "; ".join(f"`{s.name}` ({s.type} {s.minimum}–{s.maximum}): {s.doc}" for s in k.settings) or "—",
                "、".join(k.nodes),
                ", ".join(f"`{t}`" for t in k.timings) or "—",
                ", ".join(f"`{d}`" for d in k.decisions) or "—",
            ]
            for k in C.PHASE_KINDS.values()
        ],
    )


def resolutions() -> str:
    return _table(
        ["`resolution`", "中文", "how cards and triggered skills resolve"],
        [[f"`{m.name}`", m.zh, m.doc] for m in C.RESOLUTIONS.values()],
    )


# table name -> (document, generator)
TABLES: dict[str, tuple[str, Callable[[], str]]] = {
    "context-vars": ("language.md", context_vars),
    "timings": ("language.md", timings),
    "victory-checks": ("language.md", victory_checks),
    "victory-wins": ("language.md", victory_wins),
    "face-down-uses": ("language.md", face_down_uses),
    "triggers": ("language.md", triggers),
    "limits": ("errors.md", limits),
    "phase-kinds": ("modding.md", phase_kinds),
    "resolutions": ("modding.md", resolutions),
}


def markers(name: str) -> tuple[str, str]:
    return f"<!-- catalogue:{name}:start -->", f"<!-- catalogue:{name}:end -->"


def current(text: str, name: str) -> str | None:
    """The text between a table's markers, or None if they are missing."""
    start, end = markers(name)
    i, j = text.find(start), text.find(end)
    if i < 0 or j < i:
        return None
    return text[i + len(start) : j]


def render(text: str, name: str, table: str) -> str:
    start, end = markers(name)
    i, j = text.find(start), text.find(end)
    if i < 0 or j < i:
        raise ValueError(f"the markers {start} and {end} are missing")
    return text[: i + len(start)] + "\n" + table + text[j:]


def stale(docs: Path = DOCS) -> list[str]:
    """The tables whose text in the documents differs from the catalogue (or whose markers are missing)."""
    out = []
    for name, (doc, make) in TABLES.items():
        if current((docs / doc).read_text(encoding="utf-8"), name) != "\n" + make():
            out.append(f"{doc}: {name}")
    return out


def write(docs: Path = DOCS) -> list[str]:
    """Rewrite every table in place; the documents that changed."""
    changed = []
    for name, (doc, make) in TABLES.items():
        path = docs / doc
        text = path.read_text(encoding="utf-8")
        new = render(text, name, make())
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(f"{doc}: {name}")
    return changed


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if "--write" in args:
        changed = write()
        print("updated: " + ", ".join(changed) if changed else "already up to date")
        return 0
    if "--check" in args:
        out = stale()
        if out:
            print("out of date: " + ", ".join(out) + " — run python -m interpreter.catalogue_doc --write")
            return 1
        return 0
    for name, (doc, make) in TABLES.items():
        print(f"## {name} ({doc})\n\n{make()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
