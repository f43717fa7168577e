"""Balance reports: win rates with their uncertainty, flags a designer can act on, game length and endings.

A sweep (``fengsheng balance``) leaves a directory with ``sweep.json`` (the grid) and ``games.jsonl``
(one record per game, with its seats). ``build_report`` turns those records into one plain-data
report (its keys are documented in docs/balance.md and kept stable: ``REPORT_FORMAT``), which
``terminal.print_report`` prints as terminal tables and ``html.render_report`` draws as one HTML file.
The statistics are stats.py's; what the report reads of the packs themselves (their skills, what a fork adds,
where their folders are now) is pack_facts.py's.

Every win rate is "seats that won / seats played" with its Wilson 95% interval. The figures are
grouped by cell: pack × agents × player count, plus one group per pack and agents pooling every
player count when the sweep has several.

**When a role is flagged** (``strong`` / ``weak``): roles are dealt independently of identities, so
a role's seats are a random draw of identities. Its *expected* win rate is what the other roles won
with the same identities in the same cell: for each of its seats, the win rate of the identity that
seat had, over every seat of that identity in the cell that another role played (leave-one-out);
averaged over its seats. (In the pooled group the expectation of each cell is kept, seat by seat.)
A role is ``strong`` when its whole 95% interval lies above that expected rate, ``weak`` when it lies
below (once it has played at least ``MIN_ROLE_SEATS`` seats). With many roles about one in twenty is
flagged by chance alone, so each role also gets the p-value of an exact binomial test against its
expected rate and whether it survives Holm's correction
over the roles of its group (``holm``): a flag that survives Holm is a finding, one that does not is
a lead to check with more games.

**When a skill is flagged**: ``unused`` when it was never used in the games its role was in play
(at least ``MIN_SKILL_GAMES`` of them), ``rare`` when it was used in fewer than ``RARE_SKILL_SHARE``
of them. Passive skills (never "used") are not counted.
"""

from __future__ import annotations

import math
import os
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..model.content import BASE_COUNTS
from ..sim import reason_text
from ..sim.summary import RULE_SKILL_OWNER
from ..suggest import folder_hint
from . import records
from .pack_facts import rerun_command
from .stats import ALL, CONFIDENCE, binomial_p_two_sided, holm, rate, seats_for_half_width, spread
from .words import note_text, verdict_text

REPORT_FORMAT = 1
MIN_ROLE_SEATS = 10  # seats a role must have played before it is flagged strong or weak
MIN_SKILL_GAMES = 20  # games a role must be in play before its skills are flagged unused or rare
RARE_SKILL_SHARE = 0.05  # a skill used in fewer than this share of its role's games is rare


class SweepError(Exception):
    """A directory that is not a sweep, or a sweep that cannot be read: the message says which and why."""


# ---------------------------------------------------------------------- statistics


# ---------------------------------------------------------------------- reading a sweep


@dataclass
class Sweep:
    """A sweep directory as read: its grid (sweep.json) and its game records (games.jsonl)."""

    path: Path
    meta: dict
    records: list[dict] = field(default_factory=list)


def load_sweep(path: str | Path) -> Sweep:
    """Read a sweep directory (records.py); a SweepError says what is wrong (not a directory, no sweep.json,
    a bad line)."""
    d = Path(path)
    if not os.path.isdir(d):  # (not Path.is_dir: a name too long for the system raises OSError there)
        hint = folder_hint(str(path))
        raise SweepError(
            f"{d}: not a directory (a sweep is the directory `fengsheng balance --out DIR` writes)"
            + (f": {hint}" if hint else "")
        )
    if not (d / records.SWEEP_FILE).is_file():
        raise SweepError(
            f"{d}: not a sweep directory: it has no {records.SWEEP_FILE} (`fengsheng balance --out DIR` makes one)"
        )
    try:
        spec = records.read_spec(d)
        games = records.read_records(d)
    except records.RecordError as e:
        raise SweepError(str(e)) from None
    return Sweep(d, spec.to_dict(), [g.to_dict() for g in games])


