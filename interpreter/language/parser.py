"""Parser front end: rule-file text -> `ast.Program`. The only module that imports Lark.

The grammar (`grammar/gdl.lark`) is built once, LALR with positions. `_ToAst` turns every
tree into a frozen AST node with its span; a rule it does not know raises, so no Lark tree
ever leaves this module. Lark's exceptions become `GdlSyntaxError` with the position, the
source line, a caret and what was expected, in words.

Lark is imported only when a text is parsed: a rule file parsed before comes from the parse
cache (`parse_cache`), and a `gdl check` of it never loads Lark.
"""

from __future__ import annotations

import functools
import pkgutil
import re
import threading
from typing import TYPE_CHECKING, Any, Literal, cast, overload

from . import ast, concrete, parse_cache
from .errors import GdlSyntaxError, did_you_mean, shortened
from .limits import MAX_NAME, MAX_NESTING, MAX_NUMBER, MAX_TOKENS

if TYPE_CHECKING:
    from collections.abc import Collection, Iterator, Sequence

    import lark
    from lark.tree import Meta

    class _Token(lark.Token):
        """A token as Lark's lexer makes it: its position is always set (Lark's `Token` type
        leaves it optional, for tokens made by hand)."""

        line: int
        column: int
        end_line: int
        end_column: int

    _Block = tuple[ast.Stmt, ...]       # a `block`'s statements

# Terminal names as a person reads them in "expected ..." lists.
_TERMINAL_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "CELL": "a cell like @d5",
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['",
    "RSQB": "']'", "COMMA": "','", "DOT": "'.'", "COLON": "':'", "EQUAL": "'='",
    "MINUS": "'-'", "QUANT": "count, sum, exists, all, ...",
    "$END": "end of file",
}

_START_WORDS = ("game", "extends", "seats", "param", "board", "terrain", "symbols", "kinds",
                "zone",
                "var", "def", "fn", "phase", "on", "end", "setup", "show", "hide", "stat")


def _grammar() -> str:
    # pkgutil rather than importlib.resources: Lark imports pkgutil anyway, and
    # importlib.resources would add some 4 ms to every start.
    data = pkgutil.get_data("gdl.grammar", "gdl.lark")
    assert data is not None     # the grammar is package data: its loader reads files
    return data.decode("utf-8")


# A keyword that the next characters show to be assigned (`to = 3`, `where += 1`): no word
# of the grammar is ever followed by `=`, `+=` or `-=`, so it is a variable's name there.
# Lark's contextual lexer reads such a word as a name only where the parser could not take
# the keyword, which, after a statement that ends in an expression, it often could: `let at
# = 1` was accepted, and `at = 2` then refused or not by the statement before it.
_ASSIGNED = re.compile(r"[ \t]*(?:=(?!=)|\+=|-=)")
_parsing = threading.local()        # .text: the text the lexer reads now


class _Assigned:
    """Lark's post-lexer: a keyword or quantifier word that is assigned becomes a name (a
    callback per terminal would not do: Lark turns a name into a keyword in its own)."""

    always_accept: tuple[str, ...] = ()

    def __init__(self, text: str) -> None:
        self.words = frozenset(["QUANT", *(w.upper() for w in re.findall(r'"([a-z_]+)"',
                                                                         text))])

    def process(self, stream: Iterator[_Token]) -> Iterator[_Token]:
        words, source = self.words, getattr(_parsing, "text", None)
        for token in stream:
            if token.type in words and source is not None and \
                    _ASSIGNED.match(source, token.end_pos or 0):
                token = cast("_Token", token.update(type="NAME"))
            yield token


@functools.lru_cache(maxsize=None)
def _lark(start: str) -> lark.Lark:
    text = _grammar()
    import lark
    return lark.Lark(text, parser="lalr", propagate_positions=True, start=start,
                     maybe_placeholders=True, cache=True, postlex=_Assigned(text))


@functools.lru_cache(maxsize=None)
def _concrete_lark() -> tuple[lark.Lark, list[_Token]]:
    """The grammar again, keeping every token (keywords and punctuation too) in the tree and
    handing the comments it ignores to a callback; the parse tables are the same."""
    text = _grammar()
    import lark
    comments: list[_Token] = []
    parser = lark.Lark(text, parser="lalr", propagate_positions=True, start="start",
                       keep_all_tokens=True, maybe_placeholders=False,
                       lexer_callbacks={"COMMENT": comments.append}, postlex=_Assigned(text))
    return parser, comments


def parse_program(text: str, file: str = "<string>") -> ast.Program:
    """Parse a whole rule file, or read the result of an earlier parse from the cache."""
    return parse_cache.cached(text, file, functools.partial(_parse, text, file, "start"))


def parse_expression(text: str, file: str = "<string>") -> ast.Expr:
    """Parse one expression (scenario expectations use this)."""
    return _parse(text, file, "expr")


def parse_concrete(text: str, file: str = "<string>") -> concrete.ConcreteTree:
    """Parse a whole rule file into a `concrete.ConcreteTree`: every token kept, comments
    beside it. The same errors as `parse_program` for a text that does not parse."""
    import lark
    text = _strip_bom(text)
    lines = tuple(text.split("\n"))
    _reject_binary(text, file, lines)
    _reject_reordering(text, file, lines)
    _reject_deep(text, file, lines)
    parser, comments = _concrete_lark()
    comments.clear()
    _parsing.text = text
    try:
        tree = cast("lark.Tree[_Token]", parser.parse(text))
    except lark.exceptions.UnexpectedInput as exc:
        raise _syntax_error(exc, text, file, lines) from None
    finally:
        _parsing.text = None
    found = tuple(_token(t) for t in comments)
    comments.clear()
    return concrete.ConcreteTree(_concrete(tree), found)


