"""The balance reports' one message catalogue (interpreter/balance/messages.py) and their words (words.py):
every message in both languages with the same fields, every key the reports use is in it, none is unused,
and the Chinese text is Chinese."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from interpreter.balance import messages, words
from interpreter.balance.messages import LANGS, MESSAGES, say

BALANCE = Path(__file__).resolve().parents[1] / "interpreter" / "balance"


def _fields(text: str) -> set[str]:
    """The fields a text names (lower-cased: English may capitalise a word Chinese names as is)."""
    return {name.lower() for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_has_both_languages_with_the_same_fields():
    for key, (zh, en) in MESSAGES.items():
        assert zh.strip() and en.strip(), key
        assert _fields(zh) == _fields(en), key


def _sources() -> list[Path]:
    """The modules that speak the balance reports: the package's and its two commands."""
    files = [p for p in BALANCE.glob("*.py") if p.name != "messages.py"]
    return files + sorted(BALANCE.parent.glob("balance_*.py"))


def _used_keys() -> set[str]:
    """The keys the balance modules name: say("key", …), a key written as a string where it is passed on to say
    (a table's heads), and the keys built from a prefix (say("flag_" + kind, …))."""
    used: set[str] = set()
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        used.update(re.findall(r"""say(?:_in)?\(\s*["']([a-z0-9_]*[a-z0-9])["']""", text))
        used.update(k for k in re.findall(r"""["']([a-z0-9_]*[a-z0-9])["']""", text) if k in MESSAGES)
        for prefix in re.findall(r"""say\(\s*["']([a-z_]+_)["']\s*\+""", text):
            used.update(k for k in MESSAGES if k.startswith(prefix))
    return used


def test_every_key_the_reports_say_is_in_the_catalogue_and_none_is_unused():
    used = _used_keys()
    assert used - set(MESSAGES) == set(), "said but not in messages.py"
    kinds = {"role", "card", "task"}  # a new item's kind, said by words.kind_name
    unused = set(MESSAGES) - used - kinds
    assert not unused, f"messages.py holds messages no report says: {sorted(unused)}"


def test_chinese_messages_are_chinese():
    """Where the English says something in words (beyond its fields), the Chinese says it in Chinese."""
    cjk = re.compile(r"[\u4e00-\u9fff]")

    def words_of(text: str) -> str:
        return re.sub(r"\{[^{}]*\}|<[^<>]*>", "", text)

    symbols = {"p", "interval95_short", "delta95", "p_mcnemar"}  # the same in both: a symbol, a figure's short head
    for key, (zh, en) in MESSAGES.items():
        if key not in symbols and re.search(r"[A-Za-z]{2,}", words_of(en)) and words_of(en).strip() != "fengsheng":
            assert cjk.search(words_of(zh)), key


@pytest.mark.parametrize("lang", LANGS)
def test_a_verdict_reads_in_each_language(lang):
    v = {"status": "strong", "games_more": 120, "rate": 0.6, "n": 100, "low": 0.5, "high": 0.69, "half_width": 0.095}
    text = words.verdict_text({**v, "expected": 0.3, "holm": False}, lang)
    assert "60.0%" in text and "30.0%" in text and "120" in text
    assert ("偏强" in text) == (lang == "zh") and ("strong" in text) == (lang == "en")
    assert words.verdict_text({"status": "unseen"}, lang) == say("verdict_unseen", lang)
    assert words.verdict_text({"status": "unseen", "uses_per_game": 0.0}, lang) == say("verdict_unused", lang)
    assert words.verdict_text({**v, "uses_per_game": 0.25}, lang).startswith(say("verdict_uses", lang, uses="0.25"))


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="zh, en"):
        messages.check_lang("fr")


@pytest.mark.parametrize(
    "lang, kind_word, ending", [("zh", "胜利技能", "集齐情报，胜利被夺"), ("en", "victory skill", "collect+usurp")]
)
def test_a_skill_kind_and_an_ending_read_in_the_reports_language(lang, kind_word, ending):
    rare = {"kind": "rare", "used": 3, "n": 90, "skill_kind": "victory", "offered": 3}
    assert kind_word in words.flag_text(rare, lang)
    assert words.flag_text({**rare, "skill_kind": "house_kind"}, lang).count("house_kind") == 1  # a fork's own kind
    assert words.reason_name("collect+usurp", lang) == ending
    assert words.reason_name("house_ending", lang) == "house_ending"
