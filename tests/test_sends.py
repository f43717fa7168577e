"""E315 (language/sends.py): code that may send two intels on one path is refused; one send per branch is not."""

from __future__ import annotations

import pytest

import interpreter.engine.primitives  # noqa: F401  (compiling a call needs the implementations)
from interpreter.language import ast
from interpreter.language.parser import parse
from interpreter.language.sends import check_single_send

SEND = 'send(choose(from: hand(self), prompt: "x"))'


def found(code: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    check_single_send(parse(code), lambda node: out.append((node.line, node.col)))
    return out


@pytest.mark.parametrize(
    "code",
    [
        SEND,
        f"if count(hand(self)) > 1 {{\n  {SEND}\n}} else {{\n  {SEND}\n}}",
        f'choose_one {{\n  option "a" {{ {SEND} }}\n  option "b" {{ {SEND} }}\n}}',
        "draw(self, 1)",
    ],
    ids=["one", "if-else", "options", "none"],
)
def test_one_send_per_path_is_fine(code):
    assert found(code) == []


@pytest.mark.parametrize(
    ("code", "at"),
    [
        (f"{SEND}\n{SEND}", (2, 1)),
        (f"draw(self, 1)\n{SEND}\nif true {{\n  {SEND}\n}}", (4, 3)),
        (f"for p in alive_players() {{\n  {SEND}\n}}", (2, 3)),
        (f"repeat 2 {{\n  {SEND}\n}}", (2, 3)),
    ],
    ids=["twice", "then-in-a-branch", "for", "repeat"],
)
def test_a_second_send_on_a_path_is_found_at_its_call(code, at):
    assert found(code) == [at]


def test_a_card_that_sends_twice_is_e312_at_its_line(tmp_path):
    from interpreter.content.loader import BUNDLED_CONTENT
    from tests.conftest import fengsheng

    folder = tmp_path / "twice"
    (folder / "cards").mkdir(parents=True)
    (folder / "pack.yaml").write_text(
        "id: twice\nname: t\nextends: [base]\nreplace: {cards: [yu_qin_gu_zong]}\n", encoding="utf-8"
    )
    text = (BUNDLED_CONTENT / "cards" / "yu_qin_gu_zong.yaml").read_text(encoding="utf-8")
    (folder / "cards" / "yu_qin_gu_zong.yaml").write_text(
        text.replace("      then draw(self, 2)", f"      {SEND}"), encoding="utf-8"
    )
    r = fengsheng("validate", folder)
    assert r.exit_code == 1
    assert "yu_qin_gu_zong.yaml:13:7: error E315: this `send` may be a second intel" in r.output
    assert isinstance(ast.Program(), ast.Program)
