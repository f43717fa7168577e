"""docs/language-coverage.md: which of the reference's role skills are bundled, generated from the content.

    python -m interpreter.coverage_doc            # print the document
    python -m interpreter.coverage_doc --write    # rewrite docs/language-coverage.md
    python -m interpreter.coverage_doc --check    # exit 1 if the document is out of date

The reference (the rules site's pages of the base game and its two expansions) has 61 roles with
87 skills. Each is either **bundled** — a role file in a bundled pack, listed with its skills,
what each is built from and the scenario files that test it, all read from the content — or
**still to write**, with a YAML sketch of every skill: a starting point that compiles, kept by
hand under "## Sketches". Writing a role drops its sketches at the next ``--write``.
tests/test_language_coverage.py fails when the document drifts from the content.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .content.loader import load_cached
from .content.packs import default_packs, expansions_of
from .language import ast
from .language.errors import LanguageError
from .language.parser import parse
from .model.content import Role, Skill
from .paths import BUNDLED_CONTENT

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "language-coverage.md"
SCENARIOS = REPO / "tests" / "scenarios"
N_ROLES, N_SKILLS = 61, 87

# each bundled pack ("" is the base game): the reference page of its roles, its name, its roles folder
PACKS = {
    "": ("roles-base.md (基础角色)", "base game", "content/roles"),
    "tie_wu_zi": ("roles-extend1.md (铁屋子·一扩)", "tie_wu_zi", "content/expansions/tie_wu_zi/roles"),
    "lao_yang_fang": ("roles-extend2.md (老洋房·二扩)", "lao_yang_fang", "content/expansions/lao_yang_fang/roles"),
}
# sections written by hand, kept as they are by --write (between the tables and the sketches)
KEPT = ("## Known gaps", "## Conventions used in the sketches")
HEADING = re.compile(r'^#### (.+?)\s*<a id="([a-z][a-z0-9_]*)"></a>\s*$')
SKILL_LINE = re.compile(r"^\*\*(.+?)\*\*")


# Every mechanic of seed 001 (三国杀's newer terms), in the seed's order: the example role file that shows it
# (None: not yet), the skill, and how it is said. The table of the document is made from it, each file's
# scenarios found beside it (its pack's tests/role_<id>_*.scenario.yaml); generate() fails on a file that
# is missing or has no scenario.
SEED_001: tuple[tuple[str, str | None, str, str], ...] = (
    ("议事", "examples/san_guo_mechanics/roles/zhou_yi.yaml", "议事", "a list collected in a loop, `reveal`"),
    ("额外牌堆", "examples/extra_pile/roles/jian_suo.yaml", "检索", "a shared zone with `start:` and `returns: true`"),
    (
        "蓄谋",
        "examples/zones/roles/mou_shi.yaml",
        "蓄谋",
        "a face-down declared zone (`look: nobody`) resolved at the draw phase: each card, the last put there "
        'first, used as if in the play phase (`use_card(c, at: "play_phase")`), or all discarded',
    ),
    ("转换技", "examples/san_guo_mechanics/roles/shuang_mian.yaml", "反译", "`switch: true`, `skill_yang`"),
    ("智囊", "examples/san_guo_more/roles/mu_liao.yaml", "献策", "a list literal of card names, `used_as in [...]`"),
    (
        "势力技",
        "examples/san_guo_more/roles/shuang_qi.yaml",
        "军令",
        "`game_start` + `keep_mark`; the faction as a condition",
    ),
    ("背水", "examples/san_guo_mechanics/roles/tie_xin.yaml", "破釜", "a `choose_one` option with a condition"),
    ("隐匿", "examples/san_guo_mechanics/roles/ying_zi.yaml", "现身", "`hidden: true`, `flips_up: true`"),
    ("更换武将", "examples/san_guo_more/roles/yi_rong.yaml", "换面", "`replace_role`"),
    ("轮结束时", "examples/san_guo_mechanics/roles/zhong_shu.yaml", "守夜", "`trigger: round_end`"),
    ("记述", "examples/san_guo_more/roles/shi_guan.yaml", "秉笔", "`mentions(p, 【X】)`"),
    (
        "护甲",
        "examples/armor/roles/dao_ke.yaml",
        "快刀",
        "counters `体力` and `护甲` (rules `counters:`); damage takes 护甲 first",
    ),
    (
        "仁区",
        "examples/san_guo_more/roles/ren_jun.yaml",
        "布施",
        "a shared zone, `capacity: 6`, overflow to the discard pile; several cards at once in a random order: "
        "`shuffled`",
    ),
    (
        "蓄力技",
        "examples/san_guo_mechanics/roles/xu_jing.yaml",
        "蓄爆",
        "`add_mark(..., max:)`, `trigger: game_start`; several 蓄力技 adding their caps: `has_skill` "
        "(examples/san_guo_more/roles/xu_feng.yaml)",
    ),
    ("持恒技", "examples/san_guo_mechanics/roles/shi_jian.yaml", "铁壁", "`persistent: true`"),
    (
        "延时拼点",
        "examples/san_guo_more/roles/mi_yue.yaml",
        "暗约",
        "`pick_hidden(..., reveal: false)` into a face-down zone; shown on a condition, else discarded at `turn_end`",
    ),
    (
        "乘势",
        "examples/san_guo_more/roles/cheng_feng.yaml",
        "顺势",
        "each branch's condition a `let`, the extra effect under all",
    ),
    (
        "使命技",
        "examples/san_guo_mechanics/roles/lin_shuang.yaml",
        "潜入",
        "`dormant: true`, `gain_skill`, `lose_skill`",
    ),
)


# Every mechanic of seed 002 (a trading-card game's timing: speeds, priority, the stack, play permissions), in the
# seed's order: the example file that shows it, how it is written, and the scenario files (or tests, file::name)
# that check it. generate() fails on a file or test that is missing.
SEED_002: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    (
        "慢速 (slow uses)",
        "examples/stack_timing/pack.yaml",
        "`resolution: stack`; an idle point's speed (the catalogue's defaults, rules `speeds:`): a slow use is made "
        "only at its phase's own question, the stack empty",
        ("tests/test_stack_timing.py::test_a_fork_that_makes_contest_uses_slow_has_no_answers_in_the_contest",),
    ),
    (
        "快速 (fast uses)",
        "examples/stack_timing/pack.yaml",
        "uses of a fast idle point (`contest`, `send_idle`, `dying`, `respond`) answer whatever is on the stack "
        "while that idle point's moment is open",
        ("examples/stack_timing/tests/stack_response_to_a_response.scenario.yaml",),
    ),
    (
        "时机 (priority, passed in turn order)",
        "examples/stack_timing/pack.yaml",
        "who put something on the stack first, then each in turn; after the top resolves, the current player "
        "first; when all pass in a row the top resolves",
        ("examples/stack_timing/tests/stack_response_to_a_response.scenario.yaml",),
    ),
    (
        "效果堆叠 (the stack, last in first out)",
        "examples/stack_timing/pack.yaml",
        "card uses, paid active skills and triggered skills go on it; triggers in seat order, so the last seat's "
        "resolves first",
        (
            "examples/stack_timing/tests/stack_two_triggers.scenario.yaml",
            "tests/test_stack_timing.py::test_one_players_several_triggers_resolve_in_the_order_he_chooses",
        ),
    ),
    (
        "响应 (a fast card answering a card use, in any phase)",
        "examples/respond/cards/kan_po.yaml",
        "`timing: respond` (一张牌生效前): `answered`, `answered_user`, `answered_target`; `nullify()` voids the "
        "card answered; an answer may be answered",
        (
            "examples/respond/tests/card_kan_po.scenario.yaml",
            "examples/respond/tests/card_kan_po_answered.scenario.yaml",
            "examples/respond/tests/stack_kan_po_answered.scenario.yaml",
            "examples/respond/tests/role_shen_ting_jie_ting.scenario.yaml",
            "examples/respond/tests/stack_role_lin_ting_feng_ting_feng_answer.scenario.yaml",
        ),
    ),
    (
        "效果给予的许可 (an effect has a card used)",
        "content/roles/fei_yuan_long_chuan.yaml",
        "`use_card` in an effect: under stack timing the use goes on the stack and resolves with its answers "
        "before the effect goes on; queued, it is not answered (nothing is inserted into an effect)",
        (
            "examples/respond/tests/stack_kan_po_inside_an_effect.scenario.yaml",
            "examples/respond/tests/card_kan_po_not_inside_an_effect.scenario.yaml",
        ),
    ),
    (
        "持续的许可 (using cards from another zone)",
        "examples/zones/roles/mou_shi.yaml",
        "a skill's `use_card(c)` of a card in a zone the rules declare (here 蓄谋区, at the draw phase; `usable(c)` "
        "first); an active skill that does it at an idle point gives the use that idle point's speed",
        ("examples/zones/tests/role_mou_shi_mou_cheng.scenario.yaml",),
    ),
)


def seed_002_rows() -> list[str]:
    """The table of seed 002's terms: each with its example file and what checks it."""
    rows = ["| term | example | how | checked by |", "|---|---|---|---|"]
    for term, path, how, checks in SEED_002:
        if not (REPO / path).is_file():
            raise FileNotFoundError(f"seed 002's {term}: no example {path}")
        for check in checks:
            file, _, test = check.partition("::")
            if not (REPO / file).is_file() or (
                test and f"def {test}(" not in (REPO / file).read_text(encoding="utf-8")
            ):
                raise FileNotFoundError(f"seed 002's {term}: no {check}")
        names = ", ".join(f"`{c.rpartition('/')[2]}`" for c in checks)
        rows.append(f"| {term} | [`{path}`](../{path}) | {how} | {names} |")
    return rows


