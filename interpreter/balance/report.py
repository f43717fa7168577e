"""Balance reports: win rates with their uncertainty, flags a designer can act on, game length and endings.

A sweep (``fengsheng balance``) leaves a directory with ``sweep.json`` (the grid) and ``games.jsonl``
(one record per game, with its seats). ``build_report`` turns those records into one plain-data
report (its keys are documented in docs/balance.md and kept stable: ``REPORT_FORMAT``), which
``text_report`` prints as terminal tables and ``html.render_report`` draws as one HTML file.

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
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any

from ..sim import REASON_TEXT, wilson
from . import records

REPORT_FORMAT = 1
CONFIDENCE = 0.95
MIN_ROLE_SEATS = 10  # seats a role must have played before it is flagged strong or weak
MIN_SKILL_GAMES = 20  # games a role must be in play before its skills are flagged unused or rare
RARE_SKILL_SHARE = 0.05  # a skill used in fewer than this share of its role's games is rare
TRUST_POINTS = 0.05  # the half-width a figure should reach: seats_for_5_points says how many it takes
ALL = "all"  # the players of a group that pools every player count

Z95 = NormalDist().inv_cdf(0.975)


class SweepError(Exception):
    """A directory that is not a sweep, or a sweep that cannot be read: the message says which and why."""


# ---------------------------------------------------------------------- statistics


def holm(pvalues: Sequence[float], alpha: float = 1 - CONFIDENCE) -> list[bool]:
    """Holm's step-down correction: which of the hypotheses are rejected at family-wise level alpha."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    out = [False] * len(pvalues)
    m = len(pvalues)
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (m - rank):
            break
        out[i] = True
    return out


def binomial_p_two_sided(k: int, n: int, p: float) -> float:
    """Exact two-sided binomial test of k successes in n at rate p: the probability of an outcome no likelier than k."""
    if n == 0 or p <= 0 or p >= 1:
        return 1.0 if (p <= 0 and k == 0) or (p >= 1 and k == n) or n == 0 else 0.0
    lp, lq = math.log(p), math.log(1 - p)

    def logpmf(i: int) -> float:
        return math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * lp + (n - i) * lq

    at = logpmf(k) + 1e-9  # a relative tolerance, as R's binom.test uses
    return min(1.0, sum(math.exp(v) for v in map(logpmf, range(n + 1)) if v <= at))


def seats_for_half_width(p: float, half: float = TRUST_POINTS, z: float = Z95) -> int:
    """Seats needed for a 95% interval of about ±half around a rate p (normal approximation)."""
    p = min(max(p, 0.05), 0.95)  # an interval at 0% or 100% is not symmetric: plan for a rate of at least 5%
    return math.ceil(z * z * p * (1 - p) / (half * half))


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) of sorted values, interpolated linearly between ranks."""
    if not values:
        return 0.0
    pos = (len(values) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (pos - lo)


def rate(won: int, n: int) -> dict:
    """A win rate with its Wilson 95% interval, as the report's JSON holds it."""
    lo, hi = wilson(won, n)
    return {
        "won": won,
        "n": n,
        "rate": won / n if n else None,
        "low": lo,
        "high": hi,
        "half_width": (hi - lo) / 2,
    }