# ---------------------------------------------------------------------- the report


def _key(rec: dict) -> tuple[str, str, int]:
    c = rec["cell"]
    return (str(c["pack"]), str(c["agents"]), int(c["players"]))


def build_report(
    meta: dict,
    records: Sequence[dict],
    skills: dict[str, dict[str, list[tuple[str, str]]]] | None = None,
    new: dict[str, list[str]] | None = None,
    notes: dict[str, dict] | None = None,
    new_other: dict[str, dict[str, list[str]]] | None = None,
    counts: dict[str, tuple[int, int]] | None = None,
) -> dict:
    """The report of a sweep's records (plain data, keys documented in docs/balance.md).

    ``skills``: per pack label, each role's usable skills as (name, kind) (``pack_skills``); without it
    only skills seen used are listed (a skill never used is then not found). ``new``: per pack label,
    the roles the pack adds to the game (``new_roles``), shown first. ``notes``: per pack label, what is
    wrong with finding its content (``locate_packs``' facts), shown first too: in words (English) as
    ``pack_notes``, as they are as ``pack_note_facts``, which the tables and the page say in their language.
    ``counts``: per pack label, its rules' counts of intel (``pack_counts``), which an ending's text says (a fork
    collecting four: four); without it the base game's, and a pack left out of it (one that no longer loads) says
    the rules' count without a number."""
    cells: dict[tuple[str, str, int], list[dict]] = defaultdict(list)
    for rec in records:
        cells[_key(rec)].append(rec)
    groups: list[dict] = []
    by_pack: dict[tuple[str, str], list[tuple[int, list[dict]]]] = defaultdict(list)
    for key in sorted(cells):
        by_pack[key[:2]].append((key[2], cells[key]))
    for (pack, agents), per_count in by_pack.items():
        pack_skills = (skills or {}).get(pack)
        said = BASE_COUNTS if counts is None else counts.get(pack)
        cell_groups = [_group(pack, agents, players, recs, pack_skills, said) for players, recs in per_count]
        pooled = [_pooled(pack, agents, per_count, pack_skills, said)] if len(per_count) > 1 else []
        for g in cell_groups:  # skills are flagged once per pack and agents: in the pooled group if there is one
            g["_flags"] = _flags(g, skills=not pooled)
        for g in pooled:
            g["_flags"] = _flags(g, skills=True)
        groups += cell_groups + pooled
    for g in groups:
        for f in (*g["failures"], *g["turn_limit_games"]):
            f["rerun"] = rerun_command(meta, g["pack"], g["agents"], f["players"], f["seed"], f.get("index"))
    flags = [f for g in groups for f in g.pop("_flags")]
    news = {pack: {"roles": roles, **(new_other or {}).get(pack, {})} for pack, roles in (new or {}).items()}
    for pack, other in (new_other or {}).items():
        news.setdefault(pack, {"roles": [], **other})
    flags.sort(key=lambda f: (_FLAG_ORDER.index(f["kind"]), f["pack"], f["agents"], str(f["players"]), f["subject"]))
    return {
        "format": REPORT_FORMAT,
        "pack_notes": {name: note_text(note, "en") for name, note in sorted((notes or {}).items())},
        "pack_note_facts": dict(sorted((notes or {}).items())),
        "sweep": {
            "version": meta.get("version"),
            "seed": meta.get("seed"),
            "players": meta.get("players"),
            "agents": meta.get("agents"),
            "packs": [p.get("name") for p in meta.get("packs") or [] if isinstance(p, dict)],
            "games_per_cell": meta.get("games"),
            "max_turns": meta.get("max_turns"),
            # what every game dealt to a seat (--role, --task; the seat rotating), or null
            "pins": meta.get("pins") or None,
            # per card kind pinned (--card): its name and the packs without it (the report command fills it in)
            "pinned_cards": {},
            # the pinned role's and task's names ({"role": label, "task": name}; the report command fills it in)
            "pinned_names": {},
            "records": len(records),
            # the roles of each pack's content, where it loads (compare tells a new role from one not dealt)
            "content_roles": {pack: sorted(roles) for pack, roles in sorted((skills or {}).items())},
        },
        "rules": {
            "confidence": CONFIDENCE,
            "interval": "wilson",
            "role_flag": "strong/weak: the role's Wilson 95% interval lies wholly above/below its expected rate "
            "(the other roles' win rate with the same identities in the same cell); holm: still significant "
            "after Holm's correction over the roles of the group",
            "min_role_seats": MIN_ROLE_SEATS,
            "min_skill_games": MIN_SKILL_GAMES,
            "rare_skill_share": RARE_SKILL_SHARE,
        },
        "flags": flags,
        "new_roles": {
            pack: roles for pack, roles in sorted((new or {}).items()) if pack in {g["pack"] for g in groups}
        },
        "new_items": {pack: items for pack, items in sorted(news.items()) if pack in {g["pack"] for g in groups}},
        "verdicts": _verdicts(groups, news),
        "pack_diffs": {},  # per fork: `pack diff` against the bundled game (the report command fills it in)
        "groups": groups,
    }


