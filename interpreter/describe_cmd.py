"""``fengsheng describe``: a content object's rules text, generated from its code.

For each card, secret task, role or identity it prints the stored ``text:``
(原文) next to the text generated from the effect-language code (由代码生成),
so a designer can check that the code says what they meant. ``--all --format
md`` writes a catalogue of the whole content. Content is loaded by the loader;
what it reports is printed as warnings, and a file or a part in error is left out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import click

from .cli_options import content_option, content_paths, format_option
from .content.loader import ContentError, load_content
from .content.packs import log_pack_ref
from .language.describe_content import (
    describe_camps,
    describe_card,
    describe_declared,
    describe_identity,
    describe_role,
    describe_skills,
    describe_task,
    describe_turn,
)
from .model.content import (
    BASE_COUNTS,
    Camp,
    CardType,
    Identity,
    Phase,
    Role,
    Rules,
    SecretTask,
    Skill,
    role_label,
    rule_counts,
)
from .model.declared import NOTHING_DECLARED, Declared
from .snippet import clip, snippet
from .suggest import closest

KINDS = {  # kind -> Chinese word
    "card": "卡牌",
    "secret_task": "秘密任务",
    "role": "角色",
    "identity": "身份",
    "rules": "规则",
}
ORDER = list(KINDS)


@dataclass
class Turn:
    """The rules' turn skeleton, as an item `describe` can name (回合流程, turn)."""

    rules: Rules
    id: str = "turn"
    name: str = "回合流程"


@dataclass
class Declarations:
    """The counters, events and zones the rules declare, as an item `describe` can name (计数与事件, declared)."""

    declared: Declared
    id: str = "declared"
    name: str = "计数与事件"


@dataclass
class Camps:
    """The camps the rules declare (`camps:`), as an item `describe` can name (阵营, camps)."""

    camps: Mapping[str, Camp]
    id: str = "camps"
    name: str = "阵营"


@dataclass
class RuleSkills:
    """The rules' skills (`skills:`), which every seat holds whatever its role, as an item `describe` can name
    (规则技能, skills; and each by its name or id)."""

    skills: tuple[Skill, ...]
    id: str = "skills"
    name: str = "规则技能"


Described = CardType | SecretTask | Role | Identity | Turn | Declarations | Camps | RuleSkills


@dataclass
class Item:
    kind: str
    obj: Described  # the loaded object
    pack: str | None = None  # the pack that defines it (identities: from the rules, none)
    declared: Declared = NOTHING_DECLARED  # the rules' counters and events (a role's skills may react to them)
    camps: Mapping[str, Camp] = field(default_factory=dict)  # the rules' camps (an identity names one)
    counts: tuple[int, int] = BASE_COUNTS  # the rules' counts of intel (rule_counts: a collect check's, makes_three's)

    @property
    def id(self) -> str:
        return self.obj.id

    @property
    def name(self) -> str:
        return self.obj.name

    @property
    def label(self) -> str:
        return self.obj.label() if isinstance(self.obj, Role) else self.name

    def original(self) -> str:
        if isinstance(self.obj, Role | RuleSkills):
            return "\n".join(f"【{sk.name}】{sk.text}" for sk in self.obj.skills) or "（没有技能）"
        if isinstance(self.obj, Identity):
            return "（rules.yaml 中的身份没有 text）"
        if isinstance(self.obj, Camps):
            return "camps: " + ", ".join(self.obj.camps)
        if isinstance(self.obj, Declarations):
            return (
                "counters: "
                + ", ".join(self.obj.declared.counters)
                + "\nevents: "
                + ", ".join(self.obj.declared.events)
                + "\nzones: "
                + ", ".join(self.obj.declared.zones)
            )
        if isinstance(self.obj, Turn):
            return (
                "turn: "
                + ", ".join(_phase_source(ph) for ph in self.obj.rules.phases)
                + f"\nresolution: {self.obj.rules.resolution}"
            )
        return self.obj.text or "（没有 text）"

    def generated(self) -> str:
        try:
            if isinstance(self.obj, CardType):
                text = describe_card(self.obj, self.counts)
            elif isinstance(self.obj, SecretTask):
                text = describe_task(self.obj, self.counts)
            elif isinstance(self.obj, Role):
                text = describe_role(self.obj, self.declared, self.counts)
            elif isinstance(self.obj, Turn):
                text = describe_turn(self.obj.rules)
            elif isinstance(self.obj, Declarations):
                text = describe_declared(self.obj.declared)
            elif isinstance(self.obj, Camps):
                text = describe_camps(self.obj.camps)
            elif isinstance(self.obj, RuleSkills):
                text = describe_skills(self.obj.skills, self.declared, self.counts)
            else:
                text = describe_identity(self.obj, self.camps, self.counts)
            return text or "（没有可描述的代码：加载时出错，见警告）"
        except Exception as e:  # a gap in the renderer must not hide the rest of the catalogue
            return f"（无法生成：{type(e).__name__}: {e}）"


