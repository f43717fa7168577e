"""``fengsheng new pack|role|card|task NAME``: a valid starting file, its scenario and the schema line for the editor.

    fengsheng new pack jia_gui                 # jia_gui/pack.yaml (extends the base game), cards/, roles/, …
    fengsheng new role ce_shi_yuan --in jia_gui  # jia_gui/roles/ce_shi_yuan.yaml + jia_gui/tests/…scenario.yaml

Every file it writes validates and every scenario passes as written (tests/test_pack_commands.py),
so a designer starts from something that runs and changes it step by step. The first line of each
file points the editor at its JSON Schema (docs/editing.md): a copy in the pack's own ``.schema/``
folder, named relative to the file, so the pack works for a co-designer who clones it wherever
their fengsheng is installed. Nothing the designer wrote is overwritten, and the files of one command are
written whole or not at all: every name is checked first, then each is written next to its place and moved
in (Plan).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from pathlib import Path

import click

from .paths import SCHEMA_DIR

ID = re.compile(r"^[a-z][a-z0-9_]*$")

# The pack's copy of the schemas its files may use (pack.yaml, cards, roles, secret tasks, scenarios and,
# for a rule set of its own, rules.yaml and deck.yaml), kept in the pack so that it travels with it.
SCHEMA_FOLDER = ".schema"
PACK_SCHEMAS = ("pack", "card", "role", "secret_task", "scenario", "rules", "deck")


def _schema_copies(plan: Plan, pack: Path) -> None:
    """Plan copies of this fengsheng's content schemas in PACK/.schema/ (an older copy is replaced: they are
    generated, not written by the designer); only the files that change are written."""
    folder = pack / SCHEMA_FOLDER
    for kind in PACK_SCHEMAS:
        text = (SCHEMA_DIR / f"{kind}.schema.json").read_text(encoding="utf-8")
        target = folder / f"{kind}.schema.json"
        old = target.read_text(encoding="utf-8") if target.is_file() else None
        if old != text:
            plan.add(target, text, replace=True, said="updated" if old is not None else "wrote")


def _schema_line(kind: str, file: Path, pack: Path) -> str:
    """The editor's modeline for `file`: its kind's schema in the pack's .schema/ folder, relative to the file's
    folder (yaml-language-server resolves a relative $schema there), so no path of this machine is written."""
    relative = os.path.relpath(pack / SCHEMA_FOLDER / f"{kind}.schema.json", file.parent)
    return f"# yaml-language-server: $schema={Path(relative).as_posix()}\n"


PACK = """\
{schema}id: {id}
name: {id}
version: 0.1.0
description: 一个扩展包。 What this pack adds to the game or changes of it (see fengsheng docs modding).
# what it builds on: bundled packs by id (base, tie_wu_zi, lao_yang_fang) or folders next to it
extends: [base]
# rule numbers merged into the base game's, and skills every seat holds whatever its role (house rules:
# fengsheng docs modding, "Rule skills"), e.g.
# rules:
#   draw_count: 2
#   skills:
#     - id: {id}_bu_pai
#       name: 补牌
#       text: 你的回合结束时，你可以摸一张牌。
#       kind: triggered
#       trigger: turn_end
#       condition: subject == self
#       effect: draw(self, 1)
# definitions of the base game it takes out (a card kind takes its deck copies with it), e.g.
# remove:
#   cards: [diao_hu_li_shan]
# copies added to the deck, as in deck.yaml (decks: which deck sizes; default every one), e.g.
# deck:
#   add:
#     - {{id: 201, card: my_card, colors: [red], direction: left}}
"""

ROLE = """\
{schema}id: {id}
name: {id}
title: 新角色
gender: female
hidden: false
expansion: 自制
skills:
  - id: {id}_ji_neng
    name: 新技能
    text: 出牌阶段限一次，你可以摸一张牌。
    kind: active
    timing: play_phase
    limit: {{per: phase}}
    effect: draw(self, 1)
