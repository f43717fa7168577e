"""A balance report's figures in words, in either language (messages.py): a group's title, what was pinned, a
flag's name and sentence, a verdict's sentence. Shared by the report (its JSON keeps the English sentences),
the terminal tables and the HTML page.
"""

from __future__ import annotations

from typing import Any

from .messages import MESSAGES, say
from .stats import ALL, pct

NO_IDENTITY = "无身份牌"
"""The identity the records give a seat that ends without an identity card (sim.summary.identity_name: a skill
took it)."""


def identity_rows(rows: list[dict], lang: str) -> list[dict]:
    """A table's identity rows with the seat without an identity card named in the report's language: the records
    keep 无身份牌, which the other identities' names (the content's own, Chinese) sit beside in either language, but
    it is the engine's word, not the content's."""
    return [{**r, "name": say("no_identity", lang)} if r["name"] == NO_IDENTITY else r for r in rows]


def _named(kind: str, name: object, lang: str) -> str:
    """A compared figure's subject as named in `lang`: the seat without an identity card in the report's language
    (identity_rows), any other as the records name it."""
    return say("no_identity", lang) if kind == "identity" and name == NO_IDENTITY else str(name)


def players_text(players: object, lang: str) -> str:
    """A group's player count in words ("5 players"; "all counts" for the group pooling them)."""
    return say("all_counts", lang) if players == ALL else say("n_players", lang, n=players)


def players_short(players: object, lang: str) -> str:
    """The same, short ("5p"; "all")."""
    return say("all_short", lang) if players == ALL else say("n_players_short", lang, n=players)


def meta_line(sweep: dict, lang: str) -> str:
    """What was swept, in one line (the report's sweep part): fengsheng's version, the seed (which replays the
    sweep), players, agents, packs and games — the HTML page's first line and the terminal report's."""
    return say(
        "meta_line",
        lang,
        version=sweep["version"],
        seed=sweep["seed"],
        players=", ".join(map(str, sweep["players"])) if isinstance(sweep["players"], list) else sweep["players"],
        agents=", ".join(map(str, sweep["agents"] or [])),
        packs=", ".join(map(str, sweep["packs"])),
        games=sweep["games_per_cell"],
        records=sweep["records"],
    )


def pins_text(pins: Any, lang: str, cards: Any = None, names: Any = None) -> str:
    """What a sweep pinned, in words ("" when nothing): the role and task dealt to a seat (by name where `names`,
    the report's ``pinned_names``, has one), the card kinds kept at a count in every deck (`cards`: the report's
    ``pinned_cards``, each card's name and the packs without it)."""
    if not isinstance(pins, dict) or not pins:
        return ""
    what = _pinned_what(pins, lang, names if isinstance(names, dict) else None)
    parts = [say("pins_text", lang, what=what)] if pins.get("role") or pins.get("task") else []
    facts = cards if isinstance(cards, dict) else {}
    counts = pins.get("cards")
    for card, n in sorted(counts.items()) if isinstance(counts, dict) else ():
        got = facts.get(card)
        fact: dict = got if isinstance(got, dict) else {}
        part = say("pins_card", lang, name=fact.get("name") or card, n=n)
        if fact.get("without"):
            part += say("pins_card_without", lang, packs=say("pins_list", lang).join(map(str, fact["without"])))
        parts.append(part)
    return say("pins_sep", lang).join(parts)


def note_text(note: Any, lang: str) -> str:
    """A note on a sweep's pack as the report found it (pack_facts.locate_packs: its folder missing, its content
    changed, or changed and no longer loading, or not known to be the same: an older fengsheng's sweep), in
    `lang`. (A text is said as it is: a report made before notes had facts.)"""
    if not isinstance(note, dict):
        return str(note)
    kind, pack = note.get("kind"), note.get("pack")
    sep = say("pins_sep", lang)
    if kind == "missing":
        lost = sep.join(
            say("note_lost", lang, ref=ref, places=say("pins_list", lang).join(places))
            for ref, places in note.get("lost") or []
        )
        return say("note_missing", lang, pack=pack, lost=lost, at=say("pins_list", lang).join(note.get("at") or []))
    where = note.get("where") or say("note_bundled", lang)
    if kind == "broken":
        return say("note_broken", lang, pack=pack, where=where, error=note.get("error"))
    if kind == "older":
        return say("note_older", lang, pack=pack, where=where)
    return say("note_changed", lang, pack=pack, where=where)