def _concrete(tree: lark.Tree[_Token]) -> concrete.Node:
    children: list[concrete.Token | concrete.Node] = []
    for child in tree.children:
        children.append(_token(child) if isinstance(child, str) else _concrete(child))
    return concrete.Node(str(tree.data), tuple(children))


def _token(token: _Token) -> concrete.Token:
    return concrete.Token(token.type, str(token), token.line, token.column, token.end_line,
                          token.end_column)


@functools.lru_cache(maxsize=None)
def grammar_words() -> dict[str, tuple[str, ...]]:
    """The grammar's words, for highlighters and completion: a dict of
    "declaration" (the words that begin a top-level declaration), "statement" (those that
    begin a statement), "operator" (and, or, not, in), "constant" (true, false, none),
    "keyword" (every other word of the grammar) and "quantifier" (count, sum, ...), each a
    sorted tuple. Read from the grammar itself, so a new declaration brings its words."""
    parser = _lark("start")
    literal: dict[str, str] = {}
    for terminal in parser.terminals:
        pattern = terminal.pattern
        if pattern.type == "str" and re.fullmatch(r"[a-z_]+", pattern.value):
            literal[terminal.name] = pattern.value
    first: dict[str, set[str]] = {}     # rule -> the words its alternatives begin with
    members: dict[str, set[str]] = {}   # rule -> the rules its alternatives consist of alone
    for rule in parser.rules:
        origin = rule.origin.name
        symbols = rule.expansion
        if symbols and symbols[0].name in literal:
            first.setdefault(origin, set()).add(literal[symbols[0].name])
        if len(symbols) == 1 and not symbols[0].is_term:
            members.setdefault(origin, set()).add(symbols[0].name)

    def starting(category: str) -> set[str]:
        return {word for rule in members.get(category, ()) for word in first.get(rule, ())}

    words = set(literal.values())
    operator = {"and", "or", "not", "in"} & words
    constant = {"true", "false", "none"} & words
    declaration = starting("item")
    statement = starting("stmt") - declaration
    quant = parser.get_terminal("QUANT").pattern.value
    found = re.search(r"\(([a-z_|]+)\)", quant)
    assert found is not None        # QUANT is an alternation of words in parentheses
    quantifier = found.group(1).split("|")
    keyword = words - operator - constant - declaration - statement
    return {"declaration": tuple(sorted(declaration)), "statement": tuple(sorted(statement)),
            "operator": tuple(sorted(operator)), "constant": tuple(sorted(constant)),
            "keyword": tuple(sorted(keyword)), "quantifier": tuple(sorted(quantifier))}


def _strip_bom(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text    # a mark some editors write


@overload
def _parse(text: str, file: str, start: Literal["start"]) -> ast.Program: ...
@overload
def _parse(text: str, file: str, start: Literal["expr"]) -> ast.Expr: ...
def _parse(text: str, file: str, start: str) -> ast.Node:
    import lark
    text = _strip_bom(text)
    lines = tuple(text.split("\n"))
    _reject_binary(text, file, lines)
    _reject_reordering(text, file, lines)
    _reject_deep(text, file, lines)
    _reject_dense(text, file, lines)
    _reject_long_names(text, file, lines)
    _parsing.text = text
    try:
        tree = _lark(start).parse(text)
    except lark.exceptions.UnexpectedInput as exc:
        raise _syntax_error(exc, text, file, lines) from None
    finally:
        _parsing.text = None
    node: ast.Node = _ToAst(file, lines, lark.Tree).transform(tree)
    return node


# What a text file does not hold: control characters other than tab, carriage return and
# newline, and the replacement character a failed decoding leaves; and a carriage return
# alone, the line end of classic Mac OS (read as a space, it made the first comment run to
# the end of the file: 'the rule file is empty').
_NOT_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffd]|\r(?!\n)")


def _error_at(message: str, text: str, start: int, file: str,
              lines: tuple[str, ...]) -> GdlSyntaxError:
    """The syntax error `message` at the character `start` of `text`."""
    number = text.count("\n", 0, start) + 1
    return GdlSyntaxError(message, file=file, line=number,
                          column=start - text.rfind("\n", 0, start),
                          source_line=lines[number - 1])


def _reject_binary(text: str, file: str, lines: tuple[str, ...]) -> None:
    found = _NOT_TEXT.search(text)
    if found:
        why = (f"character {ord(found.group()):#04x} is not allowed" if found.group() != "\r"
               else "a carriage return (0x0d) ends a line without a newline (classic Mac OS "
               "line ends): save the file with LF or CRLF line ends")
        raise _error_at(f"this is not a text rule file: {why}", text, found.start(), file,
                        lines)


# The characters that reorder the text around them on screen (bidirectional embeddings,
# overrides and isolates): in a text or a comment they make a line read otherwise than it
# runs ("Trojan Source"). Letters of right-to-left scripts need none of them.
_REORDERING = re.compile("[\u202a-\u202e\u2066-\u2069]")
_REORDERING_NAMES = {
    "\u202a": "LEFT-TO-RIGHT EMBEDDING", "\u202b": "RIGHT-TO-LEFT EMBEDDING",
    "\u202c": "POP DIRECTIONAL FORMATTING", "\u202d": "LEFT-TO-RIGHT OVERRIDE",
    "\u202e": "RIGHT-TO-LEFT OVERRIDE", "\u2066": "LEFT-TO-RIGHT ISOLATE",
    "\u2067": "RIGHT-TO-LEFT ISOLATE", "\u2068": "FIRST STRONG ISOLATE",
    "\u2069": "POP DIRECTIONAL ISOLATE"}


def _reject_reordering(text: str, file: str, lines: tuple[str, ...]) -> None:
    found = _REORDERING.search(text)
    if found:
        char = found.group()
        raise _error_at(
            f"an invisible character that reorders the text around it, U+{ord(char):04X} "
            f"{_REORDERING_NAMES[char]}: the line would read otherwise than it runs; delete "
            "it (letters of right-to-left scripts need none)", text, found.start(), file, lines)


