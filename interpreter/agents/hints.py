"""What the heuristic bot knows of a content set before any game: the content's `bot:` hints and the rules' camps.

Read from the content only (nothing hidden): each card kind's tactic, each skill's tactic, each secret task's
style (catalogue.BOT_CARD_TACTICS, BOT_SKILL_TACTICS, BOT_TASK_STYLES), each identity's camp colour and identity
colour, and the identity table. Kept apart from heuristic.py (how the bot plays) so that other bots
(search.py's rollouts) read the same hints.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final

from ..language import ast
from ..language.errors import LanguageError
from ..language.parser import parse
from ..model.colors import COLOR_NAMES
from ..model.content import Content, Skill

# (Final: compiled, a name read where it is used — a string inlined, any other value from a C static — not looked
# up in the module's dict at each use, about 140 instructions)
OPPOSITE: Final = {"red": "blue", "blue": "red"}

# The tactics of catalogue.BOT_CARD_TACTICS the rules below use.
GRAB: Final = "grab"
MISLEAD: Final = "mislead"
SWAP: Final = "swap"
DECODE: Final = "decode"
CLEAR: Final = "clear"
THREATEN: Final = "threaten"
PROBE: Final = "probe"
BALANCE: Final = "balance"
LURE: Final = "lure"
PICK_BEST: Final = "pick_best"
COUNTER: Final = "counter"  # answers a card use at `respond` (nullify): heuristic._answer (a skill's tactic too)
HELPFUL: Final = frozenset({CLEAR, "helpful"})  # aimed at a camp-mate (or itself)
HARMFUL: Final = frozenset({THREATEN, BALANCE, PROBE, "harmful"})  # aimed at an enemy
KNOWN: Final = frozenset({GRAB, MISLEAD, SWAP, DECODE, CLEAR, THREATEN, PROBE, BALANCE, LURE, COUNTER})  # a rule
# The tactics of catalogue.BOT_SKILL_TACTICS (a skill's `bot:`): when it takes a skill, and how it aims the skill's
# seat choices (those of HELPFUL_SKILL and HARMFUL_SKILL, as the cards' `helpful` and `harmful`).
GAIN_SKILL: Final = "gain"
HARMFUL_SKILL: Final = "harmful"
HELPFUL_SKILL: Final = "helpful"
SAVE_SKILL: Final = "save"
SEND_SKILL: Final = "send"
GRAB_SKILL: Final = "grab"  # taken as the card tactic GRAB is played (heuristic._play), not as a hint alone
# The styles of catalogue.BOT_TASK_STYLES (a secret task's `bot:`; tasks.py plays them).
COLLECT: Final = "collect"  # three intel of either colour wins
SPREAD: Final = "spread"  # the others must hold two red or blue
DIE: Final = "die"  # its own death with a red or blue intel wins
USURP: Final = "usurp"  # whoever wins in its own turn, it wins instead
# What a choice inside an effect is for, read from the effect's syntax tree (choice_roles), by the card kind or skill
# and the choice's prompt: whom it gives cards to, whose intel area a card it has chosen goes into, which card goes.
GIVE_TO: Final = "give_to"  # the seat chosen is given cards (give(cards, <choice>))
INTEL_TO: Final = "intel_to"  # the seat chosen takes the card chosen before into its intel (collect(<card>, <choice>))
# the card chosen goes into the intel of a seat chosen next (collect(<choice>, <choice>))
INTEL_CARD: Final = "intel_card"


@dataclass(frozen=True)
class Hints:
    """What a player knows of the game's content, from the content (no hidden information):
    each card kind's tactic, each identity's camp colour, each secret task's style."""

    tactics: Mapping[str, str] = field(default_factory=dict)  # card kind -> its `bot:` tactic
    camps: Mapping[str, str] = field(default_factory=dict)  # identity -> the colour its camp collects
    styles: Mapping[str, str] = field(default_factory=dict)  # secret task -> its `bot:` style
    table: Mapping[int, Mapping[str, int]] = field(default_factory=dict)  # players -> identity -> how many
    skills: Mapping[str, str] = field(default_factory=dict)  # skill id -> its `bot:` tactic
    colors: Mapping[str, str] = field(default_factory=dict)  # identity -> its identity colour (red, blue, black)
    # card kind or skill -> the labels of its effect's options that put a card into the chooser's intel (intel_options)
    intel_options: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # (card kind or skill, a choice's prompt) -> what its answer is for (choice_roles: GIVE_TO, INTEL_TO, INTEL_CARD)
    choices: Mapping[tuple[str, str], str] = field(default_factory=dict)


_HINTS: dict[int, tuple[Content, Hints]] = {}


def hints_of(content: Content | None = None) -> Hints:
    """The hints of a content set (default: the bundled game), read once per content object."""
    if content is None:
        from ..content.loader import load_cached

        content = load_cached()
    kept = _HINTS.get(id(content))
    if kept is None or kept[0] is not content:
        effects = list(_effects(content))
        hints = Hints(
            {ct.id: ct.bot for ct in content.card_types.values() if ct.bot},
            {i.id: i.camp for i in content.identities.values() if i.camp in OPPOSITE},
            {t.id: t.bot for t in content.tasks.values() if t.bot},
            {int(n): dict(ids) for n, ids in content.rules.identity_table.items()},
            {s.id: s.bot for s in _skills(content) if s.bot},
            {i.id: COLOR_NAMES[i.color] for i in content.identities.values() if i.color in COLOR_NAMES},
            intel_options(effects),
            choice_roles(effects),
        )
        kept = _HINTS[id(content)] = (content, hints)
    return kept[1]


