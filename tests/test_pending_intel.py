"""The pending intel under any effect (issue 26, item 9; docs/rulings.md R169): random effect programs move, take,
replace and reveal the intel on its way at every point of the send / contest / receive cycle, and the engine
neither raises nor loses track of a card.

Each example writes a made-up role whose skills run a drawn program: triggered at each event of the intel's
journey (the send phase's start, sent, arrives, accepted, a card used and resolved, an intel collected, a player
dying, received, the turn's end) and active at
the two idle points where the pending intel may be touched (传递阶段空闲时点 — the sender's own too, when a
declined ↑ intel or one gone round comes back to him — and 争夺阶段). A program is one to three statements:
take the intel into a hand, give, discard, collect, remove or put it on the deck, put it in an intel area in
place of another intel; reveal it; turn it face up, put another card in its place (set_pending, swap_pending),
move it, end the contest. Every seat gets the role; random seats play a few turns of the base game (its deck,
cards and rules; half the examples under stack timing), and at every decision of every seat the zones are
checked: every card in exactly one zone, and a pending intel only while an intel is on its way (a transit and
a holder, in a send, contest or receive phase).

The everyday run plays a few derandomized examples; the slow run many more. Over the examples the programs
must have run at each moment, and at the sender after an ↑ intel he sent came back (the point of the crash
this guards against).
"""

from __future__ import annotations

import random
import tempfile
import textwrap
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from interpreter.content.loader import BUNDLED_CONTENT, load_content
from interpreter.engine.errors import EngineError
from interpreter.engine.game import Game
from interpreter.engine.state import PENDING

STACK_TIMING = Path(__file__).parent.parent / "examples" / "stack_timing"

PLAYER = st.sampled_from(["self", "holder", "sender", 'choose(from: alive(), prompt: "谁")'])
CARD = st.sampled_from(
    ['choose(from: hand(self), prompt: "哪张")', "top_card()", "pending", 'choose(from: intel(holder), prompt: "哪张")']
)
# what any unit may do with the pending intel (a trigger's as well as an idle point's)
ANYWHERE = [
    st.builds("put_in_hand(pending, {})".format, PLAYER),
    st.builds("give(pending, {})".format, PLAYER),
    st.just("discard(pending)"),
    st.builds("collect(pending, {})".format, PLAYER),
    st.just("remove(pending)"),
    st.just("put_on_deck(pending)"),
    st.builds('replace_intel(choose(from: intel({}), prompt: "哪张"), pending)'.format, PLAYER),
    st.just("reveal(pending)"),
    st.builds("reveal(pending, to: [{}])".format, PLAYER),
    st.just("draw(self, 1)"),
    st.just("draw(self, 1)"),
    st.just("reveal(pending)"),
]
SEND_IDLE = [*ANYWHERE, st.just("flip_pending()"), st.builds("set_pending({})".format, CARD)]
SEND_IDLE.append(st.builds("set_pending({}, face_up: true)".format, CARD))
CONTEST = [
    *SEND_IDLE,
    st.builds("move_pending({})".format, PLAYER),
    st.builds("swap_pending({})".format, CARD),
    st.just("end_contest()"),
]
# the moments: (skill kind, its timing or trigger, the statements it may use)
MOMENTS = [
    ("triggered", "send_phase_start", ANYWHERE),
    ("triggered", "intel_sent", ANYWHERE),
    ("triggered", "intel_arrives", ANYWHERE),
    ("triggered", "intel_accepted", ANYWHERE),
    ("triggered", "card_used", ANYWHERE),
    ("triggered", "card_resolved", ANYWHERE),
    ("triggered", "collect", ANYWHERE),
    ("triggered", "dying", ANYWHERE),
    ("triggered", "received", ANYWHERE),
    ("triggered", "turn_end", ANYWHERE),
    ("active", "send_idle", SEND_IDLE),
    ("active", "contest", CONTEST),
]


SEND_IDLE_SKILL = f"meddle_{[when for _, when, _ in MOMENTS].index('send_idle')}"


def program(statements: list) -> st.SearchStrategy[list[str]]:
    return st.lists(st.one_of(statements), min_size=1, max_size=3)


# who a trigger fires for (most take the intel away: a skill that fires for everyone, every time, would leave the
# later moments of the cycle unreached)
CONDITIONS = ["", "subject == self", "subject != self", "self == holder", "self == sender", "self == current"]


def programs() -> st.SearchStrategy[list[tuple[str, list[str]] | None]]:
    """For every moment: none (the role has no skill there), or a condition and a program."""
    return st.tuples(
        *(st.one_of(st.none(), st.tuples(st.sampled_from(CONDITIONS), program(stmts))) for _, _, stmts in MOMENTS)
    ).map(list)


