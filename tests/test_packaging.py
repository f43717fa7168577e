"""What a user installs: the command starts at once, and a plain (non-editable) install has the content."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from interpreter.content.yamlpos import _C_DIFFERS, _CLoader, _load_with, _Loader, load as load_yaml
from interpreter.paths import BUNDLED_CONTENT, SCHEMA_DIR

ROOT = Path(__file__).resolve().parents[1]


def test_the_bundled_paths_are_the_repository_folders_in_a_checkout():
    assert (ROOT / "content").resolve() == BUNDLED_CONTENT
    assert (ROOT / "schema").resolve() == SCHEMA_DIR
    assert (BUNDLED_CONTENT / "rules.yaml").is_file() and (SCHEMA_DIR / "card.schema.json").is_file()


def test_the_command_line_loads_no_engine_until_a_command_needs_it():
    code = (
        "import sys, interpreter.cli; "
        "print(sorted(m for m in sys.modules if m.startswith('interpreter.') and m.split('.')[1] in "
        "('content', 'engine', 'language', 'describe_cmd', 'sim', 'scenario')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.slow
def test_a_wheel_holds_the_content_the_schemas_and_the_grammar(tmp_path):
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)]
    done = subprocess.run(build, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("fengsheng-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        "interpreter/bundled/content/rules.yaml",
        "interpreter/bundled/content/deck.yaml",
        "interpreter/bundled/schema/card.schema.json",
        "interpreter/language/effect.lark",
        "interpreter/web/static/lobby.html",  # fengsheng serve's pages
        "interpreter/web/static/table.js",
        "interpreter/web/static/style.css",
        "interpreter/bundled/docs/modding.md",  # fengsheng docs: the pages an installed user reads
    }
    assert expected <= names
    cards = {p.name for p in (ROOT / "content" / "cards").glob("*.yaml")}
    assert {n.rsplit("/", 1)[1] for n in names if n.startswith("interpreter/bundled/content/cards/")} == cards
    pages = {p.name for p in (ROOT / "docs").glob("*.md")}
    assert {
        n.rsplit("/", 1)[1] for n in names if n.startswith("interpreter/bundled/docs/") and n.endswith(".md")
    } == pages


@pytest.mark.slow
def test_a_pack_new_wrote_with_one_install_validates_with_another(tmp_path):
    """The wheel in two environments outside the checkout: a pack `new` wrote with the first, copied to another
    folder, validates and passes its scenario with the second; its $schema lines name nothing of the first."""
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "wheel"), str(ROOT)]
    assert subprocess.run(build, capture_output=True, text=True).returncode == 0
    (wheel,) = (tmp_path / "wheel").glob("fengsheng-*.whl")
    commands = []
    for name in ("a", "b"):  # the dependencies from this Python's packages: no index needed
        env = tmp_path / f"venv_{name}"
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(env)], check=True)
        python = env / ("Scripts" if sys.platform == "win32" else "bin") / "python"
        install = [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)]
        subprocess.run(install, check=True, capture_output=True)
        commands.append(
            [str(python), "-c", "import sys; from interpreter.cli import main; sys.argv[0] = 'fengsheng'; main()"]
        )
    (tmp_path / "one").mkdir()
    (tmp_path / "two" / "deeper").mkdir(parents=True)

    def fengsheng(which: int, *args: str, cwd: Path) -> subprocess.CompletedProcess:
        return subprocess.run([*commands[which], *args], cwd=cwd, capture_output=True, text=True)

    for args in (["new", "pack", "jia_gui"], ["new", "role", "ce_shi", "--in", "jia_gui"]):
        assert fengsheng(0, *args, cwd=tmp_path / "one").returncode == 0
    shutil.copytree(tmp_path / "one" / "jia_gui", tmp_path / "two" / "deeper" / "jia_gui")
    shutil.rmtree(tmp_path / "venv_a")
    where = tmp_path / "two"
    docs = fengsheng(1, "docs", "modding", "--path", cwd=where)
    assert docs.returncode == 0 and Path(docs.stdout.strip()).is_relative_to(tmp_path / "venv_b"), docs.stdout
    done = fengsheng(1, "validate", "deeper/jia_gui", cwd=where)
    assert done.returncode == 0 and done.stdout.startswith("ok: "), done.stdout + done.stderr
    done = fengsheng(1, "scenario", "run", "deeper/jia_gui", cwd=where)
    assert done.returncode == 0 and "1 passed, 0 failed" in done.stdout, done.stdout + done.stderr
    for f in (tmp_path / "two").rglob("*.yaml"):
        first = f.read_text(encoding="utf-8").splitlines()[0]
        assert "venv_a" not in first and (f.parent / first.split("$schema=")[1]).is_file(), f


def test_a_checkout_without_symbolic_links_still_finds_the_content(tmp_path):
    """Git for Windows checks a link out as a file holding its target: the repository's folders are used."""
    package = tmp_path / "interpreter"
    (package / "bundled").mkdir(parents=True)
    (package / "bundled" / "content").write_text("../../content", encoding="utf-8")
    (package / "bundled" / "schema").write_text("../../schema", encoding="utf-8")
    (package / "bundled" / "docs").write_text("../../docs", encoding="utf-8")
    (tmp_path / "content").mkdir()
    (tmp_path / "schema").mkdir()
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "interpreter" / "paths.py", package / "paths.py")
    spec = importlib.util.spec_from_file_location("copied_paths", package / "paths.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (tmp_path / "content").resolve() == module.BUNDLED_CONTENT
    assert (tmp_path / "schema").resolve() == module.SCHEMA_DIR
    assert (tmp_path / "docs").resolve() == module.DOCS_DIR


@pytest.mark.skipif(_CLoader is None, reason="PyYAML without libyaml")
@pytest.mark.parametrize(
    "text",
    ["id: x\nname:\tfoo\n", "id: x\nname: a\tb\n", "id: x\ndata: {red: i?t}\n", "id: x\n\ufeff\nname: y\n"],
    ids=["tab after a colon", "tab in a plain value", "? in a flow value", "byte order mark inside"],
)
def test_a_file_means_the_same_with_libyaml_or_without(text):
    """libyaml reads these; the pure-Python parser (an install without libyaml) refuses them: so does load()."""
    with pytest.raises(yaml.YAMLError):
        _load_with(_Loader, text, text.splitlines())
    with pytest.raises(yaml.YAMLError):
        load_yaml(text)


def test_the_bundled_content_is_read_by_libyaml():
    """No bundled file holds what sends a file to the slower pure-Python parser."""
    for path in BUNDLED_CONTENT.rglob("*.yaml"):
        assert not _C_DIFFERS.search(path.read_text(encoding="utf-8")), path
