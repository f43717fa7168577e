"""What the browser shows, as plain data: a seat's screen, and a log's records for the replay viewer.

A seat's screen is drawn from its observation and the legal action descriptors only (as in the
terminal game, with the same texts: ``interpreter/seat_text.py``); nothing here reads the engine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..content.packs import BASE
from ..engine.actions import card_data
from ..engine.index import NO_PLANS
from ..engine.observation import project
from ..engine.pins import pinned_content
from ..engine.state import Card
from ..messages import asker_rules, asker_text, event_text, prompt_text, setup_text
from ..model.content import Content
from ..seat_text import (
    ARROW,
    Names,
    card_text,
    cards_seen,
    head_line,
    in_use_text,
    known_place,
    menu_label,
    player_states,
    result_text,
    role_cell,
    role_line,
    rule_skills_line,
    rules_texts,
    seat_name,
    task_line,
    transit_text,
    zone_lines,
)
from ..sim import ReplayMismatch, logged_pins, read_log_text
from ..summary import game_summary


def card_chip(card: Mapping[str, Any] | None) -> dict[str, Any]:
    """A card as the page draws it: its name and deck id, colors, arrow, lock; or only that it is face down."""
    if card is None or card.get("id") is None:
        return {"text": card_text(card).plain, "hidden": True}
    return {
        "text": f"{card['name']}#{card['id']}",
        "colors": list(card["colors"]),
        "arrow": ARROW.get(card["direction"], "?"),
        "lock": bool(card.get("lockable")),
    }


def seat_view(
    obs: Mapping[str, Any], actions: Sequence[Mapping[str, Any]], names: Names, since: int = 0
) -> dict[str, Any]:
    """A seat's screen: the head line, the players, its own panel, the intel in transit, the cards in use,
    what happened since history record ``since`` (lines of Chinese), the result or the decision's menu."""
    me = obs["seat"]
    players = []
    for p in obs["players"]:
        ic = p["intel_counts"]
        players.append(
            {
                "seat": p["seat"],
                "name": seat_name(p["seat"], me),
                "role": role_cell(p, names),
                "hand": p["hand_count"],
                "counts": [ic["red"], ic["blue"], ic["black"]],
                "intel": [card_chip(c) for c in p["intel"]],
                "states": player_states(p, obs, names),
                "me": p["seat"] == me,
                "current": p["seat"] == obs["current"],
            }
        )
    mine = obs["me"]
    panel = {
        "identity": f"身份：{names.identity(mine['identity'])}",
        "task": task_line(mine["task"], names) if mine["task"] else None,
        "role": role_line(mine["role"], names) if mine["role"] else None,
        "rule_skills": rule_skills_line(names),  # the house rules' skills, every seat's (None: the rules have none)
        "hand": [card_chip(c) for c in mine["hand"]],
        "known": [f"你看过 P{s} 的身份：{names.identity(i)}" for s, i in sorted(obs["known_identities"].items())]
        + [f"你知道的牌：{card_text(k['card']).plain}{known_place(k)}" for k in obs["known_cards"]],
    }
    transit = transit_text(obs, names)
    by_id = cards_seen(obs)
    events = [event_text(r, me, names, by_id) for r in obs["history"][since:]]
    decision = None
    if obs["result"] is None and obs["decision"] is not None and actions:
        decision = {
            "title": f"P{me}，轮到你决定",
            "prompt": prompt_text(obs, names),
            "asker": asker_text(obs["decision"], me, names),  # who asks, through which skill or card
            "why": asker_rules(obs, names),  # that skill's or card's text (a click away on the page)
            "options": [{"id": d["id"], "label": menu_label(d, names, obs["decision"].get("kind"))} for d in actions],
        }
    return {
        "seat": me,
        "head": head_line(obs),
        "players": players,
        "me": panel,
        "transit": transit.plain if transit is not None else None,
        "in_use": [in_use_text(c, names).plain for c in obs["in_use"]],
        "staging": [card_chip(c) for c in obs["staging"]],
        "zones": zone_lines(obs),
        "events": [e for e in events if e],
        "result": result_text(obs, names),
        "decision": decision,
        "rules": rules_texts(obs, actions, names) if decision else [],
    }


# ---------------------------------------------------------------------- the replay viewer


def deck_cards(content: Content, players: int) -> dict[int, Mapping[str, Any]]:
    """Every card of the deck for `players` players by deck id, as printed on it (public: the deck list)."""
    types = content.card_types
    return {
        e.uid: card_data(Card(e.uid, types[e.card_type], e.mask, e.direction, e.lockable, e.data, NO_PLANS))
        for e in content.deck_for(players)
    }


