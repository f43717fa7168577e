"""The message catalogue (interpreter/messages.py): every decision names who asks, every line its subject, answers
echo as their option read, one sentence per event."""

from __future__ import annotations

import random
import re

from interpreter.content.loader import load_cached
from interpreter.engine.step import GameState
from interpreter.messages import asker_rules, decision_text, event_text, prompt_text
from interpreter.seat_text import Names, intel_under_way, player_states, transit_text

SKILL = re.compile(r"［[^］]+］")
CARD = re.compile(r"【[^】]+】")


def _games(seeds, players):
    """Each decision of fixed games (random answers from a seeded generator: the seed and the answers replay
    them): the asked seat's observation and legal descriptors."""
    content = load_cached()
    for seed in seeds:
        state = GameState(content, players, seed, max_turns=40)
        rng = random.Random(seed)
        while not state.is_terminal():
            seat = state.current_player()
            yield state.observation(seat), state.action_descriptors()
            state.apply_action(rng.choice(state.legal_actions()))


def test_every_decision_of_a_recorded_game_names_who_asks_and_through_what():
    names = Names(load_cached())
    asked_by = {"rules": 0, "skill": 0, "card": 0}
    for obs, _ in _games(range(6), 5):
        dec, me = obs["decision"], obs["seat"]
        text = prompt_text(obs, names)
        if dec["asker"] is None:
            assert text.startswith("规则："), text
            assert not dec["skill"]
            asked_by["rules"] += 1
            continue
        who = "你的" if dec["asker"] == me else f"P{dec['asker']} 的"
        assert text.startswith(who), text
        if dec["skill"]:
            assert SKILL.match(text[len(who) :]), text
            assert asker_rules(obs, names) and names.skill_text(dec["skill"]) in asker_rules(obs, names)[0]
            # public: the seat was told of that skill's use (or it is its own confirm of its own skill)
            told = any(
                r.get("e") == "skill_used" and r["seat"] == dec["asker"] and r["skill"] == dec["skill"]
                for r in obs["history"]
            )
            assert told or (dec["kind"] == "confirm" and dec["asker"] == me), (text, dec)
            asked_by["skill"] += 1
        else:
            assert CARD.match(text[len(who) :]), text
            asked_by["card"] += 1
    assert all(asked_by.values()), asked_by  # the games met questions of all three kinds


def test_an_answer_echoes_as_its_option_read():
    """Declining the lock reads 不锁定 (as the menu said), a direction as its menu text, not the engine's words."""
    rec = {"d": "lock", "seat": 1, "n": 3, "choice": 0, "label": "不", "prompt": "锁定谁", "source": ""}
    assert decision_text(rec, 1) == "你选择了：不锁定（问：锁定谁）"
    assert "不（" not in decision_text(rec, 1)
    rec = {"d": "direction", "seat": 2, "n": 2, "choice": 0, "label": "left", "prompt": "方向", "source": ""}
    assert decision_text(rec, 1) == "P2 选择了：左（←）（问：方向）"
    rec = {"d": "choose", "seat": 2, "n": 2, "choice": 1, "label": "不", "prompt": "弃置一张手牌", "source": ""}
    assert decision_text(rec, 2) == "你选择了：不选（问：弃置一张手牌）"


def test_every_line_names_its_subject_and_one_collect_is_one_line():
    names = Names(load_cached())
    assert event_text({"e": "reveal", "seat": 3, "cards": [38]}, 0, names, {}).startswith("P3 展示：")
    # 查看: a look by some seats only (the reader among them) does not read as a show to the table
    looked = event_text({"e": "reveal", "seat": 3, "cards": [38], "private": True}, 0, names, {})
    assert looked.startswith("查看 P3 的牌（只给查看的人看）：") and "展示" not in looked
    assert event_text({"e": "discard", "seat": 2, "cards": [115]}, 0, names, {}).startswith("P2 弃置：")
    collect = {"e": "collect", "seat": 1, "cards": [42]}
    assert event_text(collect, 0, names, {}) == "P1 把 利诱#42(黑→锁) 置入情报区"
    assert event_text({"e": "skill_collect", "seat": 1, "card": 42}, 0, names, {}) is None
    # the roles dealt, in the referee's log: a sentence, not the raw record
    assert event_text({"e": "roles", "roles": ["li_ning_yu"]}, -1, names, {}).startswith("发到的角色：P0：")


def test_the_engine_names_the_subject_of_discards_and_shows_from_a_hand():
    """In played games, a discard or a show of cards from one player's hand carries that seat, so every line
    of a discard from a hand says who (the hand limit, an effect's discard)."""
    seen = {"discard": 0, "reveal": 0}
    for obs, _ in _games(range(3), 5):
        for r in obs["history"]:
            if r.get("e") in seen and r.get("seat") is not None:
                seen[r["e"]] += 1
    assert seen["discard"] > 0, seen