# Errors after which the loader leaves a whole file out (it cannot be read as a YAML mapping).
UNREADABLE = {"E100", "E101", "E102", "E103", "E104", "E110"}


def _warning(e: ContentError) -> str:
    """A content error as a warning: describe shows what loaded, without the file or the part in error."""
    what = "cannot read" if e.code in UNREADABLE else e.code
    text = f"{e.path}:{e.line}:{e.col}: {what}: {e.message}"
    text += f"\n{snippet(e.source, e.col)}" if e.source is not None else ""
    return text + (f"\n    hint: {e.hint}" if e.hint else "")


def collect_items(dirs) -> tuple[list, list]:
    """Every card, secret task, role and identity of the layered packs, loaded (a later pack overrides by id)."""
    errors: list[ContentError] = []
    content = load_content(dirs, errors=errors)
    groups: list[tuple[str, dict]] = [
        ("card", content.card_types),
        ("secret_task", content.tasks),
        ("role", content.roles),
    ]
    origin = content.origins
    counts = rule_counts(content.rules)
    items = [
        Item(kind, obj, o.pack if (o := origin.get((kind, obj.id))) else None, content.declared, counts=counts)
        for kind, objs in groups
        for _, obj in sorted(objs.items())
    ]
    camps = content.rules.camps
    items += [Item("identity", obj, camps=camps, counts=counts) for obj in content.identities.values()]
    items.append(Item("rules", Turn(content.rules)))
    if camps:
        items.append(Item("rules", Camps(camps)))
    if content.declared.counters or content.declared.events or content.declared.zones:
        items.append(Item("rules", Declarations(content.declared)))
    if content.rules.skills:  # every seat's, whatever its role
        pack = {o.pack for (kind, _), o in origin.items() if kind == "rule_skill"}
        items.append(
            Item(
                "rules",
                RuleSkills(content.rules.skills),
                ", ".join(sorted(pack)) or None,
                content.declared,
                counts=counts,
            )
        )
    return items, [_warning(e) for e in errors]


def find(items, name: str) -> list:
    key = name.strip().strip("【】").strip()
    exact = [i for i in items if key in (i.id, i.name)]
    if exact:
        return exact
    # a role by its full label, or by name and version: 名字（SP）（称号）, 名字（SP）
    labelled = [i for i in items if isinstance(i.obj, Role) and key in (i.label, role_label(i.name, i.obj.version))]
    if labelled:
        return labelled
    by_id = [i for i in items if key.lower() == i.id.lower()]
    if by_id:
        return by_id
    # a skill's name or id: the role that has it, or the rules' skills
    return [
        i for i in items if isinstance(i.obj, Role | RuleSkills) and any(key in (sk.name, sk.id) for sk in i.obj.skills)
    ]


def suggest(items, name: str) -> list[str]:
    """The names closest to a name nothing has, as the hint writes them: 沈砚 (shen_yan); a skill's name too, with its
    role (describe finds a role by one of its skills' names, so a misspelt one is the same slip)."""
    key = name.strip().strip("【】").strip()
    words: dict[str, str] = {}
    for i in items:
        words.setdefault(i.name, f"{i.name} ({i.id})")
        words.setdefault(i.id, f"{i.name} ({i.id})")
    for i in items:
        if isinstance(i.obj, Role):
            for sk in i.obj.skills:
                words.setdefault(sk.name, f"{sk.name} (a skill of {i.name}, {i.id})")
    out: list[str] = []
    for w in closest(key, words, n=3, loose=True):
        if words[w] not in out:
            out.append(words[w])
    return out


def _json(items: list) -> str:
    """`describe --format json`: each item's stored and generated text, and whether they read the same."""
    records = []
    for i in items:
        original, generated = i.original(), i.generated()
        records.append(
            {
                "kind": i.kind,
                "id": i.id,
                "name": i.label,
                "pack": i.pack,
                "original": original,
                "generated": generated,
                "same": original.strip() == generated.strip(),
            }
        )
    return json.dumps({"items": records}, ensure_ascii=False, indent=2)