# What opens or closes a level of nesting, and what is read past whole (texts, comments).
_NESTING = re.compile(r'"[^"\n]*"|#[^\n]*|[(\[{]|[)\]}]')


def _reject_deep(text: str, file: str, lines: tuple[str, ...]) -> None:
    """Refuse a text nested more than MAX_NESTING deep, at the bracket that goes past it:
    every tool that reads rule files (check, fmt, the language server) stops there alike,
    before a tree so deep that walking it would exhaust Python's stack."""
    depth = 0
    for found in _NESTING.finditer(text):
        mark = found.group()
        if mark in "([{":
            depth += 1
            if depth > MAX_NESTING:
                start = found.start()
                number = text.count("\n", 0, start) + 1
                column = start - text.rfind("\n", 0, start)
                raise GdlSyntaxError(
                    f"nested too deeply: more than {MAX_NESTING} parentheses, brackets and "
                    "braces open at once", file=file, line=number, column=column,
                    source_line=lines[number - 1])
        elif mark in ")]}":
            depth -= 1


# A token as the parser reads it, near enough to count them: a text, a word or number, a sign;
# a comment is matched to be skipped.
_TOKEN = re.compile(r'"[^"\n]*"|#[^\n]*|\w+|[^\s\w]')   # STRING as the grammar has it: no escapes


def _reject_dense(text: str, file: str, lines: tuple[str, ...]) -> None:
    """Refuse a text of more than MAX_TOKENS tokens, at the token past it: Lark parses about
    30,000 a second, so a 1 MB file dense with them took 30-45 s to check, and the language
    server as long to answer. Counting them takes a tenth of a second for such a file."""
    if len(text) <= MAX_TOKENS:
        return          # fewer characters than the limit: fewer tokens too
    count = 0
    for found in _TOKEN.finditer(text):
        if found.group().startswith("#"):
            continue
        count += 1
        if count > MAX_TOKENS:
            start = found.start()
            number = text.count("\n", 0, start) + 1
            column = start - text.rfind("\n", 0, start)
            raise GdlSyntaxError(
                f"too many tokens: more than {MAX_TOKENS:,} words, numbers, texts and signs "
                "in one rule file, which would take minutes to parse (the shipped games have "
                "at most 5,000): split it, or compute long lists (range, for)", file=file,
                line=number, column=column, source_line=lines[number - 1])


# A word longer than a name may be, anywhere (a text or a comment may hold one): the quick test
_LONG_WORD = re.compile(r"\w{%d,}" % (MAX_NAME + 1))


def _reject_long_names(text: str, file: str, lines: tuple[str, ...]) -> None:
    """Refuse a name (a word, not a number) of more than MAX_NAME characters, at it: every
    message that names it ("unknown phase '...'", the checker's) would quote it whole."""
    if _LONG_WORD.search(text) is None:
        return
    for found in _TOKEN.finditer(text):
        word = found.group()
        if len(word) > MAX_NAME and word[0] not in '"#' and not word.isdigit():
            start = found.start()
            number = text.count("\n", 0, start) + 1
            column = start - text.rfind("\n", 0, start)
            raise GdlSyntaxError(
                f"a name of {len(word):,} characters is too long: a name is at most "
                f"{MAX_NAME} characters", file=file, line=number, column=column,
                source_line=lines[number - 1])


def _expected_words(names: Collection[str]) -> str:
    words = sorted({_TERMINAL_WORDS.get(name, _literal_word(name)) for name in names})
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def _literal_word(name: str) -> str:
    try:
        pattern = _lark("start").get_terminal(name).pattern
    except KeyError:
        return name
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return name.lower()


def _syntax_error(exc: lark.exceptions.UnexpectedInput, text: str, file: str,
                  lines: tuple[str, ...]) -> GdlSyntaxError:
    import lark
    line, column = exc.line, exc.column
    if line is None or line < 1:
        line = len(lines)
        column = len(lines[-1]) + 1
    source_line = lines[line - 1] if 1 <= line <= len(lines) else None
    if isinstance(exc, lark.exceptions.UnexpectedToken):
        missing = _missing_value(exc, file, lines)
        if missing is not None:
            return missing
    if isinstance(exc, lark.exceptions.UnexpectedEOF) or (
            isinstance(exc, lark.exceptions.UnexpectedToken) and exc.token.type == "$END"):
        expected = _expected_words(exc.expected)
        line = len(lines)
        while line > 1 and not lines[line - 1].strip():
            line -= 1
        column = len(lines[line - 1]) + 1
        unclosed = " (an unclosed block?)" if "RBRACE" in exc.expected else ""
        message = f"the file ended unexpectedly{unclosed}; expected {expected}"
        return GdlSyntaxError(message, file=file, line=line, column=column,
                              source_line=lines[line - 1])
    if isinstance(exc, lark.exceptions.UnexpectedToken):
        token = exc.token
        expected = _expected_words(exc.accepts or exc.expected)
        message = f"unexpected {_describe(token)}; expected {expected}"
        hints = _mistake_hint(token, exc, source_line or "") or _keyword_hint(token, exc)
        return GdlSyntaxError(message, file=file, line=line, column=column,
                              source_line=source_line, hints=hints)
    assert isinstance(exc, lark.exceptions.UnexpectedCharacters)    # the lexer's error
    position = cast(int, exc.pos_in_stream)     # Lark's type says None; the lexer sets it
    char = text[position] if position < len(text) else "?"
    expected = _expected_words(exc.allowed or ())
    message = f"unexpected character {char!r}; expected {expected}"
    if char == '"':
        message = "unclosed string: a string must end with '\"' on the same line"
    return GdlSyntaxError(message, file=file, line=line, column=column, source_line=source_line)


