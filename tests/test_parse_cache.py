"""What is kept between runs (cache.py): effect texts parsed and code compiled (language/parser.py) and content files
that read clean (content/read.py) in one run serve the next."""

from __future__ import annotations

import pytest

from interpreter import cache as kept
from interpreter.language import parser
from interpreter.language.errors import LanguageError

TEXT = (
    'let partner = choose(from: others(self) where count(intel(it) where it has blue) >= 3, prompt: "与谁")\n'
    "win(self, declared: true)\n"
    "win(partner)\n"
)
EXPR = "subject == self and any_of(hand(self))"


@pytest.fixture()
def cache(tmp_path, monkeypatch):
    """A fresh private cache folder; each `new_run()` forgets what this process had loaded (a new process)."""
    monkeypatch.setenv("FENGSHENG_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.delenv("FENGSHENG_CACHE", raising=False)

    def new_run():
        kept.new_run()

    new_run()
    yield new_run
    new_run()


def _no_lark(monkeypatch):
    def refuse():
        raise AssertionError("Lark was asked to parse a text the cache holds")

    monkeypatch.setattr(parser, "_parser", refuse)


def test_a_text_parsed_in_one_run_is_not_parsed_again_in_the_next(cache, monkeypatch):
    first = parser.parse(TEXT)
    first_expr = parser.parse(EXPR, start="expression")
    kept.save()
    cache()
    _no_lark(monkeypatch)
    again = parser.parse(TEXT)
    assert again == first and again is not first  # an equal tree of its own
    assert parser.parse(EXPR, start="expression") == first_expr
    assert parser.parse(TEXT) is not again  # each hit is a fresh copy: callers own their tree


def test_without_saving_or_with_caching_off_nothing_is_kept(cache, monkeypatch):
    parser.parse(TEXT)
    cache()  # not saved: the next run parses
    calls = []
    real = parser._parser

    def counting():
        calls.append(1)
        return real()

    monkeypatch.setattr(parser, "_parser", counting)
    parser.parse(TEXT)
    assert calls == [1]
    monkeypatch.setenv("FENGSHENG_CACHE", "0")
    cache()
    assert kept._store() is None
    parser.parse(TEXT)
    kept.save()
    assert calls == [1, 1]


def test_errors_are_parsed_every_time_with_their_message(cache):
    with pytest.raises(LanguageError) as first:
        parser.parse("draw(self, ")
    kept.save()
    cache()
    with pytest.raises(LanguageError) as again:
        parser.parse("draw(self, ")
    assert (again.value.code, again.value.line, again.value.col, again.value.message) == (
        first.value.code,
        first.value.line,
        first.value.col,
        first.value.message,
    )


def test_compiled_code_is_kept_and_runs_the_same(cache):
    source = "def run(x):\n    return x * 2 + 1\n"
    code = parser.compile_cached(source, "<effect code>")
    kept.save()
    cache()
    again = parser.compile_cached(source, "<effect code>")
    ns1: dict = {}
    ns2: dict = {}
    exec(code, ns1)
    exec(again, ns2)
    assert ns2["run"](20) == ns1["run"](20) == 41
    with pytest.raises(SyntaxError):
        parser.compile_cached("def broken(:\n", "<effect code>")


def test_a_damaged_cache_file_is_ignored_and_replaced(cache, monkeypatch):
    parser.parse(TEXT)
    kept.save()
    path = kept._store().path
    path.write_bytes(b"not a pickle at all")
    cache()
    assert parser.parse(TEXT) == parser.parse(TEXT)  # parsed again
    kept.save()
    cache()
    _no_lark(monkeypatch)
    parser.parse(TEXT)
    assert sorted(p.name for p in path.parent.glob("*.pickle")) == [path.name]


def test_two_content_sets_loaded_in_turn_both_stay(cache, monkeypatch):
    other = "win(self)\n"
    parser.parse(TEXT)
    kept.save()
    cache()
    parser.parse(other)  # another run, another content set
    kept.save()
    cache()
    _no_lark(monkeypatch)
    parser.parse(TEXT)
    parser.parse(other)


def test_the_file_keeps_at_most_max_entries_and_this_runs_first(cache, monkeypatch):
    monkeypatch.setattr(kept, "MAX_ENTRIES", 3)
    for i in range(4):
        parser.parse(f"draw(self, {i + 1})\n")
    kept.save()
    cache()
    parser.parse(TEXT)
    kept.save()
    entries = [key for _, _, key in kept._Store(kept._store().path).entries]
    assert len(entries) == 3 and ("start", TEXT) in entries
    assert ("start", "draw(self, 1)\n") not in entries  # the oldest the other run used made room


# ------------------------------------------------------------------ the content loader's clean reads, kept too


def _fresh_loads(monkeypatch):
    """What a new process has: no read and no built object kept in memory."""
    from interpreter.content import loader, read

    monkeypatch.setattr(read.READS, "_memo", {})
    monkeypatch.setattr(loader.BUILDS, "_memo", {})


@pytest.fixture(scope="module")
def last_run(tmp_path_factory):
    """A run that loaded the bundled game with nothing kept before: the content it loaded and the file it left in
    its cache folder (its name and bytes). Made once for the tests below, which only read them: each copies the
    file into its own cache folder, as the next run would find it (a cold load of the game is 0.15 s of CPU)."""
    from interpreter.content import loader

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("FENGSHENG_CACHE_DIR", str(tmp_path_factory.mktemp("last-run")))
        mp.delenv("FENGSHENG_CACHE", raising=False)
        kept.new_run()
        _fresh_loads(mp)
        content = loader.load_content([loader.BUNDLED_CONTENT])
        kept.save()
        path = kept._store().path
        kept.new_run()
        return content, path.name, path.read_bytes()


def _after(last_run, tmp_path, cache):
    """The next run, in this test's cache folder: the file the last run left is there, and nothing is kept in this
    process (a new process)."""
    _, name, blob = last_run
    cache()
    (tmp_path / "c").mkdir(exist_ok=True)
    (tmp_path / "c" / name).write_bytes(blob)


def test_files_that_read_clean_are_not_read_again_in_the_next_run(cache, monkeypatch, tmp_path, last_run):
    """The YAML and the schema checks of an unchanged content set are skipped in the next run (kept in the parse
    cache); the content is the same."""
    from interpreter.content import loader, read, yamlpos

    _after(last_run, tmp_path, cache)
    _fresh_loads(monkeypatch)

    def refuse(*args, **kwargs):
        raise AssertionError("a file read clean in the last run was read again")

    monkeypatch.setattr(yamlpos, "load", refuse)
    monkeypatch.setattr(read, "load_yaml", refuse)
    monkeypatch.setattr(read, "check_schema", refuse)
    again = loader.load_content([loader.BUNDLED_CONTENT])
    first = last_run[0]
    assert sorted(again.roles) == sorted(first.roles) and sorted(again.card_types) == sorted(first.card_types)
    assert again.deck == first.deck and again.rules.identity_table == first.rules.identity_table


def test_a_changed_schema_or_reader_reads_every_file_again(cache, monkeypatch, tmp_path, last_run):
    from interpreter.content import loader, read

    _after(last_run, tmp_path, cache)
    _fresh_loads(monkeypatch)
    monkeypatch.setattr(read, "_reads_version", lambda: "another version")  # what the key names changed
    checked = []
    real = read.check_schema

    def counting(*args, **kwargs):
        checked.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(read, "check_schema", counting)
    loader.load_content([loader.BUNDLED_CONTENT])
    assert len(checked) > 50  # every file of the game (86): none taken from the last run's reads


def test_a_file_with_a_finding_is_read_every_time_with_its_message(cache, monkeypatch, tmp_path, last_run):
    """(The bundled game's files come from the last run's file: the pack's own is the one read in each run.)"""
    from interpreter.content import loader

    _after(last_run, tmp_path, cache)
    pack = tmp_path / "pack"
    (pack / "cards").mkdir(parents=True)
    (pack / "cards" / "bad.yaml").write_text("id: bad\nname: 坏\nunknown_key: 1\n", encoding="utf-8")
    for _ in range(2):
        _fresh_loads(monkeypatch)
        errors: list = []
        loader.load_content([loader.BUNDLED_CONTENT, pack], errors=errors)
        cache()
        assert any("unknown_key" in str(e) for e in errors)