def seed_rows() -> list[str]:
    """The table of seed 001's terms: each with its example role file, skill and scenario files."""
    rows = ["| term | example (role file) | skill | how | scenarios |", "|---|---|---|---|---|"]
    for term, path, skill, how in SEED_001:
        if path is None:
            rows.append(f"| {term} | — | — | {how} | — |")
            continue
        role_file = REPO / path
        if not role_file.is_file():
            raise FileNotFoundError(f"seed 001's {term}: no example {path}")
        rid = role_file.stem
        tests = sorted((role_file.parent.parent / "tests").glob(f"role_{rid}_*.scenario.yaml"))
        if f"name: {skill}" not in role_file.read_text(encoding="utf-8") or not tests:
            raise ValueError(f"seed 001's {term}: {path} has no skill {skill} or no scenario in its tests/")
        names = ", ".join(f"`{t.name}`" for t in tests)
        rows.append(f"| {term} | [`{path}`](../{path}) | {skill} | {how} | {names} |")
    return rows


@dataclass
class SketchedRole:
    """A role still to write: its section under "## Sketches", kept as written."""

    pack: str
    rid: str
    title: str
    skills: list[str]
    text: str  # the whole "#### …" section


@cache
def role_packs() -> dict[str, str]:
    """Role id -> the bundled pack its file is in ("" for the base game), in pack and file order."""
    out = {}
    for pack, folder in [("", BUNDLED_CONTENT), *expansions_of(BUNDLED_CONTENT).items()]:
        for f in sorted((folder / "roles").glob("*.y*ml")):
            m = re.search(r"^id:\s*(\S+)", f.read_text(encoding="utf-8"), re.M)
            if m:
                out[m[1]] = pack
    return out


