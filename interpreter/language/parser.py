"""Parse effect text into the typed AST of ``ast.py``.

The grammar lives in ``effect.lark`` and is loaded once per process. Syntax
errors become :class:`LanguageError` with the position and a readable list of
what was expected, never a Lark traceback.
"""

from __future__ import annotations

import hashlib
import importlib.util
import re
import sys
from collections.abc import Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from types import CodeType
from typing import Any, Literal, overload

import lark
from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.lark import PostLex
from lark.tree import Meta

from ..cache import MARSHAL, PICKLE, Kept, cache_dir, remember
from ..snippet import clip
from . import ast
from .errors import LanguageError

GRAMMAR_PATH = Path(__file__).with_name("effect.lark")
MAX_INT_DIGITS = 9  # a number in effect code is below 10^9 (counts, limits): no huge values in messages or math

_OPEN = {"LPAR", "LSQB"}
_CLOSE = {"RPAR", "RSQB"}
_GLUE_BEFORE = {"ELSE", "ELIF", "INSTEAD"}

# how to find a card of a given name among cards (hints of E-errors about `has`, here and in the compiler)
NAMED_CARD_HINT = (
    "a card of a name among cards: `any_of(hand(self) where name_of(it) == 【牌名】)` (the card's name in 【】)"
)


class _NewlinePostLex(PostLex):
    """Drops newlines inside ( ) and [ ], and before else/elif/instead."""

    always_accept = ("_NL",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        depth = 0
        held: Token | None = None
        for tok in stream:
            if tok.type == "_NL":
                if depth == 0 and held is None:
                    held = tok
                continue
            if held is not None:
                if tok.type not in _GLUE_BEFORE:
                    yield held
                held = None
            if tok.type in _OPEN:
                depth += 1
            elif tok.type in _CLOSE:
                depth = max(0, depth - 1)
            yield tok
        if held is not None:
            yield held


@lru_cache(maxsize=1)
def _parser() -> Lark:
    folder = cache_dir()
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="basic",  # the postlexer looks one token ahead, which the contextual lexer cannot allow
        postlex=_NewlinePostLex(),
        propagate_positions=True,
        maybe_placeholders=True,
        start=["start", "expression"],
        # the LALR tables, kept between runs (lark checks the grammar's hash before using them)
        cache=str(folder / "lark-effect-grammar.cache") if folder is not None else False,
    )


def _pos(meta: Meta) -> tuple[int, int]:
    # the Meta of a rule that matched no token has no position
    return getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1


# What the methods of _ToAst are given: the children of the rule of the same name in effect.lark, in
# order, None for an optional part that is absent. They are tokens, nodes, blocks or the clause
# tuples below, which differ from rule to rule; Lark hands them over as an untyped list, so they are
# Any here, and each method unpacks its own rule's children into the typed AST.
Children = list[Any]
Block = list[ast.Node]
_Elif = tuple[Literal["elif"], ast.Node, Block]  # elif_clause: the condition and the body
_Else = tuple[Literal["else"], Block]  # else_clause
_Instead = tuple[ast.Node, Block]  # instead_clause: the condition and the body
_Kwarg = tuple[Literal["kw"], str, ast.Node, tuple[int, int]]  # kwarg and by_kwarg: name, value, the name's place