def render_text(item: Item) -> str:
    original = item.original()
    generated = item.generated()
    lines = [f"{item.label} · {KINDS[item.kind]} · {item.id}" + (f" · pack {item.pack}" if item.pack else "")]
    if "\n" in original or "\n" in generated:
        lines += [
            "原文：",
            *("  " + ln for ln in original.splitlines()),
            "由代码生成：",
            *("  " + ln for ln in generated.splitlines()),
        ]
    else:
        lines += [f"原文：{original}", f"由代码生成：{generated}"]
    if original.strip() == generated.strip():
        lines.append("（与原文一致）")
    return "\n".join(lines)


def _md_block(title: str, text: str) -> list:
    rows = text.splitlines() or [""]
    if len(rows) == 1:
        return [f"- **{title}**：{rows[0]}"]
    return [f"- **{title}**："] + [f"  - {r}" for r in rows]


def render_md_item(item: Item, level: int = 3) -> str:
    lines = [f"{'#' * level} {item.label} `{item.id}`", ""]
    lines += _md_block("原文", item.original())
    lines += _md_block("由代码生成", item.generated())
    return "\n".join(lines)


def render_md_catalogue(items, dirs) -> str:
    out = ["# 内容目录", "", "每一项列出内容文件中写的原文，以及由效果语言代码生成的文字，供设计者对照。", ""]
    # portable: a bundled pack by its id, another folder relative to the current one (as a log names them)
    out.append("内容包：" + "，".join(f"`{log_pack_ref(d, Path.cwd())}`" for d in dirs))
    out.append("")
    for kind in ORDER:
        group = [i for i in items if i.kind == kind]
        if not group:
            continue
        out += [f"## {KINDS[kind]}", ""]
        for i in group:
            out += [render_md_item(i), ""]
    return "\n".join(out).rstrip() + "\n"


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("name", required=False)
@click.option("--all", "show_all", is_flag=True, help="describe every card, secret task, role and identity")
@format_option(
    ("text", "md", "json"),
    help="plain text, Markdown (with --all: a catalogue with a heading per kind), or one JSON document: items, "
    "each with its kind, id, name, pack, original (原文), generated (由代码生成) and same",
)
@content_option()
def describe(name, show_all, fmt, content_dirs, expansions):
    """Print the rules text generated from the code of a card, secret task, role or identity.

    NAME is its Chinese name or its id. The stored text (原文) is printed next to
    the generated one (由代码生成) so the two can be compared.
    """
    dirs = content_paths(content_dirs, expansions)
    if show_all and name:
        raise click.UsageError("give either NAME or --all, not both")
    if not show_all and not name:
        raise click.UsageError("give the NAME (or id) of a card, secret task, role or identity, or --all")
    items, problems = collect_items(dirs)
    for p in problems:
        click.echo(f"warning: {p}", err=True)
    if show_all:
        if fmt == "json":
            click.echo(_json(items))
        elif fmt == "md":
            click.echo(render_md_catalogue(items, dirs), nl=False)
        else:
            click.echo("\n\n".join(render_text(i) for i in items))
        return
    found = find(items, name)
    if not found:
        hints = suggest(items, name)
        msg = f"error: no card, secret task, role, skill or identity is named '{clip(name)}'"
        if hints:
            msg += "; did you mean " + " or ".join(hints) + "?"
        else:
            msg += "; run `fengsheng describe --all` to list them"
        if not content_dirs:  # the slip of a designer describing his pack's card without naming the pack
            msg += " (in the bundled game: a pack's own with --content PACK)"
        click.echo(msg, err=True)
        raise SystemExit(2)
    if fmt == "json":
        click.echo(_json(found))
    elif fmt == "md":
        click.echo("\n\n".join(render_md_item(i, level=2) for i in found))
    else:
        click.echo("\n\n".join(render_text(i) for i in found))


if __name__ == "__main__":  # pragma: no cover
    describe()


def _phase_source(ph: Phase) -> str:
    """A phase as the rules write it: its kind, or {kind, id, settings} when it has an id or settings of its own."""
    extra = ([f"id: {ph.id}"] if ph.id != ph.kind and not ph.id.startswith(f"{ph.kind}_") else []) + [
        f"{k}: {v}" for k, v in ph.settings
    ]
    return "{" + ", ".join([f"kind: {ph.kind}", *extra]) + "}" if extra else ph.kind