def read_sketches(text: str) -> list[SketchedRole]:
    """The "#### role" sections under "## Sketches", each in the pack of its "### roles-….md" group."""
    lines = text.splitlines()
    if "## Sketches" not in lines:
        return []
    start = lines.index("## Sketches")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    groups = {page: pack for pack, (page, _, _) in PACKS.items()}
    out: list[SketchedRole] = []
    pack = ""
    cur: list[str] | None = None
    for ln in [*lines[start + 1 : end], "### end"]:
        if ln.startswith(("### ", "#### ")):
            if cur is not None:
                m = HEADING.match(cur[0])
                if m is None:
                    raise ValueError(f"{DOC.name}: a sketch section's heading lacks its <a id>: {cur[0]}")
                skills = [s[1] for s in map(SKILL_LINE.match, cur) if s]
                out.append(SketchedRole(pack, m[2], m[1].replace("⭐", "").strip(), skills, "\n".join(cur).rstrip()))
                cur = None
            if ln.startswith("#### "):
                cur = [ln]
            else:
                pack = groups.get(ln[4:].strip(), pack)
        elif cur is not None:
            cur.append(ln)
    return out


def kept_section(text: str, heading: str) -> str | None:
    """A hand-written "## " section of the old document, heading included, as it is."""
    lines = text.splitlines()
    if heading not in lines:
        return None
    start = lines.index(heading)
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[start:end]).rstrip()