def spread(values: Iterable[int]) -> dict:
    """Mean, median, percentiles and extremes of a game-length figure, and its histogram (value, games)."""
    v = sorted(values)
    if not v:
        return {
            "games": 0,
            "mean": None,
            "median": None,
            "p10": None,
            "p90": None,
            "min": None,
            "max": None,
            "histogram": [],
        }
    return {
        "games": len(v),
        "mean": sum(v) / len(v),
        "median": percentile(v, 50),
        "p10": percentile(v, 10),
        "p90": percentile(v, 90),
        "min": v[0],
        "max": v[-1],
        "histogram": [[value, k] for value, k in sorted(Counter(v).items())],
    }


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
    if not d.is_dir():
        raise SweepError(f"{d}: not a directory (a sweep is the directory `fengsheng balance --out DIR` writes)")
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
    notes: dict[str, str] | None = None,
    new_other: dict[str, dict[str, list[str]]] | None = None,
) -> dict:
    """The report of a sweep's records (plain data, keys documented in docs/balance.md).

    ``skills``: per pack label, each role's usable skills as (name, kind) (``pack_skills``); without it
    only skills seen used are listed (a skill never used is then not found). ``new``: per pack label,
    the roles the pack adds to the game (``new_roles``), shown first. ``notes``: per pack label, what is
    wrong with finding its content (``locate_packs``), shown first too."""
    cells: dict[tuple[str, str, int], list[dict]] = defaultdict(list)
    for rec in records:
        cells[_key(rec)].append(rec)
    groups: list[dict] = []
    by_pack: dict[tuple[str, str], list[tuple[int, list[dict]]]] = defaultdict(list)
    for key in sorted(cells):
        by_pack[key[:2]].append((key[2], cells[key]))
    for (pack, agents), per_count in by_pack.items():
        pack_skills = (skills or {}).get(pack)
        cell_groups = [_group(pack, agents, players, recs, pack_skills) for players, recs in per_count]
        pooled = [_pooled(pack, agents, per_count, pack_skills)] if len(per_count) > 1 else []
        for g in cell_groups:  # skills are flagged once per pack and agents: in the pooled group if there is one
            g["_flags"] = _flags(g, skills=not pooled)
        for g in pooled:
            g["_flags"] = _flags(g, skills=True)
        groups += cell_groups + pooled
    for g in groups:
        for f in g["failures"]:
            f["rerun"] = rerun_command(meta, g["pack"], g["agents"], f["players"], f["seed"], f.get("index"))
    flags = [f for g in groups for f in g.pop("_flags")]
    news = {pack: {"roles": roles, **(new_other or {}).get(pack, {})} for pack, roles in (new or {}).items()}
    for pack, other in (new_other or {}).items():
        news.setdefault(pack, {"roles": [], **other})
    flags.sort(key=lambda f: (_FLAG_ORDER.index(f["kind"]), f["pack"], f["agents"], str(f["players"]), f["subject"]))
    return {
        "format": REPORT_FORMAT,
        "pack_notes": dict(sorted((notes or {}).items())),
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
            v = verdict(row, row["expected"] if row else None, games)
            out.append({"pack": pack, "agents": agents, "players": g["players"], "kind": "card", "name": name,
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
    out.sort(key=lambda v: (order[v["status"]], v["pack"], v["kind"], str(v["name"])))
    return out


def new_other_items(meta: dict) -> dict[str, dict[str, list[str]]]:
    """Per pack: the cards (by name) and secret tasks (by name) of its content that the bundled game with the same
    expansions lacks, when its content loads (the report marks them new and gives each a verdict)."""
    from ..content.loader import load_cached
    from ..content.packs import parse_expansions, resolve_packs

    out: dict[str, dict[str, list[str]]] = {}
    for pack in meta.get("packs") or []:
        if pack.get("missing") or not pack.get("content"):
            continue
        try:
            expansions = parse_expansions(pack.get("expansions"))
            content = load_cached(resolve_packs(list(pack.get("content") or []), expansions))
            reference = load_cached(resolve_packs([], expansions))
        except Exception:  # a pack moved or broken since the sweep: nothing is marked new
            continue
        cards = sorted({t.name for t in content.card_types.values()} - {t.name for t in reference.card_types.values()})
        tasks = sorted({t.name for t in content.tasks.values()} - {t.name for t in reference.tasks.values()})
        if cards or tasks:
            out[str(pack.get("name"))] = {"cards": cards, "tasks": tasks}
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
    kinds: dict[tuple[str, str], str] = {}
    for r in recs:
        if r.get("failed") is not None:
            continue
        in_play = set(r["roles"])
        for role in in_play:
            dealt[role] += 1
            for name, kind in (role_skills or {}).get(role, ()):
                kinds.setdefault((role, name), kind)
        for key, k in r["skill_uses"].items():
            role, _, name = key.rpartition("·")
            kinds.setdefault((role, name), "")
            if k:
                used_games[role, name] += 1
                uses[role, name] += k
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
                "games_used": used,
                "uses": uses[role, name],
                "uses_per_game": uses[role, name] / g if g else None,
                "share_of_games": rate(used, g),
                "flag": flag,
            }
        )
    return rows


def _common(pack: str, agents: str, players: int | str, recs: Sequence[dict]) -> dict:
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
    return {
        "cards": _card_rows(ok),
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
            {"reason": reason, "text": REASON_TEXT.get(reason, reason), "games": k, "share": k / len(ok)}
            for reason, k in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0]))
        ],
        "failures": [
            {"players": r["cell"]["players"], "index": r.get("index"), "seed": r.get("seed"), "failed": r["failed"]}
            for r in failed
        ],
    }