@v_args(meta=True)
class _ToAst(Transformer[Token, ast.Program | ast.Node]):
    """The parse tree of effect.lark to the AST: a Program from `start`, one expression's Node from `expression`."""

    # -- statements
    def start(self, meta: Meta, items: Children) -> ast.Program:
        return ast.Program([i for i in items if i is not None])

    def expression(self, meta: Meta, items: Children) -> ast.Node:
        node: ast.Node = next(i for i in items if i is not None)
        return node

    def block(self, meta: Meta, items: Children) -> Block:
        return [i for i in items if i is not None]

    def let_stmt(self, meta: Meta, items: Children) -> ast.Let:
        name, value = items
        return ast.Let(*_pos(meta), name=str(name), value=value)

    def if_stmt(self, meta: Meta, items: Children) -> ast.If:
        cond, body, *rest = items
        branches: list[tuple[ast.Node, Block]] = [(cond, body)]
        orelse: Block | None = None
        clauses: list[_Elif | _Else | None] = rest
        for r in clauses:
            if r is None:
                continue
            if r[0] == "elif":
                branches.append((r[1], r[2]))
            else:
                orelse = r[1]
        return ast.If(*_pos(meta), branches=branches, orelse=orelse)

    def elif_clause(self, meta: Meta, items: Children) -> _Elif:
        return ("elif", items[0], items[1])

    def else_clause(self, meta: Meta, items: Children) -> _Else:
        return ("else", items[0])

    def may_stmt(self, meta: Meta, items: Children) -> ast.May:
        by, prompt, body = items
        return ast.May(*_pos(meta), by=by, prompt=_unquote(prompt), body=body)

    def choose_one_stmt(self, meta: Meta, items: Children) -> ast.ChooseOne:
        by, prompt, *options = items
        return ast.ChooseOne(*_pos(meta), by=by, prompt=_unquote(prompt), options=[o for o in options if o is not None])

    def option(self, meta: Meta, items: Children) -> ast.Option:
        label, cond, body = items
        return ast.Option(*_pos(meta), label=_unquote(label), condition=cond, body=body)

    def condition(self, meta: Meta, items: Children) -> ast.Node:
        cond: ast.Node = items[0]
        return cond

    def by_clause(self, meta: Meta, items: Children) -> ast.Node:
        by: ast.Node = items[0]
        return by

    def for_stmt(self, meta: Meta, items: Children) -> ast.For:
        name, source, body = items
        return ast.For(*_pos(meta), name=str(name), source=source, body=body)

    def repeat_stmt(self, meta: Meta, items: Children) -> ast.Repeat:
        count, body = items
        return ast.Repeat(*_pos(meta), count=count, body=body)

    def then_stmt(self, meta: Meta, items: Children) -> ast.Then:
        return ast.Then(*_pos(meta), stmt=items[0])

    def call_stmt(self, meta: Meta, items: Children) -> ast.CallStmt:
        call: ast.Call
        instead: _Instead | None
        call, instead = items
        if instead is None:
            return ast.CallStmt(*_pos(meta), call=call)
        return ast.CallStmt(*_pos(meta), call=call, instead_cond=instead[0], instead_body=instead[1])

    def instead_clause(self, meta: Meta, items: Children) -> _Instead:
        return (items[0], items[1])

    # -- expressions
    def call(self, meta: Meta, items: Children) -> ast.Call:
        name, *rest = items
        args: list[ast.Node | _Kwarg | None] = rest
        pos_args: list[ast.Node] = []
        kwargs: dict[str, ast.Node] = {}
        kwarg_at: dict[str, tuple[int, int]] = {}
        twice: list[tuple[str, tuple[int, int]]] = []
        for a in args:
            if a is None:
                continue
            if isinstance(a, tuple):  # the only tuples among a call's arguments are keyword arguments
                if a[1] in kwargs:
                    twice.append((a[1], a[3]))  # (told by the checker: calls.py)
                    continue
                kwargs[a[1]] = a[2]
                kwarg_at[a[1]] = a[3]
            else:
                pos_args.append(a)
        return ast.Call(*_pos(meta), func=str(name), args=pos_args, kwargs=kwargs, kwarg_at=kwarg_at, kwarg_twice=twice)

    def kwarg(self, meta: Meta, items: Children) -> _Kwarg:
        return ("kw", str(items[0]), items[1], _pos(meta))

    def by_kwarg(self, meta: Meta, items: Children) -> _Kwarg:
        return ("kw", "by", items[0], _pos(meta))

    def var(self, meta: Meta, items: Children) -> ast.Var:
        return ast.Var(*_pos(meta), name=str(items[0]))

    def int_lit(self, meta: Meta, items: Children) -> ast.IntLit:
        digits = str(items[0])
        if len(digits) > MAX_INT_DIGITS:
            line, col = _pos(meta)
            raise LanguageError(
                "E201",
                f"a number of {len(digits)} digits; numbers in the language have at most {MAX_INT_DIGITS}",
                line,
                col,
            )
        return ast.IntLit(*_pos(meta), value=int(digits))

    def str_lit(self, meta: Meta, items: Children) -> ast.StrLit:
        return ast.StrLit(*_pos(meta), value=_unquote(items[0]))

    def card_name(self, meta: Meta, items: Children) -> ast.CardNameLit:
        return ast.CardNameLit(*_pos(meta), name=str(items[0])[1:-1])

    def list_lit(self, meta: Meta, items: Children) -> ast.ListLit:
        return ast.ListLit(*_pos(meta), items=[i for i in items if i is not None])

    def list_comp(self, meta: Meta, items: Children) -> ast.ListComp:
        return ast.ListComp(*_pos(meta), item=items[0], name=str(items[1]), source=items[2])

    def attr(self, meta: Meta, items: Children) -> ast.Attr:
        return ast.Attr(*_pos(meta), obj=items[0], name=str(items[1]))

    def where(self, meta: Meta, items: Children) -> ast.Where:
        return ast.Where(*_pos(meta), source=items[0], predicate=items[1])

    def or_(self, meta: Meta, items: Children) -> ast.BinOp:
        return ast.BinOp(*_pos(meta), op="or", left=items[0], right=items[1])

    def and_(self, meta: Meta, items: Children) -> ast.BinOp:
        return ast.BinOp(*_pos(meta), op="and", left=items[0], right=items[1])

    def not_(self, meta: Meta, items: Children) -> ast.Not:
        return ast.Not(*_pos(meta), operand=items[0])

    def neg(self, meta: Meta, items: Children) -> ast.Neg:
        return ast.Neg(*_pos(meta), operand=items[0])

    def compare(self, meta: Meta, items: Children) -> ast.BinOp:
        return ast.BinOp(*_pos(meta), op=str(items[1]), left=items[0], right=items[2])

    def add(self, meta: Meta, items: Children) -> ast.BinOp:
        return ast.BinOp(*_pos(meta), op="+", left=items[0], right=items[1])

    def sub(self, meta: Meta, items: Children) -> ast.BinOp:
        return ast.BinOp(*_pos(meta), op="-", left=items[0], right=items[1])

    def has(self, meta: Meta, items: Children) -> ast.BinOp:
        return ast.BinOp(*_pos(meta), op="has", left=items[0], right=items[1])

    def member(self, meta: Meta, items: Children) -> ast.BinOp:
        return ast.BinOp(*_pos(meta), op="in", left=items[0], right=items[1])