def test_the_transit_panel_says_an_intel_just_sent_is_in_front_of_nobody():
    names = Names(load_cached())
    history = [{"e": "turn_start", "seat": 0, "turn": 1}, {"e": "intel_sent", "seat": 0, "direction": "left"}]
    assert intel_under_way(history)
    assert not intel_under_way([*history, {"e": "intel_arrives", "seat": 4}])
    obs = {
        "seat": 0,
        "history": history,
        "transit": {
            "sender": 0,
            "direction": "left",
            "target": None,
            "lock": None,
            "holder": 0,
            "pending": True,
            "face_up": False,
            "card": None,
            "known_as": None,
        },
    }
    text = transit_text(obs, names)
    assert text is not None and "面前" not in text.plain.replace("还没有到任何人面前", ""), text.plain
    assert "还没有到任何人面前" in text.plain


# a plausible value for each field of a record, by its name (a seat, a count, card types, a mark's key …)
_FIELD_VALUES = {
    "players": 5,
    "first": 0,
    "n": 2,
    "roles": ["bai_kun_shan", None],
    "cards": [],
    "winners": [1],
    "reason": "collect",
    "must": [0],
    "cannot": [2, 3],
    "key": "体力",
    "value": 3,
    "state": "yin",
    "direction": "up",
    "turn": 3,
    "seats": [1, 2],
    "zone": "桌面",
    "face_up": True,
    "bottom": False,
}


def test_every_event_the_engine_records_reads_as_a_sentence_never_as_the_raw_record():
    """docs/play.md: every record reads as a sentence of the message catalogue, on the terminal, the web table and
    in the replay viewer. A seat bound by 诱敌深入 was shown 'receivers_set: cannot=[], must=[0]', a pack's
    kept mark 'mark: key=体力, seat=0, value=3'."""
    from interpreter.catalogue import EVENTS

    names = Names(load_cached())
    raw = []
    for name, event in EVENTS.items():
        if name == "setup":  # (the deal: setup_text says it, wherever a log is read)
            continue
        rec = {
            "e": name,
            **{f: _FIELD_VALUES.get(f, 1 if f not in ("card", "uid", "skill") else None) for f in event.fields},
        }
        text = event_text(rec, 0, names, {})
        if text is not None and text.startswith(f"{name}: "):
            raw.append(text)
    assert raw == []


def test_the_new_sentences_say_who_and_what():
    names = Names(load_cached())
    said = lambda **rec: event_text(rec, 0, names, {})  # noqa: E731
    assert said(e="receivers_set", must=[0], cannot=[]) == "P0（你） 必须接收这份情报"
    assert said(e="receivers_set", must=[1], cannot=[2, 3]) == "P1 必须接收这份情报；P2、P3 不能接收这份情报"
    # an effect that bound nobody (empty lists) says nothing: not an empty line in the log
    assert said(e="receivers_set", must=[], cannot=[]) is None
    assert said(e="mark", seat=1, key="体力", value=3) == "P1 的标记「体力」：3"
    assert said(e="mark", seat=1, key="体力", value=True) == "P1 有了标记「体力」"
    assert said(e="mark", seat=1, key="体力", value=None) == "P1 的标记「体力」清除了"
    # a card kept as a mark is not named (its face may be hidden), nor read as the mark cleared; a player is a seat
    assert said(e="mark", seat=1, key="信物", value=None, card_value=True) == "P1 的标记「信物」：一张牌"
    assert said(e="mark", seat=1, key="盟友", value=0, player_value=True) == "P1 的标记「盟友」：P0（你）"
    assert said(e="mark", seat=1, key="体力", value=0) == "P1 的标记「体力」：0"
    assert said(e="intel_protected", cards=["jie_huo"]) == "这份情报在接收前不能被使用：【截获】"
    assert said(e="round_end", seat=4) == "—— 一轮结束 ——"
    assert said(e="game_start", seat=0) is None and said(e="game_end", seat=0) is None


def test_a_players_marks_read_on_the_table_as_the_history_says_them():
    """A card kept as a mark is null in the observation (its face may be hidden): the table says 一张牌, as the
    history's sentence does, not "None"; a count after its name, a flag by its name."""
    p = {"alive": True, "out": False, "dying": False, "has_identity": True, "statuses": []}
    assert player_states({**p, "marks": {"信物": None, "体力": 2, "旗": True}}) == ["信物：一张牌", "体力2", "旗"]


