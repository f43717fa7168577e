"""The coverage map, docs/language-coverage.md: every role skill of the reference is bundled or sketched.

The document is generated (`python -m interpreter.coverage_doc --write`) from the bundled content and
the sketches of the roles still to write, which it keeps. This test reads the document and the
content only (never the reference texts outside the project) and checks that

- the document is what the command writes (the tables agree with the content);
- the roles bundled and the roles sketched add up to the reference's 61 roles and 87 skills;
- every bundled skill has a scenario file of its role that names it;
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

from interpreter import coverage_doc
from interpreter.content.build_roles import build_role
from interpreter.content.diagnostics import Diagnostics
from interpreter.content.loader import ContentErrors, load_cached
from interpreter.content.read import read
from interpreter.content.units import Units

REPO_ROOT = Path(__file__).resolve().parents[1]
DOC = coverage_doc.DOC
DOC_NAME = "docs/language-coverage.md"
N_SKILLS, N_ROLES = 87, 61


# ---------------------------------------------------------------------------- reading the document


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


SECTIONS = read_sketches()


# ---------------------------------------------------------------------------- the document and the content


def test_the_document_is_up_to_date():
    assert DOC.read_text(encoding="utf-8") == coverage_doc.generate(), (
        f"{DOC_NAME} is out of date: run `python -m interpreter.coverage_doc --write` and commit the result. "
        "That is the expected step after adding or changing a role file (the document is generated from the "
        "content); on a rebase conflict in that file, take either side and run the command again."
    )


def test_bundled_and_sketched_roles_make_the_reference():
    bundled = load_cached().roles
    both = sorted({s.rid for s in SECTIONS} & set(bundled))
    assert not both, f"roles both bundled and sketched (run the generator): {both}"
    skills = sum(len(coverage_doc.skills_by_name(r)) for r in bundled.values())
    skills += sum(len(s.sketches) for s in SECTIONS)
    assert (len(bundled) + len(SECTIONS), skills) == (N_ROLES, N_SKILLS), (
        f"{len(bundled)} roles bundled and {len(SECTIONS)} sketched, {skills} skills in all; "
        f"the reference has {N_ROLES} roles and {N_SKILLS} skills"
    )


def test_every_bundled_skill_has_a_scenario():
    missing = [
        f"{role.label()} · {name}: no tests/scenarios/role_{role.id}_*.scenario.yaml names it"
        for role in load_cached().roles.values()
        for name in coverage_doc.skills_by_name(role)
        if not coverage_doc.scenarios_of(role.id, name)
    ]
    assert not missing, "\n".join(missing)


def test_every_sketch_is_expressible():
    for s in SECTIONS:
        for sk in s.sketches:
            assert sk.mark == "✅", f"{DOC_NAME}:{sk.line}: {s.title} · {sk.header}: the sketch is marked {sk.mark}"


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
        sink = Diagnostics()
        role_data = read(sink, path, "role")
        if role_data is not None:
            build_role(Units(sink, dict(card_names)), path, role_data)
        for err in sink.errors:
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


def test_every_seed_001_term_has_its_example_or_says_what_is_missing():
    """Seed 001's 18 terms, each once; a term with an example names a role file that exists, has the skill and
    scenario files beside it (seed_rows raises otherwise); none is without one."""
    terms = [t for t, *_ in coverage_doc.SEED_001]
    assert len(terms) == 18 and len(set(terms)) == 18
    rows = coverage_doc.seed_rows()
    assert len(rows) == 2 + 18
    missing = {t for t, path, _, _ in coverage_doc.SEED_001 if path is None}
    assert missing == set()
    for term, path, _, _ in coverage_doc.SEED_001:
        if path is not None:
            assert (coverage_doc.REPO / path).is_file(), term


def test_the_seed_table_fails_on_an_example_without_scenarios(monkeypatch):
    table = (("测试", "examples/san_guo_more/pack.yaml", "x", "-"),)
    monkeypatch.setattr(coverage_doc, "SEED_001", table)
    with pytest.raises(ValueError, match="测试"):
        coverage_doc.seed_rows()
