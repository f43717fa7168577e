"""The heuristic bot's memory (interpreter/agents/memory.py): what it keeps from one observation to the next (each
seat's odds, the colours seen counted by kind, the discard pile's cards already noted) is what it would work out
again from scratch at that decision, all through real games."""

from __future__ import annotations

from pathlib import Path

from interpreter.agents.base import Descriptor, Observation
from interpreter.agents.heuristic import HeuristicAgent
from interpreter.agents.memory import _past
from interpreter.content.loader import load_cached, load_content
from interpreter.content.packs import resolve_packs
from interpreter.engine.step import drive
from interpreter.model.colors import COLOR_NAMES


class Checked(HeuristicAgent):
    """A heuristic bot that, after each answer, compares what its memory kept with what it works out afresh."""

    checked = 0
    # deck id -> the colours the content of the game being played prints on it, when a test sets it: every card the
    # memory holds colours of is then one it saw in this game, so it holds those colours
    printed: dict[int, tuple[str, ...]] | None = None

    def act(self, observation: Observation | None, actions: list[Descriptor]) -> int:
        answer = super().act(observation, actions)
        assert observation is not None
        obs, m = observation, self.memory
        seen = [*observation["me"]["hand"], *observation["discard"]]
        for p in obs["players"]:
            seen += p["intel"]
        for c in seen:  # every card in sight noted with the colours it shows now (none passed over wrongly)
            assert m.colors[c["id"]] == tuple(c["colors"]), c
        counted: dict[tuple[str, ...], int] = {}
        for colors in m.colors.values():
            counted[colors] = counted.get(colors, 0) + 1
        assert list(m.kinds().items()) == list(counted.items())  # the same kinds, counts and order (float sums)
        if Checked.printed is not None:
            stale = {cid: c for cid, c in m.colors.items() if c != Checked.printed[cid]}
            assert not stale, f"colours this game does not print: {stale}"
        for p in obs["players"]:
            kept = m.odds(obs, p["seat"])
            left, m._left = m._left, None
            assert kept == m._work_out_odds(obs, p["seat"]), (p["seat"], len(obs["history"]))
            m._left = left
        Checked.checked += 1
        return answer


def test_what_the_memory_keeps_is_what_it_would_work_out_again():
    """Through 4 heuristic games at 5, 7 and 8 players, at every decision of every seat: each seat's odds kept equal
    those worked out again, the kinds of colours kept equal a count of the colours noted, and every card in sight is
    noted with its colours. (Fails if a lean change does not drop that seat's odds, or if the discard pile's first
    new card is passed over: tried. No card changes its colours in these games: that case is not reached.)"""
    content = load_cached()
    for n, seed in ((5, 11), (5, 12), (7, 13), (8, 17)):  # (8, 17): 23 turns, the discard pile shuffled back
        drive(content, n, seed, [Checked(seed * 10 + s) for s in range(n)])
    assert Checked.checked > 500


def _printed(content) -> dict[int, tuple[str, ...]]:
    """Deck id -> its colours as the content prints them (as an observation lists them)."""
    return {e.uid: tuple(name for bit, name in COLOR_NAMES.items() if e.mask & bit) for e in content.deck}


def test_a_bot_that_plays_again_counts_only_the_colours_of_the_new_game(tmp_path: Path):
    """Nothing changes a card's colours during a game (the effect language has no such primitive, and a resample
    moves each face with its deck id), but one bot may play a second game whose content prints a deck id with other
    colours: here a made-up fork whose deck transform turns every copy with red blue. The same five bots play a
    game of the bundled content, then one of the fork: at every decision of the second game, every card the memory
    holds colours of has the colours the fork prints (none red: it saw none in this game), the cards in sight are
    noted with them, and the kinds counted are a recount of those. (Fails with the memory of the first game kept
    into the second, as it was: a bot's first decision there counted red cards it had seen only in the first.)"""
    fork = tmp_path / "fork"
    fork.mkdir()
    (fork / "pack.yaml").write_text(
        "id: fork\nname: 分支\nextends: [base]\ndeck:\n  transform:\n"
        "    - {where: {color: red}, set: {colors: [blue]}}\n",
        encoding="utf-8",
    )
    base, forked = load_cached(), load_content(resolve_packs([fork]))
    changed = {uid for uid, colors in _printed(base).items() if colors != _printed(forked)[uid]}
    assert changed and all("red" in _printed(base)[uid] for uid in changed)
    bots = [Checked(70 + s) for s in range(5)]
    drive(base, 5, 21, bots)
    assert all(changed & {cid for cid, c in b.memory.colors.items() if "red" in c} for b in bots)  # seen red
    before = Checked.checked
    Checked.printed = _printed(forked)
    try:
        drive(forked, 5, 21, bots)
    finally:
        Checked.printed = None
    assert Checked.checked > before + 50
    assert all(changed & set(b.memory.colors) for b in bots)  # cards seen red in the first game, blue in this one