def _verdicts(groups: Sequence[dict], news: dict[str, dict[str, list[str]]]) -> list[dict]:
    """A verdict in words (``verdict``) on each new role, card and secret task of a pack, in the group pooling
    its player counts (or its one player count): is my new thing balanced? A role against its expected rate
    (the same identities), a card's users against every seat, a task against the other tasks' seats."""
    out = []
    last: dict[tuple[str, str], dict] = {}
    for g in groups:  # the pooled group comes after its player counts
        last[(g["pack"], g["agents"])] = g
    for (pack, agents), g in last.items():
        items = news.get(pack) or {}
        games = g["games"] - g["failed"]
        for name in items.get("roles", []):
            row = next((r for r in g["roles"] if r["name"] == name), None)
            v = verdict(row, row["expected"] if row else None, games, bool(row and row.get("holm", True)))
            out.append({"pack": pack, "agents": agents, "players": g["players"], "kind": "role", "name": name,
                        **v, "row": row})  # fmt: skip
        for name in items.get("cards", []):
            row = next((r for r in g.get("cards", []) if r["name"] == name), None)
            # (how often it is used comes with its users' rate: a card nobody plays is a verdict of its own; one not
            # seen in a sweep whose records did not all count card uses may have been played in those that did not)
            v = verdict(
                row,
                row["expected"] if row else None,
                games,
                uses=row["uses_per_game"] if row else 0.0,
                counted=row is not None or not g.get("cards_uncounted"),
            )
            out.append({"pack": pack, "agents": agents, "players": g["players"], "kind": "card", "name": name,
                        **v, "row": row})  # fmt: skip
        for name in items.get("rule_skills", []):
            row = next((r for r in g.get("rule_skills", []) if r["name"] == name), None)
            # (as a card's: how often the seats use it, then how the seats that used it fare against every seat)
            v = verdict(row, row["expected"] if row else None, games, uses=row["uses_per_game"] if row else 0.0)
            out.append({"pack": pack, "agents": agents, "players": g["players"], "kind": "rule_skill", "name": name,
                        **v, "row": row})  # fmt: skip
        for name in items.get("tasks", []):
            row = next((r for r in g["tasks"] if r["name"] == name), None)
            others = [r for r in g["tasks"] if r["name"] != name]
            n = sum(r["n"] for r in others)
            expected = sum(r["won"] for r in others) / n if n else None
            v = verdict(row, expected, games)
            out.append({"pack": pack, "agents": agents, "players": g["players"], "kind": "task", "name": name,
                        **v, "row": row})  # fmt: skip
    order = {"strong": 0, "weak": 1, "open": 2, "unseen": 3}
    # a house rule's first among its pack's verdicts of a status: every seat holds it in every game
    out.sort(key=lambda v: (order[v["status"]], v["pack"], v["kind"] != "rule_skill", v["kind"], str(v["name"])))
    return out