def _card_rows(ok: Sequence[dict]) -> list[dict]:
    """Per card (by the name it was used as): its uses per game, and the win rate of the seats that used it at
    least once (Wilson 95%), beside every seat's rate (``expected``). Records of a sweep that did not count card
    uses (older ones) give none."""
    uses: Counter = Counter()
    users: Counter = Counter()
    won: Counter = Counter()
    seats = seats_won = 0
    for r in ok:
        for s in r["seats"]:
            seats += 1
            seats_won += bool(s["won"])
            for name, k in (s.get("cards") or {}).items():
                uses[name] += k
                users[name] += 1
                won[name] += bool(s["won"])
    games = len(ok)
    everyone = seats_won / seats if seats else None
    return [
        {"name": name, "uses": uses[name], "uses_per_game": uses[name] / games, **rate(won[name], users[name]),
         "expected": everyone}
        for name in sorted(users, key=lambda x: (-uses[x], str(x)))
    ]  # fmt: skip


def verdict(row: dict | None, expected: float | None, games: int, holm_ok: bool = True) -> dict:
    """A verdict in words on one figure of a new item: strong or weak when its 95% interval lies wholly above or
    below `expected`, else not shown either way; and the games still needed for a ±5-point interval at the rate
    seen, with the seats per game seen (``games_more``)."""
    if row is None or not row.get("n"):
        return {"status": "unseen", "games_more": None, "text": "never in play: no figure"}
    n, p = row["n"], row["rate"]
    per_game = n / games if games else 0
    need = seats_for_half_width(p)
    more = max(0, math.ceil(need / per_game) - games) if per_game else None
    where = f"{pct(p)} of {n} (95% {pct(row['low'])}–{pct(row['high'])}, ±{100 * row['half_width']:.1f} points)"
    against = f" against {pct(expected)}" if expected is not None else ""
    status = "open"
    if expected is not None and n >= MIN_ROLE_SEATS and row["low"] > expected:
        status = "strong"
    elif expected is not None and n >= MIN_ROLE_SEATS and row["high"] < expected:
        status = "weak"
    if status != "open":
        lead = "" if holm_ok else " (a lead: not after Holm's correction; play more games)"
        text = f"{status}: {where}{against}{lead}"
    else:
        text = f"not shown strong or weak: {where}{against}"
    if more:
        text += f"; about {more:,} more games for ±5 points"
    elif more == 0:
        text += "; ±5 points reached"
    return {"status": status, "games_more": more, "text": text}


def _flags(group: dict, skills: bool) -> list[dict]:
    where = {"pack": group["pack"], "agents": group["agents"], "players": group["players"]}
    out = []
    if group["failed"] and group["players"] != ALL:
        out.append(
            {
                "kind": "failures",
                **where,
                "subject": f"{group['failed']} of {group['games']} games failed",
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
                        "text": f"used in {row['games_used']} of the {row['games_in_play']} games its role was in play"
                        + (f" ({row['kind']} skill)" if row["kind"] else ""),
                    }
                )
    return out


def _group(pack: str, agents: str, players: int, recs: Sequence[dict], role_skills) -> dict:
    g = _common(pack, agents, players, recs)
    seats = _seat_list(recs)
    g["roles"] = _role_rows(seats, _expected_wins(seats))
    g["skills"] = _skill_rows(recs, role_skills)
    return g


