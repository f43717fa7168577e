"""The rule vocabulary: every name the rules, the language and the logs share, declared once.

A leaf module (it imports nothing from the project). Each entry carries its
English documentation and its Chinese wording; the checker, the loader's
environments, ``describe``, the JSON Schema enums and the tables in
``docs/language.md`` come from here or are tested against it
(``tests/test_catalogue.py`` fails on drift). Adding a trigger event is one
entry here plus the engine hook that emits it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# ---------------------------------------------------------------------- decision kinds


@dataclass(frozen=True)
class DecisionKind:
    """A kind of choice the rules give a player (stable names: logs, replays and scenario files use them)."""

    name: str
    doc: str


DECISIONS: dict[str, DecisionKind] = {
    d.name: d
    for d in (
        DecisionKind(
            "play",
            "an idle point (under stack timing also priority, prompt 响应: answer what is on the stack): use a card "
            "or a skill, or pass",
        ),
        DecisionKind("send", "传递阶段: which hand card to send (or a card that replaces sending)"),
        DecisionKind("send_target", "an ↑ intel: to whom"),
        DecisionKind("lock", "a lockable intel: whom to lock (or nobody)"),
        DecisionKind("receive", "the intel is in front of you: accept it, or pass it on"),
        DecisionKind("target", "the target of a card"),
        DecisionKind("choose", "a choice inside an effect (a player, card, color, text or card name)"),
        DecisionKind("confirm", "可以: do it or not"),
        DecisionKind("option", "选择一项: one of an effect's options"),
        DecisionKind("death_give_target", "a dying player's last gift: to whom (or nobody)"),
        DecisionKind("death_give_card", "... and which cards, one at a time"),
        DecisionKind("role", "setup: which of the dealt roles to keep"),
        DecisionKind(
            "skill_order",
            "several of your triggered skills react at one timing node: which resolves first (asked again "
            "for the rest)",
        ),
    )
}


# ---------------------------------------------------------------------- idle points (card timings)


@dataclass(frozen=True)
class Timing:
    """An idle point (空闲时点) where a card or an active skill may be used."""

    name: str
    doc: str  # one line: the rule term and who acts (messages, `describe`)
    when: str  # the rules' moment, for the docs table
    who: str  # who may act there, for the docs table
    zh: str  # as the opening of a sentence (出牌阶段，…)
    zh_at: str  # after 在 (你也可以在……使用)
    speed: str = "slow"  # under stack timing (SPEEDS): a fast use may answer whenever its user holds priority


TIMINGS: dict[str, Timing] = {
    t.name: t
    for t in (
        Timing(
            "play_phase",
            "出牌阶段 (only the current player)",
            "出牌阶段",
            "only the current player, card after card until they pass",
            "出牌阶段",
            "出牌阶段",
        ),
        Timing(
            "send_start",
            "传递阶段开始时 (only the current player; the use replaces sending an intel)",
            "传递阶段开始时",
            "only the current player, instead of choosing a hand card to send. They are asked again until an "
            "intel is sent, so such an effect normally ends in `send(...)`",
            "传递阶段",
            "传递阶段开始时",
        ),
        Timing(
            "need_send",
            "你需要传出情报时 (the player who must send an intel; the use replaces that send)",
            "你需要传出情报时: at his own 传递阶段 (with the send_start uses), or when an effect makes him send "
            "and offers it first (`send_instead(p)`, e.g. a card that makes its target send)",
            "only that player; the use replaces choosing the card to send, so such an effect normally ends in "
            "`send(...)` by `self`",
            "你需要传出情报时",
            "你需要传出情报时",
        ),
        Timing(
            "send_idle",
            "传递阶段空闲时点 (only the player the intel is in front of)",
            "传递阶段空闲时点: the intel is in front of a player, before they accept or pass it on",
            "only that player (`holder`)",
            "传递阶段，情报传递到你面前时",
            "情报传递到你面前时",
            speed="fast",
        ),
        Timing(
            "contest",
            "争夺阶段 (whoever is being asked)",
            "争夺阶段",
            "everyone, asked in turn from the holder counter-clockwise. After any card the asking starts again "
            "from the (new) holder, and the phase ends when everyone has passed in a row",
            "争夺阶段",
            "争夺阶段",
            speed="fast",
        ),
        Timing(
            "dying",
            "濒死求救 (whoever is being asked; `dying` is the dying player)",
            "濒死求救",
            "everyone, asked from the dying player counter-clockwise. It stops as soon as `dying` has fewer "
            "than `death_count` black intel (3 in the base game)",
            "一名角色濒死时",
            "一名角色濒死时",
            speed="fast",
        ),
        Timing(
            "respond",
            "一张牌生效前 (whoever is being asked; `answered` is the card answered)",
            "一张牌生效前: a card was used and its target chosen (its 指定目标后 node settled), before it takes "
            "effect (before its `card_resolving` node); under stack timing, whenever a card use is on top of the "
            "stack. A card or skill used here answers that card: `answered`, `answered_user` and "
            "`answered_target` name it, and `nullify()` in its effect makes the card answered void (无效). A use "
            "made here is a card use like any: it may be answered in turn",
            "everyone, asked in turn from the current player counter-clockwise. After a use the asking starts "
            "again from the current player (he dead, from the first living seat after him); it ends when everyone "
            "has passed in a row, or once the card answered is void or its target dead (unless it was used at "
            "`dying`). Not offered at all when no card or skill of the game is written for it",
            "一张牌生效前",
            "一张牌生效前",
            speed="fast",
        ),
    )
}


# ---------------------------------------------------------------------- the turn's skeleton (phase kinds)


@dataclass(frozen=True)
class PhaseSetting:
    """A setting a phase kind takes in `turn:` (`{kind: draw, count: 2}`): its type, range and default.

    `default` None: the rule the setting overrides applies (`rule` names it, e.g. draw_count).
    The schema's check of a `turn:` item, the loader's (E111, E113), docs/modding.md and `describe`'s
    回合流程 all read these.
    """

    name: str
    type: str  # int (the only type so far)
    doc: str
    zh: str  # how describe words it, {} for the value with its unit (摸{}牌: 摸两张牌)
    unit: str  # the classifier the value takes (张, 轮)
    minimum: int = 0
    maximum: int = 20
    default: int | None = None
    rule: str | None = None  # the rules' key whose value applies when the setting is left out


@dataclass(frozen=True)
class PhaseKind:
    """A building block of a turn: one kind of phase the rules' `turn:` list may name (docs/modding.md).

    `nodes`: the timing nodes it enters (where triggers, victory checks and dying resolve);
    `timings`: the idle points it offers (card and skill timings); `decisions`: the decision kinds it
    asks; `events`: what it records. `after`: a phase of this kind needs one of that kind earlier in
    the turn (and none of `closes` in between: the intel it works on is the one that phase sent).
    """

    name: str
    doc: str
    zh: str
    nodes: tuple[str, ...]
    timings: tuple[str, ...]
    decisions: tuple[str, ...]
    events: tuple[str, ...]
    after: str | None = None
    required: bool = False
    settings: tuple[PhaseSetting, ...] = ()

    def setting(self, name: str) -> PhaseSetting:
        for s in self.settings:
            if s.name == name:
                return s
        raise KeyError(f"phase kind {self.name!r} has no setting {name!r}")


PHASE_KINDS: dict[str, PhaseKind] = {
    k.name: k
    for k in (
        PhaseKind(
            "draw",
            "the current player draws the rules' draw_count cards, plus what effects added (add_draw)",
            "摸牌阶段",
            ("摸牌阶段开始时",),
            (),
            (),
            ("draw_phase", "draw"),
            settings=(
                PhaseSetting(
                    "count",
                    "int",
                    "how many cards the phase draws (before what effects add); default: the rules' draw_count",
                    "摸{}牌",
                    "张",
                    rule="draw_count",
                ),
            ),
        ),
        PhaseKind(
            "play",
            "an idle point for the current player: cards and skills of the `play_phase` timing, one after "
            "another, until they pass",
            "出牌阶段",
            ("出牌阶段空闲时点", "发动技能后", "指定目标后", "结算卡牌效果后"),
            ("play_phase",),
            ("play", "target"),
            ("card_used", "card_resolved"),
        ),
        PhaseKind(
            "send",
            "the current player sends an intel (or uses a card that sends one); it travels until a player "
            "accepts it, else it is discarded. A player who cannot send abstains (弃权). Required: a turn "
            "sends intel",
            "传递阶段",
            ("传递阶段开始时", "传出情报时", "情报传递到面前时", "传递阶段空闲时点"),
            ("send_start", "need_send", "send_idle"),
            ("send", "send_target", "lock", "receive", "play", "target"),
            ("send_phase_start", "intel_sent", "intel_arrives", "intel_accepted"),
            required=True,
        ),
        PhaseKind(
            "contest",
            "争夺: everyone, asked in turn from the player who accepted the intel, may use `contest` cards and "
            "skills; after a use the asking starts again from the holder; it ends when all have passed in a "
            "row. Skipped when the intel sent was not accepted",
            "争夺阶段",
            ("争夺阶段空闲时点",),
            ("contest",),
            ("play", "target"),
            (),
            after="send",
            settings=(
                PhaseSetting(
                    "rounds",
                    "int",
                    "how many rounds of asking: when all have passed in a row, the asking starts again from the "
                    "holder, this many times in all (an effect that ends the contest ends every round); default 1",
                    "争夺{}",
                    "轮",
                    minimum=1,
                    maximum=5,
                    default=1,
                ),
            ),
        ),
        PhaseKind(
            "receive",
            "the holder puts the intel into their intel area (dead: it is discarded). Skipped when the intel "
            "sent was not accepted",
            "接收阶段",
            ("接收情报时",),
            (),
            (),
            ("received",),
            after="send",
        ),
        PhaseKind(
            "discard",
            "each living player in turn, from the current player, may discard hand cards, one at a time, until "
            "they stop (a fork's building block; not in the base game)",
            "弃牌阶段",
            ("弃牌阶段结束时",),
            (),
            ("choose",),
            ("discard",),
        ),
    )
}

# The base game's turn (seed 003): what a rule set without `turn:` plays. Before the first phase the
# turn begins (turn_start); after the last, 回合结束 (turn_end, its node, the turn-end victory check, 轮结束时).
BASE_TURN: tuple[str, ...] = ("draw", "play", "send", "contest", "receive")


# ---------------------------------------------------------------------- resolution models


@dataclass(frozen=True)
class ResolutionModel:
    """How cards and triggered skills resolve (`resolution:` of the rules)."""

    name: str
    doc: str
    zh: str


RESOLUTIONS: dict[str, ResolutionModel] = {
    m.name: m
    for m in (
        ResolutionModel(
            "queued",
            "the base game (seed 004): nothing interrupts a card or skill; what it triggers waits for the next "
            "timing node, where triggered skills fire in seat order from the current player",
            "排队结算",
        ),
        ResolutionModel(
            "stack",
            "stack timing (seed 002): card uses and triggered skills go onto a stack; players get priority in "
            "turn order from the active player and may respond with fast cards and skills; when everyone "
            "passes in a row, the top of the stack resolves first (last in, first out)",
            "堆叠结算",
        ),
    )
}


# Speeds under stack timing: a use's speed comes from its timing (the idle point it is written for).
SPEEDS: dict[str, str] = {
    "slow": "only the active player, in their own idle phase, with priority and the stack empty (慢速)",
    "fast": "any player holding priority, whether the stack is empty or not (快速)",
}


# The rules' `lockable:` switch (a house rule): which intel may be locked when sent (可锁定).
LOCK_RULES: dict[str, str] = {
    "printed": "each copy as deck.yaml prints it (the base game)",
    "all": "every copy may be locked (每张牌都可锁定)",
    "none": "no copy may be locked",
}

# The rules' `card_targets:` switch (a house rule): whom a card's target rule may offer.
TARGET_RULES: dict[str, str] = {
    "any": "whomever the card's target rule names (the base game)",
    "others": "never the card's user: a card whose rule names only its user is not offered (不能以自己为目标)",
}

# The arrows an intel may carry (rules' `send_arrows:`: the ones a player may send with).
ARROWS: tuple[str, ...] = ("up", "left", "right")


# ---------------------------------------------------------------------- victory checks


@dataclass(frozen=True)
class VictoryCheck:
    """A moment at which identities' and secret tasks' victory conditions are evaluated (宣胜时机)."""

    name: str
    doc: str
    subject: str  # what `subject` is in the condition ("" if it has none)
    zh: str


VICTORY_CHECKS: dict[str, VictoryCheck] = {
    v.name: v
    for v in (
        VictoryCheck(
            "collect",
            "a player has `collect_count` red or `collect_count` blue intel (the rules' count: 3 in the base game; "
            "red or blue whatever colour a camp collects): only his own conditions are checked (`self`); if one "
            "holds, he wins with his camp",
            "",
            "收集三张红色或蓝色情报时",
        ),
        VictoryCheck(
            "collect_unclaimed",
            "a player (`subject`) has `collect_count` red or blue intel (3 in the base game) but does not win by it",
            "that player",
            "一名角色收集了三张红色或蓝色情报但没有宣告胜利",
        ),
        VictoryCheck(
            "receive",
            "a player (`subject`) has just received an intel (接收, not an intel put into his area): checked at "
            "the receive's node, with the collect check, after its triggers and before anyone's dying",
            "the receiver",
            "一名角色接收情报后",
        ),
        VictoryCheck("death", "a player (`subject`) has just died", "the dead player", "一名角色死亡"),
        VictoryCheck("turn_end", "at the end of a turn, after everything else", "", "回合结束时"),
        VictoryCheck(
            "usurp",
            "someone is declaring victory; this player takes the victory instead",
            "",
            "一名角色宣告胜利时，你代替其胜利",
        ),
        VictoryCheck(
            "game_end",
            "the game is ending (someone won, the last player alive, or the turn limit): a holder whose condition "
            "holds wins too, after the usurp check and before co-victory skills",
            "",
            "游戏结束时",
        ),
    )
}

# Who wins with the holder of a victory condition that holds (`wins:` of a victory item; default camp).
VICTORY_WINS: dict[str, str] = {
    "camp": "the holder and every player of his identity's camp, dead or alive, but not those out of the game "
    "(a holder without a camp wins alone); the rulebook's 宣告胜利, at every check",
    "alone": "the holder only, without his camp (单独胜利)",
}

# Victory skills of roles (`kind: victory`): the stage of the victory check they run at.
SKILL_VICTORY_CHECKS = {
    "declare": "stage 2 of the victory check: a skill that declares victory (after the collect checks)",
    "co_win": "stage 4: co-victory (after the usurp check)",
}


# ---------------------------------------------------------------------- events


@dataclass(frozen=True)
class Event:
    """A kind of event the engine emits: triggers react to it, the log records it.

    `fields` are the payload fields the engine may put in it. Fields naming deck
    ids (CARD_FIELDS) are secret to the seats that cannot see those cards;
    `visibility` says who may read the rest. A `trigger` event is one a
    triggered skill may name (`trigger:`), with its doc and Chinese template
    ({s}: the subject, {c}: the event's card, called `card_noun`).
    """

    name: str
    fields: tuple[str, ...]
    doc: str
    visibility: str = "public"
    trigger: bool = False
    zh: str = ""
    card_noun: str = "情报"
    # fields a skill reacting to it reads as context variables of their own: (field, type of the language, how
    # describe calls it)
    typed: tuple[tuple[str, str, str], ...] = ()


# Event fields that name deck ids: checked against the cards' visibility when recorded.
CARD_FIELDS = frozenset(("card", "cards", "uid", "old", "new"))


def _trigger(name: str, fields: tuple[str, ...], doc: str, visibility: str = "public", **kw: Any) -> Event:
    return Event(name, fields, doc, visibility, trigger=True, **kw)


_TRIGGERS = (
    _trigger(
        "game_start",
        ("seat",),
        "游戏开始时: once, after the roles and the starting hands are dealt, before the first turn (subject: "
        "the first player); 蓄力技's initial charge. Recorded only when a skill of the content reacts to it, dealt "
        "or not",
        zh="游戏开始时",
    ),
    _trigger("turn_start", ("seat", "turn"), "a turn begins (subject: the current player)", zh="{s}的回合开始时"),
    _trigger(
        "draw_phase",
        ("seat",),
        "摸牌阶段开始时, before the draw (subject: the current player; add_draw works here)",
        zh="{s}的摸牌阶段开始时",
    ),
    _trigger("send_phase_start", ("seat",), "传递阶段开始时 (subject: the current player)", zh="{s}的传递阶段开始时"),
    _trigger(
        "card_used",
        ("seat", "card", "uid", "timing", "target"),
        "a card is used and its target chosen — 指定目标后 (subject: the user; this_card: the card, "
        "none for a virtual use; target: its target; used_as: the name it is used as)",
        "public; the deck id of a card played face down only for user and target",
        zh="{s}使用{c}时",
        card_noun="牌",
    ),
    _trigger(
        "card_resolving",
        ("seat", "card", "uid", "target"),
        "a card is about to take effect, after the 指定目标后 node — nullify() works here "
        "(subject, this_card, target, used_as as for card_used)",
        "as card_used",
        zh="{s}使用的{c}生效前",
        card_noun="牌",
    ),
    _trigger(
        "card_resolved",
        ("seat", "card", "uid", "target"),
        "a card finished resolving (subject: the user; this_card: the card; target: its target; "
        "used_as: the name it was used as)",
        "as card_used",
        zh="{s}使用的{c}结算后",
        card_noun="牌",
    ),
    _trigger(
        "intel_sent",
        ("seat", "card", "direction", "face_up", "lock", "target"),
        "an intel is sent, target and lock chosen; triggers at the next node, after any card that sent it "
        "has resolved — set_direction() works here (subject: the sender; this_card: the intel)",
        "public; a face-down intel's card only for its sender",
        zh="{s}传出{c}时",
    ),
    _trigger(
        "intel_arrives",
        ("seat",),
        "the intel arrives in front of a player (subject: that player)",
        zh="{c}传递到{s}面前时",
    ),
    _trigger(
        "intel_accepted",
        ("seat",),
        "a player decides to receive the intel (subject: that player)",
        zh="{s}选择接收{c}时",
    ),
    _trigger(
        "received",
        ("seat", "card", "sender"),
        "a player received the intel (subject: the receiver; this_card: the intel)",
        zh="{s}接收{c}后",
    ),
    _trigger(
        "collect",
        ("seat", "cards"),
        "cards were put into a player's intel area (subject: that player)",
        zh="{c}置入{s}的情报区后",
    ),
    _trigger(
        "skill_collect",
        ("seat", "card"),
        "a role skill moved a card into a player's intel area from anywhere else (subject: that player; "
        "this_card: the card)",
        zh="{c}因角色技能置入{s}的情报区后",
        card_noun="牌",
    ),
    _trigger(
        "hand_taken",
        ("seat", "target"),
        "a player gained another player's hand cards — 获得你的手牌 (subject: who gained them; "
        "target: whose hand they were)",
        zh="{s}获得一名角色的手牌后",
    ),
    _trigger(
        "role_flipped",
        ("seat", "role", "face_up"),
        "a role card was turned face up or face down (subject: its owner)",
        zh="{s}的角色牌翻面后",
    ),
    _trigger(
        "dying",
        ("seat",),
        "a player enters dying, before anyone is asked for help (subject: the dying player); a skill worded "
        "濒死时 is an active skill at the `dying` idle point instead (rulings R52)",
        zh="{s}进入濒死状态时",
    ),
    _trigger("died", ("seat",), "a player died (subject: the dead player) — 死亡前 skills", zh="{s}死亡前"),
    _trigger("turn_end", ("seat",), "a turn ends (subject: the current player)", zh="{s}的回合结束时"),
    _trigger("skill_used", ("seat", "skill"), "a skill was used (subject: its owner)", zh="{s}发动技能后"),
    _trigger(
        "round_end",
        ("seat",),
        "轮结束时: the last turn of a round ended — the next turn is the round's first player's or one before "
        "it, counter-clockwise from the game's first player (subject: the current player, whose turn it still "
        "is); after turn_end and its victory check; recorded only when a skill of the content reacts to it, dealt or "
        "not (a face-down role's would be told by its record)",
        zh="每轮结束时",
    ),
    _trigger(
        "game_end",
        ("seat",),
        "游戏结束时: once, when the game is decided, before the zones declared `at_end: reveal` are shown (subject: "
        "the current player); skills reveal or settle what they kept. No victory check, dying or death follows. "
        "Recorded only when a skill of the content reacts to it, dealt or not",
        zh="游戏结束时",
    ),
    # the rules' own vocabulary (counters:, events: — model/declared.py)
    _trigger(
        "counter_changed",
        ("seat", "counter", "before", "after"),
        "a counter the rules declare changed (subject: its player; `counter`: its name, `before` and `after`: "
        "its values), by add_counter, remove_counter or set_counter",
        "public; an owner-only counter's change only for its owner",
        zh="{s}的计数变化后",
        typed=(("counter", "text", "该计数"), ("before", "int", "其原值"), ("after", "int", "其新值")),
    ),
)
_RECORDS = (
    Event(
        "setup",
        ("players", "seed", "first", "identities", "tasks", "deck"),
        "the game's seed, identities, secret tasks and deck order",
        "the referee only",
    ),
    Event("start", ("players", "first"), "the game starts: how many players, who goes first"),
    Event("roles", ("roles",), "the roles every seat was dealt", "the referee only"),
    Event("roles_shown", ("roles",), "the roles dealt face up (none for a face-down one)"),
    Event(
        "game_over",
        ("winners", "identities", "reason", "turns"),
        "the game ended: the winners turn their identity cards face up",
    ),
    Event("abstain", ("seat",), "a player could not send an intel and is out (弃权)"),
    Event("ban", ("cards",), "card types nobody may use from hand this turn"),
    Event("convert", ("source", "into"), "hand copies of a card type must be used as another this turn"),
    Event("dead_discard", ("seat", "cards"), "a dead player's hand and intel are discarded"),
    Event(
        "direction_set",
        ("seat", "direction", "target"),
        "the intel a player sent now travels another way (set_direction; target: whom an ↑ intel goes to)",
    ),
    Event("declare", ("seat", "value"), "宣言: a player declared a value everyone hears"),
    Event("lock_set", ("seat", "target"), "the intel a player sent is now locked on target (lock_intel)"),
    Event("receivers_set", ("must", "cannot"), "who must and who may not accept the pending intel (seats)"),
    Event("intel_protected", ("cards",), "card types nobody may use while the pending intel stays pending"),
    Event(
        "discard",
        ("cards", "seat"),
        "cards went to the discard pile (face up); seat: whose they were, when all came from one player's hand or "
        "intel area",
    ),
    Event("draw", ("seat", "n", "cards"), "a player drew cards", "public; the cards only for the drawer"),
    Event(
        "give",
        ("seat", "to_seat", "n", "cards"),
        "a player gave hand cards to another",
        "public; the cards only for giver and receiver",
    ),
    Event(
        "identity_seen",
        ("seat", "of"),
        "a player was shown another's identity",
        "only the seat that looked (`to`)",
    ),
    Event("identity_taken", ("seat", "of"), "a player took another's identity card and secret task"),
    Event(
        "intel_replaced",
        ("seat", "old", "new"),
        "an intel in an intel area was replaced by another card",
        "public; cards as their visibility allows",
    ),
    Event(
        "mark",
        ("seat", "key", "value", "card_value", "player_value"),
        "a mark kept for the game was set, changed or cleared (value none: cleared); a card is shown as none, with "
        "card_value true; a player as his seat, with player_value true",
        "secret ones (keep_mark/add_mark secret: true): that seat only",
    ),
    Event("nullified", ("seat", "card", "uid"), "a card in use was nullified (无效)"),
    Event("pending_moved", ("seat",), "the pending intel was moved in front of another player"),
    Event(
        "pending_set",
        ("new", "face_up"),
        "a card took the place of the pending intel",
        "public; the new card secret unless face up",
    ),
    Event(
        "pending_swapped",
        ("old", "new"),
        "the pending intel was swapped for another card",
        "public; the new card secret unless face up",
    ),
    Event("reshuffle", ("n",), "the discard pile was shuffled into the deck"),
    Event(
        "reveal",
        ("cards", "seat", "private"),
        "cards were shown to everyone (展示) or to some seats (查看, private true: only those seats read the record); "
        "seat: whose hand or intel area they are in, when one player's",
        "`to` when shown to some",
    ),
    Event(
        "role_replaced",
        ("seat", "old", "new"),
        "a player's role left the game and another took its place",
        "public; the new role only for its owner while it is face down",
    ),
    Event("saved", ("seat",), "a dying player was saved (fewer black intel than the death count)"),
    Event(
        "skill_changed",
        ("seat", "skill", "has"),
        "a player gained (has: true) or lost a skill of its role (gain_skill, lose_skill)",
        "public while the role is face up; else that seat only",
    ),
    Event("skill_switched", ("seat", "skill", "state"), "a 转换技 turned to its other state (yang or yin)"),
    Event("status", ("seat", "status"), "a player got a status until the end of a turn", "secret ones: that seat only"),
    Event("to_deck", ("n", "bottom"), "cards were put on top of (or under) the deck, face down"),
    Event(
        "to_hand", ("seat", "cards"), "cards went to a player's hand", "public; the cards as their visibility allows"
    ),
    Event(
        "to_zone",
        ("zone", "seat", "cards"),
        "cards were put into a zone the rules declare (seat: its player's, none: the shared one)",
        "public; the cards as their zone's visibility allows",
    ),
    Event(
        "field_replaced",
        ("seat", "event", "field", "old", "new", "before", "after"),
        "改判: a player's skill replaced a field of an event the rules declare (replace_field): old and new for a "
        "card or cards, before and after for another value",
        "public; the cards as their visibility allows",
    ),
    Event(
        "picks_revealed",
        ("seats", "cards"),
        "a hidden simultaneous choice (pick_hidden) was revealed: each seat's picked card, in order, all at once",
    ),
    Event("usurp", ("seat", "replaced"), "篡夺: a player took the victory from the declared winners"),
    Event("victory", ("winners", "reason"), "the game was won"),
)
EVENTS: dict[str, Event] = {e.name: e for e in (*_TRIGGERS, *_RECORDS)}
TRIGGER_EVENTS: dict[str, Event] = {e.name: e for e in _TRIGGERS}

# The context variables of a triggered skill that only some events set, by the record fields that set them
# (engine/resolution.py's _ready: this_card from the record's card or uid, target from its target). At any other
# trigger the variable is none, so a condition reading it would never hold: E304 (content/units.py).
EVENT_SET_VARS: dict[str, tuple[str, ...]] = {"this_card": ("card", "uid"), "target": ("target",)}


def triggers_setting(var: str) -> list[str]:
    """The built-in triggers whose records set the context variable `var` (EVENT_SET_VARS)."""
    fields = EVENT_SET_VARS.get(var, ())
    return [name for name, e in TRIGGER_EVENTS.items() if any(f in e.fields for f in fields)]


# ---------------------------------------------------------------------- events declared by content
# (issue 26 item 3: a rule set's `events:`, model/declared.py). They extend TRIGGER_EVENTS for one content set:
# the checker takes `trigger:` from trigger_events(...), describe their wording, the log their fields.


def declared_event(name: str, fields: tuple[str, ...], doc: str, zh: str) -> Event:
    """The catalogue's entry for an event a content set declares: a trigger, public, worded as the rules say (or
    as '{s}的<name>时')."""
    return Event(
        name, fields, doc or "declared by the rules", trigger=True, zh=zh or "{s}的" + name + "时", card_noun="牌"
    )


def trigger_events(declared: Iterable[Event] = ()) -> dict[str, Event]:
    """What `trigger:` may name in a content set: the built-in events, then those it declares."""
    return TRIGGER_EVENTS | {e.name: e for e in declared}


# ---------------------------------------------------------------------- the language's names


@dataclass(frozen=True)
class ContextVar:
    """A value the running code can read by name, provided by its kind of unit and its timing."""

    name: str
    type: str  # a type of the language (interpreter.language.types)
    meaning: str
    where: str  # where it exists (human wording: error E304 and the docs)
    zh: str  # as a noun in generated Chinese text
    # the parts of the game state (STATE_PARTS) its value depends on; () for a value the unit is run with
    # (self, subject, this_card …: fixed for one run), None: not declared (anything)
    reads: tuple[str, ...] | None = None


CONTEXT_VARS: dict[str, ContextVar] = {
    v.name: v
    for v in (
        ContextVar(
            "self",
            "player",
            "card code: the player using (or about to use) the card. Victory: the player whose identity or "
            "secret task this is. Skill: the role's owner",
            "everywhere",
            "你",
            reads=(),
        ),
        ContextVar(
            "current",
            "player",
            "the player whose turn it is (当前回合角色)",
            "everywhere",
            "当前回合角色",
            reads=("turn",),
        ),
        ContextVar(
            "this_card",
            "card",
            "the card being used; in a triggered skill, the card of the event (the card used, the intel sent or "
            "received), if any",
            "card effects and triggered skills",
            "这张牌",
        ),
        ContextVar(
            "target",
            "player",
            "the target the user picked from the use's `target` list",
            "card uses with a `target:`, and triggered skills (the target of the card the event is about)",
            "他",
        ),
        ContextVar("dying", "player", "the dying player, who is asking for help", "the `dying` timing", "濒死角色"),
        ContextVar(
            "pending",
            "card",
            "the pending intel (待收情报)",
            "the send_idle and contest timings and triggered skills",
            "待收情报",
        ),
        ContextVar(
            "holder",
            "player",
            "the player the pending intel is in front of",
            "the send_idle and contest timings and triggered skills",
            "面前有待收情报的角色",
        ),
        ContextVar(
            "sender",
            "player",
            "the intel's sender (情报传出者; an effect that sends for someone else makes that player the sender)",
            "the send_idle and contest timings and triggered skills",
            "情报传出者",
        ),
        ContextVar(
            "used_as",
            "cardname",
            "the card name the event's card was used as",
            "triggered skills: the card name the event's card was used as (its own name, a conversion's, "
            "or a virtual card's)",
            "该牌的牌名",
        ),
        ContextVar(
            "event",
            "text",
            'the event that triggered the skill, e.g. "intel_sent" (a skill with a list of triggers, one per '
            "moment of its text, tells them apart with it)",
            "triggered skills",
            "触发此技能的时机",
        ),
        ContextVar(
            "answered",
            "cardname",
            "the card name the card answered was used as (its own name, a conversion's, or a virtual card's)",
            "the `respond` timing",
            "该牌的牌名",
            reads=(),
        ),
        ContextVar(
            "answered_user",
            "player",
            "the player who used the card answered",
            "the `respond` timing",
            "该牌的使用者",
            reads=(),
        ),
        ContextVar(
            "answered_target",
            "player",
            "the target of the card answered (none if it has none)",
            "the `respond` timing",
            "该牌的目标",
            reads=(),
        ),
        ContextVar(
            "subject",
            "player",
            "`collect_unclaimed`: the player who has `collect_count` red or blue intel (3 in the base game) but does "
            "not win by it. `receive`: the "
            "player who just received an intel. `death`: the player who just died. Triggered skill: the player "
            "the event is about",
            "triggered skills and the victory checks collect_unclaimed, receive and death",
            "该角色",
            reads=(),
        ),
    )
}


@dataclass(frozen=True)
class Constant:
    """A name with a fixed value in every unit (its value is given by the language's registry)."""

    name: str
    type: str
    zh: str


CONSTANTS: dict[str, Constant] = {
    c.name: c
    for c in (
        Constant("red", "color", "红色"),
        Constant("blue", "color", "蓝色"),
        Constant("black", "color", "黑色"),
        Constant("left", "direction", "左（←）"),
        Constant("right", "direction", "右（→）"),
        Constant("up", "direction", "上（↑）"),
        Constant("true", "bool", "是"),
        Constant("false", "bool", "否"),
        Constant("none", "none", "无"),
    )
}


@dataclass(frozen=True)
class Status:
    """A status an effect may put on a player until the end of a turn; the engine honours each."""

    name: str
    doc: str
    zh: str


STATUSES: dict[str, Status] = {
    s.name: s
    for s in (
        Status("cannot_use_cards", "cannot use hand cards this turn", "本回合不能使用手牌"),
        Status("skills_disabled", "role skills do not work this turn", "本回合角色技能无效"),
        Status("cannot_receive", "may not choose to receive intel this turn", "本回合不能选择接收情报"),
        Status("must_receive", "must receive intel this turn", "本回合必须接收情报"),
    )
}

# Kinds of role skills (`kind:` of a skill).
SKILL_KINDS: dict[str, str] = {
    "active": "used at an idle point, like a card (`timing:`)",
    "triggered": "reacts to an event (`trigger:`); the owner is asked unless `optional: false`",
    "passive": "recorded only: a standing rule is written as a triggered skill with `optional: false`",
    "victory": "takes part in the victory check (`check:` declare or co_win)",
}

# How a skill works while its role card is face down (`while_face_down:` of a skill; without it a face-down
# role's skills do not work, except those whose cost turns the role face up, `flips_up`): what the others
# hear of its use. The skill's effect is as public as what it does (an owner-only counter, a secret mark, a
# hand card: hidden; a draw: its count is public). Name -> (doc, Chinese tag for describe).
FACE_DOWN_USES: dict[str, tuple[str, str]] = {
    "silent": (
        "works while the role is face down; nobody else hears of its use: its record goes to the owner alone, and "
        "no other player's skill triggers on it",
        "角色牌面朝下时亦可发动，其他角色不知道其发动",
    ),
    "announced": (
        "works while the role is face down; the others hear that a face-down role's skill was used (a skill_used "
        "record whose skill they cannot see), not which",
        "角色牌面朝下时亦可发动，其他角色知道一名角色的背面角色牌发动了技能",
    ),
}

# Use limits of skills (限n次): scope -> Chinese template.
LIMIT_SCOPES: dict[str, str] = {"phase": "每阶段限{n}次", "turn": "每回合限{n}次", "game": "每局游戏限{n}次"}

# Types of per-copy card data (`data:` of a card type): type -> Chinese word.
DATA_TYPES: dict[str, str] = {"color": "颜色", "int": "数值", "text": "文字"}

# Colors by name: Chinese word.
COLORS: dict[str, str] = {"red": "红色", "blue": "蓝色", "black": "黑色"}

# Hints for the heuristic bot (interpreter/agents/heuristic.py, docs/bots.md): a card's, a skill's or a secret
# task's optional `bot:` says how a sensible player uses it, so the bot knows a fork's cards too and Python
# names no card. They change no rule; content without them is played generically.
BOT_CARD_TACTICS: dict[str, str] = {
    "grab": "take the pending intel when it is good for you",
    "mislead": "move the pending intel to whom it does most good",
    "swap": "replace the pending intel with a hand card",
    "decode": "look at a hidden intel before deciding to receive it",
    "clear": "remove a black intel from a camp-mate, first a dying one",
    "threaten": "take cards from the likeliest enemy",
    "probe": "learn about the seat you know least of",
    "balance": "even out hands with an enemy holding more",
    "lure": "on yourself, to complete your colour",
    "harmful": "aimed at the likeliest enemy, used now and then",
    "helpful": "aimed at the friendliest seat, used now and then",
    "pick_best": (
        "when it asks you to pick a card for yourself, take the one best for you: as intel where the effect offers that"
        " (a card sharing no colour with your intel) and it is good there, else in hand"
    ),
    "counter": (
        "answers a card before it takes effect (respond, nullify()): used against a card that hurts you or a likely"
        " camp-mate or helps a likely enemy, else kept"
    ),
}
# A skill's optional `bot:` (a role's skill): when a sensible player takes it, whatever it does. A skill without
# one is taken now and then wherever it is offered (docs/bots.md).
BOT_SKILL_TACTICS: dict[str, str] = {
    "gain": "helps its user at little cost (draws, looks, cycles cards): taken whenever offered, once a turn",
    "harmful": "hurts someone: taken when an enemy is likely, once a turn; its seat choices at the likeliest enemy",
    "helpful": "helps someone: taken when a camp-mate is likely, once a turn; its seat choices at the friendliest seat",
    "save": "saves its owner from dying: taken when the owner is dying",
    "send": "sends an intel instead of a hand card: taken when no hand card is worth sending",
    "grab": "takes the intel in transit (移至你面前, a grab card's effect): taken where the bot would use a grab card",
    "counter": "answers a card before it takes effect (respond): taken where the bot would use a `counter` card",
}
BOT_TASK_STYLES: dict[str, str] = {
    "collect": "three intel of either colour is its own win: both colours are welcome",
    "spread": "the others must hold red or blue intel: it helps every other seat to them",
    "die": "its own death with a red or blue intel wins: it takes them, then black",
    "usurp": "whoever wins in its own turn, it wins instead: in its turn it helps any seat to a third red or blue",
}


# ---------------------------------------------------------------------- limits


@dataclass(frozen=True)
class Limit:
    """A safety limit of the language or the engine: no content can make a game run longer than these allow."""

    name: str
    value: int
    code: str  # the error (or, for a clamp, the warning) that reports it
    doc: str


LIMITS: dict[str, Limit] = {
    lim.name: lim
    for lim in (
        Limit(
            "max_repeat",
            50,
            "W501",
            "`repeat n` runs its block at most this many times (a larger n is cut to it, silently); per loop, so "
            "loops inside loops multiply",
        ),
        Limit(
            "step_budget",
            20_000,
            "E501",
            "the effect steps between two decisions: each iteration of a loop inside a loop (`for`, `repeat`), "
            "each item a `where` inside a loop walks, each card or skill use, each card moved and each event "
            "count one (a unit's outermost loop is bounded by its code: free). More ends the game (checked as "
            "an inner loop starts and as a card or skill is used)",
        ),
        Limit(
            "max_nesting",
            20,
            "E502",
            "cards and skills resolving inside one another (a card use whose settlement triggers a skill that "
            "uses a card, which triggers …). One more ends the game. Under stack timing the cards waiting on the "
            "stack (max_stack) do not count against it",
        ),
        Limit(
            "max_stack",
            200,
            "E505",
            "under stack timing (rules `resolution: stack`), the cards and skills waiting on the stack at once. "
            "The rules set no depth: players answer as long as they have something to answer with (the deepest "
            "stack of 10,200 random, heuristic and mixed 10-player games of examples/stack_timing was 21; the "
            "bundled deck holds 118 cards). One more ends the game",
        ),
        Limit(
            "max_trigger_rounds",
            64,
            "E504",
            "rounds of triggered skills at one timing node, each round reacting to what the previous one did",
        ),
        Limit(
            "max_decisions",
            50_000,
            "E503",
            "decisions in one game: a game still asking after this many is stuck, and ends with what repeats",
        ),
    )
}

# ---------------------------------------------------------------------- what code reads

# The parts of the game state a query (builtins.declare's `reads`) or a context variable may read. The engine
# keeps a version of each: a check whose code reads only declared parts, and that found nothing, is not run
# again until one of them changed (engine/victory.py). A primitive or a context variable that declares
# nothing may read anything: code that uses one is checked again after any change, as before.
STATE_PARTS: dict[str, str] = {
    "intel": "the intel areas: which cards lie in front of whom, and those cards' faces (Zones.intel_changes)",
    "standing": "who is alive, out, dying or resolving a death, and each seat's identity card and secret task "
    "(Seats.standing)",
    "turn": "whose turn it is (GameCore.current)",
}

# What `validate` assumes a list holds at most when it estimates the steps of loops inside loops (W501):
# the players at a table, the cards of a large deck; any other list, its own length if written out. "players" is
# the default only: code compiled with its rules known counts their largest table (Rules.player_counts, read by the
# loader: content/build_rules.py most_players), so a fork seating 12 is counted at 12; this is the bundled game's
# most, for code compiled with no rules (one file validated on its own, a unit compiled by hand).
LOOP_ESTIMATE: dict[str, int] = {"players": 10, "cards": 120, "list": 120}


# ---------------------------------------------------------------------- error codes


ERROR_CODES: dict[str, str] = {
    "E100": "the file or directory cannot be read, or a pack lacks rules.yaml / deck.yaml",
    "E101": "YAML syntax error",
    "E102": "the file is not UTF-8",
    "E103": "the file is empty",
    "E104": "the file, or a number or text in it, is too large",
    "E105": "a single file whose kind cannot be told",
    "E110": "the file is not a mapping",
    "E111": "an unknown key",
    "E112": "a required key is missing",
    "E113": "a value of the wrong type, or not one of the allowed values",
    "E114": "a skill's moments do not fit together (a kind on the skill, a passive moment, two at one time)",
    "E115": "a skill with both `flips_up: true` and `while_face_down:` (revealing its role to work, and working "
    "hidden)",
    "E120": "the same id is used twice",
    "E121": "a reference to something that does not exist",
    "E122": "an identity table row does not add up to its player count",
    "E124": "a pack extends a pack that is loaded after it (packs that extend each other) or not at all, or a "
    "chain of `extends:` more than 64 packs deep",
    "E125": "the rules' `turn:` breaks the turn's order: no phase that sends intel, or a contest or receive phase "
    "without a send phase before it (or twice after one), or an intel sent and never received",
    "E126": "an identity table deals more secret tasks (神秘人) at a player count than the content has",
    "E127": "a deck too small for the player counts it is played at",
    "E128": "stack timing with an idle point at a speed it cannot have: a fast send (send_start or need_send), "
    "two intels could be in transit at once; a slow respond, never offered",
    "E201": "syntax error in effect code (also a number of more than 9 digits, code nested too deeply)",
    "E301": "unknown name or function",
    "E302": "wrong type, or a mark or data read whose type nothing says",
    "E303": "wrong arguments",
    "E304": "a name or primitive that does not exist at this timing",
    "E305": "unknown card name in 【…】",
    "E306": "unknown status name",
    "E307": "a statement that does nothing, or not an expression where one is needed",
    "E308": "a `let` redefines a name of the language",
    "E309": "a choice offers another player's hand cards face up to a chooser who cannot see them",
    "E310": "a counter the rules do not declare (`counters:`), or one named by a text computed in play",
    "E311": "a zone the rules do not declare (`zones:`)",
    "E312": "an event the rules do not declare (`events:`), named by emit or reveal_top",
    "E313": "an event's field unknown, left out or of another type (emit, replace_field), or an event that "
    "cannot be a judgement (reveal_top)",
    "E314": "replace_field outside a skill reacting to declared events, or on a field not `replaceable`",
    "E315": "code that may send two intels on one run (two sends in a row, a send in a loop)",
    "E316": "an idle point that is not one (use_card's or usable's `at:`), or one named by a text computed in play",
    "E317": "an action, a choice or a random draw (shuffled) in a condition, a target rule or a victory check",
    "E501": "a game ran out of its step budget between two decisions (a runaway loop or chain of uses)",
    "E502": "cards and skills resolving inside one another too deeply (a use that re-triggers itself)",
    "E503": "a game is stuck: it asked more decisions than a game can take",
    "E504": "triggered skills keep triggering each other at one timing node",
    "E505": "more cards and skills waiting on the stack at once than the stack limit (stack timing)",
    "W116": "a skill with `flips_up: true` on a role that is not hidden (it starts face up)",
    "W117": "a skill without `text:` (players at the table read only its name)",
    "W118": "a pack replaces a rule that another pack it does not extend changed (that pack's change is lost)",
    "W129": "an identity table row for more players than the commands, logs, saves and web tables seat (MAX_SEATS)",
    "W301": "a mark read as another kind of value than it is set to, or never set in the pack",
    "W501": "loops inside loops that could run past the step budget",
    "W502": "a use instead of sending an intel whose effect never sends one",
}
