"""What a batch reports: each finished game as a plain record (game_record), counted into a Summary, printed as
text or JSON; the Wilson interval of a win rate; text padded to a display width (CJK characters take two
columns)."""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model.colors import collect_check_names
from ..model.content import BASE_COUNTS

if TYPE_CHECKING:
    from ..engine.game import Game


def _width(s: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in s)


def pad(s: str, width: int) -> str:
    """Left-justify to a display width (a CJK character takes two columns)."""
    return s + " " * max(0, width - _width(s))


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a proportion of wins out of n."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def identity_name(p) -> str:
    """The identity a player ends the game with (an identity card can change hands)."""
    return p.identity.name if p.identity is not None else "无身份牌"


def _won_of_dealt(title: str, wins: Counter, dealt: Counter, width: int) -> list:
    lines = [title]
    for name in sorted(dealt):
        k, d = wins.get(name, 0), dealt[name]
        lines.append(f"  {pad(name, width)} {k:>6} / {d:<6} {100 * k / d:5.1f}%")
    return lines


@dataclass
class Summary:
    games: int = 0
    players: int = 0
    reasons: Counter = field(default_factory=Counter)
    identity_wins: Counter = field(default_factory=Counter)
    identity_dealt: Counter = field(default_factory=Counter)
    task_wins: Counter = field(default_factory=Counter)
    task_dealt: Counter = field(default_factory=Counter)
    turns: Counter = field(default_factory=Counter)  # games by their length in turns (flat over any batch)
    decisions: int = 0
    role_dealt: Counter = field(default_factory=Counter)
    role_wins: Counter = field(default_factory=Counter)
    skill_uses: Counter = field(default_factory=Counter)  # "角色·技能" -> uses over all games
    failures: list = field(default_factory=list)  # (game index, game seed, error text)
    rerun: str = ""  # the command that re-runs one game alone with its trace: "{seed}" stands for its game seed
    agents: tuple = ()  # --agents: the kind of agent at each seat (empty: random agents, nothing reported)
    agent_seats: Counter = field(default_factory=Counter)  # kind -> seats played (games × seats of that kind)
    agent_wins: Counter = field(default_factory=Counter)  # kind -> seats of that kind that won
    turn_limit: list = field(default_factory=list)  # (game index, game seed) of each game that reached the limit
    log_written: int | None = None  # with --log: how many games the log holds whole
    log_error: str | None = None  # with --log: why the log stopped before the batch's end (a full disk)
    counts: tuple[int, int] = BASE_COUNTS  # the rules' counts of the content played (rule_counts): the endings say them

    def add(self, game: Game, result) -> None:
        self.add_record(game_record(game, result))

    def add_record(self, rec: dict) -> None:
        """Count one game from its record (plain data: what a worker process sends back)."""
        self.games += 1
        self.role_dealt.update(rec["roles"])
        self.role_wins.update(rec["winner_roles"])
        self.skill_uses.update(rec["skill_uses"])
        self.reasons[rec["reason"]] += 1
        self.turns[rec["turns"]] += 1
        self.decisions += rec["decisions"]
        self.identity_dealt.update(rec["identities"])
        self.task_dealt.update(rec["tasks"])
        self.identity_wins.update(rec["won_identities"])
        self.task_wins.update(rec["winner_tasks"])
        if self.agents:
            self.agent_seats.update(self.agents)
            self.agent_wins.update(self.agents[s] for s in rec["winner_seats"])

    def agent_lines(self) -> list:
        """Who sat where, and the win rate of each kind of agent per seat played, with its Wilson 95% interval."""
        seats = ", ".join(f"P{s} {k}" for s, k in enumerate(self.agents))
        lines = [f"Agents: {seats}", "", "Win rate by agent (seats that won / seats played, Wilson 95% interval):"]
        width = max([10, *(len(kind) for kind in self.agent_seats)])
        for kind in sorted(self.agent_seats):
            k, n = self.agent_wins[kind], self.agent_seats[kind]
            lo, hi = wilson(k, n)
            rate = f"{100 * k / n:5.1f}%  [{100 * lo:5.1f}%, {100 * hi:5.1f}%]"
            lines.append(f"  {pad(kind, width)} {k:>6} / {n:<6} {rate}")
        return lines

    def text(self, header: str) -> str:
        g = max(self.games, 1)
        lines = [header, ""]
        if not self.games and self.failures:  # no figures: empty tables and 'Average turns: 0.00' read as results
            if self.agents:
                lines += [self.agent_lines()[0], ""]  # who sat where
            lines.append("No game finished: every game failed (below).")
            return "\n".join(lines + self._failure_lines())
        if self.agents:
            lines += [*self.agent_lines(), ""]
        lines.append("How games ended:")
        for reason, k in sorted(self.reasons.items(), key=lambda kv: (-kv[1], kv[0])):
            lines.append(f"  {pad(reason_text(reason, self.counts), 58)} {k:>6}  {100 * k / g:5.1f}%")
        lines.append("")
        lines.append("Wins by identity (games in which a player of this identity won):")
        for name in sorted(self.identity_dealt):
            k = self.identity_wins.get(name, 0)
            lines.append(f"  {pad(name, 10)} {k:>6}  {100 * k / g:5.1f}%")
        if self.task_dealt:
            lines.append("")
            lines += _won_of_dealt("Wins by secret task (won / times dealt):", self.task_wins, self.task_dealt, 10)
        if self.role_dealt:
            lines.append("")
            lines += _won_of_dealt(
                "Wins by role (won / times in play at the end):", self.role_wins, self.role_dealt, 28
            )
            lines.append("")
            lines.append("Skill uses (all games):")
            for name in sorted(self.skill_uses):
                lines.append(f"  {pad(name, 36)} {self.skill_uses[name]:>7}")
        average, least, most = self._turns()
        lines.append("")
        lines.append(f"Average turns: {average:.2f} (min {least}, max {most})")
        lines.append(f"Average decisions per game: {self.decisions / g:.1f}")
        if self.turn_limit:
            lines.append("")
            lines.append(
                f"Games that reached the turn limit, nobody winning ({len(self.turn_limit)}): each re-runs alone by"
            )
            for index, gseed in self.turn_limit[:TURN_LIMIT_SHOWN]:
                lines.append(f"  game {index} (game seed {gseed})")
                if self.rerun:
                    lines.append("    " + self.rerun.format(seed=gseed, pin_seat=index % self.players))
            if len(self.turn_limit) > TURN_LIMIT_SHOWN:
                lines.append(f"  … and {len(self.turn_limit) - TURN_LIMIT_SHOWN} more (--format json lists them all)")
        return "\n".join(lines + self._failure_lines())

    def _failure_lines(self) -> list[str]:
        """The failed games, each with its game seed, its error and the command that re-runs it alone."""
        if not self.failures:
            return []
        lines = ["", f"FAILED games ({len(self.failures)}): each re-runs alone, with its resolution trace, by"]
        for index, gseed, err in self.failures:
            lines.append(f"  game {index} (game seed {gseed}): {err}")
            if self.rerun:
                lines.append("    " + self.rerun.format(seed=gseed, pin_seat=index % self.players))
        return lines

    def _turns(self) -> tuple[float, int, int]:
        """Average, shortest and longest game in turns (0s before any game)."""
        t = self.turns or Counter({0: 1})
        return sum(k * n for k, n in t.items()) / t.total(), min(t), max(t)

    def to_json(self) -> dict:
        average, least, most = self._turns()
        return {
            "games": self.games,
            "turn_limit_games": [{"index": i, "seed": s} for i, s in self.turn_limit],
            **({"log_written": self.log_written, "log_error": self.log_error} if self.log_written is not None else {}),
            "players": self.players,
            "ended_by": dict(self.reasons),
            "identity_wins": dict(self.identity_wins),
            "task_wins": dict(self.task_wins),
            "task_dealt": dict(self.task_dealt),
            "average_turns": average,
            "min_turns": least,
            "max_turns": most,
            "decisions": self.decisions,
            "role_wins": dict(self.role_wins),
            "role_dealt": dict(self.role_dealt),
            "skill_uses": dict(self.skill_uses),
            **(
                {
                    "agents": list(self.agents),
                    "agent_wins": {
                        kind: {
                            "won": self.agent_wins[kind],
                            "seats": n,
                            "wilson95": list(wilson(self.agent_wins[kind], n)),
                        }
                        for kind, n in sorted(self.agent_seats.items())
                    },
                }
                if self.agents
                else {}
            ),
            "failures": [
                {
                    "game": i,
                    "seed": s,
                    "error": e,
                    **({"rerun": self.rerun.format(seed=s, pin_seat=i % self.players)} if self.rerun else {}),
                }
                for i, s, e in self.failures
            ],
        }