def calls_of(text: str) -> list[str]:
    """The primitives a code unit calls, in the order of their first use."""
    if not text.strip():
        return []
    try:
        tree = parse(text)
    except LanguageError:  # compiled by the loader in its context; shown without
        return []
    seen: dict[str, None] = {}

    def walk(x: object) -> None:
        if isinstance(x, ast.Call):
            seen.setdefault(x.func, None)
        if isinstance(x, ast.Node | ast.Program):
            for v in vars(x).values():
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(tree)
    return list(seen)


def when(entries: list[Skill]) -> str:
    """Where a skill works, from its entries: idle points, events, victory stage, limit, cost."""
    parts: list[str] = []
    for sk in entries:
        if sk.kind == "active":
            parts += [f"at `{t}`" for t in sk.timing or ()]
        elif sk.kind == "triggered":
            parts += [f"on `{e}`" for e in sk.on or ()]
        elif sk.kind == "victory":
            parts.append(f"victory `{sk.check}`")
        else:
            parts.append(sk.kind)
        if sk.limit_scope:
            times = "once" if sk.limit_times == 1 else f"{sk.limit_times}×"
            parts.append(f"{times} a {sk.limit_scope}")
        if sk.flips_up:
            parts.append("flips up")
        if sk.kind == "triggered" and not sk.optional:
            parts.append("forced")
    return ", ".join(dict.fromkeys(parts))


def scenarios_of(role_id: str, skill_name: str) -> list[str]:
    """The role's scenario files (``role_<id>_*``; not another role's whose id extends it) naming the skill."""
    return [name for name, text in _scenario_files().get(role_id, ()) if skill_name in text]


@cache
def _scenario_files() -> dict[str, list[tuple[str, str]]]:
    """Each role's scenario files and their text, read once: the longest role id a file name starts with."""
    ids = sorted(role_packs(), key=len, reverse=True)
    out: dict[str, list[tuple[str, str]]] = {}
    for f in sorted(SCENARIOS.glob("role_*.scenario.yaml")):
        owner = next((r for r in ids if f.name.startswith(f"role_{r}_")), None)
        if owner is not None:
            out.setdefault(owner, []).append((f.name, f.read_text(encoding="utf-8")))
    return out


def skills_by_name(role: Role) -> dict[str, list[Skill]]:
    """A role's skills by name, each with its moments (a skill with `moments:`: one entry per moment)."""
    out: dict[str, list[Skill]] = {}
    for sk in role.moments:
        out.setdefault(sk.name, []).append(sk)
    return out