def logged_expansions(header: Mapping[str, Any], offered: Sequence[str]) -> str | None:
    """The ``--expansions`` text of the bundled expansions a log's header names, in its order ("none" for the base
    game alone): the viewer re-plays a table made with other expansions than the server's default with those
    (with the server's default the deck differs, and the screens could not be shown). None when the header names
    no base game (a rule set of its own: the server's default). Never a folder a log names: anyone may upload a
    log, naming any folder of the server's machine."""
    named = header.get("packs")
    if not isinstance(named, list) or BASE not in named:
        return None
    return ",".join(p for p in named if isinstance(p, str) and p in offered) or "none"


def shown_header(header: Mapping[str, Any], view: str) -> dict[str, Any]:
    """A log's header as the viewer sends it for `view`: a seat's or the public view never carries the seed (it
    would give every hidden card back); the referee's carries it as a string of digits (a page reads a number of
    128 bits as a float: 2.24e+38, not the seed)."""
    return {k: str(v) if k == "seed" else v for k, v in header.items() if k != "seed" or view == "referee"}


def views_of(header: Mapping[str, Any]) -> list[str]:
    """The views a logged game can be shown in: the referee's and each seat's from a referee's log; a seat's
    (or the public) copy only as itself."""
    view = header.get("view", "referee")
    if view != "referee":
        return [str(view)]
    return ["referee", "public", *(f"P{s}" for s in range(int(header["players"])))]


def replay_steps(logged: Mapping[str, Any], view: str, content: Content) -> list[dict[str, Any]]:
    """One game of a log as the viewer steps through it: each record `view` may read, in Chinese.

    ``view`` is ``referee`` (everything, from a referee's log), ``public`` or ``P<seat>`` (only the records and
    fields that seat could read, as ``fengsheng replay --as`` projects them)."""
    header = logged["header"]
    logged_view = header.get("view", "referee")
    if view not in views_of(header):
        raise ValueError(f"this log is the {logged_view} copy: it can be shown as {', '.join(views_of(header))}")
    seat: int | None = int(view[1:]) if view.startswith("P") else None
    me = seat if seat is not None else -1  # the referee and the public are nobody's "你"
    content = pinned_content(content, logged_pins(logged))  # (a card pin: the deck the game was played with)
    names = Names(content)
    by_id = deck_cards(content, int(header["players"]))
    steps = []
    for n, raw in enumerate(logged["records"]):
        if view == "referee" or view == logged_view:
            rec: Mapping[str, Any] | None = {k: v for k, v in raw.items() if k not in ("to", "secret")}
        else:
            rec = project(raw, seat)
        if rec is None:
            continue
        # the deal (setup) is in the referee's log only (no seat reads it)
        try:
            text = setup_text(rec, names) if rec.get("e") == "setup" else event_text(rec, me, names, by_id)
        except (TypeError, ValueError, KeyError, AttributeError, IndexError):
            # (a field of another type than its kind holds — an edited log — read no sentence: the upload's error,
            # a 400, not the server's; which record, not its fields, which the view may not read)
            lines = logged.get("lines") or ()
            where = f"line {lines[n]}" if n < len(lines) else f"record {n + 1} of the game"
            kind = rec.get("e") or rec.get("d")
            raise ValueError(
                f"{where} of the log is no sound {kind if isinstance(kind, str) else ''} record: a field holds "
                "what no such record holds (was the log edited?)"
            ) from None
        if text:
            steps.append({"n": n, "seat": rec.get("seat"), "decision": "d" in rec, "text": text})
    return steps


def referee_board(state: Any, names: Names) -> dict[str, Any]:
    """The referee's board: the seats' board (seat_view's parts) with every card open — each player's role, hand,
    identity, task and standing (secret statuses and marks too) as that player's own observation shows them, the
    intel in transit as a seat that sees it does. Drawn only from the seats' observations, put side by side (the
    referee may read them all)."""
    observations = [state.observation(s) for s in range(state.n_players)]
    first = observations[0]
    board = seat_view(first, (), names, len(first["history"]))
    for s, obs in enumerate(observations):
        row = board["players"][s]
        mine = obs["me"]
        # a player's standing as his own observation shows it (his secret statuses and marks too, as his hand), with
        # no （你） (a mark holding himself): the referee is nobody's seat
        states = player_states(obs["players"][s], obs, names, referee=True)
        row.update(name=f"P{s}", me=False, role=role_cell(obs["players"][s], names), states=states)
        row["hand_cards"] = [card_chip(c) for c in mine["hand"]]
        row["secret"] = names.identity(mine["identity"]) + (f" · {names.task(mine['task'])}" if mine["task"] else "")
    seen = next((o for o in observations if o["transit"] is not None and o["transit"]["card"] is not None), first)
    transit = transit_text(seen, names)
    board["transit"] = transit.plain.replace("（你）", "") if transit is not None else None
    board["head"] = head_line(first).replace("（你）", "")
    board["me"] = {"identity": "裁判视角：所有的牌都翻开", "task": None, "role": None, "hand": [], "known": []}
    return board