def _pooled(pack: str, agents: str, per_count: list[tuple[int, list[dict]]], role_skills) -> dict:
    recs = [r for _, rs in per_count for r in rs]
    g = _common(pack, agents, ALL, recs)
    expected: dict[str, float] = defaultdict(float)
    for _, rs in per_count:  # each cell's expectation, seat by seat: identities mean different things per count
        for role, e in _expected_wins(_seat_list(rs)).items():
            expected[role] += e
    g["roles"] = _role_rows(_seat_list(recs), expected)
    g["skills"] = _skill_rows(recs, role_skills)
    return g


# ---------------------------------------------------------------------- the content's skills


def locate_packs(meta: dict, where: str | Path | None = None) -> tuple[dict, dict[str, str]]:
    """The sweep's grid with each pack's folders as this process finds them, and a note per pack that is not
    there or has changed since the sweep.

    ``sweep.json`` names a pack's folders as a log's header does (``content.packs.find_log_pack``: a bundled
    pack by id, another relative to the sweep's directory `where` — else to the current directory, where an
    older sweep's folders, kept as typed, are). The grid returned names them from the current directory
    (absolute when outside it), so the skill lists load and the re-run commands work from where the report is
    made; a pack that is not there keeps the place it was looked for beside the sweep and is marked
    ``missing`` (its skills are then known only from their uses)."""
    import copy
    import os

    from ..content.packs import PackError, find_log_pack, parse_expansions, resolve_packs
    from ..sim import content_fingerprint

    here = Path.cwd()

    def from_here(p: Path) -> str:
        p = Path(os.path.abspath(p))
        try:
            return p.relative_to(here).as_posix() or "."
        except ValueError:
            return str(p)

    meta = copy.deepcopy(meta)
    notes: dict[str, str] = {}
    base = Path(where) if where is not None else None
    for pack in meta.get("packs") or []:
        if not isinstance(pack, dict):
            continue
        name, found, lost = str(pack.get("name")), [], []
        for ref in pack.get("content") or []:
            folder, places = find_log_pack(str(ref), base)
            if folder is None:
                folder = Path(os.path.normpath(base / ref)) if base is not None else Path(ref)
                lost.append((str(ref), [os.path.normpath(p) for p in places], from_here(folder)))  # (beside it)
            found.append(folder)
        pack["content"] = [from_here(p) for p in found]
        if lost:
            pack["missing"] = True
            notes[name] = (
                f"pack {name}: "
                + "; ".join(f"its folder {ref} is not here (looked in {', '.join(places)})" for ref, places, _ in lost)
                + " — sweep.json names a pack relative to the sweep's directory: its skill lists cannot be read, so "
                "a skill never used is not listed; put the pack back at "
                + ", ".join(at for _, _, at in lost)
                + " to list them"
            )
            continue
        fingerprint = pack.get("fingerprint")
        if fingerprint:
            try:
                now = content_fingerprint(resolve_packs(found, parse_expansions(pack.get("expansions"))))
            except (PackError, OSError):
                now = None
            if now != fingerprint:
                where_text = ", ".join(pack["content"]) or "the bundled game"
                notes[name] = (
                    f"pack {name}: the content at {where_text} has changed since the sweep: its skill lists are of "
                    "the content there now"
                )
                broken = _load_error(found, pack.get("expansions"))
                if broken:
                    notes[name] = (
                        f"pack {name}: the content at {where_text} has changed since the sweep and no longer loads "
                        f"({broken}): its roles' skills are not listed and its new roles not singled out; "
                        f"fengsheng validate {where_text} says what to fix, then run the report again"
                    )
    return meta, notes


def _load_error(folders: list[Path], expansions: Any) -> str | None:
    """The first error of loading a sweep's pack as it is now (`path:line:col: error CODE: message`), or None.
    (Loaded afresh: the process's cache may hold the pack as it was before it changed.)"""
    from ..content.loader import ContentErrors, load_content
    from ..content.packs import PackError, parse_expansions, resolve_packs

    try:
        load_content(resolve_packs(folders, parse_expansions(expansions)))
    except ContentErrors as e:
        first = e.errors[0] if e.errors else None
        return (f"{first.path}:{first.line}:{first.col}: error {first.code}: {first.message}" if first else str(e))[
            :300
        ]
    except (PackError, OSError) as e:
        return str(e)[:300]
    return None