"""

# The deck copy the role's example scenario draws and sends: a copy of the base deck whose arrow is ← (sent to
# the left, it reaches P2), named in the scenario's comment by what is printed on it.
EXAMPLE_DRAW = 36

ROLE_SCENARIO = """\
{schema}name: 新技能 — used once in the play phase, it draws one card
ruling: 出牌阶段限一次，你可以摸一张牌。
content: [..]
players:
  - identity: qian_fu_zhan_xian
    role: {id}
    face_up: true
  - identity: te_gong_ji_guan
  - identity: te_gong_ji_guan
deck_top: [{uid}]            # {face}: drawn by the skill, then sent to P2 (left)
current: 0
start: play
answers:
  0: [skill 新技能, pass, "#{uid}"]   # the skill, then stop playing, then send the card drawn
  2: [accept]
expect:
  players:
    0: {{hand: []}}
    2: {{intel: [{uid}]}}
  events:
    - {{e: skill_used, seat: 0, skill: {id}_ji_neng}}
"""

CARD = """\
{schema}id: {id}
name: {id}
text: 出牌阶段，对一名其他角色使用。其摸一张牌。
uses:
  - timing: play_phase
    target: others(self)
    effect: draw(target, 1)
"""

CARD_SCENARIO = """\
{schema}name: the new card makes its target draw one card
content: [..]
players:
  - identity: qian_fu_zhan_xian
    hand: [{uid}]
  - identity: te_gong_ji_guan
  - identity: te_gong_ji_guan
deck_top: [36]
current: 0
start: play
answers:
  0: [use {id}, P1]       # P0 has no card left: nothing to send, the turn ends
expect:
  players:
    0: {{hand: []}}
    1: {{hand: [36]}}
"""

DECK_ADD = """
# copies of {id} in the deck (added by `fengsheng new card`)
deck:
  add:
    - {{id: {uid}, card: {id}, colors: [red], direction: left}}
    - {{id: {uid2}, card: {id}, colors: [blue], direction: right}}
"""

TASK = """\
{schema}id: {id}
name: {id}
text: 你的回合结束时，若你有五张或更多手牌，你获得胜利。
victory:
  - check: turn_end
    condition: current == self and hand_count(self) >= 5
