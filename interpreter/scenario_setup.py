"""A scenario file's setup checked against its content before anything is played (interpreter/scenario.py runs
it): seats within the table, a phase the turn has (and an intel in transit where the phase needs one), known
identities, statuses, decks, card ids, skills named in answers, expectations the run can check. Each problem is
a failure at its place in the file (Where).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from . import catalogue
from .catalogue import DECISIONS, EVENTS, STATUSES
from .content.yamlpos import Pos, key_pos_of, pos_of
from .engine.table import NO_IDENTITY
from .snippet import MAX_MESSAGE, brief, clip, line_of, snippet, spans
from .suggest import closest, did_you_mean

# where a scenario may begin besides a phase of the rules' turn (the base game: draw, play, send, contest, receive)
STARTS = ("game", "travel", "turn_end", "settle")


class Failure(str):
    """A failure at a place in the scenario file, as the report prints it (`path:line:col: message` and the line
    with a caret), keeping its parts for `scenario run --format json`: the message alone, its line and column."""

    message: str
    line: int
    col: int

    def __new__(cls, text: str, message: str, line: int, col: int) -> Failure:
        self = super().__new__(cls, text)
        self.message, self.line, self.col = message, line, col
        return self


class Where:
    """Points a failure at its place in the scenario file: `path:line:col: message` and the line with a caret."""

    def __init__(self, path: Path, lines: list[str] | None):
        self.path, self.lines = path, lines

    def __call__(self, pos: Pos | None, message: str) -> str:
        if pos is None:
            return message
        shown = line_of(self.lines, pos.line)
        text = f"{self.path}:{pos.line}:{pos.col}: {message}"
        return Failure(text if shown is None else text + "\n" + snippet(shown, pos.col), message, pos.line, pos.col)


def setup_errors(data: dict, content, where: Where) -> list[str]:
    """What the schema cannot check: seat numbers within the table, a deck the content has."""
    out = []
    n = len(data["players"])
    pend = data.get("pending") or {}
    for container, key in ((data, "current"), (pend, "sender"), (pend, "holder"), (pend, "lock"), (pend, "target")):
        seat = container.get(key)
        if seat is not None and not 0 <= seat < n:
            name = key if container is data else f"pending.{key}"
            out.append(where(pos_of(container, key), f"setup: {name} is seat {seat}; the table has seats 0 to {n - 1}"))
    for section, seats in (
        ("answers", data.get("answers")),
        ("expect.players", (data.get("expect") or {}).get("players")),
    ):
        for key in seats or {}:
            if isinstance(key, int) and not isinstance(key, bool):
                seat = key
            elif isinstance(key, str) and key.isdigit() and len(key) <= 3:
                seat = int(key)  # written as 1 or "1"
            else:
                seat = -1  # anything else (.inf, 1.5, a name) is not a seat
            if not 0 <= seat < n:
                said = f"{section}: {brief(key)} is not a seat (the table has 0 to {n - 1})"
                m = re.fullmatch(r"[Pp](\d{1,3})", key) if isinstance(key, str) else None
                if m is not None and int(m.group(1)) < n:  # `P1:` as answers name a player: the key is the number
                    said += f"; a seat here is its number: {int(m.group(1))}"
                out.append(where(key_pos_of(seats, key), said))
    start = data.get("start")
    if start is not None:
        ids = [ph.id for ph in content.rules.phases]
        if start not in (*ids, *STARTS):
            close = did_you_mean(start, [*ids, *STARTS]) if isinstance(start, str) else None
            out.append(
                where(
                    pos_of(data, "start"),
                    f"start: the turn has no phase {brief(start)} (its phases: {', '.join(ids)}; or "
                    f"{', '.join(STARTS)})" + (f"; {close}" if close else ""),
                )
            )
    kinds = {ph.id: ph.kind for ph in content.rules.phases}
    if (start == "travel" or kinds.get(start) == "contest") and not data.get("pending"):
        out.append(
            where(
                pos_of(data, "start"),
                f"start: {start} needs an intel in transit (the phase is about it): give `pending:` (its card, and "
                "its sender and holder if not the current player), or start at send",
            )
        )
    for i, spec in enumerate(data["players"]):
        ident = spec.get("identity")
        if ident != NO_IDENTITY and ident not in content.identities:
            known = [*content.identities, NO_IDENTITY]
            unknown = f"setup: seat {i}: unknown identity {brief(ident)}" + _mean(ident, known)
            out.append(where(pos_of(spec, "identity"), unknown))
        for j, name in enumerate(spec.get("statuses") or []):
            if name not in STATUSES:
                unknown = f"setup: seat {i}: unknown status {brief(name)}" + _mean(name, list(STATUSES))
                out.append(where(pos_of(spec["statuses"], j), unknown))
    deck = data.get("deck")
    if deck is not None and deck not in content.decks:
        close = did_you_mean(deck, content.decks) if isinstance(deck, str) else None
        has = f" (deck.yaml has: {', '.join(content.decks)})"
        no_deck = f"setup: no deck {brief(deck)}" + (f"; {close}" if close else "") + has
        out.append(where(pos_of(data, "deck"), no_deck))
        return out
    out += _unknown_card_ids(data, content, where)
    out += _unknown_skill_answers(data, content, where)
    out += _unknown_expectations(data.get("expect") or {}, content, where)
    return out


def _unknown_skill_answers(data: dict, content, where: Where) -> list[str]:
    """Answers ``skill NAME`` (in `answers` or a seat's `not_offered`) naming a skill no role of the content has.

    Such an answer is never an option: the run would fail later and elsewhere — "answers left unused"
    when the seat is never asked, or "not a legal option" — typically after a designer renamed or
    replaced a role's skills under its scenario. Each is reported at its line with the closest name,
    among the skills of the seat's role first.
    """
    known = {k for role in content.roles.values() for sk in role.moments for k in (sk.name, sk.id)}
    known |= {k for sk in content.rules.skills for k in (sk.name, sk.id)}  # (every seat holds the rules' skills)
    rules_own = list(dict.fromkeys(sk.name for sk in content.rules.skills))
    anywhere = "of any role of the content" + (" (nor of its rules)" if rules_own else "")
    out = []
    for i, spec in enumerate(data["players"]):
        role = content.roles.get(spec.get("role")) if isinstance(spec.get("role"), str) else None
        # the seat's own skills: its role's, and the rules' (a misspelt 换牌 is not its role's only skill misspelt)
        own = list(dict.fromkeys([*(sk.name for sk in role.skills), *rules_own])) if role is not None else rules_own
        wanted = (data.get("answers") or {}).get(i, (data.get("answers") or {}).get(str(i)))
        seat_expect = ((data.get("expect") or {}).get("players") or {}).get(i) or {}
        for section, answers in ((f"answers.{i}", wanted), (f"expect.players.{i}.not_offered", None)):
            if section.endswith("not_offered") and isinstance(seat_expect, dict):
                answers = seat_expect.get("not_offered")
            for j, answer in enumerate(answers if isinstance(answers, list) else []):
                if not isinstance(answer, str) or not answer.strip().startswith("skill "):
                    continue
                name = answer.strip()[len("skill ") :].strip()
                if name in known:
                    continue
                msg = f"{section}: {brief(answer)} names no skill {anywhere}"
                if role is not None:
                    mine = list(dict.fromkeys(sk.name for sk in role.skills))
                    msg += f" (P{i}'s role {role.name} has: {', '.join(mine) or 'no skill'}"
                    msg += f"; the rules: {', '.join(rules_own)})" if rules_own else ")"
                # the closest of the seat's role's skills — its only one, however spelt — else of any role
                close = did_you_mean(name, own) or (f"did you mean {own[0]}?" if len(own) == 1 else None)
                close = close or did_you_mean(name, sorted(known))
                hint = f"; did you mean skill {close[len('did you mean ') :]}" if close else ""
                out.append(where(pos_of(answers, j), msg + hint))
    return out


# the fields of a decision record (engine/core.py) that a pattern `{d: ...}` may match
_DECISION_FIELDS = ("d", "seat", "n", "choice", "label", "prompt", "source", "to")


def _declared_events(content) -> dict:
    """The events the content's rules declare, as the log records them: their fields, the subject's `seat`, the
    announcement's number `ev` (Resolution.announce)."""
    return {
        name: catalogue.declared_event(name, (*(f for f, _ in e.fields), "seat", "ev"), e.doc, e.zh)
        for name, e in content.declared.events.items()
    }


def _unknown_expectations(expect: dict, content, where: Where) -> list[str]:
    """Patterns and skill names an expectation names that no game can produce.

    A pattern with a misspelt event kind or field matches no record, so `events:` would fail with
    "did not happen" and `no_events:` would pass whatever the game did; a skill name no role has
    never fires. Each is reported at its line with the closest name.
    """
    out = []
    patterns: list[tuple[str, Any]] = [(f"events[{i}]", p) for i, p in enumerate(expect.get("events") or [])]
    patterns += [(f"no_events[{i}]", p) for i, p in enumerate(expect.get("no_events") or [])]
    for i, want in enumerate(expect.get("event_counts") or []):
        if isinstance(want, dict):
            patterns.append((f"event_counts[{i}].match", want.get("match")))
    events = EVENTS | _declared_events(content)
    for what, pattern in patterns:
        if not isinstance(pattern, dict):
            continue
        if "e" in pattern:
            kind, kinds, field_of = pattern["e"], list(events), lambda k: (*events[k].fields, "e", "to", "secret")
            noun, key = "event kind", "e"
        elif "d" in pattern:
            kind, kinds, field_of = pattern["d"], list(DECISIONS), lambda _k: _DECISION_FIELDS
            noun, key = "decision kind", "d"
        else:
            continue
        if kind not in kinds:
            close = did_you_mean(kind, kinds) if isinstance(kind, str) else None
            known = f"; {close}" if close else f" ({noun}s: {', '.join(kinds)})"
            msg = f"expect.{what}: no {noun} {brief(kind)}{known}"
            out.append(where(pos_of(pattern, key), msg))
            continue
        fields = field_of(kind)
        for name in pattern:
            if name not in fields:
                close = did_you_mean(name, list(fields)) if isinstance(name, str) else None
                msg = f"expect.{what}: the {kind} record has no field {brief(name)} (its fields: {', '.join(fields)})"
                out.append(where(key_pos_of(pattern, name), msg + (f"; {close}" if close else "")))
    names = sorted({skill.name for role in content.roles.values() for skill in role.skills})
    names = sorted({*names, *(skill.name for skill in content.rules.skills)})  # (every seat holds the rules' skills)
    fired = expect.get("skills_fired") or []
    for j, name in enumerate(fired if isinstance(fired, list) else []):
        if name not in names:
            close = did_you_mean(name, names) if isinstance(name, str) else None
            msg = f"expect.skills_fired: no role of the content (nor its rules) has a skill {brief(name)}"
            out.append(where(pos_of(fired, j), msg + (f"; {close}" if close else "")))
    return out


def _mean(word: object, known: list[str]) -> str:
    """After an unknown name: "; did you mean X? (known: …)", the closest name first, then every one."""
    close = did_you_mean(word, known) if isinstance(word, str) else None
    return (f"; {close}" if close else "") + f" (known: {', '.join(known)})"


def _unknown_card_ids(data: dict, content, where: Where) -> list[str]:
    """Deck ids placed in hands, intel areas, on the deck or in transit that the deck in play lacks.

    The message says which ids it has, so a designer without the repository's deck.yaml at hand
    (an installed copy) can pick one; `fengsheng pack show` names the folder that holds it.
    """
    deck = data.get("deck")
    ids = {e.uid for e in content.deck} if deck is None else set(content.decks[deck])
    places: list[tuple[str, Any]] = [("deck_top", data.get("deck_top"))]
    for i, spec in enumerate(data["players"]):
        places += [(f"seat {i} hand", spec.get("hand")), (f"seat {i} intel", spec.get("intel"))]
    out = []
    for what, uids in places:
        for j, uid in enumerate(uids or []):
            if isinstance(uid, int) and not isinstance(uid, bool) and uid not in ids:
                which = f"the deck {brief(deck)}" if deck is not None else "the deck"
                msg = f"setup: {what}: card #{uid} is not in {which} (its ids: {spans(sorted(ids))})"
                out.append(where(pos_of(uids, j), msg))
    return out


# Where a scenario takes deck ids (its state, its expectations), as paths into its data ("*": any key or index; the
# schema's items there say "a deck id"): the schema's finding of a text there is a card named where its copy's
# number goes, which card_name_hints says more of
DECK_ID_PLACES = (
    ("deck_top", "*"),
    ("players", "*", "hand", "*"),
    ("players", "*", "intel", "*"),
    ("pending", "card"),
    ("expect", "players", "*", "hand", "*"),
    ("expect", "players", "*", "intel", "*"),
    ("expect", "deck_top", "*"),
    ("expect", "discard_contains", "*"),
    ("expect", "removed_contains", "*"),
    ("players", "*", "zones", "*", "*"),
    ("zones", "*", "*"),
    ("expect", "players", "*", "zones", "*", "*"),
    ("expect", "zones", "*", "*"),
    ("expect", "players", "*", "knows", "*"),
    ("expect", "players", "*", "knows_not", "*"),
)


def _at_deck_id(at: tuple) -> bool:
    return any(
        len(at) == len(place) and all(p == "*" or p == k for p, k in zip(place, at, strict=True))
        for place in DECK_ID_PLACES
    )


def card_name_hints(errors: list, content, deck: object) -> None:
    """A card's name (or id) written where a scenario takes a deck id (`hand: [NAME]`): the schema stage's finding
    ("should be integer", at its place in the file) gets a hint naming that card's deck ids in the deck played
    (`deck:`, else the content's), or the closest card name and its ids if the name is misspelt. The schema cannot
    know the content (it is read before the content loads), so its own hint only says that deck ids are numbers."""
    played = set(content.decks[deck]) if isinstance(deck, str) and deck in content.decks else None
    ids: dict[str, list[int]] = {}
    for entry in content.deck:
        if played is None or entry.uid in played:
            ids.setdefault(entry.card_type, []).append(entry.uid)
    by_name = {ct.name: ct for ct in content.card_types.values()} | dict(content.card_types)
    for e in errors:
        at, value = e.about if e.about is not None else ((), None)
        if e.code != "E113" or not isinstance(value, str) or not _at_deck_id(at):
            continue
        ct = by_name.get(value.strip())
        misspelt = ct is None
        if ct is None:
            close = closest(value.strip(), [c.name for c in content.card_types.values()])
            ct = by_name.get(close[0]) if close else None
        if ct is None:
            continue
        where = f"the deck {brief(deck)}" if played is not None else "the deck"
        copies = f"deck ids {spans(sorted(ids[ct.id]))}" if ct.id in ids else f"not in {where}"
        said = f"did you mean {ct.name} ({copies})?" if misspelt else f"{ct.name} is {copies}"
        e.hint = clip(f"{e.hint}; {said}" if e.hint else said, MAX_MESSAGE)
