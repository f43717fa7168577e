"""The heuristic bot reads what its own probes (试探) showed of a seat's identity (interpreter/agents/probes.py)."""

from __future__ import annotations

from interpreter.agents.heuristic import HeuristicAgent
from interpreter.agents.probes import ProbeReadings

PROBE_COPY = {"id": 30, "card": "shi_tan", "name": "试探", "colors": ["black"], "direction": "left", "lockable": False}
PROBE_COPY["data"] = {"red": -1, "blue": 1, "black": -1}  # 特工机关 (blue) draws; the others discard


def _probe(target: int, outcome: str) -> list[dict]:
    """Seat 0 used its copy #30 on `target`, who drew a card or discarded one (`outcome`: draw / discard)."""
    return [
        {"e": "card_used", "seat": 0, "card": "shi_tan", "uid": 30, "timing": "play_phase", "target": target},
        {"e": "card_resolving", "seat": 0, "card": "shi_tan", "uid": 30, "target": target},
        {"e": outcome, "seat": target, "n": 1, "cards": None}
        if outcome == "draw"
        else {"e": "discard", "seat": target, "cards": [55]},
        {"e": "card_resolved", "seat": 0, "card": "shi_tan", "uid": 30, "target": target},
    ]


def test_a_probe_tells_the_identity_colours_its_target_may_have():
    for outcome, left in (("draw", {"blue"}), ("discard", {"red", "black"})):
        readings = ProbeReadings(frozenset({"shi_tan"}))
        readings.saw_hand([PROBE_COPY])
        for rec in _probe(2, outcome):
            readings.read(rec, me=0)
        assert readings.allowed == {2: frozenset(left)}, outcome


def test_anothers_probe_and_a_nullified_one_teach_nothing():
    readings = ProbeReadings(frozenset({"shi_tan"}))
    readings.saw_hand([PROBE_COPY])
    for rec in _probe(2, "draw"):  # the same records, but another seat's use: it never saw the copy's data
        readings.read({**rec, "seat": 3} if rec["e"] != "draw" else rec, me=0)
    nullified = [r for r in _probe(1, "draw") if r["e"] != "draw"]
    for rec in [*nullified, {"e": "draw", "seat": 1, "n": 1, "cards": None}]:  # a draw after it resolved
        readings.read(rec, me=0)
    assert readings.allowed == {}


def _table() -> dict:
    """5 players; the red bot in seat 0 must send. Seat 1 holds two red intel it took face up by choice (it
    looks like a camp-mate) and needs one more red."""
    players = [
        {
            "seat": s,
            "alive": True,
            "dying": False,
            "hand_count": 3,
            "intel": [],
            "intel_counts": {"red": 2 if s == 1 else 0, "blue": 0, "black": 0},
        }
        for s in range(5)
    ]
    players[1]["intel"] = [
        {"id": c, "card": "x", "name": "x", "colors": ["red"], "direction": "left", "lockable": False} for c in (20, 21)
    ]
    history: list[dict] = []
    for card in (20, 21):
        history += [
            {"e": "intel_sent", "seat": 2, "face_up": True, "direction": "right", "target": None, "lock": None},
            {"e": "intel_arrives", "seat": 1},
            {"e": "intel_accepted", "seat": 1},
            {"e": "received", "seat": 1, "card": card, "sender": 2},
        ]
    return {
        "seat": 0,
        "players": players,
        "phase": "send",
        "transit": None,
        "discard": [],
        "me": {"identity": "qian_fu_zhan_xian", "hand": [PROBE_COPY]},
        "known_identities": {},
        "history": history,
        "decision": {"kind": "send", "prompt": "", "source": ""},
    }


def test_a_seat_its_probe_showed_an_enemy_gets_no_intel_it_needs():
    """Unprobed, seat 1 looks like a camp-mate one red short of winning: the bot sends it its red ↑ card. Once
    the bot's own 试探 made seat 1 draw (so it is 特工机关, an enemy), its red goes to another seat."""
    red_up = {"id": 10, "card": "x", "name": "x", "colors": ["red"], "direction": "up", "lockable": False}
    black_up = {**red_up, "id": 11, "colors": ["black"]}
    cards = tuple({"id": 100 + c["id"], "kind": "card", "label": "", "card": c} for c in (red_up, black_up))
    seats = tuple({"id": 200 + s, "kind": "seat", "label": f"P{s}", "seat": s} for s in range(1, 5))
    unprobed = HeuristicAgent(0)
    obs = _table()
    assert unprobed.act(obs, cards) == 110
    obs["decision"] = {"kind": "send_target", "prompt": "", "source": ""}
    assert unprobed.act(obs, seats) == 201

    probed = HeuristicAgent(0)
    probed.act(_table(), cards)  # it held the copy: it knows what the copy asks of each colour
    obs = _table()
    obs["me"]["hand"], obs["history"] = [], obs["history"] + _probe(1, "draw")
    card = probed.act(obs, cards)
    obs["decision"] = {"kind": "send_target", "prompt": "", "source": ""}
    assert card == 111 or probed.act(obs, seats) != 201
    assert probed.memory.friend(obs, 1) == -1.0 and unprobed.memory.friend(obs, 1) > 0.5
