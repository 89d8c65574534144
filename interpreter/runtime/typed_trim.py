"""The typed engine's Cython source, trimmed to what its rule file uses (typed.py `generate`).

In: the whole source (`typed_engine.pyx.in` filled in, the rules appended). Out: the same
module without code that can never run, which Cython and the C compiler would otherwise
translate whole for every game (tic-tac-toe's C was 77,000 lines):

- a block `if FLAG:` or `if FLAG and ...:` (no `elif` after it) whose feature flag of the
  template's `cdef enum` is 0 (no simultaneous phase, no zones...), or its `else:` body in
  its place;
- then a `cdef` function or method no other line names (its callers were trimmed, or the
  rules never call that built-in), until none is left. A `cdef` function is invisible to
  Python, so nothing outside the module can miss it; `def` and `cpdef` stay.

The module behaves identically: a trimmed block's condition is false, and `and` reads
nothing after a false flag."""

import collections
import re

# the template's feature flags (typed_engine.pyx.in, `cdef enum`): 0 when the file lacks it
FLAGS = ("SIMUL", "HOOKS_NZONES", "HOOKS_SEAT_LABELS", "HOOKS_PAYOFF", "HOOKS_SCORE",
         "HOOKS_RULES", "SMALL_NONES", "HAS_TURNS", "LISTS")
_ENUM_VALUE = re.compile(r" {4}([A-Z_]+) = (\d+)\b")
_WORD = re.compile(r"\w+")
_COMMENT = re.compile(r"\s#\s.*")     # (a comment begins so in the template and the rules)
_CDEF = re.compile(r"( *)cdef\s+(?!class\b|extern\b|enum\b)[^=(]*?\b(\w+)\(")


def trimmed(source: str) -> str:
    """The module's source without the blocks of the flags that are off and the `cdef`
    functions nothing calls."""
    lines = source.split("\n")
    values = {m[1]: int(m[2]) for m in map(_ENUM_VALUE.match, lines) if m}
    off = "|".join(flag for flag in FLAGS if values.get(flag) == 0)
    if off:
        _drop_flagged(lines, re.compile(rf"( *)if ({off})( and .*)?:\s*(#.*)?"))
    _drop_unnamed(lines)
    return "\n".join(lines)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _block_end(lines: list[str], start: int) -> int:
    """The line after the block that `lines[start]` opens (its trailing blank lines left)."""
    depth, end = _indent(lines[start]), start + 1
    while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > depth):
        end += 1
    while not lines[end - 1].strip():
        end -= 1
    return end


def _drop_flagged(lines: list[str], flagged: re.Pattern[str]) -> None:
    """Remove the `if FLAG` blocks of the flags that are off (in place); `pass` where one
    was the whole body."""
    i = 0
    while i < len(lines):
        m = flagged.fullmatch(lines[i])
        if m is None:
            i += 1
            continue
        end = _block_end(lines, i)
        after = next((line for line in lines[end:] if line.strip()), "")
        follows = _indent(after) == len(m[1]) and after.lstrip().startswith(("elif", "else"))
        if follows and after.strip() != "else:":     # (kept whole)
            i += 1
            continue
        if follows:
            other = lines.index(after, end)
            other_end = _block_end(lines, other)
            shift = _indent(lines[other + 1]) - len(m[1])
            lines[i:other_end] = [line[shift:] for line in lines[other + 1:other_end]]
            continue
        before = next(line for line in reversed(lines[:i]) if line.strip())
        only = _indent(before) < len(m[1]) and _indent(after) < len(m[1])
        lines[i:end] = [m[1] + "pass"] if only else []


def _words(lines: list[str]) -> collections.Counter[str]:
    """The names in `lines`, comments left out."""
    return collections.Counter(word for line in lines
                               for word in _WORD.findall(_COMMENT.sub("", line)))


def _drop_unnamed(lines: list[str]) -> None:
    """Remove the `cdef` functions and methods no other line names (a call of itself does
    not count), until none is left."""
    blocks = []         # (first line, line after, name, the names in it)
    i = 0
    while i < len(lines):
        m = _CDEF.match(lines[i])
        if m and len(m[1]) in (0, 4) and lines[i].rstrip().endswith((":", ",")):
            end = _block_end(lines, i)
            blocks.append((i, end, m[2], _words(lines[i:end])))
            i = end
        else:
            i += 1
    named = _words(lines)
    dead: list[tuple[int, int]] = []
    while True:
        found = [block for block in blocks if named[block[2]] == block[3][block[2]]]
        if not found:
            break
        for block in found:
            named -= block[3]
            blocks.remove(block)
            dead.append(block[:2])
    for start, end in sorted(dead, reverse=True):
        del lines[start:end]
