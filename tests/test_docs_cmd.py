"""`fengsheng docs`: the documentation pages shipped inside the package, for a user without a checkout."""

from __future__ import annotations

from pathlib import Path

from conftest import fengsheng
from interpreter.docs_cmd import pages
from interpreter.paths import DOCS_DIR

ROOT = Path(__file__).resolve().parents[1]


def test_the_packaged_docs_are_the_repositorys_pages():
    assert (ROOT / "docs").resolve() == DOCS_DIR
    assert set(pages()) == {p.stem for p in (ROOT / "docs").glob("*.md")} and "modding" in pages()


def test_docs_lists_the_pages_with_their_titles():
    r = fengsheng("docs")
    assert r.exit_code == 0
    assert "  modding  " in r.output and "Modding: your own pack" in r.output
    assert "  errors  " in r.output and "Error codes" in r.output


def test_docs_page_prints_it_and_its_path():
    text = (ROOT / "docs" / "modding.md").read_text(encoding="utf-8")
    for spelling in ("modding", "modding.md", "docs/modding.md"):
        r = fengsheng("docs", spelling)
        assert r.exit_code == 0 and r.output == text
    r = fengsheng("docs", "errors", "--path")
    assert r.exit_code == 0 and Path(r.output.strip()) == DOCS_DIR / "errors.md"


def test_an_unknown_page_is_named_with_the_closest_and_the_list():
    r = fengsheng("docs", "moding")
    assert r.exit_code == 2
    assert "no page 'moding': did you mean modding?" in r.output and "scenarios" in r.output


def test_what_new_points_at_is_a_page_docs_prints(tmp_path, monkeypatch):
    """The pack `new` writes names the guide by the command that shows it, not a file of a checkout."""
    monkeypatch.chdir(tmp_path)
    r = fengsheng("new", "pack", "p")
    assert r.exit_code == 0 and "fengsheng docs modding" in r.output
    manifest = (tmp_path / "p" / "pack.yaml").read_text(encoding="utf-8")
    assert "fengsheng docs modding" in manifest and "docs/modding.md" not in manifest
    assert fengsheng("docs", "modding").exit_code == 0