def generate(old_text: str | None = None) -> str:
    """The document, from the bundled content and the sketches in `old_text` (default: the file)."""
    if old_text is None:
        old_text = DOC.read_text(encoding="utf-8") if DOC.is_file() else ""
    content = load_cached(default_packs())
    packs = role_packs()
    sketched = [s for s in read_sketches(old_text) if s.rid not in content.roles]
    bundled = [content.roles[r] for r in packs if r in content.roles]
    out = [
        "# Language coverage of the role skills",
        "",
        "<!-- Generated by `python -m interpreter.coverage_doc --write` from the bundled content and the "
        "sketches below: edit a role file (or a sketch), then run it. tests/test_language_coverage.py "
        "fails when this file is out of date. -->",
        "",
        f"The reference (the rules site's pages of the base game and its two expansions) has {N_ROLES} roles "
        f"with {N_SKILLS} skills. A role is either **bundled** — a role file in one of the bundled packs "
        "(the base game's in `content/roles/`, each expansion's in `content/expansions/<id>/roles/`), listed "
        "here with what its skills are built from and the scenario files that test them — or **still to "
        "write**, with a sketch of each skill in the effect language that compiles today (a starting point, "
        "not content).",
        "",
        "## Summary",
        "",
        "| pack | reference | roles bundled | skills | scenario files | roles still to write | their skills |",
        "|---|---|---|---|---|---|---|",
    ]
    totals = [0, 0, 0, 0, 0]
    for pack, (page, name, folder) in PACKS.items():
        roles = [r for r in bundled if packs[r.id] == pack]
        skills = sum(len(skills_by_name(r)) for r in roles)
        files = len({f for r in roles for n in skills_by_name(r) for f in scenarios_of(r.id, n)})
        todo = [s for s in sketched if s.pack == pack]
        row = [len(roles), skills, files, len(todo), sum(len(s.skills) for s in todo)]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        out.append(f"| {name} (`{folder}`) | {page} | " + " | ".join(map(str, row)) + " |")
    out.append("| **all** | | " + " | ".join(f"**{n}**" for n in totals) + " |")
    out += [
        "",
        f"Bundled and still to write: {totals[0] + totals[3]} roles with {totals[1] + totals[4]} skills "
        f"(the reference: {N_ROLES} and {N_SKILLS}).",
        "",
        "## Bundled roles",
        "",
        "One row per skill. *When*: the idle points (`at`), events (`on`) or victory stage of its entries, "
        "its limit and cost; *built from*: the primitives its conditions and effects call (docs/language.md); "
        "*scenarios*: the files `tests/scenarios/role_<id>_*.scenario.yaml` that name it.",
        "",
        "| role | id | pack | skill | kind | when | built from | scenarios |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for role in bundled:
        label = role.label() + (" (hidden)" if role.hidden else "")
        for name, entries in skills_by_name(role).items():
            calls: dict[str, None] = {}
            for sk in entries:
                for c in calls_of(sk.condition_text) + calls_of(sk.effect_text):
                    calls.setdefault(c, None)
            kinds = " + ".join(dict.fromkeys(sk.kind for sk in entries))
            built = ", ".join(f"`{c}`" for c in calls) or "—"
            out.append(
                f"| {label} | `{role.id}` | {PACKS[packs[role.id]][1]} | {name} | {kinds} | {when(entries)} "
                f"| {built} | {len(scenarios_of(role.id, name))} |"
            )
    out += ["", "## Roles still to write", ""]
    if sketched:
        out += [
            'Each has a sketch of every skill under "Sketches", which `tests/test_language_coverage.py` loads '
            "with the real loader.",
            "",
            "| role | id | pack | skills |",
            "|---|---|---|---|",
        ]
        out += [f"| [{s.title}](#{s.rid}) | `{s.rid}` | {PACKS[s.pack][1]} | {', '.join(s.skills)} |" for s in sketched]
    else:
        out.append("None: every role of the reference is bundled.")
    out += [
        "",
        "## Seed 001: 三国杀's newer mechanics",
        "",
        f"Every term of seed 001 ({len(SEED_001)}) with the original example role that shows it and its "
        "scenario files (the example packs run in the everyday tests and play 1,000 games in the slow run). "
        "A term without an example says what is missing.",
        "",
        *seed_rows(),
        "",
        "## Seed 002: a trading-card game's timing",
        "",
        f"Every term of seed 002 ({len(SEED_002)}), the resolution model that 风声 itself does not use, with the "
        "file that shows it and the scenarios or tests that check it. A fork takes it with one rule "
        '(`resolution: stack`, docs/modding.md "Stack timing"); the queued base game keeps seed 004\'s model.',
        "",
        *seed_002_rows(),
    ]
    for heading in KEPT:
        kept = kept_section(old_text, heading)
        if kept:
            out += ["", kept]
    out += ["", "## Sketches", ""]
    for pack, (page, _, _) in PACKS.items():
        group = [s for s in sketched if s.pack == pack]
        if group:
            out += [f"### {page}", ""]
            for s in group:
                out += [s.text, ""]
    if not sketched:
        out += ["None left.", ""]
    out += [
        "## How this was checked",
        "",
        "- The tables are generated from the loaded bundled content; `tests/test_language_coverage.py` fails "
        "when this file differs from what `python -m interpreter.coverage_doc --write` writes, when the roles "
        f"bundled and sketched do not add up to the reference's {N_ROLES} roles and {N_SKILLS} skills, when a "
        "bundled skill has no scenario file that names it, and when a sketch does not load with the real "
        "loader (schema, then each condition and effect compiled for its timing or trigger, knowing the "
        "bundled card names).",
        f"- The counts {N_ROLES} and {N_SKILLS} were taken from the reference pages when the sketches were "
        "written; the project does not read the reference at test time.",
        "- A bundled role's skill texts and tip-box rulings are in its file; the rulings the engine reads one "
        "way are in docs/rulings.md.",
        "",
    ]
    return "\n".join(out)


def forget() -> None:
    """Read the role and scenario files again at the next call (they changed in this process)."""
    role_packs.cache_clear()
    _scenario_files.cache_clear()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = generate()
    if "--write" in args:
        DOC.write_text(text, encoding="utf-8")
        print(f"wrote {DOC.relative_to(REPO)}")
    elif "--check" in args:
        if DOC.read_text(encoding="utf-8") != text:
            print(f"{DOC.relative_to(REPO)} is out of date: run python -m interpreter.coverage_doc --write")
            return 1
    else:
        print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