def pack_skills(meta: dict) -> dict[str, dict[str, list[tuple[str, str]]]]:
    """Each pack's roles and their usable skills (active, triggered, victory), loaded from the packs the
    sweep names (``locate_packs`` finds them first); a pack that is not there (``missing``) or no longer loads
    is left out (its skills are then known only from their uses)."""
    from ..content.loader import load_cached
    from ..content.packs import parse_expansions, resolve_packs

    out: dict[str, dict[str, list[tuple[str, str]]]] = {}
    for pack in meta.get("packs") or []:
        if pack.get("missing"):
            continue
        try:
            paths = resolve_packs(list(pack.get("content") or []), parse_expansions(pack.get("expansions")))
            content = load_cached(paths)
        except Exception:  # a pack moved or broken since the sweep: the report still stands
            continue
        out[str(pack.get("name"))] = {
            role.label(): [(s.name, kind) for s in role.skills if (kind := skill_kind(s))]
            for role in content.roles.values()
        }
    return out


def rerun_command(meta: dict, pack: str, agents: str, players: int, seed: Any, index: Any = None) -> str | None:
    """The command that plays one game of a sweep alone with its resolution trace (None when the sweep's spec
    does not name the pack)."""
    import shlex

    source = next((p for p in meta.get("packs") or [] if isinstance(p, dict) and p.get("name") == pack), None)
    if source is None:
        return None
    words = ["fengsheng", "simulate", "-p", str(players), "--agents", shlex.quote(agents)]
    for d in source.get("content") or []:
        words += ["--content", shlex.quote(str(d))]
    if source.get("expansions") is not None:
        words += ["--expansions", shlex.quote(str(source["expansions"]))]
    if meta.get("max_turns") is not None:
        words += ["--max-turns", str(meta["max_turns"])]
    pins = meta.get("pins") or {}
    if pins and isinstance(index, int):  # the grid's pins, at the seat game `index` had them (index % players)
        words += [f"--{k} {shlex.quote(str(pins[k]))}" for k in ("role", "task") if pins.get(k)]
        words += ["--pin-seat", str(index % players)]
    return " ".join([*words, "--game-seed", str(seed), "--trace"])


def skill_kind(skill: Any) -> str:
    """A usable skill's kind as the report shows it: its own (``triggered``), or for a skill with several moments
    (``moments:``) each moment's kind once, in order (``triggered + victory``); "" for a passive skill."""
    kinds = [m.kind for m in (skill.moments or (skill,)) if m.kind != "passive"]
    return " + ".join(dict.fromkeys(kinds))


def new_roles(meta: dict, skills: dict[str, dict[str, list[tuple[str, str]]]]) -> dict[str, list[str]]:
    """Per pack: the roles of its content that the bundled game played with the same expansions has not
    (the roles a designer wrote), when they are at most half of its roles (more: a game of its own,
    nothing is singled out)."""
    from ..content.loader import load_cached
    from ..content.packs import parse_expansions, resolve_packs

    out: dict[str, list[str]] = {}
    for pack in meta.get("packs") or []:
        name = str(pack.get("name"))
        roles = skills.get(name)
        if not roles:
            continue
        try:
            reference = load_cached(resolve_packs([], parse_expansions(pack.get("expansions"))))
        except Exception:  # an expansion no longer bundled: nothing to compare with
            continue
        added = sorted(set(roles) - {r.label() for r in reference.roles.values()})
        if added and 2 * len(added) <= len(roles):
            out[name] = added
    return out


# ---------------------------------------------------------------------- the terminal


def pins_text(pins: Any) -> str:
    """What a sweep pinned, in words ("" when nothing)."""
    if not isinstance(pins, dict) or not pins:
        return ""
    what = " and ".join(
        f"{'role' if k == 'role' else 'secret task'} {pins[k]}" for k in ("role", "task") if pins.get(k)
    )
    return f"{what} dealt to a seat in every game (game i at seat i mod players)"


def pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def group_title(g: dict) -> str:
    players = "all player counts" if g["players"] == ALL else f"{g['players']} players"
    failed = f", {g['failed']} failed" if g["failed"] else ""
    return f"{g['pack']} · {g['agents']} · {players}: {g['games']} games{failed}, {g['seats']} seats"