def _effects(content: Content) -> Iterator[tuple[str, str]]:
    """Each effect text of the content with what a decision inside it names as its source: the card kind (a card's
    shared effect and its uses' own) or the skill (each moment's)."""
    for ct in content.card_types.values():
        for text in (ct.effect_source, *(u.effect_source for u in ct.uses)):
            if text:
                yield ct.id, text
    for skill in _skills(content):
        for moment in skill.moments or (skill,):
            if moment.effect_text:
                yield moment.id, moment.effect_text


def _skills(content: Content) -> Iterator[Skill]:
    """Every skill a seat may hold: each role's, and the rules' (every seat holds those, whatever its role)."""
    for role in content.roles.values():
        yield from role.skills
    yield from content.rules.skills


def intel_options(effects: Iterable[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """The options of a `choose_one` that put a card into the intel area of the seat choosing (an option whose body
    `collect`s into its `by`, or into `self` without one), by the card kind or skill whose effect it is: read from the
    effects' syntax trees once per content, so that a bot knows which option keeps a card as intel (the heuristic bot
    takes it when the card it has just picked is worth having there) without reading the options' texts. Only a text
    with both words is parsed; one that does not parse (the loader has refused it already) is passed over."""
    found: dict[str, set[str]] = {}
    for source, text in effects:
        if "choose_one" not in text or "collect" not in text:
            continue
        try:
            program = parse(text)
        except LanguageError:
            continue
        for node in _nodes(program.body):
            if isinstance(node, ast.ChooseOne):
                chooser = node.by.name if isinstance(node.by, ast.Var) else "self" if node.by is None else None
                for option in node.options:
                    if chooser is not None and any(_collects_into(s, chooser) for s in option.body):
                        found.setdefault(source, set()).add(option.label)
    return {source: frozenset(labels) for source, labels in found.items()}


def _collects_into(stmt: ast.Node, seat: str) -> bool:
    """Whether a statement is `collect(cards, seat)` (the seat named as in the option's `by`; by its place or `p:`)."""
    if not isinstance(stmt, ast.CallStmt) or stmt.call.func != "collect":
        return False
    target = _arg(stmt.call, 1, "p")
    return isinstance(target, ast.Var) and target.name == seat


def _nodes(x: object) -> Iterator[ast.Node]:
    """Every node of a syntax tree (or of a list of them), parents first."""
    if isinstance(x, ast.Node):
        yield x
        for v in vars(x).values():
            yield from _nodes(v)
    elif isinstance(x, list | tuple):
        for v in x:
            yield from _nodes(v)
    elif isinstance(x, dict):  # (a call's named arguments)
        for v in x.values():
            yield from _nodes(v)


def choice_roles(effects: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """What the choices of each effect are for, by (card kind or skill, the choice's prompt): a `choose` whose answer is
    the seat a `give` gives to (GIVE_TO), or the seat a `collect` puts a card into the intel area of (INTEL_TO), and the
    card that `collect` puts there when it is a choice too (INTEL_CARD) — the choice written in the call or bound by a
    `let` to a name (not one whose hand the effect takes cards from too). Read from the effects' syntax trees once per
    content (a text without the words is not parsed), so that a bot answers such a choice by what it does, not by its
    text. A choice without a prompt is not told apart from the effect's others and is left out, as is one whose
    prompt names two uses, or another choice of the effect too (cards given, a seat drawn from)."""
    found: dict[tuple[str, str], set[str]] = {}
    for source, text in effects:
        if "choose" not in text or ("give" not in text and "collect" not in text):
            continue
        try:
            program = parse(text)
        except LanguageError:
            continue
        nodes = list(_nodes(program.body))
        # (a seat whose hand the effect also takes from — drawn from, then given back to — is chosen for more than
        # the call: left out)
        drawn = {
            a.name
            for n in nodes
            if isinstance(n, ast.Call) and n.func == "hand"
            for a in n.args
            if isinstance(a, ast.Var)
        }
        bound = {n.name: n.value for n in nodes if isinstance(n, ast.Let) and n.name not in drawn}
        read: set[int] = set()  # (the choices told apart, by id)
        for node in nodes:
            if not isinstance(node, ast.Call) or node.func not in ("give", "collect"):
                continue
            cards, seat = (
                _choice_of(_arg(node, 0, "xs"), bound),
                _choice_of(_arg(node, 1, "to" if node.func == "give" else "p"), bound),
            )
            if seat is not None:
                read.add(id(seat))
                found.setdefault((source, _prompt(seat)), set()).add(GIVE_TO if node.func == "give" else INTEL_TO)
                if node.func == "collect" and cards is not None:
                    read.add(id(cards))
                    found.setdefault((source, _prompt(cards)), set()).add(INTEL_CARD)
        for node in nodes:  # (any other choice sharing a prompt makes it two uses)
            if isinstance(node, ast.Call) and node.func in ("choose", "choose_many") and id(node) not in read:
                found.setdefault((source, _prompt(node)), set()).add("")
    return {key: next(iter(uses)) for key, uses in found.items() if key[1] and len(uses) == 1 and "" not in uses}


def _arg(call: ast.Call, i: int, name: str) -> ast.Node | None:
    """A call's argument, given by its place or its name."""
    return call.args[i] if len(call.args) > i else call.kwargs.get(name)


def _choice_of(node: ast.Node | None, bound: Mapping[str, ast.Node]) -> ast.Call | None:
    """The single choice (`choose`) an argument is, written there or bound to the name it reads."""
    if isinstance(node, ast.Var):
        node = bound.get(node.name)
    return node if isinstance(node, ast.Call) and node.func == "choose" else None


def _prompt(choice: ast.Call) -> str:
    """A choice's prompt ("" if it has none written as a text)."""
    prompt = _arg(choice, 2, "prompt")
    return prompt.value if isinstance(prompt, ast.StrLit) else ""