def note_texts(report: dict, lang: str) -> list[str]:
    """The report's notes on its packs, in `lang` (from their facts; a report without them: its English texts)."""
    facts = report.get("pack_note_facts")
    notes = facts if isinstance(facts, dict) else report.get("pack_notes") or {}
    return [note_text(note, lang) for note in notes.values()]


def pins_differ_text(differ: dict, lang: str, names: Any = None) -> str:
    """Why two sweep directories' games were not paired: each side's pins in words ("none" for a sweep without; the
    pinned role and task by name where `names`, the paired figures' ``pinned_names``, has one)."""

    def side(pins: Any) -> str:
        keyed = isinstance(pins, dict) and pins.get("keyed")  # (nothing pinned, dealt in the keyed order)
        return pins_text(pins, lang, names=names) or say("pins_keyed" if keyed else "pins_nothing", lang)

    return say("paired_pins_differ", lang, base=side(differ.get("base")), fork=side(differ.get("fork")))


def _pinned_what(pins: dict, lang: str, names: dict | None = None) -> str:
    """The pinned role and task in words ("角色画眉（歌女）", "role 画眉（歌女） and secret task 收藏家"): by name where
    `names` has one, else by id ("角色hua_mei")."""
    named = names or {}
    return say("pins_and", lang).join(
        say("pins_role" if k == "role" else "pins_task", lang, name=named.get(k) or pins[k])
        for k in ("role", "task")
        if pins.get(k)
    )


def paired_label(x: dict, lang: str, names: Any = None) -> str:
    """A paired figure's row name in the report's language: the JSON's `name` is English ("the seat of role
    hua_mei", "turns"); the pinned seat is named from its pins (by name where `names`, the paired figures'
    ``pinned_names``, has one), turns by its kind alone."""
    kind = say("paired_" + x["kind"], lang)
    if x["kind"] == "turns":
        return kind
    if x["kind"] == "pinned_seat" and isinstance(x.get("pins"), dict) and x["pins"]:
        return f"{kind}: {_pinned_what(x['pins'], lang, names if isinstance(names, dict) else None)}"
    return f"{kind}: {_named(x['kind'], x['name'], lang)}"


def group_title(g: dict, lang: str) -> str:
    failed = say("group_failed", lang, n=g["failed"]) if g["failed"] else ""
    return say(
        "group_title",
        lang,
        pack=g["pack"],
        agents=g["agents"],
        players=players_text(g["players"], lang),
        games=g["games"],
        failed=failed,
        seats=g["seats"],
    )


def flag_name(kind: str, lang: str) -> str:
    """A flag's kind as its tag reads (STRONG, SKILL NEVER USED …)."""
    return say("flag_" + kind, lang)


def status_name(status: str, lang: str) -> str:
    """A verdict's status (strong, weak, open, unseen) in words."""
    return say("status_" + status, lang)


def kind_name(kind: str, lang: str) -> str:
    """What a new item is: role, card, task."""
    return say(kind, lang)


def offered_prefix(skill_row: dict, lang: str) -> str:
    """ "offered in N, " before a skill's use, where the sweep counted offers ("" for an older sweep)."""
    n = skill_row.get("games_offered")
    return "" if n is None else say("offered_prefix", lang, n=n)


def _points(x: float) -> str:
    return f"{100 * x:.1f}"