"""


MAX_NAME_BYTES = 255
"""The longest file name (one path component, in bytes) the common file systems take."""


class Plan:
    """The files one `new` writes, all checked before any is written, then written whole or not at all: each
    goes to a temporary file next to its place, and only when every one is written are they moved in (a
    failure on the way removes the temporary files and the folders made for them)."""

    def __init__(self) -> None:
        self.files: list[tuple[Path, str, bool, str]] = []  # (path, text, may replace, what to say)

    def add(self, path: Path, text: str, replace: bool = False, said: str = "wrote") -> None:
        self.files.append((path, text, replace, said))

    def check(self) -> None:
        """Every name the plan writes: not there already (unless it may be replaced), short enough, its folder a
        folder. A ClickException says what is wrong before anything is written."""
        for path, _, replace, _ in self.files:
            long = next((part for part in path.parts if len(part.encode("utf-8")) > MAX_NAME_BYTES), None)
            if long is not None:
                raise click.ClickException(
                    f"the file name {long[:40]}… is {len(long.encode('utf-8'))} bytes, more than the "
                    f"{MAX_NAME_BYTES} a file system takes: pick a shorter id; nothing was written"
                )
            if path.exists() and not (replace and path.is_file()):
                raise click.ClickException(f"{path} exists already; nothing was written")
            for parent in path.parents:
                if parent.exists():
                    if not parent.is_dir():
                        raise click.ClickException(f"{parent} is not a folder; nothing was written")
                    break

    def commit(self) -> None:
        """Write every file of the plan, or none (see the class)."""
        self.check()
        made: list[Path] = []  # folders made, to take away again on failure
        temps: list[tuple[Path, Path]] = []
        umask = os.umask(0)  # read by setting it: put back at once
        os.umask(umask)
        try:
            for path, text, _, _ in self.files:
                for parent in reversed(path.parents):
                    if not parent.exists():
                        parent.mkdir()
                        made.append(parent)
                fd, temp_name = tempfile.mkstemp(prefix=".fengsheng-new-", dir=path.parent)
                temps.append((Path(temp_name), path))
                # mkstemp makes the file private (0600): a new file gets the mode the user's umask gives any file,
                # a file replaced (pack.yaml) keeps its own, so a pack stays readable by the co-designers it is for
                os.chmod(temp_name, stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o666 & ~umask)
                with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
                    f.write(text)
            for temp, path in temps:
                os.replace(temp, path)
        except OSError as e:
            for written, _ in temps:
                with contextlib.suppress(OSError):
                    written.unlink()
            for folder in reversed(made):
                with contextlib.suppress(OSError):
                    folder.rmdir()
            raise click.ClickException(
                f"could not write {e.filename or 'a file'}: {e.strerror}; nothing was written"
            ) from None
        for path, _, _, said in self.files:
            click.echo(f"{said} {path}")


_DECK_IDS = re.compile(r"\bid:\s*(\d+)")


def _copies_in_deck(plan: Plan, pack: Path, name: str) -> int:
    """Plan two copies of the new card in the pack's deck (`deck: add:` in its pack.yaml); their first id.

    The ids follow the highest deck id of the bundled game and of the pack.yaml's own copies. A block
    `deck:` gets its `add:` list (made if missing) the two items; a pack.yaml whose `deck:` is written another
    way (one line, `deck: {...}`) is refused before anything is written: the scenario would use a copy that
    is not there.
    """
    from .content.loader import load_cached
    from .content.packs import resolve_packs

    manifest = pack / "pack.yaml"
    text = manifest.read_text(encoding="utf-8")
    written = "\n".join(line.split("#", 1)[0] for line in text.splitlines())  # not the ids of its comments
    own = [int(m) for m in _DECK_IDS.findall(written) if len(m) <= 6]
    uid = max([e.uid for e in load_cached(resolve_packs([])).deck] + own) + 1
    items = [
        f"    - {{id: {uid}, card: {name}, colors: [red], direction: left}}",
        f"    - {{id: {uid + 1}, card: {name}, colors: [blue], direction: right}}",
    ]
    lines = text.splitlines()
    deck = next((i for i, line in enumerate(lines) if re.match(r"deck:", line)), None)
    if deck is None:
        new_text = text.rstrip("\n") + "\n" + DECK_ADD.format(id=name, uid=uid, uid2=uid + 1)
    elif re.fullmatch(r"deck:\s*(#.*)?", lines[deck]):
        end = next((i for i in range(deck + 1, len(lines)) if lines[i][:1] not in ("", " ", "#")), len(lines))
        add = next((i for i in range(deck + 1, end) if re.fullmatch(r"  add:\s*(#.*)?", lines[i])), None)
        if add is None:
            lines[deck + 1 : deck + 1] = ["  add:", *items]
        else:
            last = add
            for i in range(add + 1, end):
                if lines[i].startswith("    ") or not lines[i].strip():
                    last = i if lines[i].strip() else last
                else:
                    break
            lines[last + 1 : last + 1] = items
        new_text = "\n".join(lines) + "\n"
    else:
        raise click.ClickException(
            f"{manifest}'s `deck:` is written on one line; nothing was written. Write it as a block (deck:, then "
            f"  add: on the next line) or add the copies of {name} yourself"
        )
    plan.add(manifest, new_text, replace=True, said=f"added copies #{uid} and #{uid + 1} of {name} to the deck in")
    return uid


def _printed(uid: int) -> str:
    """Deck copy `uid` of the bundled game as printed on it (name#id(colours arrow)), for a comment."""
    from .content.loader import load_cached
    from .content.packs import resolve_packs
    from .seat_text import Names, card_text

    face = Names(load_cached(resolve_packs([]))).card_face(uid)
    return card_text(face).plain if face is not None else f"deck copy #{uid}"


def _not_taken(kind: str, name: str) -> None:
    """Refuse an id the bundled game already has: the file written would be error E120 (a second definition)."""
    from .content.loader import load_cached
    from .content.packs import resolve_packs

    content = load_cached(resolve_packs([]))
    ids = {"role": set(content.roles), "card": set(content.card_types), "task": set(content.tasks)}[kind]
    if name in ids:
        origin = content.origins.get(("secret_task" if kind == "task" else kind, name))
        where = f" (pack '{origin.pack}')" if origin is not None else ""
        raise click.ClickException(
            f"the game already has a {kind} '{name}'{where}; nothing was written. Pick another id; to change "
            f"that {kind}, copy its file into the pack and list it under `replace:` in pack.yaml "
            "(fengsheng docs modding)"
        )


@click.command("new")
@click.argument("kind", type=click.Choice(["pack", "role", "card", "task"]))
@click.argument("name")
@click.option(
    "--in",
    "where",
    type=click.Path(file_okay=False),
    default=".",
    show_default=True,
    help="the pack folder to write into (for pack: where the new folder goes)",
)
def new(kind: str, name: str, where: str) -> None:
    """Write a starting KIND file named NAME (a pinyin snake_case id) that validates.

    A role or card comes with a scenario that passes (in PACK/tests; a card also gets two copies in the deck of
    pack.yaml); a pack is a pack.yaml and empty folders, a task its file alone. Then: fengsheng validate PACK,
    and for a role or card fengsheng scenario run PACK/tests.
    """
    if not ID.match(name):
        raise click.BadParameter(f"{name!r}: ids are pinyin snake_case, e.g. jia_gui or ce_shi_yuan", param_hint="NAME")
    base = Path(where)
    plan = Plan()
    if kind == "pack":
        folder = base / name
        manifest = folder / "pack.yaml"
        if folder.exists():
            raise click.ClickException(f"{folder} exists already; nothing was written")
        plan.add(manifest, PACK.format(schema=_schema_line("pack", manifest, folder), id=name))
        _schema_copies(plan, folder)
        plan.commit()
        for sub in ("cards", "roles", "secret_tasks", "tests"):
            (folder / sub).mkdir(exist_ok=True)
        click.echo(f"next: fengsheng new role my_role --in {folder}; fengsheng validate {folder}")
        click.echo("the guide: fengsheng docs modding")
        return
    if not (base / "pack.yaml").is_file():
        raise click.BadParameter(  # (a mistake in the command line, as a misspelt NAME: exit status 2)
            f"{base} is not a pack: it has no pack.yaml; nothing was written. Make one with "
            f"`fengsheng new pack NAME`, then `fengsheng new {kind} {name} --in NAME`",
            param_hint="'--in'",
        )
    _not_taken(kind, name)

    def schema(kind: str, file: Path) -> str:
        return _schema_line(kind, file, base)

    scenario: Path | None = None
    if kind == "role":
        role = base / "roles" / f"{name}.yaml"
        plan.add(role, ROLE.format(schema=schema("role", role), id=name))
        scenario = base / "tests" / f"role_{name}_example.scenario.yaml"
        face = _printed(EXAMPLE_DRAW)
        text = ROLE_SCENARIO.format(schema=schema("scenario", scenario), id=name, uid=EXAMPLE_DRAW, face=face)
        plan.add(scenario, text)
    elif kind == "card":
        card = base / "cards" / f"{name}.yaml"
        plan.add(card, CARD.format(schema=schema("card", card), id=name))
        scenario = base / "tests" / f"card_{name}_example.scenario.yaml"
        plan.check()  # the names first: nothing is planned for pack.yaml before they are known to be free
        uid = _copies_in_deck(plan, base, name)
        plan.add(scenario, CARD_SCENARIO.format(schema=schema("scenario", scenario), id=name, uid=uid))
    else:
        task = base / "secret_tasks" / f"{name}.yaml"
        plan.add(task, TASK.format(schema=schema("secret_task", task), id=name))
    _schema_copies(plan, base)  # a pack made by hand or by an older fengsheng gets this one's schemas
    plan.commit()
    click.echo(f"next: fengsheng validate {base}" + (f"; fengsheng scenario run {scenario}" if scenario else ""))