def replay_boards(
    logged: Mapping[str, Any], seat: int | None, content: Content
) -> tuple[list[dict[str, Any]], list[int]]:
    """One seat's screen after each decision of a referee's log (the game re-played from its seed), and for each
    record of the log the screen it belongs to (how many decisions were answered by then). Only the seat's
    observation is drawn: what it could see at that moment. `seat` None: the referee's board (referee_board),
    every card open."""
    from ..engine.step import GameState

    header = logged["header"]
    pins = logged_pins(logged)  # (a pinned game is dealt as it was only with its pins)
    state = GameState(
        content, int(header["players"]), int(header["seed"]), max_turns=header.get("max_turns"), pins=pins
    )
    names = Names(pinned_content(content, pins))
    boards = []

    def snap() -> None:
        if seat is None:
            board = referee_board(state, names)
        else:
            obs = state.observation(seat)
            board = seat_view(obs, (), names, len(obs["history"]))
        boards.append({k: board[k] for k in ("head", "players", "me", "transit", "in_use", "staging", "result")})

    snap()
    for rec in logged["records"]:
        if "d" in rec and not state.is_terminal():
            state.apply_action(state.legal_actions()[rec["choice"]])
            snap()
    where = []
    answered = 0
    for rec in logged["records"]:
        answered += "d" in rec
        where.append(min(answered, len(boards) - 1))
    return boards, where


def final_summary(
    logged: Mapping[str, Any], boards: Sequence[Mapping[str, Any]], content: Content
) -> dict[str, Any] | None:
    """The reveal of a finished logged game (summary.game_summary) with the intel of its last board; None for a
    game that did not end."""
    last = boards[-1]["players"] if boards else None
    players = (
        [
            {"seat": p["seat"], "intel_counts": dict(zip(("red", "blue", "black"), p["counts"], strict=True))}
            for p in last
        ]
        if last is not None
        else None
    )
    return game_summary(logged["records"], Names(content), players)


def replay_answer(
    body: str | bytes, query: Mapping[str, str], content_for: Callable[[Mapping[str, Any]], Content]
) -> tuple[dict[str, Any], int]:
    """The replay viewer's answer to an uploaded log (its text `body`; `query`: which game, which view, the file's
    name) and its HTTP status: one game's steps as `view` may read them, and for a referee's log or a seat's
    (one that holds the seed) the seat's screen at each step and the end's reveal; else a one-line error and 400.
    `content_for` gives the content a log's header names (its expansions). Plain data in, plain data out: the
    app only reads the upload and sends this."""
    try:
        games = read_log_text(body, query.get("name", "the log")[:100])
    except ReplayMismatch as e:
        return {"error": str(e)}, 400
    if not games:
        return {"error": "the log holds no game"}, 400
    try:
        at = int(query.get("game", "0"))
    except ValueError:
        at = -1
    if not 0 <= at < len(games):
        return {"error": f"the log has games 0 to {len(games) - 1}"}, 400
    logged = games[at]
    header = logged["header"]
    view = query.get("view") or views_of(header)[0]
    try:
        content = content_for(header)
        steps = replay_steps(logged, view, content)
    except (ValueError, KeyError) as e:
        return {"error": str(e)}, 400
    boards: list[dict[str, Any]] = []
    note = None
    summary = None
    if (view.startswith("P") or view == "referee") and "seed" in header:  # a referee's log: the screens
        try:  # (a seat's at each step, or the referee's with every card open)
            boards, where = replay_boards(logged, int(view[1:]) if view != "referee" else None, content)
        except Exception as e:  # a log of other content or another version: the steps without the screens
            # (only the error's kind: its text may name what the seat may not read, an action of another seat)
            note = (
                "the seat's screens are left out: the log does not replay with the server's content "
                f"({type(e).__name__})"
            )
        else:
            for step in steps:
                step["board"] = where[step["n"]]
            summary = final_summary(logged, boards, content)
    return (
        {
            "games": [{"index": g["header"].get("index"), "players": g["header"]["players"]} for g in games],
            "game": at,
            "header": shown_header(header, view),  # (never the seed but the referee's)
            "views": views_of(header),
            "view": view,
            "steps": steps,
            "boards": boards,
            "note": note,
            "end": logged.get("end") if view == "referee" else None,
            "summary": summary,  # a finished game's reveal (every identity, task, role; how it ended)
        }
    ), 200