# whose a rule skill counted is, in place of a role's label ("规则·换牌"): the rules', every seat holds it
RULE_SKILL_OWNER = "规则"


def _owner_label(game: Game, rid: str) -> str:
    """Whose a skill counted is: its role's label, or 规则 for a rule skill (its key's role id is "": every seat
    holds it, engine/skills.py)."""
    return game.content.roles[rid].label() if rid else RULE_SKILL_OWNER


def game_record(game: Game, result) -> dict:
    """What a batch summary counts of one finished game, as plain data."""
    skill_uses: Counter = Counter()
    for (rid, name), k in game.skill_uses.items():
        skill_uses[f"{_owner_label(game, rid)}·{name}"] += k
    skill_offers: Counter = Counter()
    for (rid, name), k in game.skill_offers.items():
        skill_offers[f"{_owner_label(game, rid)}·{name}"] += k
    return {
        "roles": [p.role.label() for p in game.players if p.role is not None],
        "winner_roles": [p.role.label() for p in result.winners if p.role is not None],
        "skill_uses": skill_uses,
        "skill_offers": skill_offers,
        "reason": result.reason,
        "turns": game.turn_no,
        "decisions": game.decision_count,
        "identities": [identity_name(p) for p in game.players],
        "tasks": [p.task.name for p in game.players if p.task is not None],
        "won_identities": sorted({identity_name(p) for p in result.winners}),
        "winner_tasks": [p.task.name for p in result.winners if p.task is not None],
        "winner_seats": sorted(p.seat for p in result.winners),
    }


