"""The heuristic bot and role skills: a skill's `bot:` hint (catalogue.BOT_SKILL_TACTICS) says when it is taken, a
skill without one is taken now and then wherever it is offered, and the engine counts what was offered and taken
(Game.skill_offers, Game.skill_uses) for the balance report and bench/skills.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import fengsheng
from interpreter import catalogue
from interpreter.agents.heuristic import HeuristicAgent
from interpreter.agents.hints import hints_of
from interpreter.content.loader import load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.errors import GameOver
from interpreter.engine.table import build
from interpreter.sim.batch import play_game
from interpreter.sim.summary import game_record

RED_BIT, BLACK_BIT = 1, 4
SCHEMA = Path(__file__).resolve().parents[1] / "schema"

# A made-up role: its only skill wins its owner the game where it sits (two red intel, a red card on the deck).
CLOSER = """\
id: demo_closer
name: 测试收尾人
title: 测试用
gender: male
hidden: false
skills:
  - id: demo_close
    name: 收尾
    text: 出牌阶段限一次，你可以将牌堆顶的一张牌置入自己的情报区。
    kind: active
    timing: play_phase
    limit: {per: phase}
{hint}    effect: |
      collect(top_card(), self)
"""


def _fork(tmp_path: Path, hint: str):
    role = tmp_path / "fork" / "roles" / "demo_closer.yaml"
    role.parent.mkdir(parents=True, exist_ok=True)
    role.write_text(CLOSER.replace("{hint}", f"    bot: {hint}\n" if hint else ""), encoding="utf-8")
    return load_content(resolve_packs([tmp_path / "fork"], ["none"]))


def _cards(content, mask: int) -> list[int]:
    return [e.uid for e in content.deck if e.mask == mask]


def _play_the_position(content, seed: int) -> GameOver | None:
    """Seat 0 (潜伏战线, the made-up role, two red intel) at its play phase, a pure red card on top of the deck:
    its skill wins it the game at once. Heuristic bots at every seat."""
    red, black = _cards(content, RED_BIT), _cards(content, BLACK_BIT)
    seats = [
        {"identity": "qian_fu_zhan_xian", "hand": [black[0], black[1]], "intel": red[:2]},
        {"identity": "te_gong_ji_guan", "hand": [black[2]], "intel": []},
        {"identity": "te_gong_ji_guan", "hand": [black[3]], "intel": []},
    ]
    hints = hints_of(content)
    g = build(content, seats, [HeuristicAgent(seed * 3 + s, hints) for s in range(3)], deck_top=[red[2]], seed=seed)
    g.players[0].new_role(content.roles["demo_closer"], True)
    g.skills.index_triggers()
    try:
        g.play_turn("play")
    except GameOver as over:
        assert g.skill_offers[("demo_closer", "收尾")] >= 1
        return over
    return None


def test_the_bot_takes_a_made_up_roles_skill_to_win(tmp_path):
    """With `bot: gain` the bot takes the skill that wins it the game, every time; without a hint it takes it only
    now and then, so the position is lost in most games (the test fails if the bot ignores the skill)."""
    hinted = _fork(tmp_path / "a", "gain")
    assert hints_of(hinted).skills["demo_close"] == "gain"
    for seed in range(8):
        over = _play_the_position(hinted, seed)
        assert over is not None and [p.seat for p in over.winners] == [0], f"seed {seed}"
    plain = _fork(tmp_path / "b", "")
    won = sum(_play_the_position(plain, seed) is not None for seed in range(8))
    assert won < 8


def _obs(kind: str, dying: bool = False, intel: dict | None = None) -> dict:
    players = [
        {
            "seat": s,
            "alive": True,
            "dying": dying and s == 0,
            "hand_count": 3,
            "intel": [],
            "intel_counts": {"red": 0, "blue": 0, "black": 0, **((intel or {}) if s == 0 else {})},
        }
        for s in range(3)
    ]
    return {
        "seat": 0,
        "players": players,
        "phase": "play",
        "transit": None,
        "discard": [],
        "me": {"identity": "qian_fu_zhan_xian", "task": None, "hand": []},
        "known_identities": {},
        "history": [],
        "decision": {"kind": kind, "prompt": "", "source": ""},
    }


def _hints(**skills: str):
    base = hints_of()
    return type(base)(base.tactics, base.camps, base.styles, base.table, skills)


SKILL = {"id": 7, "kind": "skill", "skill": "demo", "name": "测试", "label": "skill 测试"}
PASS = {"id": 8, "kind": "pass", "label": "pass"}


def test_a_save_skill_is_taken_when_its_owner_is_dying_only():
    hints = _hints(demo="save")
    for seed in range(10):
        assert HeuristicAgent(seed, hints).act(_obs("play", dying=True), (SKILL, PASS)) == 7
    assert sum(HeuristicAgent(seed, hints).act(_obs("play"), (SKILL, PASS)) == 7 for seed in range(30)) == 0


def test_a_send_skill_replaces_a_bad_send_and_not_a_good_one():
    """`bot: send`: taken when no hand card is worth sending (a blue card for a red seat), not when one is (a red
    card that makes its third red whatever happens to it)."""
    hints = _hints(demo="send")

    def card(color: str) -> dict:
        return {"id": 3, "kind": "card", "label": "card", "card": {"colors": [color], "direction": "left"}}

    for seed in range(10):
        bad = HeuristicAgent(seed, hints).act(_obs("send"), (card("blue"), SKILL))
        good = HeuristicAgent(seed, hints).act(_obs("send", intel={"red": 2}), (card("red"), SKILL))
        assert (bad, good) == (7, 3), f"seed {seed}"


def test_a_grab_skill_is_taken_where_a_grab_card_would_be_used():
    """`bot: grab` (a skill that takes the intel in transit, as 截获 does): taken in the contest where the bot would
    use 截获 — a red intel to a red seat — and not where it would not — a third black, a blue to a red seat. Without
    the hint such a skill (a 限定技 among them) was taken now and then, at the first contest that offered it."""
    hints = _hints(demo="grab")
    grab = {"id": 9, "kind": "use", "label": "use 截获", "as": "jie_huo"}

    def contest(colors: list[str], mine: dict) -> dict:
        obs = _obs("play", intel=mine)
        obs["phase"] = "contest"
        card = {"colors": colors, "direction": "left"}
        obs["transit"] = {"pending": True, "holder": 1, "sender": 2, "card": card, "face_up": True, "lock": None}
        return obs

    for colors, mine, taken in ((["red"], {"red": 2}, True), (["black"], {"black": 2}, False), (["blue"], {}, False)):
        for seed in range(10):
            skill = HeuristicAgent(seed, hints).act(contest(colors, mine), (SKILL, PASS)) == 7
            card = HeuristicAgent(seed, hints).act(contest(colors, mine), (grab, PASS)) == 9
            assert skill == card == taken, (colors, mine, seed)


def test_an_unhinted_skill_is_taken_now_and_then_wherever_it_is_offered():
    """A skill with no hint, offered with the send (where the bot once looked only at hand cards): now and then."""
    card = {"id": 3, "kind": "card", "label": "card", "card": {"colors": ["blue"], "direction": "left"}}
    taken = sum(HeuristicAgent(seed).act(_obs("send"), (card, SKILL)) == 7 for seed in range(100))
    assert 3 < taken < 40


def test_a_card_no_rule_covers_is_used_now_and_then_as_an_unhinted_skill():
    """At an idle point a card whose tactic has no play rule is used as often as a skill without a hint (PLAY_OTHER,
    about 15%: a balance sweep measures a fork's new card with it in play; at 5% it was used a third as often for
    no gain of the bot's own, docs/bots.md), from the same draws."""
    use = {"id": 9, "kind": "use", "label": "use 偷看", "as": "tou_kan"}  # (a card kind the hints do not know)
    skill = sum(HeuristicAgent(seed).act(_obs("play"), (SKILL, PASS)) == 7 for seed in range(300))
    card = sum(HeuristicAgent(seed).act(_obs("play"), (use, PASS)) == 9 for seed in range(300))
    assert 30 < skill < 70 and card == skill, (skill, card)


def test_the_skill_tactics_of_the_schema_are_the_catalogues():
    """The role schema's `bot:` words are catalogue.BOT_SKILL_TACTICS (and the card and task schemas' theirs)."""
    role = json.loads((SCHEMA / "role.schema.json").read_text(encoding="utf-8"))
    card = json.loads((SCHEMA / "card.schema.json").read_text(encoding="utf-8"))
    task = json.loads((SCHEMA / "secret_task.schema.json").read_text(encoding="utf-8"))
    assert role["properties"]["skills"]["items"]["properties"]["bot"]["enum"] == list(catalogue.BOT_SKILL_TACTICS)
    assert card["properties"]["bot"]["enum"] == list(catalogue.BOT_CARD_TACTICS)
    assert task["properties"]["bot"]["enum"] == list(catalogue.BOT_TASK_STYLES)


def test_a_misspelt_skill_hint_is_refused_at_its_line(tmp_path):
    from interpreter.content.diagnostics import ContentErrors

    with pytest.raises(ContentErrors) as e:
        _fork(tmp_path, "gian")
    assert "demo_closer.yaml" in str(e.value) and "gain" in str(e.value)


@pytest.mark.parametrize("agents", [None, ("heuristic",) * 5])
def test_every_skill_use_was_offered(content, agents):
    """Offered and taken as the engine counts them: a skill is used only at a question that offered it (or, forced,
    when it fired), so in every game each skill's uses are at most its offers; the game's record carries both."""
    offered = 0
    for g in range(6):  # (about 100 offers and 55 uses; 230-310 and 100-120 in 12 games)
        game, failure = play_game(content, 5, 300 + g, agents=agents)
        assert failure is None
        for key, uses in game.skill_uses.items():
            assert uses <= game.skill_offers.get(key, 0), f"game {g}: {key} used {uses}, offered {game.skill_offers}"
        offered += sum(game.skill_offers.values())
        assert game.result is not None
        rec = game_record(game, game.result)
        assert sum(rec["skill_offers"].values()) == sum(game.skill_offers.values())
    assert offered > 50


def test_a_harmful_skill_is_aimed_at_the_enemy_it_knows():
    """`bot: harmful`: taken when an enemy is likely, and the seat choice its effect asks next (a question with no
    source: the bot follows the skill it started) goes to the likeliest enemy; `helpful` to the friendliest."""
    seats = [{"id": 20 + s, "kind": "seat", "seat": s, "label": f"P{s}"} for s in (1, 2)]
    for tactic, aim in (("harmful", 2), ("helpful", 1)):
        for seed in range(5):
            bot = HeuristicAgent(seed, _hints(demo=tactic))
            obs = _obs("play")
            obs["known_identities"] = {"1": "qian_fu_zhan_xian", "2": "te_gong_ji_guan"}  # a camp-mate, an enemy
            assert bot.act(obs, (SKILL, PASS)) == 7
            obs["decision"] = {"kind": "choose", "prompt": "令谁弃置手牌", "source": ""}
            assert bot.act(obs, seats) == 20 + aim, (tactic, seed)


class _Stop(Exception):
    pass


class _Watched(HeuristicAgent):
    """A heuristic bot that notes its answer to the first question at `respond` (its decision names the card use it
    would answer), then stops the game."""

    def act(self, observation, actions):
        choice = super().act(observation, actions)
        answering = observation["decision"]["answering"] if observation["decision"] is not None else None
        if answering:
            self.seen = (answering, next(d["label"] for d in actions if d["id"] == choice))
            raise _Stop
        return choice


def _respond_answer(
    user_hand: list[int], identities: tuple[str, str], intel: list[int], script: list[str], seed: int, stack=False
):
    """P0 (scripted) uses a card on P1, a heuristic bot holding 看破 (#401) and a blue 威逼 (examples/respond; `stack`:
    under stack timing, its tests' rules): the use P1's question at `respond` names, and what P1 answers."""
    from interpreter.agents.scripted import ScriptedAgent

    pack = Path(__file__).resolve().parents[1] / "examples" / "respond"
    content = load_content(resolve_packs([pack, *([pack / "tests" / "stack"] if stack else [])], ["none"]))
    seats = [
        {"identity": identities[0], "hand": user_hand},
        {"identity": identities[1], "hand": [401, 31], "intel": intel},
        {"identity": "shen_mi_ren"},
    ]
    hints = hints_of(content)
    bot = _Watched(seed, hints)
    g = build(content, seats, [ScriptedAgent(script), bot, HeuristicAgent(seed + 1, hints)], seed=seed)
    with pytest.raises(_Stop):
        g.play_turn("play")
    return bot.seen


def test_a_counter_card_answers_an_enemys_harmful_card_at_itself_and_not_a_friends_helpful_one():
    """`bot: counter` (看破 in examples/respond): the bot answers a 试探 an enemy aims at it (a `probe`, harmful to its
    target), every time, and lets a camp-mate's 澄清 of its black intel take effect, every time. Without the rule
    看破 is used now and then (15%) whatever the card answered: these seeds answer the 试探 in 1 game of 8, the 澄清
    in 3 of 30 (the agents of main before the rule)."""
    for seed in range(8):
        answering, label = _respond_answer([1], ("te_gong_ji_guan", "qian_fu_zhan_xian"), [], ["use 试探", "P1"], seed)
        assert answering == ({"seat": 0, "card": "shi_tan", "target": 1},)
        assert label.startswith("use") and "看破" in label, (seed, label)
    for seed in range(30):
        answering, label = _respond_answer(
            [51], ("qian_fu_zhan_xian", "qian_fu_zhan_xian"), [35], ["use 澄清", "P1"], seed
        )
        assert answering == ({"seat": 0, "card": "cheng_qing", "target": 1},)
        assert label == "pass", (seed, label)
    # under stack timing (the question is the priority round's, while the card use is on top): the same
    for seed in range(3):
        answering, label = _respond_answer(
            [1], ("te_gong_ji_guan", "qian_fu_zhan_xian"), [], ["use 试探", "P1"], seed, stack=True
        )
        assert answering == ({"seat": 0, "card": "shi_tan", "target": 1},) and "看破" in label, (seed, label)
        answering, label = _respond_answer(
            [51], ("qian_fu_zhan_xian", "qian_fu_zhan_xian"), [35], ["use 澄清", "P1"], seed, stack=True
        )
        assert answering == ({"seat": 0, "card": "cheng_qing", "target": 1},) and label == "pass", (seed, label)


def test_a_counter_card_answers_a_counter_by_what_that_one_voids():
    """A 看破 answering a card (the decision's `answering`: the 看破, then the card it answers) is worth minus that
    card: the bot answers a 看破 of a 澄清 aimed at itself (it wants the 澄清) and lets one of a 试探 at it through."""
    base = hints_of()
    hints = type(base)({**base.tactics, "kan_po": "counter"}, base.camps, base.styles, base.table, {})
    use = {"id": 5, "kind": "use", "label": "use 看破", "as": "kan_po", "card": {"colors": ["black"]}}

    def answer(card: str, seed: int) -> int:
        obs = _obs("play")
        chain = ({"seat": 2, "card": "kan_po", "target": None}, {"seat": 1, "card": card, "target": 0})
        obs["decision"] = {**obs["decision"], "answering": chain}
        return HeuristicAgent(seed, hints).act(obs, (use, PASS))

    assert all(answer("cheng_qing", seed) == 5 for seed in range(20))
    assert all(answer("shi_tan", seed) == 8 for seed in range(20))


def test_a_counter_cards_use_outside_respond_is_used_now_and_then():
    """A `counter` card's rule answers a card use at `respond` (_answer); a use of the same card elsewhere (a fork's
    card that also draws at the play phase) is no rule's, so it is used now and then as any such use (PLAY_OTHER).
    It counted as covered by a rule everywhere, so outside `respond` it was never used (0 of 200 here); at `respond`
    the counter rule's pass still stands (no use picked at random there)."""
    base = hints_of()
    hints = type(base)({**base.tactics, "kan_po": "counter"}, base.camps, base.styles, base.table, {})
    use = {"id": 5, "kind": "use", "label": "use 看破", "as": "kan_po", "card": {"colors": ["black"]}}
    idle = [HeuristicAgent(seed, hints).act(_obs("play"), (use, PASS)) for seed in range(200)]
    assert 10 <= idle.count(5) <= 60, idle.count(5)  # (PLAY_OTHER: 15%)

    def answering(seed: int) -> int:  # a camp-mate's 澄清 of its own intel: worth letting through
        obs = _obs("play")
        obs["decision"] = {**obs["decision"], "answering": ({"seat": 1, "card": "cheng_qing", "target": 0},)}
        return HeuristicAgent(seed, hints).act(obs, (use, PASS))

    assert [answering(seed) for seed in range(200)].count(5) == 0


def test_a_counter_skill_that_leaves_the_card_standing_is_used_once_a_use(tmp_path):
    """A skill hinted `bot: counter` with no limit, no cost and no nullify (a made-up 窥探: draw a card) is offered
    again at once after each use: the bot answered the same card use with it for ever, and every game it was dealt
    in ended stuck (E503: 2 of 3 here). It answers a card use with such a skill once; the games end, and it is used."""
    packs = [
        Path(__file__).resolve().parents[1] / "examples" / "respond",
        Path(__file__).parent / "fixtures" / "counter_loop_pack",
    ]
    log = tmp_path / "g.jsonl"
    args = ["simulate", "--role", "demo_kui_tan", "--agents", "heuristic", "-p", "5", "-n", "3", "-s", "1", "-j", "1"]
    r = fengsheng(*args, "--content", packs[0], "--content", packs[1], "--log", log, "--format", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["failures"] == [], r.stdout[:500]
    assert log.read_text(encoding="utf-8").count('"skill": "demo_kui_tan"') >= 3


def test_a_counter_skill_answers_each_card_use_even_one_like_the_last():
    """Once a use (a `counter` skill that leaves the card standing): a second use of the same card by the same seat at
    the same target (two 试探 in one play phase, the bot asked nothing else between) is another use, answered too. The
    bot told them apart by (user, card, target) alone, so it let the second through (the first's answer kept until
    its own next idle point); its card_used record, the latest like it in the history, names the use."""
    hints = _hints(demo="counter")
    used = {"e": "card_used", "seat": 1, "card": "shi_tan", "uid": 3, "timing": "play_phase", "target": 0}

    def obs(uses: int) -> dict:
        o = _obs("play")
        o["history"] = [{**used, "uid": 3 + k} for k in range(uses)]
        o["decision"] = {**o["decision"], "answering": ({"seat": 1, "card": "shi_tan", "target": 0},)}
        return o

    for seed in range(5):
        bot = HeuristicAgent(seed, hints)
        assert bot.act(obs(1), (SKILL, PASS)) == 7  # (a 试探 at itself: answered)
        assert bot.act(obs(1), (SKILL, PASS)) == 8  # (the same use, offered again: once a use)
        assert bot.act(obs(2), (SKILL, PASS)) == 7, seed  # another use like it
        assert bot.act(obs(2), (SKILL, PASS)) == 8
