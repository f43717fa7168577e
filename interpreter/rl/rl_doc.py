"""docs/rl.md's figures, generated from the code: the sizes of the spaces and the action id table.

    python -m interpreter.rl.rl_doc            # print the generated blocks
    python -m interpreter.rl.rl_doc --write    # rewrite them in docs/rl.md
    python -m interpreter.rl.rl_doc --check    # exit 1 if docs/rl.md is out of date

Each block sits between ``<!-- generated: NAME -->`` and ``<!-- end generated -->`` in docs/rl.md; the
rest of the page is written by hand. The figures are read from the bundled content through the same
objects the adapters use (:class:`~interpreter.rl.encoding.Encoder`, the content's
:class:`~interpreter.engine.actions.ActionSpace`), so a change of the content or of the encoding shows
up as a failing drift test (tests/test_rl_adapters.py) instead of a stale number in the docs.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from ..content.loader import load_cached
from ..engine.actions import space_for
from .encoding import Encoder, InfoStateEncoder

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "rl.md"

# what each group of action ids means, by its kind (the first element of an ActionSpace key)
MEANINGS = {
    "pass": "pass an idle point",
    "none": '"nobody" / "nothing"',
    "yes": "是",
    "no": "否",
    "accept": "accept an intel",
    "decline": "pass on an intel",
    "seat": "a seat (a target, whom to lock, to whom to send)",
    "color": "red / blue / black",
    "direction": "left / right / up",
    "blind": "a face-down pick by position (抽取)",
    "option": "the i-th option of a choice among texts or numbers (选择一项)",
    "identity": "an identity",
    "task": "a secret task",
    "card_name": "a card name, where an effect asks for one",
    "role": "a role (setup: which dealt role to keep)",
    "skill": "use a role skill",
    "virtual": "use a card *as* another card type (a skill's conversion), by (card type, use)",
    "card": "a card, by deck id (send it, choose it …)",
    "use": "use a card from hand, by (deck id, card type, use)",
}


def action_groups(content) -> list[tuple[str, int, int]]:
    """The action space's runs of one kind: (kind, first id, last id), in id order."""
    space = space_for(content)
    groups: list[tuple[str, int, int]] = []
    for i in range(space.size):
        kind = str(space.key(i)[0])
        if groups and groups[-1][0] == kind:
            groups[-1] = (kind, groups[-1][1], i)
        else:
            groups.append((kind, i, i))
    return groups


def sizes_block(content) -> str:
    space = space_for(content).size
    counts = content.rules.player_counts()  # (the content's identity table: a fork's table has its own columns)
    lines = [
        f"Bundled content: **{space}** action ids (`num_distinct_actions`, the PettingZoo `Discrete` "
        "and the length of the action mask), whatever the number of players. Vector lengths by number of players:",
        "",
        "| players | " + " | ".join(str(n) for n in counts) + " |",
        "|---|" + "---|" * len(counts),
        "| observation (`Encoder.size`) | " + " | ".join(str(Encoder(content, n).size) for n in counts) + " |",
        "| information state (`InfoStateEncoder.size`) | "
        + " | ".join(str(InfoStateEncoder(content, n).size) for n in counts)
        + " |",
    ]
    return "\n".join(lines)


def actions_block(content) -> str:
    lines = ["| ids | kind | meaning |", "|---|---|---|"]
    for kind, first, last in action_groups(content):
        ids = str(first) if first == last else f"{first}–{last}"
        lines.append(f"| {ids} | `{kind}` | {MEANINGS.get(kind, '')} |")
    return "\n".join(lines)


def blocks() -> dict[str, str]:
    """The generated text of each block of docs/rl.md, by name."""
    content = load_cached()
    return {"sizes": sizes_block(content), "actions": actions_block(content)}


_BLOCK = re.compile(r"(<!-- generated: (\w+) -->\n)(.*?)(<!-- end generated -->)", re.S)


def generate(text: str) -> str:
    """`text` (docs/rl.md) with every generated block rewritten; a block of an unknown name is an error."""
    made = blocks()
    seen = set()

    def fill(m: re.Match) -> str:
        name = m.group(2)
        if name not in made:
            raise KeyError(f"docs/rl.md has a generated block {name!r} this module does not make")
        seen.add(name)
        return f"{m.group(1)}{made[name]}\n{m.group(4)}"

    out = _BLOCK.sub(fill, text)
    missing = set(made) - seen
    if missing:
        raise KeyError(f"docs/rl.md lacks the generated blocks {sorted(missing)}")
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = DOC.read_text(encoding="utf-8")
    fresh = generate(text)
    if "--write" in args:
        DOC.write_text(fresh, encoding="utf-8")
        print(f"wrote {DOC.relative_to(REPO)}")
    elif "--check" in args:
        if text != fresh:
            print(f"{DOC.relative_to(REPO)} is out of date: run python -m interpreter.rl.rl_doc --write")
            return 1
    else:
        for name, block in blocks().items():
            print(f"<!-- generated: {name} -->\n{block}\n<!-- end generated -->")
    return 0


if __name__ == "__main__":
    sys.exit(main())
