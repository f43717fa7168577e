"""The heuristic bot as a 神秘人: the rules its secret task's `bot:` style changes (interpreter/agents/tasks.py), on
hand-made observations and made-up tasks (a task is known to the bot by its hint, never by its name)."""

from __future__ import annotations

import dataclasses

from test_agents_heuristic import PASS, _obs

from interpreter.agents.heuristic import HeuristicAgent
from interpreter.agents.hints import hints_of
from interpreter.agents.tasks import death_wins, lures_itself, task_value


def _bot_with(task: str, style: str, seed: int = 0) -> HeuristicAgent:
    """A bot whose content gives the made-up secret task `task` the style `style`."""
    return HeuristicAgent(seed, dataclasses.replace(hints_of(), styles={task: style}))


def _play_phase(task: str, intel: dict) -> dict:
    obs = _obs("shen_mi_ren", intel, None)
    obs["me"]["task"], obs["transit"], obs["phase"] = task, None, "play"
    obs["decision"] = {"kind": "play", "prompt": "", "source": ""}
    return obs


def test_a_die_task_keeps_its_blacks_once_it_holds_a_red_or_blue_intel():
    """A `die` task (its death with a red or blue intel wins) holding a black intel does not 澄清 (`clear`) it off
    itself once it also holds a red or blue one; before that, and with a task of another style, it does."""
    clear = {"id": 9, "kind": "use", "label": "use 澄清", "as": "cheng_qing"}
    for style, intel, wanted in (
        ("die", {"red": 1, "black": 1}, 0),
        ("die", {"blue": 1, "black": 2}, 0),
        ("die", {"black": 1}, 9),
        ("collect", {"red": 1, "black": 1}, 9),
    ):
        bot = _bot_with("xian_zou", style)
        assert bot.act(_play_phase("xian_zou", intel), (clear, PASS)) == wanted, (style, intel)
    assert death_wins("die", {"red": 0, "blue": 1, "black": 0})
    assert not death_wins(None, {"red": 1, "blue": 1, "black": 2})


def test_task_values_by_style():
    """What an intel is worth to a seat, for a bot without a camp, by its task's style."""
    none = {"red": 0, "blue": 0, "black": 0}
    assert task_value("collect", {**none, "blue": 2}, True, ("blue",)) == 5.0  # its third of a colour
    assert task_value("die", {**none, "red": 1, "black": 2}, True, ("black",)) == 5.0  # its death with a red intel
    assert task_value("die", {**none, "black": 2}, True, ("black",)) == -10.0  # a death without one
    assert task_value("spread", none, False, ("red",)) == 1.0  # another seat's first red
    assert task_value(None, none, True, ("red",)) == 0.2  # no hint: stay alive


def test_a_collect_or_die_task_lures_the_decks_top_card_to_itself():
    """利诱 (`lure`: the deck's top card into the target's intel) is aimed at itself by a `collect` task (three of
    either colour wins) while it holds no black, as a camp bot does; by a `die` task (its death with a red or blue
    intel wins) unless a black drawn would only kill it (no red or blue intel yet, two blacks); not by a task of
    another style."""
    lure = {"id": 9, "kind": "use", "label": "use 利诱", "as": "li_you"}
    for style, intel, wanted in (
        ("collect", {"red": 1}, 9),
        ("collect", {"red": 1, "black": 1}, 0),
        ("die", {"black": 1}, 9),
        ("die", {"blue": 1, "black": 2}, 9),
        ("die", {"black": 2}, 0),
        ("spread", {}, 0),
    ):
        bot = _bot_with("shuang_se", style)
        assert bot.act(_play_phase("shuang_se", intel), (lure, PASS)) == wanted, (style, intel)
    assert lures_itself("die", {"red": 0, "blue": 0, "black": 0}) and not lures_itself(
        None, {"red": 0, "blue": 0, "black": 0}
    )