@overload
def _unquote(tok: Token) -> str: ...
@overload
def _unquote(tok: None) -> None: ...
def _unquote(tok: Token | None) -> str | None:
    """A STRING token's text without its quotes; None for a prompt that was left out."""
    if tok is None:
        return None
    s = str(tok)
    return s[1:-1] if s.startswith('"') else s


_TOKEN_WORDS = {
    "LBRACE": "'{'",
    "RBRACE": "'}'",
    "LPAR": "'('",
    "RPAR": "')'",
    "LSQB": "'['",
    "RSQB": "']'",
    "COMMA": "','",
    "COLON": "':'",
    "EQUAL": "'='",
    "DOT": "'.'",
    "SEMICOLON": "';'",
    "MINUS": "'-'",
    "_NL": "a new line",
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a quoted text",
    "CARD_NAME": "a card name in 【】",
    "CMP_OP": "a comparison",
    "PLUS": "'+'",
    "$END": "the end of the text",
}


def _describe_expected(expected: Iterable[str]) -> str:
    words: list[str] = []
    for e in sorted(expected):
        if e.startswith("__ANON"):
            continue
        w = _TOKEN_WORDS.get(e)
        if w is None:
            w = "'" + e.lower() + "'" if e.replace("_", "").isalpha() and e.isupper() else e
        if w not in words:
            words.append(w)
    if not words:
        return "something else"
    if len(words) > 8:
        words = [*words[:8], "..."]
    return ", ".join(words)


@overload
def parse(text: str, start: Literal["start"] = "start") -> ast.Program: ...
@overload
def parse(text: str, start: Literal["expression"]) -> ast.Node: ...
def parse(text: str, start: str = "start") -> ast.Program | ast.Node:
    """Parse one effect text (start="start") or one expression (start="expression").

    Raises LanguageError(E201 syntax) with a position. A text parsed before, in
    this process or an earlier one, is kept (ASTS).
    """
    if not text.strip():
        if start == "expression":
            raise LanguageError("E201", "an expression is missing here", 1, 1)
        return ast.Program([])
    return remember(ASTS, (start, text), lambda: (_parse(text, start), True))


def _ast_version() -> str | None:
    """What a kept tree depends on beyond its text: the grammar, ast.py, this module, Lark and Python (None, and
    nothing kept between runs, if one of the files cannot be read)."""
    return _versions()[0]


