"""``fengsheng describe``: a content object's rules text, generated from its code.

For each card, secret task, role or identity it prints the stored ``text:``
(原文) next to the text generated from the effect-language code (由代码生成),
so a designer can check that the code says what they meant. ``--all --format
md`` writes a catalogue of the whole content.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import click
import yaml

from .content.loader import BUNDLED_CONTENT
from .content.model import role_label
from .content.yamlpos import load as load_yaml
from .language.describe import describe_card, describe_identity, describe_role, describe_task
from .snippet import line_of, snippet, split_lines
from .suggest import closest

KINDS = {  # kind -> (Chinese word, content folder)
    "card": ("卡牌", "cards"),
    "secret_task": ("秘密任务", "secret_tasks"),
    "role": ("角色", "roles"),
    "identity": ("身份", None),
}
ORDER = ["card", "secret_task", "role", "identity"]


@dataclass
class Item:
    kind: str
    id: str
    name: str
    data: dict
    path: Path

    @property
    def label(self) -> str:
        if self.kind != "role":
            return self.name
        return role_label(self.name, self.data.get("version", ""), self.data.get("title", ""))

    def original(self) -> str:
        if self.kind == "role":
            lines = [
                f"【{sk.get('name', sk.get('id', '?'))}】{sk.get('text', '')}"
                for sk in self.data.get("skills") or []
                if isinstance(sk, dict)
            ]
            return "\n".join(lines) if lines else "（没有技能）"
        if self.kind == "identity":
            return "（rules.yaml 中的身份没有 text）"
        text = self.data.get("text")
        return str(text) if text else "（没有 text）"

    def generated(self) -> str:
        try:
            if self.kind == "card":
                return describe_card(self.data)
            if self.kind == "secret_task":
                return describe_task(self.data)
            if self.kind == "role":
                return describe_role(self.data)
            return describe_identity(self.id, self.data)
        except Exception as e:  # a gap in the renderer must not hide the rest of the catalogue
            return f"（无法生成：{type(e).__name__}: {e}）"


def _read(path: Path, problems: list):
    try:
        text = path.read_text(encoding="utf-8-sig")
        data = load_yaml(text)
    except (OSError, UnicodeDecodeError) as e:
        problems.append(f"{path}: cannot read: {str(e).splitlines()[0]}")
        return None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        shown = line_of(split_lines(text), mark.line + 1) if mark is not None else None
        if mark is None or shown is None:
            problems.append(f"{path}: cannot read: YAML syntax: {problem}")
        else:
            at = f"{path}:{mark.line + 1}:{mark.column + 1}"
            problems.append(f"{at}: cannot read: YAML syntax: {problem}\n{snippet(shown, mark.column + 1)}")
        return None
    if not isinstance(data, dict):
        problems.append(f"{path}: not a mapping")
        return None
    return data


def collect_items(dirs) -> tuple[list, list]:
    """Every card, secret task, role and identity of the layered packs (a later pack overrides by file)."""
    problems: list = []
    files: dict = {}
    rules_file = None
    for d in dirs:
        d = Path(d)
        for kind in ORDER:
            folder = KINDS[kind][1]
            if folder is None or not (d / folder).is_dir():
                continue
            for f in sorted((d / folder).glob("*.yaml")) + sorted((d / folder).glob("*.yml")):
                files.setdefault(kind, {})[f.stem] = f
        if (d / "rules.yaml").is_file():
            rules_file = d / "rules.yaml"
    items = []
    for kind in ORDER:
        for stem, f in sorted(files.get(kind, {}).items()):
            data = _read(f, problems)
            if data is None:
                continue
            items.append(Item(kind, str(data.get("id", stem)), str(data.get("name", stem)), data, f))
    if rules_file is not None:
        rules = _read(rules_file, problems)
        for iid, spec in ((rules or {}).get("identities") or {}).items():
            if isinstance(spec, dict):
                items.append(Item("identity", str(iid), str(spec.get("name", iid)), spec, rules_file))
    return items, problems


def find(items, name: str) -> list:
    key = name.strip().strip("【】").strip()
    exact = [i for i in items if key in (i.id, i.name)]
    if exact:
        return exact
    by_id = [i for i in items if key.lower() == i.id.lower()]
    if by_id:
        return by_id
    # a skill's name or id: the role that has it
    return [
        i
        for i in items
        if i.kind == "role"
        and any(isinstance(sk, dict) and key in (sk.get("name"), sk.get("id")) for sk in i.data.get("skills") or [])
    ]


def suggest(items, name: str) -> list:
    key = name.strip().strip("【】").strip()
    words: dict[str, object] = {}
    for i in items:
        words.setdefault(i.name, i)
        words.setdefault(i.id, i)
    close = closest(key, words, n=3, loose=True)
    out = []
    for w in close:
        i = words[w]
        if i not in out:
            out.append(i)
    return out


def render_text(item: Item) -> str:
    original = item.original()
    generated = item.generated()
    lines = [f"{item.label} · {KINDS[item.kind][0]} · {item.id}"]
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
    out.append("内容包：" + "，".join(f"`{d}`" for d in dirs))
    out.append("")
    for kind in ORDER:
        group = [i for i in items if i.kind == kind]
        if not group:
            continue
        out += [f"## {KINDS[kind][0]}", ""]
        for i in group:
            out += [render_md_item(i), ""]
    return "\n".join(out).rstrip() + "\n"


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("name", required=False)
@click.option("--all", "show_all", is_flag=True, help="describe every card, secret task, role and identity")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "md"]),
    default="text",
    show_default=True,
    help="plain text, or Markdown (with --all: a catalogue with a heading per kind)",
)
@click.option(
    "--content",
    "content_dirs",
    multiple=True,
    type=click.Path(exists=True, file_okay=False),
    help="content pack directory (repeat to layer packs; default: the bundled content)",
)
def describe(name, show_all, fmt, content_dirs):
    """Print the rules text generated from the code of a card, secret task, role or identity.

    NAME is its Chinese name or its id. The stored text (原文) is printed next to
    the generated one (由代码生成) so the two can be compared.
    """
    dirs = [Path(p) for p in content_dirs] if content_dirs else [BUNDLED_CONTENT]
    if show_all and name:
        raise click.UsageError("give either NAME or --all, not both")
    if not show_all and not name:
        raise click.UsageError("give the NAME (or id) of a card, secret task, role or identity, or --all")
    items, problems = collect_items(dirs)
    for p in problems:
        click.echo(f"warning: {p}", err=True)
    if show_all:
        if fmt == "md":
            click.echo(render_md_catalogue(items, dirs), nl=False)
        else:
            click.echo("\n\n".join(render_text(i) for i in items))
        return
    found = find(items, name)
    if not found:
        hints = suggest(items, name)
        msg = f"Error: no card, secret task, role, skill or identity is named '{name}'"
        if hints:
            msg += "; did you mean " + " or ".join(f"{i.name} ({i.id})" for i in hints) + "?"
        else:
            msg += "; run `fengsheng describe --all` to list them"
        click.echo(msg, err=True)
        raise SystemExit(2)
    if fmt == "md":
        click.echo("\n\n".join(render_md_item(i, level=2) for i in found))
    else:
        click.echo("\n\n".join(render_text(i) for i in found))


if __name__ == "__main__":  # pragma: no cover
    describe()