_FLAG_ORDER = ["failures", "strong", "weak", "unused", "rare"]


NO_ROLE = "（无角色）"  # a seat that ended the game without a role (content without roles, a role taken away)


def _seat_list(recs: Sequence[dict]) -> list[dict]:
    """The seats of the games that finished (a seat without a role counts under NO_ROLE)."""
    return [s if s.get("role") else {**s, "role": NO_ROLE} for r in recs if r.get("failed") is None for s in r["seats"]]


def _identity_pool(seats: Sequence[dict]) -> tuple[Counter, Counter, Counter, Counter]:
    """Per identity: seats won and played; per (role, identity): the same."""
    iw: Counter = Counter()
    in_: Counter = Counter()
    riw: Counter = Counter()
    rin: Counter = Counter()
    for s in seats:
        ident, role = s.get("identity"), s.get("role")
        in_[ident] += 1
        rin[role, ident] += 1
        if s["won"]:
            iw[ident] += 1
            riw[role, ident] += 1
    return iw, in_, riw, rin


def _expected_wins(seats: Sequence[dict]) -> dict[str, float]:
    """Each role's expected number of wins: for each of its seats, its identity's win rate over the other
    roles' seats."""
    iw, in_, riw, rin = _identity_pool(seats)
    out: dict[str, float] = defaultdict(float)
    for (role, ident), n in rin.items():
        others = in_[ident] - n
        # only this role ever had this identity here: nothing to compare with but itself
        p = (iw[ident] - riw[role, ident]) / others if others > 0 else iw[ident] / in_[ident]
        out[role] += n * p
    return out


def _rates(won: Counter, n: Counter) -> list[dict]:
    return [{"name": name, **rate(won[name], n[name])} for name in sorted(n, key=str)]


def _role_rows(seats: Sequence[dict], expected: dict[str, float]) -> list[dict]:
    won: Counter = Counter()
    n: Counter = Counter()
    for s in seats:
        n[s.get("role")] += 1
        won[s.get("role")] += bool(s["won"])
    rows = []
    for role in sorted(n, key=str):
        row = {"name": role, **rate(won[role], n[role])}
        e = expected.get(role, 0.0) / n[role]
        row["expected"] = e
        row["p_value"] = binomial_p_two_sided(won[role], n[role], e)
        row["flag"] = None
        if n[role] >= MIN_ROLE_SEATS:
            row["flag"] = "strong" if row["low"] > e else "weak" if row["high"] < e else None
        row["seats_for_5_points"] = seats_for_half_width(e)  # planned at the rate expected of it
        rows.append(row)
    for row, survives in zip(rows, holm([r["p_value"] for r in rows]), strict=True):
        row["holm"] = survives
    return rows