def _missing_value(exc: lark.exceptions.UnexpectedToken, file: str,
                   lines: tuple[str, ...]) -> GdlSyntaxError | None:
    """A name that must be followed by '= VALUE' and is not (`param n`, `var piece.damage`,
    `let x`, a stat table's row `Kind 3, 4`): the error says so right after the name,
    not at what follows it (the next line's first word, or the end of the file)."""
    expected = set(exc.accepts or exc.expected)
    if not expected or not expected <= {"EQUAL", "FROM"}:
        return None
    history = getattr(exc, "token_history", None) or ()
    name = history[-1] if history else _last_token(exc)
    if name is None or name.type != "NAME" or name.end_line is None:
        return None
    also = " (or 'from COLUMN', a stat table's column)" if "FROM" in expected else ""
    return GdlSyntaxError(f"'{name}' needs a value: expected '= VALUE' after it{also}",
                          file=file, line=name.end_line, column=name.end_column,
                          source_line=lines[name.end_line - 1])


def _describe(token: lark.Token) -> str:
    """The token as a message quotes it: briefly (a word may be thousands of characters)."""
    if token.type == "NAME":
        return f"name '{shortened(token)}'"
    return f"'{shortened(token)}'"


def _statements(block: ast.FnBlock | Sequence[ast.Stmt]) -> tuple[ast.Stmt, ...]:
    """The statements of a block, a fn's block too."""
    return block.body if isinstance(block, ast.FnBlock) else tuple(block)


def _keyword_hint(token: lark.Token, exc: lark.exceptions.UnexpectedToken) -> tuple[str, ...]:
    """A misspelt keyword at the start of a declaration: say which one was meant."""
    history = getattr(exc, "token_history", None) or ()
    previous = history[-1] if history else None
    if token.type != "NAME" and not (previous is not None and previous.type == "NAME"):
        return ()
    if previous is not None and previous.type == "NAME" and token.type in ("NAME", "CELL"):
        token = previous
    return did_you_mean(str(token), _START_WORDS + (
        "action", "where", "move", "place", "remove", "create", "goto", "call", "return", "leave",
        "stop", "win", "lose", "draw", "log", "shuffle", "give", "change", "let", "for", "if",
        "else",
        "until",
        "visible", "along"), cutoff=0.75)


# A statement where a `let` wants a value; a `fn` body that starts with `let`.
_LET_STATEMENT = re.compile(r"\blet\s+\w+\s*=\s*(create|move|place|remove|goto|call|give|put|"
                            r"shuffle|log)\b")
# Statements a fn's block cannot hold (they change the game or the turn).
_FN_REJECTS = ("move", "place", "remove", "create", "goto", "call", "stop", "win", "lose",
               "draw", "log", "shuffle", "give", "put", "leave", "change")
_FN_LET = re.compile(r"^\s*fn\b[^=]*=\s*let\b")


def _last_token(exc: lark.exceptions.UnexpectedToken) -> lark.Token | None:
    """The token the parser took last, when the error does not say it (Lark keeps the
    history only for some errors): the last token of the top of the parser's value stack
    (a token, or a rule already reduced, such as the `target` of a statement)."""
    import lark
    parser = getattr(exc, "interactive_parser", None)
    stack = parser.parser_state.value_stack if parser is not None else ()
    top = stack[-1] if stack else None
    while isinstance(top, lark.Tree) and top.children:
        top = top.children[-1]
    return top if isinstance(top, lark.Token) else None


def _mistake_hint(token: lark.Token, exc: lark.exceptions.UnexpectedToken,
                  line: str) -> tuple[str, ...]:
    """What to write instead, for mistakes that the grammar alone words badly: a reserved
    word used as a name, a statement given as a value, `let` in a `fn`, `while`, `xs[i]`, a
    doc string where none may stand, `0.5`, `create KIND at CELL`, `f(x).field = v`."""
    history = getattr(exc, "token_history", None) or ()
    previous = history[-1] if history else None
    last = previous or _last_token(exc)
    expected = set(exc.accepts or exc.expected)
    if previous is not None and previous.type == "QUANT" and token.type != "LPAR":
        return (f"'{previous}' is a reserved word (a quantifier: {previous}(x in xs ...)) and "
                "cannot be a name: choose another name",)
    if "NAME" in expected and token.type != "NAME" and re.fullmatch(r"[a-z_]+", str(token)):
        return (f"'{token}' is a reserved word of gdl and cannot be a name: choose another "
                "name",)
    statement = _LET_STATEMENT.search(line)
    if statement:
        return (f"'{statement.group(1)}' is a statement and gives no value for a 'let': write "
                "it on a line of its own, then find what it made (pieces_at(cell), say)",)
    if _FN_LET.search(line):
        return ("a 'fn NAME(...) = ...' body is one expression, without 'let': write the fn "
                "as a block, 'fn NAME(...) { let x = ...  return VALUE }'",)
    if last is not None and last.type == "RETURN":
        if "RBRACE" in expected:
            return ("'return' in a 'def', a phase or a hook takes no value (it leaves the "
                    "phase); only a fn's block gives one: 'fn NAME(...) { return VALUE }'",)
        return ("a fn's block ends with 'return VALUE': write the fn's result after "
                "'return'",)
    word = str(last) if last is not None and last.type == "NAME" else ""
    if "EQUAL" in expected and word in _FN_REJECTS:
        return (f"a fn's block cannot '{word}': it holds only 'let', assignments to its "
                "locals, 'if', 'for' and 'return VALUE'; a 'def' runs statements",)
    if last is not None and last.type == "NAME" and str(last) == "if":
        return ("an 'if ... then ... else ...' value inside a larger expression goes in "
                "parentheses: 1 + (if COND then A else B)",)
    if previous is not None and previous.type == "NAME" and str(previous) == "while":
        return ("gdl has no 'while': loop over a list with 'for x in xs' ('range(a, b)' "
                "counts), or let a 'fn' call itself",)
    if token.type == "STRING" and "GOTO" in expected:
        return ("a text opens a phase or an action only, as the first thing in its block (a "
                "doc string); an 'on' block, a 'def', 'setup' and a statement take none: "
                "write a comment ('# ...'), or 'log \"...\"' to tell the players",)
    whole = re.search(r"(\d+)\.$", line[:(token.column or 1) - 1])
    if token.type == "NUMBER" and whole:
        return (f"gdl's numbers are whole: it has no fraction such as {whole.group(1)}.{token}; "
                "count in smaller units (tenths, say), or divide with '/', which rounds down",)
    if str(token) == "*" and last is not None and str(last) == "*" and (
            last.end_line, last.end_column) == (token.line, token.column):
        return ("gdl has no power operator '**': multiply, 'x * x', or for a power that "
                "varies write a fn that calls itself",)
    if str(token) == "at" and "FOR" in expected and re.search(r"\bcreate\b", line):
        return ("'create' names the piece's seat before its cell: a piece of no seat is "
                "created 'for none' (create KIND for none at CELL)",)
    if str(token) == "." and previous is not None and previous.type == "RPAR" and \
            re.match(r"\s*\w+\s*\(", line):
        return ("a variable is set on a name, not on what a call gives: name it first "
                "('let p = last(pieces())'), then set 'p.NAME = VALUE'",)
    if token.type == "LSQB" and previous is not None and previous.type in (
            "NAME", "RPAR", "RSQB"):
        return ("gdl has no indexing 'xs[i]': write nth(xs, i) (counting from 1), last(xs) "
                "or first(x in xs where ...)",)
    return ()