def verdict_text(v: dict, lang: str) -> str:
    """A verdict's sentence (report.verdict's fields): strong or weak, or not shown either way, with its figure,
    the rate it is held against, and the games still needed for ±5 points."""
    uses = v.get("uses_per_game")  # (a card's, a rule skill's: how often it is played, before how its users fare)
    if v.get("uncounted") and uses is None:  # a card of a sweep that did not count card uses: not even how often
        return say("verdict_uses_uncounted", lang)
    if v.get("uncounted"):  # a rule skill of a sweep that did not count its users per seat
        return say("verdict_uses", lang, uses=f"{uses or 0:.2f}") + say("verdict_uncounted", lang)
    if v["status"] == "unseen":
        return say("verdict_unused" if uses is not None else "verdict_unseen", lang)
    where = say(
        "verdict_where",
        lang,
        rate=pct(v["rate"]),
        n=v["n"],
        low=pct(v["low"]),
        high=pct(v["high"]),
        half=_points(v["half_width"]),
    )
    against = say("verdict_against", lang, expected=pct(v["expected"])) if v.get("expected") is not None else ""
    if v["status"] in ("strong", "weak"):
        lead = "" if v.get("holm", True) else say("verdict_lead", lang)
        # the English status stays lower case, as the JSON's text has always had it
        status = v["status"] if lang == "en" else status_name(v["status"], lang)
        text = say("verdict_shown", lang, status=status, where=where, against=against, lead=lead)
    else:
        text = say("verdict_open", lang, where=where, against=against)
    if uses is not None:
        text = say("verdict_uses", lang, uses=f"{uses:.2f}") + text
    more = v.get("games_more")
    if more:
        text += say("verdict_more", lang, more=f"{more:,}")
    elif more == 0:
        text += say("verdict_reached", lang)
    return text


def flag_subject(f: dict, lang: str) -> str:
    """What a flag is about: a role, a role's skill, or a group's failed games."""
    if f["kind"] == "failures" and "failed" in f:
        return say("flag_failures_subject", lang, failed=f["failed"], games=f["games"])
    return str(f["subject"])


def flag_text(f: dict, lang: str) -> str:
    """A flag's sentence, from its fields."""
    kind = f["kind"]
    if kind == "failures":
        return say("flag_failures_text", lang)
    if kind in ("strong", "weak") and "rate" in f:
        lead = "" if f.get("holm", True) else say("flag_role_lead", lang)
        return say(
            "flag_role_text",
            lang,
            rate=pct(f["rate"]),
            n=f["n"],
            low=_points(f["low"]),
            high=pct(f["high"]),
            expected=pct(f["expected"]),
            lead=lead,
        )
    if kind in ("unused", "rare") and "used" in f:
        kind_of = f.get("skill_kind")
        skill_kind = say("flag_skill_kind", lang, kind=skill_kind_name(kind_of, lang)) if kind_of else ""
        offered = f.get("offered")
        more = (
            ""
            if offered is None
            else say("flag_skill_offered", lang, n=offered)
            if offered
            else say("flag_skill_never_offered", lang)
        )
        said = "flag_rule_skill_text" if f.get("rule_skill") else "flag_skill_text"  # (a rule skill has no role)
        return say(said, lang, used=f["used"], games=f["n"], kind=skill_kind) + more
    return str(f["text"])


def reason_name(reason: str, lang: str) -> str:
    """A short name of how a game ended (``collect``, ``death+usurp``, …) in `lang`; a reason the catalogue does
    not know (a fork's own) is shown as its id."""
    base, usurped = (reason[: -len("+usurp")], True) if reason.endswith("+usurp") else (reason, False)
    name = say("reason_" + base, lang) if "reason_" + base in MESSAGES else base
    return say("reason_usurped", lang, reason=name) if usurped else name


def figure_name(figure: dict, lang: str) -> str:
    """What a compare's figure is about, in `lang`: an identity, task or role as named; an ending by its short
    name; the game's length (turns, decisions) by its word."""
    kind, name = figure["kind"], str(figure["name"])
    if kind == "end_reason":
        return reason_name(name, lang)
    if kind in ("turns", "decisions"):
        return say(kind, lang)
    return _named(kind, name, lang)


def skill_kind_name(kind: str, lang: str) -> str:
    """A skill's kind (active, triggered, …; a skill with several moments ``triggered + victory``: each part) in
    `lang`, as the flags and the page's skill table show it; a kind the catalogue does not name is shown as it is."""
    return " + ".join(
        say("skill_kind_" + part, lang) if "skill_kind_" + part in MESSAGES else part for part in kind.split(" + ")
    )