def _skill_rows(recs: Sequence[dict], role_skills: dict[str, list[tuple[str, str]]] | None) -> list[dict]:
    dealt: Counter = Counter()
    used_games: Counter = Counter()
    uses: Counter = Counter()
    offered_games: Counter = Counter()
    offers: Counter = Counter()
    counted = False  # some record counts offers (a sweep before they were recorded has none)
    kinds: dict[tuple[str, str], str] = {}
    for r in recs:
        if r.get("failed") is not None:
            continue
        # A record lists the roles in play at the end; a role offered or using a skill was in play too, though a
        # skill may have taken it out of play since (a skill that replaces its own role with another).
        in_play = set(r["roles"])
        if RULE_SKILL_OWNER in (role_skills or {}):  # the rules' skills: every seat's, in every game
            in_play.add(RULE_SKILL_OWNER)
        if "skill_offers" in r:
            counted = True
            for key, k in r["skill_offers"].items():
                role, _, name = key.rpartition("·")
                kinds.setdefault((role, name), "")
                if k:
                    offered_games[role, name] += 1
                    offers[role, name] += k
                    in_play.add(role)
        for key, k in r["skill_uses"].items():
            role, _, name = key.rpartition("·")
            kinds.setdefault((role, name), "")
            if k:
                used_games[role, name] += 1
                uses[role, name] += k
                in_play.add(role)
        for role in in_play:
            dealt[role] += 1
            for name, kind in (role_skills or {}).get(role, ()):
                kinds[role, name] = kind  # the content's, over the blank a record's offers or uses put first
    rows = []
    for role, name in sorted(kinds):
        g = dealt[role]
        used = used_games[role, name]
        flag = None
        if g >= MIN_SKILL_GAMES:
            if used == 0:
                flag = "unused"
            elif used / g < RARE_SKILL_SHARE:
                flag = "rare"
        rows.append(
            {
                "role": role,
                "skill": name,
                "kind": kinds[role, name] or None,
                "games_in_play": g,
                "games_offered": offered_games[role, name] if counted else None,
                "offers": offers[role, name] if counted else None,
                "games_used": used,
                "uses": uses[role, name],
                "uses_per_game": uses[role, name] / g if g else None,
                "share_of_games": rate(used, g),
                "flag": flag,
            }
        )
    return rows