def test_a_mark_holding_a_player_a_color_or_a_card_name_reads_as_one():
    """An observation holds a player kept as a mark as his seat number: the standing line tells it from a count by
    the seat's history (the `mark` record's player_value) and names the seat; a color reads in Chinese, a card name
    by the card's name — on the table and in the history's sentence alike."""
    names = Names(load_cached())
    p = {"alive": True, "out": False, "dying": False, "has_identity": True, "statuses": []}
    marks = {"盟友": 0, "体力": 0, "色": "red", "牌名": "jie_huo", "字": "甲"}
    history = [
        {"e": "mark", "seat": 1, "key": "盟友", "value": 0, "player_value": True},
        {"e": "mark", "seat": 1, "key": "体力", "value": 0},
        {"e": "mark", "seat": 2, "key": "体力", "value": 0, "player_value": True},  # another seat's mark
    ]
    obs = {"seat": 0, "history": history}
    row = {**p, "seat": 1, "marks": marks}
    assert player_states(row, obs, names) == ["盟友：P0（你）", "体力0", "色：红色", "牌名：【截获】", "字：甲"]
    # without the observation (no history to read) a number stays a number
    assert player_states(row)[:3] == ["盟友0", "体力0", "色：红色"]
    # a player kept then replaced by a number: the last record counts
    later = [*history, {"e": "mark", "seat": 1, "key": "盟友", "value": 3}]
    assert player_states(row, {"seat": 0, "history": later}, names)[0] == "盟友0"
    assert event_text({"e": "mark", "seat": 1, "key": "色", "value": "blue"}, 0, names, {}) == "P1 的标记「色」：蓝色"
    assert (
        event_text({"e": "mark", "seat": 1, "key": "牌", "value": "jie_huo"}, 0, names, {})
        == "P1 的标记「牌」：【截获】"
    )


def test_a_mark_holding_a_player_reads_as_his_seat_for_a_spectator_and_the_referee_without_you():
    """The spectator's screen (a seat-less observation: seat null) names the seat a mark holds as a seat does, not as a
    bare number; the referee's board (drawn from P0's observation) names it without P0's （你）: the referee is
    nobody's seat."""
    from interpreter.web.view import referee_board, seat_view

    content = load_cached()
    names = Names(content)
    state = GameState(content, 5, 3)
    g = state._game
    g.seats.keep_mark(g.players[1], "盟友", g.players[0])
    assert seat_view(state.observation(0), (), names)["players"][1]["states"] == ["盟友：P0（你）"]
    assert seat_view(state.observation(2), (), names)["players"][1]["states"] == ["盟友：P0"]
    assert seat_view(state.public_observation(), (), names)["players"][1]["states"] == ["盟友：P0"]
    assert referee_board(state, names)["players"][1]["states"] == ["盟友：P0"]


def test_the_referees_board_shows_every_seats_secret_statuses_and_marks():
    """The referee's board opens every card: each player's standing is his own observation's, his secret statuses and
    marks among it — not P0's view of the table, which showed P0's secret marks and nobody else's."""
    from interpreter.web.view import referee_board

    content = load_cached()
    names = Names(content)
    state = GameState(content, 5, 3)
    g = state._game
    g.seats.keep_mark(g.players[0], "私", 1, secret=True)
    g.seats.add_status(g.players[2], "暗", turns=1, secret=True)
    g.seats.keep_mark(g.players[3], "私", 2, secret=True)
    g.seats.keep_mark(g.players[3], "盟友", g.players[3], secret=True)
    assert [row["states"] for row in referee_board(state, names)["players"]] == [
        ["私1"],
        [],
        ["暗"],
        ["盟友：P3", "私2"],
        [],
    ]


def test_a_replaced_field_reads_by_its_declared_type(tmp_path):
    """改判 of a declared event's field: a player as a seat (a list of them too, as a log or an observation holds
    it), a card name by its name, a colour in Chinese, a number as it is — not the record's raw seat numbers, ids
    and English colour names."""
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "pack.yaml").write_text(
        "id: p\nname: 测\nversion: 0.1.0\nextends: [base]\nrules:\n  events:\n    测令:\n"
        "      fields: {who: player, ally: player, allies: players, kind: cardname, n: int, hue: color}\n"
        "      replaceable: [ally, allies, kind, n, hue]\n",
        encoding="utf-8",
    )
    from interpreter.content.loader import load_content
    from interpreter.content.packs import resolve_packs

    names = Names(load_content(resolve_packs([pack])))
    said = lambda **rec: event_text({"e": "field_replaced", "seat": 1, "event": "测令", **rec}, 0, names, {})  # noqa: E731
    assert said(field="ally", before=2, after=0) == "P1 改写了「测令」的 ally：P2 → P0（你）"
    assert said(field="kind", before="jie_huo", after="wu_dao") == "P1 改写了「测令」的 kind：【截获】 → 【误导】"
    assert said(field="n", before=2, after=0) == "P1 改写了「测令」的 n：2 → 0"
    # a list of players as the log holds it, and as a seat's observation does (its history frozen: a tuple)
    assert said(field="allies", before=[2, 3], after=(0,)) == "P1 改写了「测令」的 allies：P2、P3 → P0（你）"
    assert said(field="hue", before="red", after="black") == "P1 改写了「测令」的 hue：红 → 黑"