def _after_a_show(shows: list[dict]) -> tuple[HeuristicAgent, dict]:
    """Seat 0 (潜伏战线, 7 players) reads a face-down intel sent by seat 2 that reached it first: `shows` (its own
    破译's records, or another seat's) are read while it is in front of seat 0; seat 0 declines it, and seat 1 takes
    it. It is red (card 30, now in seat 1's intel area)."""
    players = [
        {"seat": s, "alive": True, "dying": False, "hand_count": 3, "intel": [], "intel_counts": {}} for s in range(7)
    ]
    players[1]["intel"] = [{"id": 30, "card": "x", "name": "x", "colors": ["red"], "direction": "left"}]
    history = [
        {"e": "turn_start", "seat": 2},
        {"e": "intel_sent", "seat": 2, "face_up": False, "direction": "left", "target": None, "lock": None},
        {"e": "intel_arrives", "seat": 0},
        *shows,
        {"e": "intel_arrives", "seat": 1},
        {"e": "intel_accepted", "seat": 1},
        {"e": "received", "seat": 1, "card": 30, "sender": 2},
    ]
    obs = {
        "seat": 0,
        "players": players,
        "discard": [],
        "me": {"identity": "qian_fu_zhan_xian", "hand": []},
        "known_identities": {},
        "history": history,
    }
    bot = HeuristicAgent(0)
    bot.memory.read(obs)
    return bot, obs


def test_a_card_shown_to_the_bot_alone_is_not_counted_as_seen_by_the_seat_that_takes_it():
    """The bot's own 破译 shows it the face-down intel (the log's `to: [0]` is not in seat 0's copy; `private: true`
    is): a seat that then takes that intel could not see it, and its camp odds must not move. The same 破译 turning
    the black intel face up (a show to everyone, no `private`) is seen by the taker."""
    used = [
        {"e": "card_used", "seat": 0, "card": "po_yi", "uid": 60, "timing": "send_idle", "target": None},
        {"e": "card_resolving", "seat": 0, "card": "po_yi", "uid": 60, "target": None},
        {"e": "reveal", "cards": [30], "private": True},
    ]
    resolved = {"e": "card_resolved", "seat": 0, "card": "po_yi", "uid": 60, "target": None}
    looked, obs = _after_a_show([*used, resolved])
    assert looked.memory.lean.get(1, 0.0) == 0.0
    assert looked.memory.odds(obs, 1) == looked.memory.odds(obs, 3)  # as any seat it knows nothing of
    flipped, obs = _after_a_show([*used, {"e": "reveal", "cards": [30]}, resolved])
    assert flipped.memory.lean[1] == 1.0 and flipped.memory.odds(obs, 1)[0] > flipped.memory.odds(obs, 3)[0]


def test_whether_a_card_was_shown_to_everyone_is_read_from_the_record_not_from_whose_effect_shows_it():
    """A show is to everyone or a look by whether the seat's copy of the `reveal` record says `private`, whoever's
    effect it is in. In another seat's effect, a look the bot is given (a skill showing it the intel on its way)
    leaves the taker's odds alone; in the bot's own effect, a show to everyone of a card it had not looked at before
    counts for the taker. (Both went the other way when the memory guessed from whose effect the show was in.)"""
    other = [
        {"e": "card_used", "seat": 4, "card": "x", "uid": 61, "timing": "send_idle", "target": 0},
        {"e": "card_resolving", "seat": 4, "card": "x", "uid": 61, "target": 0},
    ]
    resolved = {"e": "card_resolved", "seat": 4, "card": "x", "uid": 61, "target": 0}
    looked, obs = _after_a_show([*other, {"e": "reveal", "cards": [30], "private": True}, resolved])
    assert looked.memory.lean.get(1, 0.0) == 0.0
    assert looked.memory.odds(obs, 1) == looked.memory.odds(obs, 3)
    mine = [{**r, "seat": 0} for r in other]
    shown, obs = _after_a_show([*mine, {"e": "reveal", "cards": [30]}, {**resolved, "seat": 0}])
    assert shown.memory.lean[1] == 1.0 and shown.memory.odds(obs, 1)[0] > shown.memory.odds(obs, 3)[0]


def test_only_the_cards_not_yet_read_of_a_pile_a_hand_or_an_area_are_noted():
    """`_past`: the faces of a place past those it shares at its start with the same place as last read (noted
    already). A face is one object while unchanged: a place that grew hands over only its new cards; one that shrank
    nothing (or, regrown, only its new ones); one that lost a card in the middle its cards from there (noted again:
    noting a face twice changes nothing); equal faces count as read; a list and a tuple of the same faces alike."""
    a, b, c, d = ({"id": i, "colors": ("red",)} for i in range(4))
    assert list(_past((a, b, c), (a, b))) == [c]
    assert list(_past((a, b), (a, b, c))) == []
    assert list(_past((a, b, d), (a, b))) == [d]
    assert list(_past((a, c), (a, b, c))) == [c]
    assert list(_past((dict(a), dict(b), c), (a, b))) == [c]
    assert list(_past([a, b, c], (a, b))) == [c]
    assert list(_past((a, b), ())) == [a, b]
    assert list(_past((d, a), (a, b))) == [d, a]
