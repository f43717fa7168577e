"""The words of the balance reports, in Chinese and English: one catalogue, each message in both languages.

The terminal tables (terminal.py, compare.py), the HTML pages (html.py, charts.py, html_compare.py) and the
verdicts in words (report.py) take every sentence, heading and label from here by key (``say(key, lang,
**fields)``), in the language the command asks for (``--lang``; Chinese by default). A message's two texts name
the same fields (tests/test_balance_messages.py); the JSON report keeps its keys and values in English (machine
output: docs/balance.md).
"""

from __future__ import annotations

from typing import Final

LANGS: Final = ("zh", "en")
DEFAULT_LANG: Final = "zh"

# key -> (Chinese, English); {fields} are filled by say().
MESSAGES: Final[dict[str, tuple[str, str]]] = {
    # ------------------------------------------------------------------ common words
    "all_counts": ("全部人数", "all counts"),
    "n_players": ("{n}人局", "{n} players"),
    "all_short": ("全部", "all"),
    "n_players_short": ("{n}人", "{n}p"),
    "new": ("新", "new"),
    "new_suffix": ("（新）", " (new)"),
    "lead_suffix": ("（待确认）", " (lead)"),
    "lead": ("待确认", "lead"),
    "identity": ("身份", "identity"),
    "no_identity": ("无身份牌", "no identity card"),
    "task": ("秘密任务", "secret task"),
    "role": ("角色", "role"),
    "card": ("卡牌", "card"),
    "skill": ("技能", "skill"),
    "rule_skill": ("规则技能", "rule skill"),
    "kind": ("类型", "kind"),
    "players": ("人数", "players"),
    "figure": ("指标", "figure"),
    "games": ("局数", "games"),
    "won": ("胜", "won"),
    "won_n": ("胜/席", "won/n"),
    "n": ("席", "n"),
    "rate": ("胜率", "rate"),
    "interval95": ("95%区间", "95% interval"),
    "interval95_short": ("95%", "95%"),
    "plus_points": ("±百分点", "± points"),
    "plus_points_short": ("±点", "±pts"),
    "expected": ("期望", "expected"),
    "expected_short": ("期望", "exp."),
    "flag": ("标记", "flag"),
    "seats_for_5": ("±5点所需席数", "seats for ±5"),
    "p": ("p", "p"),
    "note": ("注意：{text}", "note: {text}"),
    # a pack of a sweep as the report finds it now (pack_facts.locate_packs; words.note_text)
    "note_lost": ("它的文件夹{ref}不在这里（找过：{places}）", "its folder {ref} is not here (looked in {places})"),
    "note_missing": (
        "扩展包{pack}：{lost}——sweep.json按相对于扫描目录的位置记下扩展包：读不到它的技能列表，从未用过的技能不会列出；"
        "把扩展包放回{at}即可列出",
        "pack {pack}: {lost} — sweep.json names a pack relative to the sweep's directory: its skill lists cannot be "
        "read, so a skill never used is not listed; put the pack back at {at} to list them",
    ),
    "note_changed": (
        "扩展包{pack}：{where}的内容在扫描之后改动过：技能列表是那里现在的内容的",
        "pack {pack}: the content at {where} has changed since the sweep: its skill lists are of the content there now",
    ),
    "note_older": (
        "扩展包{pack}：这次扫描由较早的fengsheng做成，其内容指纹是扩展包文件的散列，无法判断{where}的内容在扫描之后是否改动过："
        "技能列表是那里现在的内容的",
        "pack {pack}: the sweep was made by an older fengsheng, whose content fingerprint hashed the pack's files: "
        "whether the content at {where} has changed since cannot be told; its skill lists are of the content there now",
    ),
    "note_broken": (
        "扩展包{pack}：{where}的内容在扫描之后改动过，已无法载入（{error}）：不列出其角色的技能，也不单独标出新角色；"
        "运行 fengsheng validate {where} 查看要改什么，再重新生成报告",
        "pack {pack}: the content at {where} has changed since the sweep and no longer loads ({error}): its roles' "
        "skills are not listed and its new roles not singled out; fengsheng validate {where} says what to fix, then "
        "run the report again",
    ),
    "note_bundled": ("内置游戏", "the bundled game"),
    "note_html": ("注意：", "Note:"),
    "pinned": ("固定：{what}", "pinned: {what}"),
    "pinned_html": ("固定：", "Pinned:"),
    "pins_role": ("角色{name}", "role {name}"),
    "pins_task": ("秘密任务{name}", "secret task {name}"),
    "pins_and": ("和", " and "),
    "pins_card": ("卡牌{name}在每副牌堆中固定为{n}张", "card {name} kept at {n} copies in every deck"),
    "pins_card_without": ("（{packs}没有这张牌：牌堆不变）", " ({packs} without it: decks unchanged)"),
    "pins_list": ("、", ", "),
    "pins_sep": ("；", "; "),
    "pins_text": (
        "每局都把{what}发给一个座位（第i局在第 i mod 人数 号座位）",
        "{what} dealt to a seat in every game (game i at seat i mod players)",
    ),
    "group_title": (
        "{pack} · {agents} · {players}：{games}局{failed}，{seats}席",
        "{pack} · {agents} · {players}: {games} games{failed}, {seats} seats",
    ),
    "group_failed": ("，{n}局失败", ", {n} failed"),
    # ------------------------------------------------------------------ flags and verdicts
    "flag_failures": ("失败的对局", "FAILED GAMES"),
    "flag_strong": ("偏强", "STRONG"),
    "flag_weak": ("偏弱", "WEAK"),
    "flag_unused": ("技能从未使用", "SKILL NEVER USED"),
    "flag_rare": ("技能很少使用", "SKILL RARELY USED"),
    "status_strong": ("偏强", "strong"),
    "status_weak": ("偏弱", "weak"),
    "status_open": ("未定", "open"),
    "status_unseen": ("未出场", "unseen"),
    # "Balance" is 均衡 here, never the name of the card ping_heng, which the report's card table shows (a fork may
    # pin that card): one word for two things would read as the card.
    "verdicts_title": ("我的新内容均衡吗？", "Is my new thing balanced?"),
    "verdict_line": ("新{kind}「{name}」 [{where}]：{text}", "new {kind} {name} [{where}]: {text}"),
    "verdict_item_html": ("新{kind} <b>{name}</b> {where}：{text}", "new {kind} <b>{name}</b> {where}: {text}"),
    "verdict_unseen": ("从未出场：没有数据", "never in play: no figure"),
    "verdict_unused": ("从未被使用：没有数据", "never used: no figure"),
    "verdict_uses": ("每局使用{uses}次；", "{uses} uses per game; "),
    "verdict_uncounted": (
        "这次扫描没有按座位记录它的使用（较早的fengsheng所做）：重新扫描才有用过它的座位的胜率",
        "the seats that used it were not recorded by this sweep (an older fengsheng's): sweep again for their win rate",
    ),
    "verdict_uses_uncounted": (
        "这次扫描（或其中一部分）没有记录各座位用了哪些牌（较早的fengsheng所做）：不知道它用了几次，重新扫描才有它的使用次数和用过它的座位的胜率",
        "this sweep (or part of it) did not record the cards each seat played (an older fengsheng's): how often it was "
        "played is not known; sweep again for its uses and its users' win rate",
    ),
    "verdict_where": (
        "{n}席中胜率{rate}（95% {low}–{high}，±{half}个百分点）",
        "{rate} of {n} (95% {low}–{high}, ±{half} points)",
    ),
    "verdict_against": ("，对比{expected}", " against {expected}"),
    "verdict_lead": (
        "（待确认：经Holm校正后不显著，请多打几局）",
        " (a lead: not after Holm's correction; play more games)",
    ),
    "verdict_shown": ("{status}：{where}{against}{lead}", "{status}: {where}{against}{lead}"),
    "verdict_open": ("未显示偏强或偏弱：{where}{against}", "not shown strong or weak: {where}{against}"),
    "verdict_more": ("；约需再打{more}局才能达到±5个百分点", "; about {more} more games for ±5 points"),
    "verdict_reached": ("；已达到±5个百分点", "; ±5 points reached"),
    "flags_title": ("标记（{n}）", "Flags ({n})"),
    "flags_none": ("标记：无", "Flags: none"),
    "flag_role_text": (
        "{n}席中胜率{rate}（95% {low}–{high}），期望{expected}{lead}",
        "won {rate} of {n} seats (95% {low}–{high}), expected {expected}{lead}",
    ),
    "flag_role_lead": (
        "；经Holm校正后不显著：请多打几局确认",
        "; not significant after Holm's correction: check with more games",
    ),
    "flag_failures_subject": ("{games}局中{failed}局失败", "{failed} of {games} games failed"),
    "flag_failures_text": (
        "失败的对局不计入任何数据：单独重跑一局可看原因",
        "failed games are left out of every figure: re-run one alone to see why",
    ),
    "flag_skill_text": (
        "其角色在场的{games}局中只用了{used}局{kind}",
        "used in {used} of the {games} games its role was in play{kind}",
    ),
    "flag_skill_kind": ("（{kind}技能）", " ({kind} skill)"),
    "flag_rule_skill_text": ("{games}局中只用了{used}局{kind}", "used in {used} of the {games} games{kind}"),
    # a skill's kind (catalogue.SKILL_KINDS) as a flag names it
    "skill_kind_active": ("主动", "active"),
    "skill_kind_triggered": ("触发", "triggered"),
    "skill_kind_passive": ("被动", "passive"),
    "skill_kind_victory": ("胜利", "victory"),
    "flag_skill_offered": ("；其中{n}局可用", "; offered in {n} of them"),
    "flag_skill_never_offered": ("；从未可用", "; never offered"),
    "offered_prefix": ("可用{n}局，", "offered in {n}, "),
    "flags_legend": (
        "（偏强/偏弱：该角色的95%区间不含其期望胜率，即其他角色以相同身份的胜率；待确认：经Holm校正后不显著，请多打几局）",
        "(strong/weak: the role's 95% interval excludes its expected rate, what the other roles won with the same "
        "identities; (lead): not significant after Holm's correction over the group's roles: play more games)",
    ),
    # ------------------------------------------------------------------ the terminal report
    "diff_title": (
        "{pack}改动了什么（与内置游戏的 pack diff）：",
        "What {pack} changes (pack diff against the bundled game):",
    ),
    "diff_more": ("……另有{n}行，见HTML和JSON报告", "… {n} more in the HTML and JSON report"),
    "new_roles_title": ("{pack}的新角色（内置游戏中没有）：", "New roles in {pack} (not in the bundled game):"),
    "never_dealt": ("{name}：从未发到", "{name}: never dealt"),
    "skill_use": (
        "{skill}：{offered}{games}局中用了{used}局（{share}），每局{per_game}次",
        "{skill}: {offered}used in {used} of {games} games ({share}), {per_game} uses per game",
    ),
    "identity_table": (
        "各身份胜率（获胜席数/参与席数，Wilson 95%）",
        "Win rate by identity (seats won / played, Wilson 95%)",
    ),
    "task_table": ("各秘密任务胜率", "Win rate by secret task"),
    "role_table": ("各角色胜率（其席位获胜数/参与数）", "Win rate by role (its seats won / played)"),
    "card_table": (
        "卡牌：每局使用次数；用过该牌的席位的胜率（Wilson 95%）与所有席位的胜率对比",
        "Cards: uses per game; win rate of the seats that used it (Wilson 95%) against every seat's",
    ),
    "uses_per_game": ("每局次数", "uses/game"),
    "rule_skill_table": (
        "规则技能（每名角色都有）：可用的局数、使用的局数、每局使用次数；"
        "用过该技能的席位的胜率（Wilson 95%）与所有席位的胜率对比",
        "Rule skills (every seat's): games offered, games used, uses per game; win rate of the seats that used it "
        "(Wilson 95%) against every seat's",
    ),
    "users_won": ("使用者胜", "users won"),
    "every_seat": ("所有席位", "every seat"),
    "turns": ("回合", "turns"),
    "decisions": ("决策", "decisions"),
    "length_line": (
        "每局{what}：平均{mean}，中位数{median}，10–90% {p10}–{p90}，最少{min}，最多{max}",
        "{What} per game: mean {mean}, median {median}, 10–90% {p10}–{p90}, min {min}, max {max}",
    ),
    "endings": ("对局如何结束：{items}", "How games ended: {items}"),
    "item_sep": ("；", "; "),
    "ending_item": ("{reason} {games}局（{share}）", "{reason} {games} ({share})"),
    "failed_games": (
        "失败的对局（{n}）：每局都可以单独重跑并输出结算过程：",
        "Failed games ({n}): each re-runs alone, with its resolution trace, by",
    ),
    "failed_game": ("第{index}局（对局种子{seed}）：{failed}", "game {index} (game seed {seed}): {failed}"),
    "failed_more": (
        "……另有{n}局（games.jsonl中带 failed 的记录）",
        "… and {n} more (the records with `failed` in games.jsonl)",
    ),
    "turn_limit_games": (
        "到达回合上限的对局（{n}，平局）：每局都可以单独重跑：",
        "Games that reached the turn limit ({n}, draws): each re-runs alone by",
    ),
    "turn_limit_game": ("第{index}局（对局种子{seed}，{turns}回合）", "game {index} (game seed {seed}, {turns} turns)"),
    # ------------------------------------------------------------------ the HTML report
    "report_title": ("fengsheng 均衡报告 · {name}", "fengsheng balance report · {name}"),
    "meta_line": (
        "fengsheng {version} · 种子 {seed} · 人数 {players} · 机器人 {agents} · 扩展包 {packs} · 每格{games}局 · "
        "读取{records}局",
        "fengsheng {version} · seed {seed} · players {players} · agents {agents} · packs {packs} · "
        "{games} games per cell · {records} games read",
    ),
    "no_flags_html": (
        "<b>没有标记。</b>没有角色的区间排除其期望胜率，也没有从未使用的技能。",
        "<b>No flags.</b> No role's interval excludes its expected rate, no skill is unused.",
    ),
    "no_findings": ("没有经Holm校正后仍显著的标记。", "None that survives Holm's correction."),
    "leads_summary": (
        "{n}条待确认：超出期望胜率，但经Holm校正后不显著（请多打几局）",
        "{n} leads: outside the expected rate, but not after Holm's correction (play more games)",
    ),
    "new_roles_heading": ("{pack}的新角色", "New roles in {pack}"),
    "new_roles_chart": ("{pack}的新角色的胜率", "new roles in {pack}"),
    "not_in_bundled": ("（内置游戏中没有）", "(not in the bundled game)"),
    "expected_tick": ("期望（相同身份）", "expected (same identities)"),
    "skill_use_html": (
        "{offered}其角色在场的{games}局中用了{used}局（{share}），每局{per_game}次",
        "{offered}used in {used} of the {games} games its role was in play ({share}), {per_game} uses per game",
    ),
    "roles_range": ("第{first}–{last}个角色（共{total}个）", "roles {first}–{last} of {total}"),
    "diff_summary": ("{pack}改动了什么", "What {pack} changes"),
    "diff_count": ("（{n}处改动：与内置游戏的 pack diff）", "({n} changes: pack diff against the bundled game)"),
    # a fork's changes, a line each, as `pack diff` prints them (diff_words.py; `pack diff` itself in English)
    "diff_rules": ("规则 {field}：{old} → {new}", "rules {field}: {old} → {new}"),
    "diff_identity_table": ("身份表，{n}人：{old} → {new}", "identity table, {n} players: {old} → {new}"),
    "diff_copy": ("{n}张牌：{field} {old} → {new}", "{n} copy: {field} {old} → {new}"),
    "diff_copies": ("{n}张牌：{field} {old} → {new}", "{n} copies: {field} {old} → {new}"),
    "diff_deck": ("牌堆 {deck}：{old} → {new}张（{moved}）", "deck {deck}: {old} → {new} cards ({moved})"),
    "diff_deck_name": ("{name}（{lo}-{hi}人）", "{name} ({lo}-{hi} players)"),
    "diff_sep": ("；", "; "),
    "diff_object": ("{sign} {kind} {name}（{id}{pack}）", "{sign} {kind} {name} ({id}{pack})"),
    "diff_pack": ("，扩展包 {pack}", ", pack {pack}"),
    "diff_fields": ("：改了{fields}", ": {fields} changed"),
    "diff_field_sep": ("、", ", "),
    "diff_field_name": ("名称", "name"),
    "diff_field_text": ("文字", "text"),
    "diff_field_code": ("效果代码", "code"),
    "diff_field_skills": ("技能", "skills"),
    "diff_field_bot": ("机器人提示", "bot hint"),
    "diff_none": ("无", "none"),
    "how_to_read": (
        "每个胜率都是获胜席数/参与席数，附Wilson 95%区间（横线）及所依据的席数（n）。"
        "角色的<b>期望</b>胜率（灰色短竖线）是"
        "其他角色在同样人数下以相同身份取得的胜率；当其整个区间高于或低于期望（至少{min_seats}席后）时标为<b>偏强</b>或"
        "<b>偏弱</b>。角色有几十个时，约每二十个就有一个纯属偶然被标记：标为<i>待确认</i>的标记经Holm校正后不显著，需要更多"
        "对局。技能的角色在场至少{min_games}局而从未使用（从未使用），或使用局数不到{rare}%（很少使用）时被标记。",
        "Every rate is seats that won / seats played, with its Wilson 95% interval (the bar) and how many seats it "
        "rests on (n). A role's <b>expected</b> rate (grey tick) is what the other roles won with the same identities "
        "at the same table size; it is flagged <b>strong</b> or <b>weak</b> when its whole interval lies above or "
        "below that (after at least {min_seats} seats). With dozens of roles about one in twenty is flagged by "
        "chance: a flag marked <i>lead</i> does not survive Holm's correction and needs more games. A skill is "
        "flagged when its role was in play in at least {min_games} games and it was used in none (unused) or in "
        "under {rare}% of them (rare).",
    ),
    "section_games": ("（{n}局）", "({n} games)"),
    "by_identity": ("各身份胜率", "Win rate by identity"),
    "by_task": ("各秘密任务胜率", "Win rate by secret task"),
    "by_role": ("各角色胜率", "Win rate by role"),
    "game_length": ("对局长度", "Game length"),
    "how_ended": ("对局如何结束", "How games ended"),
    "tables_of": ("表格：{title}", "Tables: {title}"),
    "failed_games_html": ("失败的对局：", "Failed games:"),
    "turn_limit_games_html": ("到达回合上限的对局（平局）：", "Games that reached the turn limit (draws):"),
    "turns_of": ("{series}：回合", "{series}: turns"),
    "turns_per_game_of": ("每局回合数，{series}", "turns per game, {series}"),
    "games_in_play": ("在场局数", "games in play"),
    "games_used": ("使用局数", "games used"),
    "games_offered": ("可用局数", "games offered"),
    "share": ("占比", "share"),
    "uses": ("次数", "uses"),
    "uses_per_game_long": ("每局次数", "uses / game"),
    "mean": ("平均", "mean"),
    "median": ("中位数", "median"),
    "min": ("最少", "min"),
    "max": ("最多", "max"),
    "users_won_long": ("使用者胜/席", "users won"),
    "uses_per_game_card": ("每局使用次数", "uses per game"),
    # ------------------------------------------------------------------ charts
    "chart_tip": (
        "{row} · {series}：{n}席中{rate}（95% {low}–{high}，±{half}个百分点）",
        "{row} · {series}: {rate} of {n} (95% {low}–{high}, ±{half} points)",
    ),
    "chart_tip_expected": ("，期望{expected}", ", expected {expected}"),
    "histogram_bar": ("{name}{what}：{games}局", "{name} {what}: {games} games"),
    "per_game": ("每局{what}", "{what} per game"),
    "ending_bar": ("{reason}：{games}局（{share}）", "{reason}: {games} games ({share})"),
    # ------------------------------------------------------------------ A/B (compare.py, html_compare.py)
    "ab_title": ("fengsheng 均衡 A/B", "fengsheng balance A/B"),
    "base": ("基准", "base"),
    "fork": ("改版", "fork"),
    "delta95": ("Δ [95%]", "Δ [95%]"),
    "moved": ("变动", "moved"),
    "moved_yes": ("是", "yes"),
    "moved_yes_lead": ("是，但经Holm校正后不显著", "yes, not after Holm"),
    "saved": ("节省", "saved"),
    "kind_identity": ("各身份胜率", "Win rate by identity"),
    "kind_task": ("各秘密任务胜率", "Win rate by secret task"),
    "kind_role": ("各角色胜率", "Win rate by role"),
    "kind_end_reason": ("对局如何结束（占对局比例）", "How games ended (share of games)"),
    "kind_turns": ("每局回合数", "Turns per game"),
    "kind_decisions": ("每局决策数", "Decisions per game"),
    "paired_pinned_seat": ("固定的座位获胜", "pinned seat won"),
    "paired_identity": ("该身份的座位获胜", "a seat of the identity won"),
    "paired_turns": ("每局回合数", "turns per game"),
    "paired_none": (
        "配对对局：{n}（太少，或双方不是用相同种子打的：不做配对检验）",
        "Paired games: {n} (too few, or the sides were not played from the same seeds: no paired test)",
    ),
    "paired_pins_differ": (
        "不做配对检验：两个扫描的固定项不同（基准：{base}；改版：{fork}），同一种子发出的不是同一副牌",
        "No paired test: the sweeps were dealt with different pins (base: {base}; fork: {fork}), so the same seed "
        "dealt other deals",
    ),
    "pins_nothing": ("无", "none"),
    "pins_keyed": ("无，按键控顺序发牌（--keyed-deal）", "none, dealt in the keyed order (--keyed-deal)"),
    "paired_title": (
        "配对：同样的{n}副牌在两个扩展包下各打一遍（McNemar）",
        "Paired: the same {n} deals under both packs (McNemar)",
    ),
    "paired_heading": ("配对：同样的{n}副牌在两个扩展包下各打一遍", "Paired: the same {n} deals under both packs"),
    "paired_legend": (
        "节省：与同精度的两个独立样本相比，配对省下的对局比例（括号内为方差比：独立 ÷ 配对）；"
        "p：McNemar精确检验（回合数用配对z检验）。",
        "saved: the share of games pairing saves against two independent samples of the same precision (the "
        "variance ratio, independent ÷ paired, in brackets); p: McNemar's exact test (paired z for turns).",
    ),
    "p_mcnemar": ("p（McNemar）", "p (McNemar)"),
    "games_saved": ("配对节省的对局", "games saved by pairing"),
    "paired_note": (
        "每局都用相同的种子在两个扩展包下各打一遍（两个扩展包在同一次扫描中，无论是否固定，双方共有的牌和角色都发得一样），所以逐局比较："
        "对只在一方获胜的对局做McNemar精确检验。<i>节省的对局</i>：两个独立样本要达到同样精度所需的对局中，配对省下的比例"
        "（1 − 1/方差比；括号内为方差比：独立 ÷ 配对）。",
        "Each game is played from the same seed under both packs (swept in one run, pinned or not, both packs are "
        "dealt alike wherever they share cards and roles), so the figures are compared game by game: McNemar's "
        "exact test on the games won under one pack only. <i>Games saved</i>: the share of the games two "
        "independent samples would need for the same precision that pairing saves (1 − 1/ratio; in brackets, the "
        "variance ratio: independent ÷ paired).",
    ),
    "ab_summary": (
        "A/B：比较了{n}个指标；{moved}个在5%水平上变动，其中{holm}个在对全部指标做Holm校正后仍显著（变动：是；"
        "待确认：仅在校正前显著）；{few}个每方少于{min_n}席，未检验",
        "A/B: {n} figures compared; {moved} moved at the 5% level, {holm} still after Holm's correction "
        "over all of them (moved: yes; lead: only before the correction); {few} with fewer than {min_n} seats a side "
        "not tested",
    ),
    "ab_pair": (
        "{players} · {agents}：{base}（{base_games}局）对 {fork}（{fork_games}局）",
        "{players} · {agents}: {base} ({base_games} games) vs {fork} ({fork_games} games)",
    ),
    "ab_pair_html": (
        "{players} · {agents}：基准 <b>{base}</b>（{base_games}局）对 改版 <b>{fork}</b>（{fork_games}局）",
        "{players} · {agents}: base <b>{base}</b> ({base_games} games) vs fork <b>{fork}</b> ({fork_games} games)",
    ),
    "ab_legend": (
        "Δ：改版 − 基准（百分点；回合、决策），Newcombe 95%区间（均值用Welch）。局数：每方要以80%的把握在5%水平上看出"
        "{detect}个百分点（{turns}回合）的差异所需的局数（--detect、--detect-turns）。",
        "Δ: fork − base (points; turns, decisions), Newcombe's 95% interval (Welch's for means). games: games per "
        "side for an 80% chance to see a difference of {detect} points ({turns} turn) at the 5% level "
        "(--detect, --detect-turns).",
    ),
    "only_fork_title": (
        "只在改版中的角色（对比改版自身的角色池）：",
        "Roles only in the fork (against the fork's own pool):",
    ),
    "only_fork_line": (
        "{name} [{players}]：{n}席中胜率{rate}（95% {low}–{high}），期望{expected}{flag}",
        "{name} [{players}]: {rate} of {n} seats (95% {low}–{high}), expected {expected}{flag}",
    ),
    "only_base_title": ("只在基准中的角色：{names}", "Roles only in the base: {names}"),
    "only_fork_heading": ("只在改版中的角色", "Roles only in the fork"),
    "only_fork_note": (
        "对比改版自身的角色池：期望胜率是其他角色以相同身份取得的胜率。",
        "Against the fork's own pool: its expected rate is what the other roles won with the same identities.",
    ),
    "only_base_heading": ("只在基准中的角色", "Roles only in the base"),
    "moved_html": (
        "在5%水平上变动：{moved}/{tested}个指标（{holm}个经Holm校正后仍显著）",
        "Moved at the 5% level: {moved} of {tested} figures ({holm} after Holm's correction)",
    ),
    "not_after_holm": ("经Holm校正后不显著", "not after Holm"),
    "nothing_moved": ("<b>没有指标变动</b>（比较了{n}个）。", "<b>No figure moved</b> ({n} compared)."),
    "ab_note": (
        "每个比例用两比例z检验比较；区间是差值（改版 − 基准）的Newcombe区间。均值用Welch z。"
        "指标多时总有一些纯属偶然变动"
        "（5%水平下约每100个中5个）：只有对全部指标做Holm校正后仍显著的变动才算发现，其余是待确认的线索。<i>每方需要的局数</i>"
        "是每方要以80%的把握在5%水平上看出{detect}个百分点（回合数：{turns}回合）差异所需的局数：远少于此的局数没看出变动，"
        "并不说明没有变化。",
        "Each proportion is compared with the two-proportion z test; the interval is Newcombe's for the difference "
        "(fork − base). Means use Welch's z. With many figures some move by chance (about 5 in 100 at the 5% level): "
        "only a move that survives Holm's correction over every figure is a finding; the others are leads. <i>Games "
        "per side to see</i> is how many games each side needs for an 80% chance of seeing a difference of {detect} "
        "points ({turns} turn for turns) at the 5% level: a figure that did not move with far fewer games than that "
        "is not shown to be unchanged.",
    ),
    "fork_minus_base": ("{heading}：改版 − 基准", "{heading}: fork − base"),
    "fork_minus_base_head": ("改版 − 基准 [95%]", "fork − base [95%]"),
    "games_to_see": ("每方需要的局数（看出{detect}）", "games per side to see {detect}"),
    "detect_turns": ("{n}回合", "{n} turn"),
    "detect_points": ("{n}个百分点", "{n} points"),
    "table_n": ("表格（{n}个指标）", "Table ({n} figures)"),
    "diff_tip": (
        "{row} · {series}：{base} → {fork}，{diff}，p = {p}，{moved}；看出差异所需局数：{needed}",
        "{row} · {series}: {base} → {fork}, {diff}, p = {p}, {moved}; games to see the difference: {needed}",
    ),
    "tip_moved": ("有变动", "moved"),
    "tip_moved_lead": ("有变动（经Holm校正后不显著）", "moved (not after Holm)"),
    "tip_not_moved": ("未变动", "did not move"),
    "points_unit": ("个百分点", " points"),
    # how a game ended (sim.REASON_TEXT's keys): a short name for tables, the reason's id kept in English
    "reason_collect": ("集齐情报", "collect"),
    "reason_death": ("死亡达成任务", "death"),
    "reason_receive": ("收到情报获胜", "receive"),
    "reason_turn_end": ("回合结束达成任务", "turn_end"),
    "reason_last_alive": ("仅一人存活", "last_alive"),
    "reason_turn_limit": ("平局：回合上限", "turn_limit"),
    "reason_game_end": ("回合上限时获胜", "game_end"),
    "reason_no_players": ("平局：无人存活", "no_players"),
    "reason_usurped": ("{reason}，胜利被夺", "{reason}+usurp"),
    # the kind of a figure, as a compare's list of moved figures tags it
    "tag_identity": ("身份", "identity"),
    "tag_task": ("任务", "task"),
    "tag_role": ("角色", "role"),
    "tag_end_reason": ("结束方式", "end_reason"),
    "tag_turns": ("回合", "turns"),
    "tag_decisions": ("决策", "decisions"),
}


def say(key: str, lang: str, **fields: object) -> str:
    """The message `key` in `lang` ("zh" or "en"), its fields filled."""
    zh, en = MESSAGES[key]
    text = en if lang == "en" else zh
    return text.format(**fields) if fields else text


def check_lang(lang: str) -> str:
    """`lang` if it is one of LANGS; a ValueError naming them otherwise."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")
    return lang