def _code_version() -> str | None:
    """What a kept code object depends on beyond its source: Python's bytecode (marshal's format)."""
    return _versions()[1]


@lru_cache(maxsize=1)
def _versions() -> tuple[str | None, str]:
    digest = hashlib.sha256()
    tree: str | None
    try:
        for part in (GRAMMAR_PATH, Path(ast.__file__), Path(__file__)):
            digest.update(part.read_bytes())
        digest.update(f"{lark.__version__} {sys.version_info[:2]}".encode())
        tree = digest.hexdigest()[:16]
    except OSError:
        tree = None
    return tree, importlib.util.MAGIC_NUMBER.hex()


# Each text parsed and each generated unit compiled, kept between runs (cache.py): parsing is most of what
# loading content costs (Lark's parser in Python), and content changes rarely. Each hit is a fresh copy (callers
# own their tree). Only texts that parsed are kept: errors are parsed every time, so they keep their messages.
ASTS: Kept[ast.Program | ast.Node] = Kept(
    "ast", version=_ast_version, copies=PICKLE, between_runs=True, in_process=False
)
CODE: Kept[CodeType] = Kept("code", version=_code_version, copies=MARSHAL, between_runs=True, in_process=False)


def compile_cached(source: str, filename: str) -> CodeType:
    """``compile(source, filename, "exec")``, kept between runs (the generated code of every code unit is
    compiled when content loads; the same source compiles to the same code)."""
    return remember(CODE, (filename, source), lambda: (compile(source, filename, "exec"), True))


MAX_SYNTAX_ERRORS = 20  # syntax errors reported for one text, its first and those after slips set right

_FULL_WIDTH = {"（": "(", "）": ")", "，": ",", "：": ":", "；": ";", "“": '"', "”": '"', "‘": '"', "’": '"'}


def _is_cjk(ch: str) -> bool:
    return "\u3400" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff"


def _slip_at_character(text: str, pos: int) -> tuple[str | None, tuple[int, int, str] | None]:
    """The hint for an unexpected character that is a common slip, and the repair (same length) that lets
    the parser go on to check the rest of the text."""
    ch = text[pos]
    nxt = text[pos + 1 : pos + 2]
    if ch in "“”‘’":
        return 'use plain double quotes "..."', (pos, 1, '"')
    if ch in _FULL_WIDTH:
        return "full-width punctuation is not part of the language; use ( ) , : ;", (pos, 1, _FULL_WIDTH[ch])
    if ch == "&":
        return "write `and` (not `&&`)", (pos, 2, "or") if nxt == "&" else None
    if ch == "|":
        return "write `or` (not `||`)", (pos, 2, "or") if nxt == "|" else None
    if ch == "!":
        return 'write `not` (not `!`); `!=` is "is not equal"', (pos, 1, " ")
    if ch == "'":
        close = text.find("'", pos + 1, (text.find("\n", pos) + 1 or len(text) + 1) - 1)
        repair = (pos, close - pos + 1, '"' + text[pos + 1 : close] + '"') if close > pos else (pos, 1, '"')
        return 'a text is written in double quotes: "..."', repair
    if _is_cjk(ch):
        end = pos
        while end < len(text) and _is_cjk(text[end]):
            end += 1
        word = text[pos:end]
        hint = f'a card name is written in 【】: 【{clip(word)}】; a text in double quotes: "{clip(word)}"'
        return hint, (pos, end - pos, "x" * (end - pos))
    if ch in "「『":
        return "a card name is written in 【】, a text in double quotes", (pos, 1, "(")
    return None, None