class _ToAst:
    """Lark tree -> AST. Each method is named after the grammar rule it converts, and takes
    the rule's position (`meta`) and its children, converted already (tokens stay tokens).
    Lark's own Transformer is not used: subclassing it would import Lark with this module."""

    def __init__(self, file: str, lines: tuple[str, ...],
                 tree_class: type[lark.Tree[lark.Token]]) -> None:
        self.file = file
        self.lines = lines
        self.tree_class = tree_class

    def transform(self, tree: lark.Tree[lark.Token]) -> Any:
        """The conversion of `tree` (a node, a tuple of them, a name's token, ...)."""
        children: list[Any] = []
        for child in tree.children:     # a loop, not a comprehension: one frame a level
            children.append(self.transform(child) if isinstance(child, self.tree_class)
                            else child)
        convert = getattr(type(self), tree.data, None)
        if convert is None:
            raise AssertionError(f"grammar rule {tree.data!r} has no AST conversion")
        return convert(self, tree.meta, children)

    def _span(self, meta: Meta) -> ast.Span | None:
        if getattr(meta, "empty", True):
            return None
        return ast.Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column,
                        self.lines)

    def _at(self, token: _Token) -> ast.Span:
        """The span of one name as written."""
        return ast.Span(self.file, token.line, token.column, token.end_line, token.end_column,
                        self.lines)

    def _all_at(self, tokens: Sequence[_Token]) -> tuple[ast.Span, ...]:
        return tuple(self._at(token) for token in tokens)

    # declarations
    def start(self, meta: Meta, items: list[ast.Decl]) -> ast.Program:
        return ast.Program(tuple(items), span=ast.Span(self.file, 1, 1, 1, 1, self.lines))

    def game_decl(self, meta: Meta, c: list[_Token]) -> ast.GameDecl:
        return ast.GameDecl(_string(c[0]), span=self._span(meta))

    def extends_decl(self, meta: Meta, c: list[_Token]) -> ast.ExtendsDecl:
        return ast.ExtendsDecl(_string(c[0]), span=self._span(meta))

    def seats_decl(self, meta: Meta, c: list[_Token]) -> ast.SeatsDecl:
        return ast.SeatsDecl(tuple(map(str, c)), span=self._span(meta),
                             name_spans=self._all_at(c))

    def param_decl(self, meta: Meta, c: list[Any]) -> ast.ParamDecl:
        return ast.ParamDecl(str(c[0]), c[1], span=self._span(meta), name_span=self._at(c[0]))

    def board_decl(self, meta: Meta, c: list[Any]) -> ast.BoardDecl:
        param, expr = c[3] or (None, None)
        return ast.BoardDecl(str(c[0]), c[1] or (), c[2], None if param is None else str(param),
                             expr, span=self._span(meta), kind_span=self._at(c[0]),
                             hole_param_span=None if param is None else self._at(param))

    def board_directions(self, meta: Meta, c: list[_Token]) -> int:
        return int(c[0])

    def board_holes(self, meta: Meta, c: list[Any]) -> tuple[_Token, ast.Expr]:
        return (c[0], c[1])

    def auto(self, meta: Meta, c: list[_Token]) -> bool:
        return True

    def terrain_decl(self, meta: Meta, c: list[Any]) -> ast.TerrainDecl:
        symbol = _string(c[2]) if c[2] is not None else "?"
        return ast.TerrainDecl(str(c[0]), c[1], symbol, span=self._span(meta),
                               name_span=self._at(c[0]))

    def symbols_decl(self, meta: Meta, c: list[_Token]) -> ast.SymbolsDecl:
        return ast.SymbolsDecl(tuple(map(str, c)), span=self._span(meta),
                               name_spans=self._all_at(c))

    def kinds_decl(self, meta: Meta, c: list[Any]) -> ast.KindsDecl:
        columns = cast("list[_Token]", [x for x in c if isinstance(x, str)])   # NAME tokens
        rows = tuple(x for x in c if isinstance(x, ast.KindRow))
        visible = next((x for x in c if isinstance(x, ast.Expr)), None)
        return ast.KindsDecl(tuple(map(str, columns)), rows, visible, span=self._span(meta),
                             column_spans=self._all_at(columns))

    def kind_row(self, meta: Meta, c: list[Any]) -> ast.KindRow:
        return ast.KindRow(str(c[0]), tuple(c[1:]), span=self._span(meta),
                           name_span=self._at(c[0]))

    def var_decl(self, meta: Meta, c: list[Any]) -> ast.VarDecl:
        scope, name = c[0]
        return ast.VarDecl(scope, str(name), c[1], c[2], span=self._span(meta),
                           name_span=self._at(name))

    def var_from_decl(self, meta: Meta, c: list[Any]) -> ast.VarDecl:
        scope, name = c[0]
        return ast.VarDecl(scope, str(name), None, c[2], str(c[1]), span=self._span(meta),
                           name_span=self._at(name), column_span=self._at(c[1]))

    def global_name(self, meta: Meta, c: list[_Token]) -> tuple[str, _Token]:
        return ("global", c[0])

    def scoped_name(self, meta: Meta, c: list[_Token]) -> tuple[str, _Token]:
        return (str(c[0]), c[1])

    def visibility(self, meta: Meta, c: list[ast.Expr]) -> ast.Expr:
        return c[0]

    def def_decl(self, meta: Meta, c: list[Any]) -> ast.DefDecl:
        params = c[1] or ()
        return ast.DefDecl(str(c[0]), tuple(map(str, params)), tuple(c[2]),
                           span=self._span(meta), name_span=self._at(c[0]),
                           param_spans=self._all_at(params))

    def fn_decl(self, meta: Meta, c: list[Any]) -> ast.FnDecl:
        params = c[1] or ()
        return ast.FnDecl(str(c[0]), tuple(map(str, params)), c[2], span=self._span(meta),
                          name_span=self._at(c[0]), param_spans=self._all_at(params))

    def fn_block_decl(self, meta: Meta, c: list[Any]) -> ast.FnDecl:
        return self.fn_decl(meta, c)

    def fn_block(self, meta: Meta, c: list[ast.Stmt]) -> ast.FnBlock:
        return ast.FnBlock(tuple(c), span=self._span(meta))

    def result_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Result:
        return ast.Result(c[0], span=self._span(meta))

    def params(self, meta: Meta, c: list[_Token]) -> tuple[_Token, ...]:
        return tuple(c)             # the tokens: their declarers take names and spans

    def phase_decl(self, meta: Meta, c: list[Any]) -> ast.PhaseDecl:
        name, params, mode, auto, doc, *items = c
        hooks: dict[str, list[ast.Stmt]] = {"enter": [], "reveal": [], "resume": []}
        actions: list[ast.ActionDecl] = []
        no_action: list[_Block] = []
        for item in items:
            if isinstance(item, ast.ActionDecl):
                actions.append(item)
            elif item[0] == "no action":
                no_action.append(item[1])
            else:
                hooks[item[0]].extend(item[1])

        params = params or ()
        return ast.PhaseDecl(str(name), tuple(map(str, params)), str(mode) if mode else None,
                             tuple(hooks["enter"]), tuple(hooks["reveal"]), tuple(actions),
                             tuple(hooks["resume"]), bool(auto), doc,
                             tuple(tuple(block) for block in no_action), span=self._span(meta),
                             name_span=self._at(name), param_spans=self._all_at(params))

    def on_enter(self, meta: Meta, c: list[_Block]) -> tuple[str, _Block]:
        return ("enter", c[0])

    def on_reveal(self, meta: Meta, c: list[_Block]) -> tuple[str, _Block]:
        return ("reveal", c[0])

    def on_resume(self, meta: Meta, c: list[_Block]) -> tuple[str, _Block]:
        return ("resume", c[0])

    def on_no_action(self, meta: Meta, c: list[_Block]) -> tuple[str, _Block]:
        return ("no action", c[0])

    def action_decl(self, meta: Meta, c: list[Any]) -> ast.ActionDecl:
        name, *rest = c
        at = 1 if rest[0] is None else 0       # an empty list of binders leaves a None
        while isinstance(rest[at], ast.Binder):
            at += 1
        where, doc, body = rest[at], rest[at + 1], rest[at + 2:]
        binders = tuple(b for b in rest[:at] if b is not None)
        return ast.ActionDecl(str(name), binders, where, tuple(body), doc,
                              span=self._span(meta), name_span=self._at(name))

    def doc(self, meta: Meta, c: list[_Token]) -> str:
        return _string(c[0])

    def invariant_decl(self, meta: Meta, c: list[Any]) -> ast.InvariantDecl:
        return ast.InvariantDecl(_string(c[0]), c[1], span=self._span(meta))

    def binder(self, meta: Meta, c: list[Any]) -> ast.Binder:
        written = None if c[2] is None else str(c[2])
        return ast.Binder(str(c[0]), c[1], written, span=self._span(meta),
                          name_span=self._at(c[0]),
                          written_span=None if c[2] is None else self._at(c[2]))

    def concede_decl(self, meta: Meta, c: list[Any]) -> ast.ConcedeDecl:
        return ast.ConcedeDecl(str(c[0]), tuple(c[1]), span=self._span(meta),
                               seat_span=self._at(c[0]))

    def out_decl(self, meta: Meta, c: list[Any]) -> ast.OutDecl:
        return ast.OutDecl(str(c[0]), tuple(c[1]), span=self._span(meta),
                           seat_span=self._at(c[0]))

    def trigger_decl(self, meta: Meta, c: list[Any]) -> ast.TriggerDecl:
        return ast.TriggerDecl(str(c[0]), str(c[1]), c[2], tuple(c[3]), span=self._span(meta),
                               piece_span=self._at(c[0]), cell_span=self._at(c[1]))

    def end_decl(self, meta: Meta, c: list[ast.EndRule | ast.Let]) -> ast.EndDecl:
        return ast.EndDecl(tuple(c), span=self._span(meta))

    def end_rule(self, meta: Meta, c: list[Any]) -> ast.EndRule:
        return ast.EndRule(str(c[0]), c[1], span=self._span(meta))

    def setup_decl(self, meta: Meta, c: list[_Block]) -> ast.SetupDecl:
        return ast.SetupDecl(tuple(c[0]), span=self._span(meta))

    def show_decl(self, meta: Meta, c: list[Any]) -> ast.ShowDecl:
        return ast.ShowDecl(str(c[0]), tuple(map(str, c[1])), c[2], span=self._span(meta),
                            what_span=self._at(c[0]), param_spans=self._all_at(c[1]))

    def stat_decl(self, meta: Meta, c: list[Any]) -> ast.StatDecl:
        return ast.StatDecl(str(c[0]), None if c[1] is None else str(c[1]), c[2],
                            span=self._span(meta), name_span=self._at(c[0]),
                            param_span=None if c[1] is None else self._at(c[1]))

    def payoff_decl(self, meta: Meta, c: list[Any]) -> ast.PayoffDecl:
        return ast.PayoffDecl(str(c[0]), c[1], span=self._span(meta), param_span=self._at(c[0]))

    def hide_decl(self, meta: Meta, c: list[Any]) -> ast.HideDecl:
        return ast.HideDecl(str(c[0]), str(c[1]), c[2], span=self._span(meta),
                            what_span=self._at(c[0]), param_span=self._at(c[1]))

    def _operator(self, meta: Meta, c: list[_Token]) -> str:
        return str(c[0])

    phase_mode = end_kind = assign_op = comp_op = add_op = mul_op = _operator

    def block(self, meta: Meta, c: list[ast.Stmt]) -> _Block:
        return tuple(c)

    # statements
    def assign(self, meta: Meta, c: list[Any]) -> ast.Assign:
        return ast.Assign(c[0], str(c[1]), c[2], c[3], span=self._span(meta))

    def target(self, meta: Meta, c: list[_Token]) -> ast.Target:
        return ast.Target(tuple(map(str, c)), span=self._span(meta), name_spans=self._all_at(c))

    def until(self, meta: Meta, c: list[ast.Expr]) -> ast.Expr:
        return c[0]

    def call_stmt(self, meta: Meta, c: list[Any]) -> ast.CallStmt:
        return ast.CallStmt(str(c[0]), c[1] or (), span=self._span(meta),
                            name_span=self._at(c[0]))

    def if_stmt(self, meta: Meta, c: list[Any]) -> ast.If:
        otherwise = c[2]
        if isinstance(otherwise, ast.If):
            otherwise = (otherwise,)
        return ast.If(c[0], tuple(c[1]), tuple(otherwise or ()), span=self._span(meta))

    def for_stmt(self, meta: Meta, c: list[Any]) -> ast.For:
        return ast.For(str(c[0]), c[1], c[2], tuple(_statements(c[3])), span=self._span(meta),
                       name_span=self._at(c[0]))

    def fn_if(self, meta: Meta, c: list[Any]) -> ast.If:
        otherwise = c[2]
        if isinstance(otherwise, ast.If):
            otherwise = (otherwise,)
        return ast.If(c[0], _statements(c[1]), _statements(otherwise or ()),
                      span=self._span(meta))

    fn_for = for_stmt

    def let_stmt(self, meta: Meta, c: list[Any]) -> ast.Let:
        return ast.Let(str(c[0]), c[1], span=self._span(meta), name_span=self._at(c[0]))

    def move_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Move:
        return ast.Move(c[0], c[1], span=self._span(meta))

    def place_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Place:
        return ast.Place(c[0], c[1], span=self._span(meta))

    def remove_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Remove:
        return ast.Remove(c[0], span=self._span(meta))

    def create_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Create:
        return ast.Create(c[0], c[1], c[2], span=self._span(meta))

    def goto_stmt(self, meta: Meta, c: list[Any]) -> ast.Goto:
        return ast.Goto(str(c[0]), c[1] or (), c[2], False, span=self._span(meta),
                        phase_span=self._at(c[0]))

    def push_stmt(self, meta: Meta, c: list[Any]) -> ast.Goto:
        return ast.Goto(str(c[0]), c[1] or (), c[2], True, span=self._span(meta),
                        phase_span=self._at(c[0]))

    def put_stmt(self, meta: Meta, c: list[Any]) -> ast.Put:
        return ast.Put(c[0], str(c[1]), c[2], span=self._span(meta), zone_span=self._at(c[1]))

    def zone_decl(self, meta: Meta, c: list[Any]) -> ast.ZoneDecl:
        return ast.ZoneDecl(str(c[0]), bool(c[1]), c[2], span=self._span(meta),
                            name_span=self._at(c[0]))

    def per_seat(self, meta: Meta, c: list[_Token]) -> bool:
        return True

    def call_each_stmt(self, meta: Meta, c: list[Any]) -> ast.CallEach:
        return ast.CallEach(str(c[0]), c[1] or (), str(c[2]), c[3], c[4],
                            span=self._span(meta), phase_span=self._at(c[0]),
                            name_span=self._at(c[2]))

    def give_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Give:
        return ast.Give(c[0], c[1], span=self._span(meta))

    def return_stmt(self, meta: Meta, c: list[_Token]) -> ast.Return:
        return ast.Return(span=self._span(meta))

    def change_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Change:
        return ast.Change(c[0], c[1], span=self._span(meta))

    def leave_stmt(self, meta: Meta, c: list[_Token]) -> ast.Leave:
        return ast.Leave(span=self._span(meta))

    def stop_stmt(self, meta: Meta, c: list[_Token]) -> ast.Stop:
        return ast.Stop(span=self._span(meta))

    def win_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Win:
        return ast.Win(c[0], span=self._span(meta))

    def lose_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Lose:
        return ast.Lose(c[0], span=self._span(meta))

    def draw_stmt(self, meta: Meta, c: list[_Token]) -> ast.Draw:
        return ast.Draw(span=self._span(meta))

    def log_stmt(self, meta: Meta, c: list[ast.Expr]) -> ast.Log:
        return ast.Log(c[0], span=self._span(meta))

    def shuffle_stmt(self, meta: Meta, c: list[ast.Target]) -> ast.Shuffle:
        return ast.Shuffle(c[0], span=self._span(meta))

    def args(self, meta: Meta, c: list[ast.Expr]) -> tuple[ast.Expr, ...]:
        return tuple(c)

    # expressions
    def cond_expr(self, meta: Meta, c: list[ast.Expr]) -> ast.CondExpr:
        return ast.CondExpr(c[0], c[1], c[2], span=self._span(meta))

    def or_op(self, meta: Meta, c: list[ast.Expr]) -> ast.Or:
        return ast.Or(c[0], c[1], span=self._span(meta))

    def and_op(self, meta: Meta, c: list[ast.Expr]) -> ast.And:
        return ast.And(c[0], c[1], span=self._span(meta))

    def not_op(self, meta: Meta, c: list[ast.Expr]) -> ast.Not:
        return ast.Not(c[0], span=self._span(meta))

    def compare_op(self, meta: Meta, c: list[Any]) -> ast.Compare:
        return ast.Compare(str(c[1]), c[0], c[2], span=self._span(meta))

    def in_op(self, meta: Meta, c: list[ast.Expr]) -> ast.In:
        return ast.In(c[0], c[1], False, span=self._span(meta))

    def not_in_op(self, meta: Meta, c: list[ast.Expr]) -> ast.In:
        return ast.In(c[0], c[1], True, span=self._span(meta))

    def binary_op(self, meta: Meta, c: list[Any]) -> ast.Binary:
        return ast.Binary(str(c[1]), c[0], c[2], span=self._span(meta))

    def neg_op(self, meta: Meta, c: list[ast.Expr]) -> ast.Neg:
        return ast.Neg(c[0], span=self._span(meta))

    def field(self, meta: Meta, c: list[Any]) -> ast.Field:
        return ast.Field(c[0], str(c[1]), span=self._span(meta), name_span=self._at(c[1]))

    def call(self, meta: Meta, c: list[Any]) -> ast.Call:
        return ast.Call(str(c[0]), c[1] or (), span=self._span(meta), name_span=self._at(c[0]))

    def quant(self, meta: Meta, c: list[Any]) -> ast.Quant:
        return ast.Quant(str(c[0]), str(c[1]), c[2], c[3], c[4], span=self._span(meta),
                         name_span=self._at(c[1]))

    def number(self, meta: Meta, c: list[_Token]) -> ast.Number:
        try:
            value = int(c[0])
        except ValueError:      # more digits than Python converts to a number
            raise GdlSyntaxError(f"a number of {len(c[0]):,} digits is too long to read "
                                 f"(a number a rule computes is at most {MAX_NUMBER:,} "
                                 "either way)", file=self.file,
                                 line=meta.line, column=meta.column,
                                 source_line=self.lines[meta.line - 1]) from None
        if value > MAX_NUMBER:      # limits.MAX_NUMBER, as constants the checker folds
            raise GdlSyntaxError(f"a number of {len(c[0]):,} digits: a constant is at most "
                                 f"{MAX_NUMBER:,} either way", file=self.file,
                                 line=meta.line, column=meta.column,
                                 source_line=self.lines[meta.line - 1])
        return ast.Number(value, span=self._span(meta))

    def string(self, meta: Meta, c: list[_Token]) -> ast.String:
        return ast.String(_string(c[0]), span=self._span(meta))

    def cell(self, meta: Meta, c: list[_Token]) -> ast.CellLit:
        return ast.CellLit(str(c[0])[1:].lower(), span=self._span(meta))

    def name(self, meta: Meta, c: list[_Token]) -> ast.Name:
        return ast.Name(str(c[0]), span=self._span(meta))

    def true(self, meta: Meta, c: list[_Token]) -> ast.Bool:
        return ast.Bool(True, span=self._span(meta))

    def false(self, meta: Meta, c: list[_Token]) -> ast.Bool:
        return ast.Bool(False, span=self._span(meta))

    def none(self, meta: Meta, c: list[_Token]) -> ast.NoneLit:
        return ast.NoneLit(span=self._span(meta))

    def comp_for(self, meta: Meta, c: list[Any]) -> tuple[_Token, ast.Expr, ast.Expr | None]:
        return (c[0], c[1], c[2])

    def comprehension(self, meta: Meta, c: list[Any]) -> ast.Comprehension:
        """The clauses from the last: each `for` but the last holds the next one's list."""
        value: ast.Expr = c[0]
        for depth, (name, domain, where) in enumerate(reversed(c[1:])):
            value = ast.Comprehension(value, str(name), domain, where, depth > 0,
                                      span=self._span(meta), name_span=self._at(name))
        assert isinstance(value, ast.Comprehension)     # the grammar has one clause or more
        return value

    # last: below a method named `list` that name is not the built-in type in annotations
    def list(self, meta: Meta, c: list[tuple[ast.Expr, ...] | None]) -> ast.ListExpr:
        return ast.ListExpr(c[0] or (), span=self._span(meta))


def _string(token: _Token) -> str:
    return str(token)[1:-1]