TURN_LIMIT_SHOWN = 10  # games at the turn limit a text summary names (the JSON summary names them all)

# how a game ended (its result's reason), in English: simulate's summary and the balance report say it (reason_text)
REASON_TEXT = {
    "collect": "a player collected {collect} {colors} intel",  # the rules' collect_count, the colours checked
    "death": "a death fulfilled a secret task",
    "receive": "a received intel fulfilled a victory condition",
    "turn_end": "a secret task fulfilled at turn end",
    "last_alive": "only one player was left alive",
    "turn_limit": "draw: turn limit reached",
    "game_end": "the turn limit reached, a victory condition held at the game's end",
    "no_players": "draw: no player left",
}
for _k in list(REASON_TEXT):
    REASON_TEXT[_k + "+usurp"] = REASON_TEXT[_k] + ", then usurped"

_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven")
UNKNOWN_COUNT = "the rules' count of"  # a collect count not known (a balance report's pack that no longer loads)


def count_word(n: int) -> str:
    """A count of intel in words, as the English texts say it (three; 12 past eleven)."""
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def reason_text(reason: str, counts: tuple[int, int] | None = BASE_COUNTS) -> str:
    """How a game ended, from its result's reason, in the English of REASON_TEXT: a collect names the rules' count
    (`counts`: model.content.rule_counts of the content played, so a fork collecting four says four; None when it
    is not known, which says so rather than a number that may be wrong) and the colours the engine's check counts,
    as seat_text.ending_text says it in Chinese. A reason the engine does not give is said as it is."""
    words = REASON_TEXT.get(reason)
    if words is None:
        return reason
    collect = count_word(counts[0]) if counts else UNKNOWN_COUNT  # (no ending names the death count)
    return words.format(collect=collect, colors=collect_check_names())