def role_yaml(progs: list[tuple[str, list[str]] | None]) -> str:
    skills = []
    for i, ((kind, when, _), drawn) in enumerate(zip(MOMENTS, progs, strict=True)):
        if drawn is None:
            continue
        cond, prog = drawn
        condition = f"    condition: {cond}\n" if cond and kind == "triggered" else ""
        key = "timing" if kind == "active" else "trigger"
        # an idle point asks again after each use, and a trigger on a card used fires at each response (under
        # stack timing, each on the stack): without a limit, a random table keeps going until E505 ends the game
        limit = "    limit: {per: turn}\n" if kind == "active" else "    limit: {per: turn, times: 2}\n"
        body = textwrap.indent("\n".join(prog), "      ")
        skills.append(
            f"  - id: meddle_{i}\n    name: 搅动{i}\n    text: 测试。\n    kind: {kind}\n    {key}: {when}\n"
            f"{limit}{condition}    effect: |\n{body}\n"
        )
    head = "id: demo_meddler\nname: 测试搅动\ntitle: 测试用\ngender: male\nhidden: false\nskills:\n"
    return head + ("".join(skills) or "  []\n")  # (`skills:` then `  []`: no skill)


class CheckingSeat:
    """A seeded random seat that, at each decision it is asked, checks the whole table first."""

    observes = True  # the observation is built at every decision: the seat boundary is exercised too
    searches = False
    referee = False

    def __init__(self, seed: int, check) -> None:
        self.rng = random.Random(seed)
        self.check = check

    def act(self, observation, actions) -> int:
        self.check()
        return actions[self.rng.randrange(len(actions))]["id"]


def check_table(g: Game) -> None:
    """Every card in exactly one zone; a pending intel only while one is on its way."""
    g.check_invariants()
    card = g.zones.pending
    if card is not None:
        assert card.zone == PENDING, card
        assert g.flow.transit is not None, f"{card} pending with no intel on its way"
        assert g.flow.holder is not None, f"{card} pending in front of nobody"
        kind = g.flow.kind_of.get(g.phase)
        assert kind in ("send", "contest", "receive"), f"{card} still pending at {g.phase}"


def play(progs, players: int, meddlers: int, seed: int, stack: bool, turns: int, reached: Counter) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / "meddler"
        (pack / "roles").mkdir(parents=True)
        (pack / "roles" / "demo_meddler.yaml").write_text(role_yaml(progs), encoding="utf-8")
        content = load_content([BUNDLED_CONTENT, *([STACK_TIMING] if stack else []), pack])
    role = content.roles["demo_meddler"]
    holder: list[Game] = []
    agents = [CheckingSeat(seed * 100 + i, lambda: check_table(holder[0])) for i in range(players)]
    g = Game(content, players, seed, agents, record=True, max_turns=turns)
    holder.append(g)
    g.setup()
    for p in g.players[: min(meddlers, players)]:  # the others keep the roles dealt
        p.new_role(role, True)
    g.skills.index_triggers()
    try:
        g.run()
    except EngineError as e:
        if e.code is None:  # not a safety limit content ran into (docs/errors.md E501-E505): a bug
            raise
        # random seats answering every use under stack timing may pile more than max_stack uses (E505): the
        # game ends there, cleanly, and the table must still be consistent
        reached[f"ended by {e.code}"] += 1
    check_table(g)
    assert len(g.cards) == len(content.deck_for(players))  # no card created or lost
    count_moments(g, reached)


def count_moments(g: Game, reached: Counter) -> None:
    """Which moments' programs ran in this game, and whether one ran at the sender after his ↑ intel came back."""
    sent: dict | None = None
    back = False
    for e in g.log:
        kind = e.get("e")
        if kind == "intel_sent":
            sent, back = e, False
        elif kind == "intel_arrives" and sent is not None and sent["direction"] == "up":
            back = e["seat"] == sent["seat"]
        elif kind == "skill_used" and e.get("skill", "").startswith("meddle_"):
            reached[MOMENTS[int(e["skill"][len("meddle_") :])][1]] += 1
            if back and e["skill"] == SEND_IDLE_SKILL and e["seat"] == sent["seat"]:
                reached["the sender, his ↑ intel back"] += 1
        elif kind == "turn_start":
            sent, back = None, False


@pytest.mark.parametrize(
    ("examples", "turns"), [(25, 8), pytest.param(300, 20, marks=pytest.mark.slow)], ids=["everyday", "slow"]
)
def test_random_programs_on_the_pending_intel_keep_the_zones_consistent(examples, turns):
    reached: Counter = Counter()

    @settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        print_blob=True,
        suppress_health_check=list(HealthCheck),
        phases=(Phase.explicit, Phase.reuse, Phase.generate),  # shrinking replays whole games: minutes
    )
    @given(programs(), st.integers(2, 6), st.integers(1, 3), st.integers(0, 2**32), st.booleans())
    def one(progs, players, meddlers, seed, stack):
        play(progs, players, meddlers, seed, stack, turns, reached)

    one()
    missing = [m for _, m, _ in MOMENTS if not reached[m] and m != "dying"]  # dying: only when 3 black came
    assert not missing, f"no program ran at {missing} in {examples} examples: {dict(reached)}"
    assert reached["the sender, his ↑ intel back"], dict(reached)
    limits = sum(n for k, n in reached.items() if k.startswith("ended by"))
    assert limits <= examples // 10, f"too many games ended by a safety limit to test much: {dict(reached)}"
