"""The seat boundary stays as documented.

* Every observation a seat gets validates against schema/observation.schema.json,
  and every action descriptor against schema/action.schema.json, over seeded
  random games at 2-10 players; both go through json.dumps as they are.
* The schemas are closed: a stray field or a wrong type is refused.
* Every ```python block of docs/step-api.md and docs/observation.md runs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from interpreter.agents import RandomAgent
from interpreter.content.loader import load_cached
from interpreter.engine.step import GameState

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "schema"
DOCS = (ROOT / "docs" / "step-api.md", ROOT / "docs" / "observation.md")
FENCE = re.compile(r"```(\w+)\n(.*?)```", re.S)

EVERY = 10  # observe every seat at every EVERY-th decision (and at the end); the everyday run every 8 * EVERY-th
MAX_TURNS = 12  # long enough for reshuffles, deaths and wins (about half the games); short enough to stay fast


def _schemas() -> dict:
    return {
        name: json.loads((SCHEMA / f"{name}.schema.json").read_text(encoding="utf-8"))
        for name in ("observation", "action")
    }


def _inlined(schema: dict) -> dict:
    """The same schema with each local ``{"$ref": ..., "description"?}`` replaced by what it points to.

    Only a speed-up (jsonschema resolves every $ref on every use): nothing else
    sits next to those $refs, so the schema accepts exactly the same values.
    The recursive ``plain`` stays a $ref.
    """
    defs = schema["$defs"]

    def walk(x):
        if isinstance(x, dict):
            ref = x.get("$ref", "")
            if ref.startswith("#/$defs/") and set(x) <= {"$ref", "description"} and ref != "#/$defs/plain":
                return walk(defs[ref[len("#/$defs/") :]])
            return {k: walk(v) for k, v in x.items()}
        if isinstance(x, list):
            return [walk(v) for v in x]
        return x

    return walk(schema)


def _validators():
    schemas = _schemas()
    for s in schemas.values():
        Draft202012Validator.check_schema(s)
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    validators: dict = {
        name: Draft202012Validator(_inlined(s) if name == "observation" else s, registry=registry)
        for name, s in schemas.items()
    }
    validators["descriptor"] = DescriptorChecker(schemas["action"], registry)
    return validators


@pytest.fixture(scope="module")
def validators():
    return _validators()


class DescriptorChecker:
    """Validates action descriptors against the schema, each through the one branch of its `oneOf` its kind picks.

    Only a speed-up (the whole `oneOf`, with its 19 branches and their $refs, took about a millisecond a descriptor):
    each branch fixes `kind` to a constant of its own (checked here), so a descriptor matches exactly one branch
    if and only if it matches the branch of its own kind. A descriptor without a known kind gets the whole schema.
    """

    def __init__(self, schema: dict, registry: Registry) -> None:
        self.whole = Draft202012Validator(schema, registry=registry)
        self.by_kind: dict[str, Draft202012Validator] = {}
        for branch in schema["oneOf"]:
            kind = schema["$defs"][branch["$ref"][len("#/$defs/") :]]["properties"]["kind"]["const"]
            assert kind not in self.by_kind, f"two branches of the descriptor's oneOf for the kind {kind!r}"
            one = _inlined(dict(schema, oneOf=[branch]))
            self.by_kind[kind] = Draft202012Validator(one, registry=registry)

    def check(self, value, what: str) -> None:
        kind = value.get("kind")
        validator = self.by_kind.get(kind) if isinstance(kind, str) else None
        _check(validator or self.whole, value, what)


def _errors(validator, value) -> list:
    return sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path))


def _check(validator, value, what):
    text = json.dumps(value, ensure_ascii=False)  # read-only plain data serialises as it is
    errors = _errors(validator, json.loads(text))
    assert not errors, _message(what, errors)


def _message(what, errors) -> str:
    return f"{what}: " + "; ".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors[:5])


class ObservationChecker:
    """Validates observations against the schema, each distinct part once.

    jsonschema needs milliseconds for a whole observation (ten players, a
    discard pile of 60 cards, a history of hundreds of records), too slow for
    thousands of them. So a card, a player or a known card already validated
    (the same value) is left out of the array it sits in, and of a seat's
    history only the records added since its last observation are looked at —
    after checking that what it read before is still there, unchanged. These
    arrays carry no constraint across their items except the number of
    players (the first two players always stay; the count and order are checked
    directly), so this checks what validating everything would. What is
    validated goes through json.dumps first (the parts left out went through
    it when they were validated).
    """

    CARD_LISTS = ("in_use", "discard", "removed")

    def __init__(self, validator):
        self.validator = validator
        self.seen: set = set()
        self.histories: dict = {}

    def new_game(self) -> None:
        self.histories = {}

    def _fresh(self, items) -> list:
        out = []
        for item in items:
            key = repr(item)
            if key not in self.seen:
                self.seen.add(key)
                out.append(item)
        return out

    def check(self, obs, what: str) -> None:
        players = obs["players"]
        assert len(players) >= 2 and [p["seat"] for p in players] == list(range(len(players))), what
        seat = obs["seat"]
        history = obs["history"]
        before = self.histories.get(seat, ())
        assert history[: len(before)] == before, f"{what}: the history this seat read before changed"
        self.histories[seat] = history
        part = dict(obs)
        for key in self.CARD_LISTS:
            part[key] = self._fresh(obs[key])
        fresh = self._fresh(players[2:])  # the first two always stay: the schema wants two players at least
        part["players"] = [dict(p, intel=self._fresh(p["intel"])) for p in list(players[:2]) + fresh]
        part["me"] = dict(obs["me"], hand=self._fresh(obs["me"]["hand"]))
        part["known_cards"] = self._fresh(obs["known_cards"])
        part["history"] = self._fresh(history[len(before) :])  # a public record: once, not once per seat
        errors = _errors(self.validator, json.loads(json.dumps(part, ensure_ascii=False)))
        if errors:  # report against the whole observation
            errors = _errors(self.validator, json.loads(json.dumps(obs, ensure_ascii=False))) or errors
            raise AssertionError(_message(what, errors))


def test_schemas_are_valid_draft_2020_12():
    _validators()


def test_observations_and_descriptors_match_the_schemas(validators):
    """One game at each count from 2 to 10 players, every seat observed at every 80th decision (every
    descriptor checked, every history record validated once whatever the step: the records since a seat's last
    observation are), and the seat to act at the first decision of each kind (a decision's fields validated for
    each kind the games reach); the slow run observes 300 games at every 10th."""
    _schema_games(validators, 9, min_observed=120, every=8 * EVERY)


@pytest.mark.slow
def test_observations_and_descriptors_match_the_schemas_at_scale(validators):
    _schema_games(validators, 300, min_observed=5000)


def _schema_games(validators, games: int, min_observed: int, every: int = EVERY) -> None:
    content = load_cached()
    obs_check = ObservationChecker(validators["observation"])
    desc_check = validators["descriptor"]
    checked_descs: set = set()
    kinds_seen = set()
    decisions_observed: set = set()  # the decision kinds a seat was observed at
    observed = 0
    for g in range(games):
        n = 2 + g % 9
        seed = 9_000 + g
        state = GameState(content, n, seed, max_turns=MAX_TURNS)
        obs_check.new_game()
        agents = [RandomAgent(seed * 31 + s) for s in range(n)]
        k = 0
        while not state.is_terminal():
            descs = state.action_descriptors()
            assert [d["id"] for d in descs] == list(state.legal_actions())
            for d in descs:
                kinds_seen.add(d["kind"])
                text = json.dumps(d, ensure_ascii=False, sort_keys=True)
                if text not in checked_descs:  # descriptors repeat a lot: each distinct one once
                    checked_descs.add(text)
                    desc_check.check(d, f"game seed {seed}, descriptor {d.get('label')!r}")
            if k % every == 0 or state.decision_kind not in decisions_observed:
                decisions_observed.add(state.decision_kind)
                for s in range(n) if k % every == 0 else (state.current_player(),):
                    obs = state.observation(s)
                    obs_check.check(obs, f"game seed {seed}, decision {k}, P{s}")
                    observed += 1
                    if s == state.current_player():
                        assert obs["decision"] is not None and obs["decision"]["kind"] == state.decision_kind
                    else:
                        assert obs["decision"] is None
            seat = state.current_player()
            state.apply_action(agents[seat].act(None, descs))
            k += 1
        for s in range(n):
            obs = state.observation(s)
            obs_check.check(obs, f"game seed {seed}, end, P{s}")
            assert obs["decision"] is None
            assert (obs["result"] is None) == (state.result is None)
    assert observed > min_observed
    assert {"pass", "use", "card", "seat", "accept", "decline"} <= kinds_seen


def test_a_seat_never_reads_the_visibility_keys_or_the_seed():
    content = load_cached()
    state = GameState(content, 5, 11)
    agents = [RandomAgent(11 + s) for s in range(5)]
    while not state.is_terminal():
        state.apply_action(agents[state.current_player()].act(None, state.action_descriptors()))
    for s in range(5):
        text = json.dumps(state.observation(s), ensure_ascii=False)
        for key in ('"to":', '"secret":', '"seed":'):
            assert key not in text, (s, key)


def test_the_schemas_refuse_what_a_seat_must_not_get(validators):
    """The schemas are closed: a stray field, a hidden card given away or a wrong type fails."""
    from interpreter.engine.frozen import thaw

    content = load_cached()
    state = GameState(content, 4, 3)
    agents = [RandomAgent(3 + s) for s in range(4)]
    for _ in range(40):
        state.apply_action(agents[state.current_player()].act(None, state.action_descriptors()))
    good = thaw(state.observation(0))
    obs_v, act_v = validators["observation"], validators["action"]
    assert not _errors(obs_v, json.loads(json.dumps(good)))

    def bad(change) -> bool:
        obs = json.loads(json.dumps(good))
        change(obs)
        return bool(_errors(obs_v, obs))

    assert bad(lambda o: o.update(seed=3))  # a top-level field too many
    assert bad(lambda o: o["players"][1].update(identity="shen_mi_ren"))  # another seat's identity
    assert bad(lambda o: o["players"][1].update(hand=[]))  # another seat's hand
    assert bad(lambda o: o["players"][1].update(role=7))
    assert bad(lambda o: o["me"].pop("task"))
    assert bad(lambda o: o["history"].append({"e": "setup", "to": []}))  # a record with its visibility keys
    assert bad(lambda o: o["history"].append({"e": "setup", "seed": 1}))
    some_card = (list(good["me"]["hand"]) + list(good["discard"]))[0]
    assert not bad(lambda o: o["known_cards"].append({"card": some_card, "zone": "deck", "seat": None, "depth": 0}))
    assert bad(lambda o: o["known_cards"].append({"card": some_card, "zone": "deck", "seat": None}))  # no depth
    assert bad(lambda o: o["known_cards"].append({"card": some_card, "zone": "intel", "seat": 1}))  # public anyway
    assert bad(lambda o: o["in_use"].append({"card": "diao_bao", "id": None, "colors": ["red"]}))
    desc = json.loads(json.dumps(state.action_descriptors()[0]))
    assert not _errors(act_v, desc)
    assert _errors(act_v, dict(desc, kind="teleport"))
    assert _errors(act_v, dict(desc, extra=1))
    assert _errors(act_v, {k: v for k, v in desc.items() if k != "id"})


# ------------------------------------------------------------------ the docs' examples


def _python_blocks(path: Path) -> list[str]:
    return [body for lang, body in FENCE.findall(path.read_text(encoding="utf-8")) if lang == "python"]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_doc_python_examples_run(doc, monkeypatch):
    """Each ```python block runs on its own (a fresh namespace, the repository as working directory)."""
    blocks = _python_blocks(doc)
    assert blocks, f"{doc.name} has no python examples"
    monkeypatch.chdir(ROOT)
    for i, body in enumerate(blocks, 1):
        namespace = {"__name__": f"{doc.stem}_example_{i}"}
        try:
            exec(compile(body, f"{doc.name} example {i}", "exec"), namespace)
        except Exception as e:  # pragma: no cover - the message is the point
            raise AssertionError(f"{doc.name}, python example {i} fails: {type(e).__name__}: {e}\n{body}") from e


def test_doc_example_observation_matches_the_schema(validators):
    """The observation shown in docs/observation.md has the documented shape."""
    text = DOCS[1].read_text(encoding="utf-8")
    shown = [json.loads(body) for lang, body in FENCE.findall(text) if lang == "json"]
    assert shown, "docs/observation.md shows no observation"
    for obs in shown:
        errors = _errors(validators["observation"], obs)
        assert not errors, _message("docs/observation.md example", errors)