def test_every_ending_reads_as_words_a_usurped_one_says_so_and_a_collect_names_the_rules_count():
    """How a game ended, on the terminal's and the browser's result (result_text) and the end's reveal
    (summary.game_summary): every reason simulate's catalogue knows (each `+usurp` too) in Chinese words, no
    identifier; `collect+usurp` says the victory was usurped (it read as if the usurper had collected); a fork
    whose rules collect four says four."""
    from types import SimpleNamespace

    from interpreter.seat_text import result_text
    from interpreter.sim import REASON_TEXT
    from interpreter.summary import game_summary

    names = Names(load_cached())
    for reason in REASON_TEXT:
        obs = {"seat": 0, "result": {"winners": [1], "reason": reason}, "history": []}
        said = result_text(obs, names)
        ended = game_summary([{"e": "game_over", "winners": [1], "reason": reason, "turns": 9}], names)
        assert said is not None and ended is not None
        for text in (said, ended["ended"]):
            assert not re.search(r"[a-z_]{3,}", text), text
            assert ("篡夺" in text) == reason.endswith("+usurp"), text
    collect = {"seat": 0, "result": {"winners": [1], "reason": "collect"}, "history": []}
    assert "收集了 3 张红色或蓝色情报" in str(result_text(collect, names))
    fork = SimpleNamespace(roles={}, deck=[], rules=SimpleNamespace(collect_count=4, skills=()))
    assert "收集了 4 张红色或蓝色情报" in str(result_text(collect, Names(fork)))


def test_an_ending_the_engine_does_not_give_is_said_as_written():
    """A log uploaded to the replay viewer is any text: its end's reason is said as it is, braces and all (it was
    read as a template of REASON_ZH's, and `{x}` raised KeyError out of the reveal: the viewer's answer failed)."""
    from interpreter.summary import game_summary

    names = Names(load_cached())
    for reason, shown in (("{x}", "{x}"), ("{collect}+usurp", "{collect}，随后胜利被篡夺"), ("a{0}b", "a{0}b")):
        ended = game_summary([{"e": "game_over", "winners": [1], "reason": reason, "turns": 9}], names)
        assert ended is not None and ended["ended"] == f"游戏结束（第 9 回合）：{shown}", ended


# a seat's name touching a Chinese character on either side (查看P3 的牌): the log spaces it from the words around
_UNSPACED_SEAT = re.compile(r"[\u4e00-\u9fff]P\d|P\d+[\u4e00-\u9fff]")


def test_a_seats_name_is_spaced_from_the_chinese_on_either_side_in_every_record():
    """Every record's sentence names a seat as `从 P2 的手牌中` does, a space either side where Chinese words meet
    it: 查看P3 的牌 (a private look), 被置入P1 的<zone> and the known cards' （在P1 的手牌） had none before it."""
    from interpreter.catalogue import EVENTS
    from interpreter.seat_text import known_place

    names = Names(load_cached())
    texts = []
    for name, event in EVENTS.items():
        if name == "setup":
            continue
        rec = {
            "e": name,
            **{f: _FIELD_VALUES.get(f, 1 if f not in ("card", "uid", "skill") else None) for f in event.fields},
        }
        texts += [event_text(rec, 0, names, {}), event_text(rec | {"private": True}, 0, names, {})]
    looked = event_text({"e": "reveal", "seat": 3, "cards": [38], "private": True}, 0, names, {})
    assert looked is not None and looked.startswith("查看 P3 的牌（只给查看的人看）：")
    put = event_text({"e": "to_zone", "seat": 1, "cards": [38], "zone": "仁区"}, 0, names, {})
    assert put is not None and put.endswith("被置入 P1 的仁区")
    assert known_place({"zone": "hand", "seat": 1}) == "（在 P1 的手牌）"
    assert known_place({"zone": "deck", "depth": 0}) == "（在牌堆第 1 张）"
    bad = [t for t in texts if t is not None and _UNSPACED_SEAT.search(t)]
    assert bad == []