FLAG_TEXT = {
    "failures": "FAILED GAMES",
    "strong": "STRONG",
    "weak": "WEAK",
    "unused": "SKILL NEVER USED",
    "rare": "SKILL RARELY USED",
}


def _rate_table(
    title: str, head: str, rows: Sequence[dict], roles: bool = False, new: set[str] | frozenset[str] = frozenset()
) -> Any:
    """A compact rich table of rates: name, won/n, rate, 95% interval, ± points (roles: expected, flag); the names
    in `new` (what the pack adds to the bundled game) marked "(new)"."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False)
    t.add_column(head, ratio=1)  # the name wraps on a narrow terminal, the figures never do
    for col in ("won/n", "rate", "95%", "±pts") + (("exp.", "flag") if roles else ()):
        t.add_column(col, justify="left" if col == "flag" else "right", no_wrap=True)
    for r in rows:
        cells = [
            escape(str(r["name"]) + (" (new)" if r["name"] in new else "")),
            f"{r['won']}/{r['n']}",
            pct(r["rate"]),
            f"{100 * r['low']:.1f}–{100 * r['high']:.1f}",
            f"±{100 * r['half_width']:.1f}",
        ]
        if roles:
            flag = (r["flag"] or "") + ("" if not r["flag"] or r["holm"] else " (lead)")
            cells += [pct(r["expected"]), flag]
        t.add_row(*cells)
    return t


MAX_DIFF_LINES = 20  # lines of a fork's pack diff in the terminal (the HTML and JSON report hold every one)


def _new_of(report: dict, pack: str, kind: str) -> set[str]:
    return set((report.get("new_items") or {}).get(pack, {}).get(kind, []))


def _card_table(g: dict, new: set[str]) -> Any:
    """Each card's uses per game and the win rate of the seats that used it (new cards marked)."""
    from rich import box
    from rich.markup import escape
    from rich.table import Table

    t = Table(
        title="Cards: uses per game; win rate of the seats that used it (Wilson 95%) against every seat's",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        pad_edge=False,
    )
    t.add_column("card", ratio=1)
    for col in ("uses/game", "users won", "rate", "95%", "every seat"):
        t.add_column(col, justify="right", no_wrap=True)
    for r in g["cards"]:
        t.add_row(
            escape(r["name"] + (" (new)" if r["name"] in new else "")),
            f"{r['uses_per_game']:.2f}",
            f"{r['won']}/{r['n']}",
            pct(r["rate"]),
            f"{pct(r['low'])}–{pct(r['high'])}",
            pct(r["expected"]),
        )
    return t


def _skills_of(report: dict, pack: str, role: str) -> list[dict]:
    """A role's skill rows from the group of its pack that pools every player count (or its only group)."""
    groups = [g for g in report["groups"] if g["pack"] == pack]
    pooled = next((g for g in groups if g["players"] == ALL), groups[-1] if groups else None)
    return [sk for sk in (pooled or {}).get("skills", []) if sk["role"] == role]