def _slip_at_token(text: str, tok: Token, expected: set[str]) -> tuple[str | None, tuple[int, int, str] | None]:
    """As _slip_at_character, for an unexpected token."""
    pos = tok.start_pos if tok.start_pos is not None else -1
    if pos < 0:
        return None, None
    if tok.type == "EQUAL" and "CMP_OP" in expected:
        return "to compare, write `==`; a single `=` only names a value, in `let x = ...`", (pos, 1, "<")
    if tok.type == "CMP_OP" and str(tok) == ">" and pos > 0 and text[pos - 1] == "<":
        return 'write `!=` for "is not equal" (not `<>`)', (pos - 1, 2, "!=")
    if tok.type == "HAS" and text[tok.end_pos or pos :].lstrip().startswith("("):
        return (
            "`has` is written between a card and a color (`c has red`); " + NAMED_CARD_HINT,
            None,
        )
    if "LBRACE" in expected and tok.type in ("NAME", "COLON"):  # `if x draw(…)`, `may draw(…)`, `if x: …`
        opened = re.findall(r"\b(if|elif|else|may|for|repeat)\b", text[text.rfind("\n", 0, pos) + 1 : pos])
        if opened:
            kw = opened[-1]
            shape = {"else": "else { … }", "may": "may { … }", "repeat": "repeat N { … }", "for": "for x in LIST { … }"}
            said = "no `:` after it; " if tok.type == "COLON" else ""
            return f"{said}the statements of `{kw}` go in braces: {shape.get(kw, kw + ' CONDITION { … }')}", None
    line = text[text.rfind("\n", 0, pos) + 1 : pos]
    if re.search(r"(?<![\w.])(while|until)\b\s*(\(.*\))?\s*$", line):  # `while x {`, `while (x) {`: no such loop
        return (
            "the language has no `while` (no loop that could run forever): `repeat N { … }` runs a block N times "
            "(at most 50), `for x in LIST { … }` walks a list",
            None,
        )
    if tok.type == "IF" and text[:pos].rstrip().endswith("else"):
        at = text.rfind("else", 0, pos)
        return "write `elif` (not `else if`)", (at, pos + 2 - at, "elif".ljust(pos + 2 - at))
    return None, None


def _parse(text: str, start: str) -> ast.Program | ast.Node:
    """Parse; on a syntax error that is a common slip (`=` for `==`, `&&`, `<>`, a card name without 【】 …),
    set it right and parse again, so that the error also lists the syntax errors further on."""
    try:
        return _parse_once(text, start)
    except LanguageError as first:
        err: LanguageError = first
        for _ in range(MAX_SYNTAX_ERRORS - 1):
            if err.repair is None:
                break
            at, length, new = err.repair
            text = text[:at] + new + text[at + length :]
            try:
                _parse_once(text, start)
                break
            except LanguageError as e:
                if (e.line, e.col) <= (err.line, err.col):
                    break  # no progress: the repair did not help
                first.also.append(e)
                err = e
        raise first from None


def _parse_once(text: str, start: str) -> ast.Program | ast.Node:
    try:
        tree = _parser().parse(text, start=start)
    except UnexpectedCharacters as e:
        pos = e.pos_in_stream if e.pos_in_stream is not None and e.pos_in_stream < len(text) else None
        ch = text[pos] if pos is not None else "?"
        hint, repair = _slip_at_character(text, pos) if pos is not None else (None, None)
        err = LanguageError("E201", f"unexpected character {ch!r}", e.line, e.column, hint)
        err.repair = repair
        raise err from None
    except UnexpectedToken as e:
        tok = e.token
        line, col = tok.line or 1, tok.column or 1
        hint, repair = None, None
        if tok.type == "$END":
            shown = "end of text"
            # the end token borrows the last token's position: point just after that token instead,
            # unless it is a new line (its end is on a line that may not be part of the text)
            if tok.end_line == tok.line and tok.end_column:
                col = tok.end_column
        elif tok.type == "_NL":
            shown = "end of line"
        else:
            shown = repr(clip(str(tok).strip()) or tok.type)
            hint, repair = _slip_at_token(text, tok, set(e.expected))
        err = LanguageError("E201", f"unexpected {shown}; expected {_describe_expected(e.expected)}", line, col, hint)
        err.repair = repair
        raise err from None
    except UnexpectedEOF as e:
        lines = text.rstrip().splitlines() or [""]
        raise LanguageError(
            "E201",
            f"the text ends too early; expected {_describe_expected(e.expected)}",
            len(lines),
            len(lines[-1]) + 1,
        ) from None
    except UnexpectedInput as e:  # pragma: no cover - other lark input errors
        raise LanguageError("E201", str(e).splitlines()[0], getattr(e, "line", 1), getattr(e, "column", 1)) from None
    try:
        return _ToAst().transform(tree)
    except VisitError as e:  # a problem found while building the AST (a number too long, nesting too deep)
        if isinstance(e.orig_exc, (LanguageError, RecursionError)):
            raise e.orig_exc from None  # the compiler turns running out of stack into E201
        raise
