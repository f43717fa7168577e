"""The primitives of the effect language, declared: queries, actions and choices.

This is the registry the language reads. Each primitive has a typed signature
(checked when content loads, by ``compiler.py``), a kind, the unit kinds where
it may be used, a short Chinese wording (for ``describe.py`` and logs) and a
doc (docs/language.md is generated from it by ``reference.py``). An action
returns True when it fully resolved (the basis of 然后); a query or choice
returns its value. Every primitive is general: none is named after, or only
useful to, a single card, role or task.

The registry imports nothing of the engine. What a primitive *does* is
written on the engine side, in ``interpreter/engine/primitives.py``, which
registers each implementation here by name with :func:`implements` when it is
imported. The compiler binds that implementation into the generated code, so
content can only be compiled once the implementations are registered: the
loader (``interpreter/content/loader.py``) imports ``interpreter.engine.primitives``
for this; code that builds a ``Compiler`` itself must import it too.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass

from .. import catalogue
from ..content.colors import BLACK, BLUE, RED
from ..content.directions import LEFT, RIGHT, UP
from . import types as T

REQUIRED = object()

# Statuses an effect may put on a player until the end of a turn (name -> Chinese); the engine honours each.
STATUSES = {name: s.zh for name, s in catalogue.STATUSES.items()}


class MissingImplementation(RuntimeError):
    """A primitive is declared here but nothing registered what it does (the engine's module was not imported)."""

    def __init__(self, name: str):
        super().__init__(
            f"the primitive `{name}` is declared in interpreter/language/builtins.py but has no implementation "
            "registered: `import interpreter.engine.primitives` (it registers the engine's implementation of every "
            "primitive) before compiling effect code; interpreter.content.loader does"
        )
        self.name = name


@dataclass
class Param:
    name: str
    type: str
    default: object = REQUIRED


@dataclass
class Builtin:
    name: str
    kind: str  # query | action | choice
    params: list
    returns: str | Callable[[dict[str, str]], str]  # a type, or a function(arg types by name) -> type
    zh: str  # Chinese wording, {param} placeholders
    doc: str = ""
    contexts: frozenset | None = None  # None: anywhere; else the unit kinds where it may be used
    impl: Callable | None = None  # impl(ctx, *args), registered by the engine (interpreter/engine/primitives.py)

    def implementation(self) -> Callable:
        """What the compiler binds into generated code; MissingImplementation if nothing was registered."""
        if self.impl is None:
            raise MissingImplementation(self.name)
        return self.impl


BUILTINS: dict[str, Builtin] = {}


def declare(name, kind, params, returns, zh, doc="", contexts=None) -> None:
    """Declare a primitive: its signature and its words. What it does is registered with `implements`."""
    if name in BUILTINS:
        raise ValueError(f"the primitive `{name}` is declared twice")
    BUILTINS[name] = Builtin(
        name, kind, [Param(*p) for p in params], returns, zh, doc, frozenset(contexts) if contexts else None
    )


def implements(name: str):
    """Register the decorated function as what the declared primitive `name` does.

    The function takes the run-time context and then one argument per declared parameter, in
    order (a parameter that is a Python keyword gets another name: `as_`, `frm` …).
    """

    def register(fn):
        b = BUILTINS.get(name)
        if b is None:
            raise ValueError(f"`{name}` is not a declared primitive; declare it in interpreter/language/builtins.py")
        arity = len(inspect.signature(fn).parameters)
        if arity != 1 + len(b.params):
            raise TypeError(
                f"the implementation of `{name}` takes {arity} arguments; its declaration wants ctx and "
                f"{len(b.params)} ({', '.join(p.name for p in b.params) or 'no parameters'})"
            )
        if b.impl is not None:
            raise ValueError(
                f"the primitive `{name}` has two implementations: {b.impl.__qualname__} and {fn.__qualname__}"
            )
        b.impl = fn
        return fn

    return register


def missing_implementations() -> list[str]:
    """The declared primitives nothing has registered an implementation for."""
    return [name for name, b in BUILTINS.items() if b.impl is None]


# ---------------------------------------------------------------- queries

declare("alive", "query", [], T.PLAYERS, "所有存活角色", "Living players, counter-clockwise from the current player.")

declare(
    "alive_from",
    "query",
    [("p", T.PLAYER)],
    T.PLAYERS,
    "从{p}开始逆时针的所有存活角色",
    "Living players counter-clockwise starting at p (从你开始，逆时针).",
)

declare(
    "others",
    "query",
    [("p", T.PLAYER)],
    T.PLAYERS,
    "{p}以外的存活角色",
    "Living players other than p (其他角色), counter-clockwise from p.",
)

declare(
    "neighbors", "query", [("p", T.PLAYER)], T.PLAYERS, "{p}相邻的角色", "The nearest living player on each side of p."
)

declare("hand", "query", [("p", T.PLAYER)], T.CARDS, "{p}的手牌", "p's hand cards.")

declare("intel", "query", [("p", T.PLAYER)], T.CARDS, "{p}的情报区", "The intel in front of p (情报区).")

declare("count", "query", [("xs", T.LIST)], T.INT, "{xs}的数量", "How many items a list has.")

declare("hand_count", "query", [("p", T.PLAYER)], T.INT, "{p}的手牌数", "How many hand cards p has.")

declare("any_of", "query", [("xs", T.LIST)], T.BOOL, "{xs}存在", "True if the list is not empty.")

declare("none_of", "query", [("xs", T.LIST)], T.BOOL, "没有{xs}", "True if the list is empty.")

declare("exists", "query", [("x", T.ANY)], T.BOOL, "{x}存在", "True unless x is none (a choice from nothing).")

declare(
    "identity_color",
    "query",
    [("p", T.PLAYER)],
    T.COLOR,
    "{p}的身份颜色",
    "The color of p's identity: red 潜伏战线, blue 特工机关, black 神秘人 (or as rules.yaml says).",
)

declare(
    "gender",
    "query",
    [("p", T.PLAYER)],
    T.TEXT,
    "{p}的性别",
    'The gender of p\'s role: "male" or "female"; none when the role is face down or p has none '
    "(a face-down role has no gender).",
)

declare(
    "role_name",
    "query",
    [("p", T.PLAYER)],
    T.TEXT,
    "{p}的角色名",
    "The name of p's role (every version of a role shares the name; title and id tell them apart); "
    "none while it is face down.",
)

declare(
    "role_face_up", "query", [("p", T.PLAYER)], T.BOOL, "{p}的角色牌面朝上", "True if p has a role and it is face up."
)

declare(
    "hidden_role",
    "query",
    [("p", T.PLAYER)],
    T.BOOL,
    "{p}是隐藏角色",
    "True if p's role is a hidden role (隐藏角色). Everyone can tell: a face-down role is always hidden.",
)

declare(
    "pure",
    "query",
    [("c", T.CARD), ("color", T.COLOR)],
    T.BOOL,
    "{c}是纯{color}",
    "True if the card has exactly this one color (纯色).",
)

declare("is_dual", "query", [("c", T.CARD)], T.BOOL, "{c}是双色", "True for a card with two colors.")

declare(
    "shares_color",
    "query",
    [("a", T.CARD), ("b", T.CARD)],
    T.BOOL,
    "{a}与{b}含有相同颜色",
    "True if the two cards have at least one color in common.",
)

declare(
    "makes_three",
    "query",
    [("p", T.PLAYER), ("c", T.CARD)],
    T.BOOL,
    "会让{p}收集三张或更多同色情报",
    "True if putting c into p's intel would make p hold 3 or more intel of one of c's colors.",
)

declare(
    "data",
    "query",
    [("c", T.CARD), ("key", T.ANY)],
    T.ANY,
    "{c}上{key}对应的值",
    "A per-copy value printed on this copy (deck.yaml `data:`), looked up by key (text or color).",
)

declare(
    "top_cards",
    "query",
    [("n", T.INT, 1)],
    T.CARDS,
    "牌堆顶的{n}张牌",
    "The top n cards of the deck, without moving them.",
)

declare(
    "top_card",
    "query",
    [],
    T.CARD,
    "牌堆顶的一张牌",
    "The top card of the deck (none if deck and discard pile are empty), without moving it.",
)

declare(
    "set_aside",
    "query",
    [],
    T.CARDS,
    "翻开的牌",
    "The cards this effect has turned up with take_top and not yet moved on.",
)

declare("alive_count", "query", [], T.INT, "存活角色数", "How many players are alive.")

declare("name_of", "query", [("c", T.CARD)], T.CARDNAME, "{c}的牌名", "The card name of c, to compare with 【...】.")

declare("is_face_up", "query", [], T.BOOL, "待收情报正面朝上", "True if there is a pending intel and it is face up.")

declare(
    "pending_direction",
    "query",
    [],
    T.DIRECTION,
    "待收情报的传递方向",
    "The direction the intel of this turn travels in (left, right or up); none if no intel is in transit.",
)

declare(
    "all_players",
    "query",
    [],
    T.PLAYERS,
    "所有角色",
    "Every player, dead or alive (not those out of the game by abstaining), counter-clockwise from the current player.",
)

declare(
    "has_identity",
    "query",
    [("p", T.PLAYER)],
    T.BOOL,
    "{p}有身份牌",
    "False once p's identity card was taken from him (没有身份牌的玩家).",
)

declare(
    "usable",
    "query",
    [("c", T.CARD), ("by", T.PLAYER, None), ("as", T.CARDNAME, None)],
    T.BOOL,
    "{c}可由{by}现在使用",
    "True if `by` (default self) could use hand card c now, at this idle point: as `as` (default: what c "
    "must be used as — its own name, or a forced conversion's), with its timing, condition and a legal "
    "target; bans, forced conversions and 不能使用手牌 apply.",
)

declare(
    "mark",
    "query",
    [("p", T.PLAYER), ("key", T.TEXT)],
    T.ANY,
    "{p}本回合的标记{key}",
    "The value set_mark gave p under `key` this turn; none if not set this turn.",
)


# ---------------------------------------------------------------- actions

declare("draw", "action", [("p", T.PLAYER), ("n", T.INT, 1)], T.BOOL, "{p}摸{n}张牌", "p draws n cards.")

declare(
    "discard",
    "action",
    [("xs", T.CARDS)],
    T.BOOL,
    "弃置{xs}",
    "弃置: the cards go face up to the discard pile, from wherever they are.",
)

declare(
    "give",
    "action",
    [("xs", T.CARDS), ("to", T.PLAYER)],
    T.BOOL,
    "将{xs}交给{to}",
    "交给: the cards go face down into `to`'s hand; only giver and receiver see them.",
)

declare(
    "put_in_hand",
    "action",
    [("xs", T.CARDS), ("p", T.PLAYER)],
    T.BOOL,
    "将{xs}加入{p}的手牌",
    "加入手牌: the cards go into p's hand; cards from a face-up place stay known to all.",
)

declare(
    "collect",
    "action",
    [("xs", T.CARDS), ("p", T.PLAYER)],
    T.BOOL,
    "将{xs}置入{p}的情报区",
    "置入情报区: face up into p's intel. This is collecting, not receiving (接收).",
)

declare(
    "replace_intel",
    "action",
    [("old", T.CARD), ("new", T.CARD), ("old_to", T.PLAYER, None)],
    T.BOOL,
    "用{new}代替{old}",
    "new takes old's place in the intel area old is in (代替 / 互换); old goes to old_to's hand, or to the "
    "discard pile. Later triggers of an event about old (e.g. other 接收后 skills) see new instead.",
)

declare("remove", "action", [("xs", T.CARDS)], T.BOOL, "将{xs}移出游戏", "移出游戏: the cards leave the game.")

declare(
    "reveal",
    "action",
    [("xs", T.CARDS), ("to", T.PLAYERS, None)],
    T.BOOL,
    "展示{xs}",
    "展示 (to everyone) or 查看 (to: the players who look). The cards stay where they are.",
)

declare(
    "move_pending",
    "action",
    [("p", T.PLAYER)],
    T.BOOL,
    "将待收情报移至{p}面前",
    "The pending intel (待收情报) moves in front of p.",
    contexts=("contest",),
)

declare(
    "swap_pending",
    "action",
    [("c", T.CARD)],
    T.BOOL,
    "用{c}面朝下代替待收情报",
    "c becomes the pending intel, face down; the old one goes face up to the discard pile. The sender stays.",
    contexts=("contest",),
)

declare(
    "flip_pending",
    "action",
    [],
    T.BOOL,
    "翻开待收情报",
    "The pending intel is turned face up.",
    contexts=("send_idle", "contest"),
)

declare(
    "send",
    "action",
    [("c", T.CARD), ("by", T.PLAYER, None), ("face_up", T.BOOL, False), ("lock", T.PLAYER, None)],
    T.BOOL,
    "由{by}将{c}作为情报传出",
    "c is sent as this turn's intel by `by` (default: self), who picks "
    "the target of an ↑ card and the lock; `by` becomes the sender (情报传出者). `lock:` given, that "
    "player is locked and nobody is asked (any card, lockable or not).",
    contexts=("send_start",),
)

declare(
    "take_top",
    "action",
    [("n", T.INT)],
    T.CARDS,
    "翻开牌堆顶的{n}张牌",
    "翻开: the top n cards are turned face up and set aside for this effect; effects must move them on "
    "(leftovers go to the discard pile when the effect ends).",
)

declare(
    "flip_role",
    "action",
    [("p", T.PLAYER), ("face_up", T.BOOL)],
    T.BOOL,
    "将{p}的角色牌翻面（面朝上：{face_up}）",
    "Turn p's role face up (翻开) or face down (翻至面朝下). Not fully resolved if it already was.",
)

declare(
    "add_status",
    "action",
    [("xs", T.PLAYERS), ("status", T.STATUS), ("turns", T.INT, 0), ("secret", T.BOOL, False)],
    T.BOOL,
    "令{xs}{status}",
    "Put a status on each player until the end of this turn (turns: that many turns more). "
    "secret: true tells only each player himself (a status that depends on hidden information, such as his "
    "identity, must not be announced). Statuses: " + ", ".join(STATUSES),
)

declare(
    "set_mark",
    "action",
    [("p", T.PLAYER), ("key", T.TEXT), ("value", T.ANY, True)],
    T.BOOL,
    "令{p}本回合记下{key}",
    "Remember a value on p under `key` until the end of this turn (a declared "
    "name, 本回合首次, ...); read it with mark(p, key).",
)

declare(
    "put_on_deck",
    "action",
    [("xs", T.CARDS), ("bottom", T.BOOL, False)],
    T.BOOL,
    "将{xs}放回牌堆顶",
    "放回牌堆顶 (bottom: 牌堆底): face down onto the deck; the first card of the list ends on top "
    "(or, at the bottom, lowest).",
)

declare(
    "use_card",
    "action",
    [("c", T.CARD), ("as", T.CARDNAME, None), ("by", T.PLAYER, None)],
    T.BOOL,
    "令{by}使用{c}（当作{as}）",
    "`by` (default self) uses hand card c now, at this idle point, as `as` (default: what c must be used "
    "as). c none and `as` given: a virtual use (视为使用【as】) — the card's target rule, effect and events "
    "without a physical card, free of bans and conversions. Whoever runs this effect makes the user's "
    "choices (one player making another use a card). Not fully resolved if the use is not legal now "
    "(check with usable).",
)

declare(
    "convert",
    "action",
    [("from", T.CARDNAME), ("to", T.CARDNAME)],
    T.BOOL,
    "本回合所有{from}只能当作{to}使用",
    "Until the end of the turn every player's hand copies of `from` can be used only as `to` (a forced "
    "conversion: A只能当作B使用). Virtual uses are not affected, and a converted card is not converted "
    "again.",
)

declare(
    "ban_cards",
    "action",
    [("names", T.CARDNAMES)],
    T.BOOL,
    "本回合所有角色不能使用{names}",
    "Until the end of the turn nobody may use hand cards of these names (as what they are used as).",
)

declare(
    "nullify",
    "action",
    [],
    T.BOOL,
    "令该牌无效",
    "The card being used (the innermost one) becomes invalid (无效): its effect does not happen, but it "
    "still counts as used and resolved, and goes where it would have gone. Use it in card_used or "
    "card_resolving triggers.",
)

declare(
    "claim_used_card",
    "action",
    [("p", T.PLAYER, None)],
    T.BOOL,
    "在该牌结算后将其加入{p}的手牌",
    "When the card being used (the innermost one) has resolved, it goes into p's hand (default self) "
    "instead of the discard pile or out of the game. Nothing happens for a virtual use.",
)

declare(
    "replace_role",
    "action",
    [("p", T.PLAYER, None), ("look", T.INT, 3)],
    T.BOOL,
    "{p}的角色牌移出游戏，从角色牌堆顶抽取{look}张牌选择一张作为新角色牌",
    "p's role card leaves the game; p secretly looks at the top `look` roles of the role pile and keeps "
    "one as his new role (a hidden role face down); the rest go to the bottom of the pile.",
)

declare(
    "set_direction",
    "action",
    [("d", T.DIRECTION)],
    T.BOOL,
    "将情报的箭头视作{d}",
    "The intel being sent travels in direction d instead of its arrow (an ↑ target is then asked).",
    contexts=("intel_sending",),
)

declare(
    "add_draw",
    "action",
    [("n", T.INT, 1)],
    T.BOOL,
    "摸牌阶段多摸{n}张牌",
    "This draw phase draws n more cards (摸牌阶段多摸).",
    contexts=("draw_phase",),
)

declare(
    "look_identity",
    "action",
    [("p", T.PLAYER), ("by", T.PLAYER, None)],
    T.BOOL,
    "{by}查看{p}的身份牌",
    "`by` (default self) looks at p's identity card (and secret task).",
)

declare(
    "take_identity",
    "action",
    [("p", T.PLAYER)],
    T.BOOL,
    "获得{p}的身份牌，并将你原本的身份牌面朝下移出游戏",
    "Self takes p's identity card (with its secret task, if any); self's own identity card leaves the game "
    "face down, and p has no identity any more. Everyone hears that it happened, not what the cards are.",
)

declare(
    "end_contest",
    "action",
    [],
    T.BOOL,
    "结束争夺阶段",
    "强制结束争夺阶段: nobody else acts; the pending intel is received where it is.",
    contexts=("contest",),
)

declare(
    "set_pending",
    "action",
    [("c", T.CARD), ("face_up", T.BOOL, False)],
    T.BOOL,
    "将{c}作为待收情报",
    "c becomes the pending intel in front of the same player (the sender stays). If there still is a "
    "pending intel, it goes to the discard pile face up first; move it elsewhere before to keep it.",
    contexts=("send_idle", "contest"),
)


# ---------------------------------------------------------------- victory skills (stages 2 and 4)

_VICTORY_UNITS = ("declare", "co_win")

declare(
    "winners",
    "query",
    [],
    T.PLAYERS,
    "胜利的角色",
    "The players winning so far in this victory check (declarers and those winning with them).",
    contexts=_VICTORY_UNITS,
)

declare(
    "declarers",
    "query",
    [],
    T.PLAYERS,
    "宣告胜利的角色",
    "The players who declared victory in this check (not those who only win with them).",
    contexts=_VICTORY_UNITS,
)

declare(
    "win",
    "action",
    [("p", T.PLAYER), ("declared", T.BOOL, False)],
    T.BOOL,
    "{p}获得胜利",
    "p wins too (joins the winners of this check). declared: true counts p as declaring victory (宣胜), "
    "which later stages (usurping, co-victory skills) see in declarers().",
    contexts=_VICTORY_UNITS,
)

declare(
    "block_win",
    "action",
    [("p", T.PLAYER)],
    T.BOOL,
    "{p}无法胜利",
    "p does not win after all.",
    contexts=_VICTORY_UNITS,
)

declare(
    "same_camp",
    "query",
    [("a", T.PLAYER), ("b", T.PLAYER)],
    T.BOOL,
    "{a}与{b}同阵营",
    "True if both have the same camp identity (神秘人 have no camp). Hidden information: use it only "
    "in effects the rules resolve without a player choosing on it.",
)


# ---------------------------------------------------------------- choices


def _elem_type(argtypes):
    return T.element_of(argtypes.get("from", T.ANY))


def _list_type(argtypes):
    return T.list_of(argtypes.get("from", T.ANY))


declare(
    "choose",
    "choice",
    [
        ("from", T.LIST),
        ("by", T.PLAYER, None),
        ("prompt", T.TEXT, ""),
        ("optional", T.BOOL, False),
        ("blind", T.BOOL, False),
    ],
    _elem_type,
    "{by}从{from}中选择一个",
    "`by` (default self) picks one item of the list; none if the list is empty "
    "(or if optional and they decline). blind: true picks without seeing (抽取, 随机): the options are "
    "positions in a shuffled order.",
)

declare(
    "declare",
    "choice",
    [("from", T.LIST), ("by", T.PLAYER, None), ("prompt", T.TEXT, "")],
    _elem_type,
    "{by}宣言{from}中的一个",
    "宣言: like choose, but everyone hears the answer.",
)

declare(
    "choose_many",
    "choice",
    [("from", T.LIST), ("by", T.PLAYER, None), ("min", T.INT, 0), ("max", T.INT, 99), ("prompt", T.TEXT, "")],
    _list_type,
    "{by}从{from}中选择{min}至{max}个",
    "`by` picks between min and max items, one at a time.",
)


def as_list(x):
    if x is None:
        return []
    if isinstance(x, list):
        return x
    return [x]


# Names every unit can read, and the unit kinds that provide the others.
_CONSTANT_VALUES = {
    "red": RED,
    "blue": BLUE,
    "black": BLACK,
    "left": LEFT,
    "right": RIGHT,
    "up": UP,
    "true": True,
    "false": False,
    "none": None,
}
# The catalogue's constants: name -> (type, value).
CONSTANTS = {name: (c.type, _CONSTANT_VALUES[name]) for name, c in catalogue.CONSTANTS.items()}