def print_report(report: dict, console: Any, roles: bool = True) -> None:
    """The report as rich tables: the flags first, then each group's figures."""
    from rich.markup import escape

    for text in report.get("pack_notes", {}).values():
        console.print(f"note: {text}", markup=False, soft_wrap=True)
    pinned = pins_text(report["sweep"].get("pins"))
    if pinned:
        console.print(f"pinned: {pinned}", markup=False)
    if report.get("verdicts"):
        console.print("[bold]Is my new thing balanced?[/bold]")
        for v in report["verdicts"]:
            players = "all" if v["players"] == ALL else f"{v['players']}p"
            console.print(
                f"  new {v['kind']} {v['name']} [{v['pack']} · {v['agents']} · {players}]: {v['text']}", markup=False
            )
    for pack, d in (report.get("pack_diffs") or {}).items():
        lines = d["lines"]
        console.print(f"[bold]What {escape(pack)} changes[/bold] (pack diff against the bundled game):")
        for line in lines[:MAX_DIFF_LINES]:
            console.print(f"  {line}", markup=False)
        if len(lines) > MAX_DIFF_LINES:
            console.print(f"  … {len(lines) - MAX_DIFF_LINES} more in the HTML and JSON report", markup=False)
    flags = report["flags"]
    console.print(f"[bold]Flags[/bold] ({len(flags)})" if flags else "[bold]Flags[/bold]: none")
    for f in flags:
        players = "all" if f["players"] == ALL else f"{f['players']}p"
        mark = "" if f.get("holm", True) else " (lead)"
        console.print(
            f"  {FLAG_TEXT[f['kind']]}{mark}  {f['subject']}  [{f['pack']} · {f['agents']} · {players}]  {f['text']}",
            markup=False,
        )
    console.print(
        "  (strong/weak: the role's 95% interval excludes its expected rate, what the other roles won with the same "
        "identities; (lead): not significant after Holm's correction over the group's roles: play more games)",
        markup=False,
    )
    for pack, names in report.get("new_roles", {}).items():
        console.print()
        console.print(f"[bold]New roles[/bold] in {escape(pack)} (not in the bundled game):")
        for name in names:
            rows = [
                {**r, "name": f"{name} · {'all' if g['players'] == ALL else str(g['players']) + 'p'}"}
                for g in report["groups"]
                if g["pack"] == pack
                for r in g["roles"]
                if r["name"] == name
            ]
            if rows:
                console.print(_rate_table("", "role", rows, roles=True))
            else:
                console.print(f"  {escape(name)}: never dealt")
            for sk in _skills_of(report, pack, name):
                share = sk["share_of_games"]
                console.print(
                    f"  {sk['skill']}: used in {sk['games_used']} of {sk['games_in_play']} games "
                    f"({pct(share['rate'])}), {sk['uses_per_game'] or 0:.2f} uses per game"
                    + (f"  {FLAG_TEXT[sk['flag']]}" if sk["flag"] else ""),
                    markup=False,
                )
    for g in report["groups"]:
        console.print()
        console.rule(escape(group_title(g)))
        console.print(_rate_table("Win rate by identity (seats won / played, Wilson 95%)", "identity", g["identities"]))
        if g["tasks"]:
            console.print(
                _rate_table("Win rate by secret task", "task", g["tasks"], new=_new_of(report, g["pack"], "tasks"))
            )
        if g.get("cards"):
            console.print(_card_table(g, _new_of(report, g["pack"], "cards")))
        if roles and g["roles"]:
            ordered = sorted(g["roles"], key=lambda r: -(r["rate"] or 0))
            console.print(
                _rate_table(
                    "Win rate by role (its seats won / played)",
                    "role",
                    ordered,
                    roles=True,
                    new=_new_of(report, g["pack"], "roles"),
                )
            )
        for what in ("turns", "decisions"):
            s = g[what]
            if s["games"]:
                console.print(
                    f"{what.capitalize()} per game: mean {s['mean']:.1f}, median {s['median']:g}, "
                    f"10–90% {s['p10']:g}–{s['p90']:g}, min {s['min']}, max {s['max']}"
                )
        if g["end_reasons"]:
            console.print(
                "How games ended: "
                + "; ".join(f"{r['reason']} {r['games']} ({pct(r['share'])})" for r in g["end_reasons"]),
                markup=False,
            )
        if g["players"] != ALL:  # (a group pooling every player count holds their failures again)
            print_failures(g["failures"], console)


MAX_FAILURES_SHOWN = 10  # per group, in the terminal (the JSON and HTML reports list every one)


def print_failures(failures: Sequence[dict], console: Any) -> None:
    """A group's failed games, each with the command that re-runs it alone with its trace."""
    from rich.markup import escape

    if failures:
        console.print(f"[red]Failed games[/red] ({len(failures)}): each re-runs alone, with its resolution trace, by")
    for f in failures[:MAX_FAILURES_SHOWN]:
        console.print(f"  game {f['index']} (game seed {f['seed']}): {escape(str(f['failed']))}", soft_wrap=True)
        if f.get("rerun"):
            console.print("    " + f["rerun"], markup=False, soft_wrap=True)
    if len(failures) > MAX_FAILURES_SHOWN:
        console.print(f"  … and {len(failures) - MAX_FAILURES_SHOWN} more (the records with `failed` in games.jsonl)")