def _common(
    pack: str, agents: str, players: int | str, recs: Sequence[dict], counts: tuple[int, int] | None = BASE_COUNTS
) -> dict:
    ok = [r for r in recs if r.get("failed") is None]
    failed = [r for r in recs if r.get("failed") is not None]
    seats = _seat_list(recs)
    iw, in_, _, _ = _identity_pool(seats)
    tw: Counter = Counter()
    tn: Counter = Counter()
    for s in seats:
        if s.get("task"):
            tn[s["task"]] += 1
            tw[s["task"]] += bool(s["won"])
    reasons = Counter(r["reason"] for r in ok)
    # the finished games whose records did not count card uses (an older sweep's): said only when there are some
    uncounted = sum(not _counts_cards(r) for r in ok)
    return {
        "cards": _card_rows(ok),
        **({"cards_uncounted": uncounted} if uncounted else {}),
        "pack": pack,
        "agents": agents,
        "players": players,
        "games": len(recs),
        "failed": len(failed),
        "seats": len(seats),
        "identities": _rates(iw, in_),
        "tasks": _rates(tw, tn),
        "turns": spread(r["turns"] for r in ok),
        "decisions": spread(r["decisions"] for r in ok),
        "end_reasons": [
            {"reason": reason, "text": reason_text(reason, counts), "games": k, "share": k / len(ok)}
            for reason, k in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
        "failures": [
            {"players": r["cell"]["players"], "index": r.get("index"), "seed": r.get("seed"), "failed": r["failed"]}
            for r in failed
        ],
        # the games no one won before the turn limit (draws): named, so a stalemate between bots can be replayed
        "turn_limit_games": [
            {"players": r["cell"]["players"], "index": r.get("index"), "seed": r.get("seed"), "turns": r["turns"]}
            for r in ok
            if r["reason"] == "turn_limit"
        ],
    }


def _counts_cards(rec: dict) -> bool:
    """Whether a game's record counted its seats' card uses (an older sweep's seats have no ``cards``)."""
    return all(s.get("cards") is not None for s in rec["seats"])


def _card_rows(ok: Sequence[dict]) -> list[dict]:
    """Per card (by the name it was used as): its uses per game, and the win rate of the seats that used it at
    least once (Wilson 95%), beside every seat's rate (``expected``), in the games whose records counted card uses:
    those of an older sweep, which did not, give none (the group's ``cards_uncounted`` says how many they are)."""
    uses: Counter = Counter()
    users: Counter = Counter()
    won: Counter = Counter()
    seats = seats_won = 0
    counted = [r for r in ok if _counts_cards(r)]
    for r in counted:
        for s in r["seats"]:
            seats += 1
            seats_won += bool(s["won"])
            for name, k in s["cards"].items():
                uses[name] += k
                users[name] += 1
                won[name] += bool(s["won"])
    games = len(counted)
    everyone = seats_won / seats if seats else None
    return [
        {"name": name, "uses": uses[name], "uses_per_game": uses[name] / games, **rate(won[name], users[name]),
         "expected": everyone}
        for name in sorted(users, key=lambda x: (-uses[x], str(x)))
    ]  # fmt: skip


def verdict(
    row: dict | None,
    expected: float | None,
    games: int,
    holm_ok: bool = True,
    uses: float | None = None,
    counted: bool = True,
) -> dict:
    """A verdict on one figure of a new item: strong or weak when its 95% interval lies wholly above or below
    `expected`, else not shown either way (``open``); and the games still needed for a ±5-point interval at the
    rate seen, with the seats per game seen (``games_more``). `uses`: a card's uses per game (``uses_per_game``,
    said first: a card never used has no users to rate; a rule skill's too). A row used by seats that were not counted
    (``n`` null: a rule skill of a sweep made before they were counted per seat) is ``open`` and ``uncounted``, with
    its uses alone. ``counted`` False: a card not seen in games whose records did not count card uses (an older
    sweep's): its uses are not known either (``uses_per_game`` null), ``open`` and ``uncounted``, not "never used".
    ``text`` says it in English (words.verdict_text says it in either language from the same fields)."""
    used = {} if uses is None else {"uses_per_game": uses}
    v: dict
    if not counted:  # (an older sweep's records: a card's uses were not counted, so "never used" would be a guess)
        v = {"status": "open", "games_more": None, "uncounted": True, "uses_per_game": None}
        return {**v, "text": verdict_text(v, "en")}
    if row is not None and "n" in row and row["n"] is None and uses:  # used, by seats not counted (an older sweep)
        v = {"status": "open", "games_more": None, "uncounted": True, **used}
        return {**v, "text": verdict_text(v, "en")}
    if row is None or not row.get("n"):
        v = {"status": "unseen", "games_more": None, **used}
        return {**v, "text": verdict_text(v, "en")}
    n, p = row["n"], row["rate"]
    per_game = n / games if games else 0
    need = seats_for_half_width(p)
    more = max(0, math.ceil(need / per_game) - games) if per_game else None
    status = "open"
    if expected is not None and n >= MIN_ROLE_SEATS and row["low"] > expected:
        status = "strong"
    elif expected is not None and n >= MIN_ROLE_SEATS and row["high"] < expected:
        status = "weak"
    v = {"status": status, "games_more": more, "n": n, "rate": p, "low": row["low"], "high": row["high"],
         "half_width": row["half_width"], "expected": expected, "holm": holm_ok, **used}  # fmt: skip
    return {**v, "text": verdict_text(v, "en")}


def _flags(group: dict, skills: bool) -> list[dict]:
    where = {"pack": group["pack"], "agents": group["agents"], "players": group["players"]}
    out = []
    if group["failed"] and group["players"] != ALL:
        out.append(
            {
                "kind": "failures",
                **where,
                "subject": f"{group['failed']} of {group['games']} games failed",
                "failed": group["failed"],
                "games": group["games"],
                "text": "failed games are left out of every figure: re-run one alone to see why",
            }
        )
    for row in group["roles"]:
        if row["flag"]:
            out.append(
                {
                    "kind": row["flag"],
                    **where,
                    "subject": row["name"],
                    "rate": row["rate"],
                    "low": row["low"],
                    "high": row["high"],
                    "expected": row["expected"],
                    "n": row["n"],
                    "holm": row["holm"],
                    "text": f"won {100 * row['rate']:.1f}% of {row['n']} seats (95% {100 * row['low']:.1f}–"
                    f"{100 * row['high']:.1f}%), expected {100 * row['expected']:.1f}%"
                    + ("" if row["holm"] else "; not significant after Holm's correction: check with more games"),
                }
            )
    if skills:
        for row in group["skills"]:
            if row["flag"]:
                out.append(
                    {
                        "kind": row["flag"],
                        **where,
                        "subject": f"{row['role']}·{row['skill']}",
                        "n": row["games_in_play"],
                        "used": row["games_used"],
                        "skill_kind": row["kind"],
                        "offered": row["games_offered"],
                        "rule_skill": row["role"] == RULE_SKILL_OWNER,  # every seat's: in play in every game
                        "text": f"used in {row['games_used']} of the {row['games_in_play']} games"
                        + ("" if row["role"] == RULE_SKILL_OWNER else " its role was in play")
                        + (f" ({row['kind']} skill)" if row["kind"] else "")
                        + (
                            ""
                            if row["games_offered"] is None
                            else f"; offered in {row['games_offered']} of them"
                            if row["games_offered"]
                            else "; never offered"
                        ),
                    }
                )
    return out


def _group(pack: str, agents: str, players: int, recs: Sequence[dict], role_skills, counts) -> dict:
    g = _common(pack, agents, players, recs, counts)
    seats = _seat_list(recs)
    g["roles"] = _role_rows(seats, _expected_wins(seats))
    g["skills"] = _skill_rows(recs, role_skills)
    return _with_rule_skills(g, recs)


def _pooled(pack: str, agents: str, per_count: list[tuple[int, list[dict]]], role_skills, counts) -> dict:
    recs = [r for _, rs in per_count for r in rs]
    g = _common(pack, agents, ALL, recs, counts)
    expected: dict[str, float] = defaultdict(float)
    for _, rs in per_count:  # each cell's expectation, seat by seat: identities mean different things per count
        for role, e in _expected_wins(_seat_list(rs)).items():
            expected[role] += e
    g["roles"] = _role_rows(_seat_list(recs), expected)
    g["skills"] = _skill_rows(recs, role_skills)
    return _with_rule_skills(g, recs)


def _with_rule_skills(g: dict, recs: Sequence[dict]) -> dict:
    """The group with its rule skills' figures (``rule_skills``), when its rules have skills (a pack without them:
    no key, its report as before)."""
    rows = _rule_skill_rows([r for r in recs if r.get("failed") is None], g["skills"])
    if rows:
        g["rule_skills"] = rows
    return g


def _rule_skill_rows(ok: Sequence[dict], skills: Sequence[dict]) -> list[dict]:
    """Per rule skill (a house rule every seat holds, the skill rows of RULE_SKILL_OWNER), figured as a card is: its
    uses per game, and the win rate of the seats that used it at least once (Wilson 95%), beside every seat's rate
    (``expected``), from the seats' counts (``rule_skills``); the most used first. A sweep whose records did not count
    them per seat (an older one) has its uses alone: its rate figures are null."""
    mine = [sk for sk in skills if sk["role"] == RULE_SKILL_OWNER]
    if not mine:
        return []
    users: Counter = Counter()
    won: Counter = Counter()
    seats = seats_won = 0
    for r in ok:
        for s in r["seats"]:
            used = s.get("rule_skills")
            if used is None:  # (a seat of an older sweep: not counted)
                continue
            seats += 1
            seats_won += bool(s["won"])
            for name, k in used.items():
                if k:
                    users[name] += 1
                    won[name] += bool(s["won"])
    games = len(ok)
    everyone = seats_won / seats if seats else None
    rows = []
    for sk in sorted(mine, key=lambda sk: (-sk["uses"], sk["skill"])):
        name = sk["skill"]
        figures = rate(won[name], users[name]) if seats else {k: None for k in rate(0, 0)}
        rows.append(
            {"name": name, "kind": sk["kind"], "games_offered": sk["games_offered"], "games_used": sk["games_used"],
             "uses": sk["uses"], "uses_per_game": sk["uses"] / games if games else 0.0, **figures,
             "expected": everyone}
        )  # fmt: skip
    return rows


# ---------------------------------------------------------------------- the content's skills


# ---------------------------------------------------------------------- the terminal
