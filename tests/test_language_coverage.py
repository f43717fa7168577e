"""The coverage map, docs/language-coverage.md: every role skill of the reference has a sketch that loads.

The document lists the 87 skills of the 61 reference roles in a table ("## All skills") and gives each a
YAML sketch under "## Sketches": one ```yaml block per skill, a YAML list of skill entries, under a
"#### <role> <a id="<role id>"></a>" heading. This test reads the document only (never the reference
texts outside the project) and checks that

- the table has 87 rows for 61 roles, every row is marked ✅ (none 🟡 or ❌), and the summary agrees;
- every row has a sketch in its role's section, with an entry named after the skill;
- every sketch is a YAML list of skill entries that loads with the real loader: schema, then each
  `condition` and `effect` compiled for its timing or trigger, with the card names of the bundled content.

Errors point into the document: line, role and skill.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from interpreter.content.loader import ContentErrors, Loader, load_cached

REPO_ROOT = Path(__file__).resolve().parents[1]
DOC = REPO_ROOT / "docs" / "language-coverage.md"
DOC_NAME = "docs/language-coverage.md"
N_SKILLS, N_ROLES = 87, 61


# ---------------------------------------------------------------------------- reading the document


@dataclass
class Row:
    line: int
    n: int
    role: str
    rid: str
    skill: str
    anchor: str
    kind: str
    mark: str


@dataclass
class Sketch:
    line: int  # line of the first YAML line in the document
    header: str  # the skill named in the **name** line before the block
    mark: str
    text: str


@dataclass
class Section:
    line: int
    rid: str
    title: str
    hidden: bool = False
    sketches: list = field(default_factory=list)


def _lines() -> list:
    return DOC.read_text(encoding="utf-8").splitlines()


def _span(lines, heading) -> tuple:
    """The lines after a "## " heading, up to the next one."""
    start = next((i for i, ln in enumerate(lines) if ln.strip() == heading), None)
    assert start is not None, f"{DOC_NAME} has no '{heading}' section"
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return start + 1, end


def read_table() -> list:
    lines = _lines()
    a, b = _span(lines, "## All skills")
    rows = []
    for i in range(a, b):
        ln = lines[i].strip()
        if not ln.startswith("|") or ln.startswith("|---") or ln.startswith("| #"):
            continue
        cells = [c.strip() for c in ln.strip("|").split("|")]
        where = f"{DOC_NAME}:{i + 1}"
        assert len(cells) == 8, f"{where}: a row of 'All skills' needs 8 cells, found {len(cells)}: {ln}"
        m_id = re.fullmatch(r"`([a-z][a-z0-9_]*)`", cells[2])
        m_skill = re.fullmatch(r"\[(.+?)\]\(#([a-z][a-z0-9_]*)\)", cells[3])
        assert cells[0].isdigit() and m_id and m_skill, (
            f"{where}: expected '| n | role | `id` | [skill](#id) | kind | mark | ... |', got: {ln}"
        )
        rows.append(Row(i + 1, int(cells[0]), cells[1], m_id[1], m_skill[1], m_skill[2], cells[4], cells[5]))
    return rows


HEADING = re.compile(r'^#### (.+?)\s*<a id="([a-z][a-z0-9_]*)"></a>\s*$')
SKILL_LINE = re.compile(r"^\*\*(.+?)\*\*\s*(\S+)")


def read_sketches() -> list:
    lines = _lines()
    a, b = _span(lines, "## Sketches")
    sections, cur, header, mark = [], None, None, None
    i = a
    while i < b:
        ln = lines[i]
        m = HEADING.match(ln)
        if m:
            cur = Section(i + 1, m[2], m[1].replace("⭐", "").strip())
            sections.append(cur)
            header = mark = None
        elif cur is not None and ln.startswith(f"`{cur.rid}`"):
            cur.hidden = ", hidden" in ln
        elif cur is not None and SKILL_LINE.match(ln):
            header, mark = SKILL_LINE.match(ln).groups()
        elif ln.strip().startswith("```yaml"):
            j = next((k for k in range(i + 1, b) if lines[k].strip().startswith("```")), None)
            assert j is not None, f"{DOC_NAME}:{i + 1}: the ```yaml block is not closed"
            assert cur is not None, f"{DOC_NAME}:{i + 1}: a sketch outside any '#### role' section"
            cur.sketches.append(Sketch(i + 2, header, mark, "\n".join(lines[i + 1 : j])))
            i = j
        i += 1
    return sections


ROWS = read_table()
SECTIONS = read_sketches()


# ---------------------------------------------------------------------------- the table


def test_the_table_has_every_skill_of_the_reference():
    assert len(ROWS) == N_SKILLS, f"'All skills' has {len(ROWS)} rows, the reference has {N_SKILLS} skills"
    assert [r.n for r in ROWS] == list(range(1, N_SKILLS + 1)), "rows are not numbered 1..87 in order"
    roles = {r.rid for r in ROWS}
    assert len(roles) == N_ROLES, f"'All skills' names {len(roles)} role ids, the reference has {N_ROLES} roles"
    seen = {}
    for r in ROWS:
        key = (r.rid, r.skill)
        assert key not in seen, f"{DOC_NAME}:{r.line}: {r.role} · {r.skill} is listed twice (also line {seen[key]})"
        seen[key] = r.line


def test_every_skill_is_expressible():
    bad = [f"{DOC_NAME}:{r.line}: {r.role} · {r.skill} is marked {r.mark}" for r in ROWS if r.mark != "✅"]
    assert not bad, "skills not marked ✅ (🟡 and ❌ must not remain):\n" + "\n".join(bad)
    for s in SECTIONS:
        for sk in s.sketches:
            assert sk.mark == "✅", f"{DOC_NAME}:{sk.line}: {s.title} · {sk.header}: the sketch is marked {sk.mark}"


def test_the_summary_agrees_with_the_table():
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"\|\s*\*\*all 61 roles\*\*\s*\|\s*\*\*(\d+)\*\*\s*\|\s*\*\*(\d+)\*\*", text)
    assert m, "the Summary has no '| **all 61 roles** | **n** | **n** |' row"
    ok = sum(1 for r in ROWS if r.mark == "✅")
    assert (int(m[1]), int(m[2])) == (len(ROWS), ok), (
        f"the Summary says {m[1]} skills, {m[2]} ✅; the table has {len(ROWS)} rows, {ok} ✅"
    )


def test_every_row_has_a_sketch():
    by_id = {}
    for s in SECTIONS:
        assert s.rid not in by_id, f"{DOC_NAME}:{s.line}: two sketch sections for role id {s.rid}"
        by_id[s.rid] = s
    problems = []
    for r in ROWS:
        where = f"{DOC_NAME}:{r.line}: {r.role} · {r.skill}"
        if r.anchor != r.rid:
            problems.append(f"{where}: links to #{r.anchor}, not to its role's section #{r.rid}")
        s = by_id.get(r.rid)
        if s is None:
            problems.append(f"{where}: no '#### ... <a id=\"{r.rid}\"></a>' section under Sketches")
            continue
        names = [e.get("name") for sk in s.sketches for e in _entries(sk) if isinstance(e, dict)]
        if r.skill not in names:
            problems.append(f"{where}: no sketch entry with `name: {r.skill}` in section {s.title}")
        if r.skill not in [sk.header for sk in s.sketches]:
            problems.append(f"{where}: no '**{r.skill}**' line before a sketch in section {s.title}")
    extra = {s.rid for s in SECTIONS} - {r.rid for r in ROWS}
    problems += [f"sketch section #{rid} has no row in 'All skills'" for rid in sorted(extra)]
    assert not problems, "\n".join(problems)


def _entries(sk: Sketch) -> list:
    try:
        data = yaml.safe_load(sk.text)
    except yaml.YAMLError:
        return []
    return data if isinstance(data, list) else []


# ---------------------------------------------------------------------------- the sketches load


@pytest.fixture(scope="module")
def card_names():
    try:
        types = load_cached().card_types
    except ContentErrors as e:
        pytest.fail(f"the bundled content does not load, so its card names are unknown:\n{e}")
    return {ct.name: ct.id for ct in types.values()}


def _skill_at(sk: Sketch, data, block_line: int) -> str:
    """The name of the entry a 0-based line of the block belongs to."""
    starts = [i for i, ln in enumerate(sk.text.splitlines()) if ln.startswith("- ")]
    names = [e.get("name", "?") if isinstance(e, dict) else "?" for e in (data if isinstance(data, list) else [])]
    k = sum(1 for s in starts if s <= block_line) - 1
    return names[k] if 0 <= k < len(names) else (sk.header or "?")


@pytest.mark.parametrize("section", SECTIONS, ids=[s.rid for s in SECTIONS])
def test_the_sketches_of_a_role_load(section, card_names, tmp_path):
    assert section.sketches, f"{DOC_NAME}:{section.line}: {section.title} has no sketch"
    problems, ids = [], {}
    for n, sk in enumerate(section.sketches):
        where = f"{DOC_NAME}:{sk.line}: {section.title} · {sk.header}"
        try:
            data = yaml.safe_load(sk.text)
        except yaml.YAMLError as e:
            problems.append(f"{where}: not valid YAML: {e}")
            continue
        if not isinstance(data, list) or not data or not all(isinstance(e, dict) for e in data):
            problems.append(f"{where}: a sketch must be a YAML list of skill entries (`- id: ...`)")
            continue
        for e in data:
            if e.get("id") in ids:
                problems.append(
                    f"{where}: skill id '{e.get('id')}' is used twice in the role (also line {ids[e['id']]})"
                )
            ids[e.get("id")] = sk.line
        if sk.header not in [e.get("name") for e in data]:
            problems.append(f"{where}: the sketch has no entry with `name: {sk.header}`")
        # wrap the entries into a role file and load it as content/roles/*.yaml would be
        head = (
            f"id: {section.rid}\nname: {section.title}\ngender: male\n"
            f"hidden: {'true' if section.hidden else 'false'}\nskills:\n"
        )
        first = head.count("\n") + 1  # the role file's line of the block's first line
        path = tmp_path / f"{section.rid}_{n}.yaml"
        path.write_text(head + textwrap.indent(sk.text, "  ") + "\n", encoding="utf-8")
        loader = Loader()
        loader.card_names = dict(card_names)
        role_data = loader.read(path, "role")
        if role_data is not None:
            loader.load_role(path, role_data)
        for err in loader.errors:
            block_line = err.line - first
            doc_line = sk.line + max(block_line, 0)
            skill = _skill_at(sk, data, block_line)
            msg = f"{DOC_NAME}:{doc_line}: {section.title} · {skill}: error {err.code}: {err.message}"
            problems.append(msg + (f" (hint: {err.hint})" if err.hint else ""))
    assert not problems, "\n".join(problems)


def test_no_sketch_keeps_a_proposal_marker():
    bad = [
        f"{DOC_NAME}:{sk.line}: {s.title} · {sk.header}" for s in SECTIONS for sk in s.sketches if "# NEW" in sk.text
    ]
    assert not bad, "sketches still marked `# NEW` (a proposed primitive):\n" + "\n".join(bad)
