"""A fork's changes in words (interpreter/balance/diff_words.py): `pack diff`'s English lines and the balance
report's Chinese ones, from the same records."""

from __future__ import annotations

from interpreter.balance.diff_words import diff_lines, fork_lines


def _change(kind, change, obj=None, field=None, old=None, new=None, name=None, pack=None):
    return {"kind": kind, "change": change, "object": obj, "name": name, "pack": pack, "field": field, "old": old,
            "new": new}  # fmt: skip


CHANGES = [
    _change("rules", "changed", field="max_turns", old=None, new=40),
    _change("identity_table", "added", 3, old=None, new={"潜伏战线": 1, "神秘人": 2}),
    _change("deck", "changed", "small (2-4 players)", "密电", 0, 2),
    _change("deck", "changed", "small (2-4 players)", "截获", 3, 2),
    _change("copies", "changed", [7], "lockable", False, True),
    _change("copies", "changed", [8, 9], "colors", ["red"], ["blue", "black"]),
    _change("role", "changed", "hua_mei", "code", [], [1], name="画眉（歌女）", pack="mine"),
    _change("role", "changed", "hua_mei", "skills", [], ["x"], name="画眉（歌女）", pack="mine"),
    _change("secret_task", "removed", "shou_cang_jia", name="收藏家", pack="base"),
]
SIZES = {"small (2-4 players)": [88, 89]}


def test_each_kind_of_change_in_english_as_pack_diff_prints_it():
    assert diff_lines(CHANGES, SIZES, "en") == [
        "rules max_turns: none → 40",
        "identity table, 3 players: none → 潜伏战线 ×1, 神秘人 ×2",
        "deck small (2-4 players): 88 → 89 cards (密电 0 → 2; 截获 3 → 2)",
        "1 copy: lockable false → true",
        "2 copies: colors red → blue, black",
        "~ role 画眉（歌女） (hua_mei, pack mine): code, skills changed",
        "- secret task 收藏家 (shou_cang_jia)",
    ]


def test_each_kind_of_change_in_chinese():
    assert diff_lines(CHANGES, SIZES, "zh") == [
        "规则 max_turns：无 → 40",
        "身份表，3人：无 → 潜伏战线 ×1, 神秘人 ×2",
        "牌堆 small（2-4人）：88 → 89张（密电 0 → 2；截获 3 → 2）",
        "1张牌：lockable false → true",
        "2张牌：colors red → blue, black",
        "~ 角色 画眉（歌女）（hua_mei，扩展包 mine）：改了效果代码、技能",
        "- 秘密任务 收藏家（shou_cang_jia）",
    ]


def test_a_reports_entry_without_deck_sizes_keeps_its_english_lines():
    assert fork_lines({"changes": CHANGES, "lines": ["rules max_turns: none → 40"]}, "zh") == [
        "rules max_turns: none → 40"
    ]
    assert fork_lines({"changes": CHANGES[:1], "deck_sizes": {}, "lines": []}, "zh") == ["规则 max_turns：无 → 40"]
