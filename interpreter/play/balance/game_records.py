"""Per-game records of a simulation on disk: written as JSON Lines or CSV, read back (JSON
Lines) for `gdl report`.

`write_records(path, records)` writes the records `simulate` returns (`batch.GameRecord`),
in game order, atomically: by the file's extension, `.jsonl` one JSON object a line
(`GameRecord.to_json`, fields in `RECORD_FIELDS` order); `.csv` one row a game, lists and
per-seat values spread over columns (`winners` space-separated, `player:SEAT`,
`return:SEAT`, `score:SEAT`, `stat:NAME` and `stat:NAME:SEAT`). `check_out_path` refuses
any other extension before a run starts.

`read_records(path)` reads a `.jsonl` file whole and checks every record's fields and types
before it becomes a `GameRecord`; anything wrong refuses the file, naming the line, so a
report never covers part of a file: a record that contradicts itself (a draw with winners),
or a game (a seed and its players) already on an earlier line, counted twice otherwise. A
record without `payoff` (written before records had it) is read, its `payoff` None.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from typing import Any

from ...files import STDIO, named, read_data, save
from ...language.errors import GdlDataError
from .batch import RECORD_FIELDS, GameRecord

EXTENSIONS = (".jsonl", ".csv")


def check_out_path(path: str) -> None:
    """Refuse an output file whose extension says no format we write ('-', the standard
    output, is written as JSON Lines, which `gdl report -` reads)."""
    if path != STDIO and not path.lower().endswith(EXTENSIONS):
        raise GdlDataError(f"cannot write records to {path}: the file name must end in "
                           ".jsonl (JSON Lines) or .csv")


def write_records(path: str, records: Sequence[GameRecord]) -> None:
    check_out_path(path)
    text = _csv(records) if path.lower().endswith(".csv") else _jsonl(records)
    save(path, text)


def _jsonl(records: Sequence[GameRecord]) -> str:
    return "".join(json.dumps(record.to_json()) + "\n" for record in records)


def _csv(records: Sequence[GameRecord]) -> str:
    columns = ["seed", "game", "first", "winners", "draw", "capped", "turns", "decisions"]
    if records:
        seats = records[0].seats
        columns += [f"player:{seat}" for seat in seats]
        columns += [f"return:{seat}" for seat in seats]
        if records[0].scores is not None:
            columns += [f"score:{seat}" for seat in seats]
        for name, value in records[0].stats.items():
            columns += ([f"stat:{name}:{seat}" for seat in value] if isinstance(value, dict)
                        else [f"stat:{name}"])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for record in records:
        writer.writerow([_cell(value) for value in _row(record)])
    return out.getvalue()


def _row(record: GameRecord) -> list[Any]:
    row: list[Any] = [record.seed, record.game, record.first, " ".join(record.winners),
                      record.draw, record.capped, record.turns, record.decisions]
    row += record.players
    row += record.returns
    if record.scores is not None:
        row += [record.scores[seat] for seat in record.seats]
    for value in record.stats.values():
        row += list(value.values()) if isinstance(value, dict) else [value]
    return row


def _cell(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else value


# ----- reading ------------------------------------------------------------------------------
def read_records(path: str) -> list[GameRecord]:
    """The records of a `.jsonl` file, checked; a GdlDataError names the first bad line."""
    if path.lower().endswith(".csv"):
        raise GdlDataError("a report reads JSON Lines records: write them with 'gdl "
                           "simulate ... --out FILE.jsonl'", file=path)
    lines = read_data(path, "records file").split("\n")
    path = named(path)
    records: list[GameRecord] = []
    first: dict[str, Any] | None = None
    games: dict[tuple[int, tuple[str, ...]], int] = {}     # (seed, players) -> its line
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise _bad(path, number, f"not JSON ({exc.msg}, column {exc.colno})") from None
        except (ValueError, RecursionError):   # a number of over 4,300 digits; deep nesting
            raise _bad(path, number, "a number or a nesting too large for a record") from None
        problem = _problem(record)
        if problem is None and first is not None:
            problem = _differs(record, first)
        if problem is None:
            problem = _repeated(record, number, games)
        if problem is not None:
            raise _bad(path, number, problem)
        if first is None:
            first = record
        records.append(GameRecord.from_json(record))
    if not records:
        raise GdlDataError("no records in the file", file=path)
    return records


def _bad(path: str, number: int, problem: str) -> GdlDataError:
    return GdlDataError(f"{problem}; the file is not read", file=path, line=number, column=1)


OPTIONAL_FIELDS = ("payoff",)    # absent from the records of older files
LARGEST = 2 ** 53       # a count or a number in a record: a float holds it exactly
MAX_SEED = 2 ** 64 - 1  # game i of a run plays seed + i: `gdl simulate` keeps it a seed


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= LARGEST


def _is_number(value: object) -> bool:
    """A number a report can average: an int or a float up to LARGEST either way (not
    JSON's 1e999 and NaN, read as infinity and not-a-number, nor 1e308, whose sums are)."""
    if isinstance(value, float):
        return math.isfinite(value) and abs(value) <= LARGEST
    return _is_int(value)


def _is_names(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _is_stat(value: object, seats: Sequence[str]) -> bool:
    """A `stat`'s value: a number, a truth value, a text or null (a value that could not be
    worked out); for a `stat NAME(s)`, an object of one such value per seat."""
    if isinstance(value, dict):
        return set(value) == set(seats) and all(_is_stat(v, ()) for v in value.values())
    return value is None or isinstance(value, (bool, str)) or _is_number(value)


def _problem(record: Any) -> str | None:
    """What is wrong with one record, a line's JSON value (None when nothing is)."""
    if not isinstance(record, dict):
        return "a record is a JSON object"
    missing = [key for key in RECORD_FIELDS
               if key not in record and key not in OPTIONAL_FIELDS]
    if missing:
        return f"the record has no '{missing[0]}'"
    seats = record["seats"]
    if not _is_names(seats) or not seats:
        return "'seats' must be a list of seat names"
    checks = (
        ("seed", isinstance(record["seed"], int) and not isinstance(record["seed"], bool)
         and 0 <= record["seed"] <= MAX_SEED, f"a whole number from 0 to {MAX_SEED}"),
        ("game", isinstance(record["game"], str), "text"),
        ("players", _is_names(record["players"]) and len(record["players"]) == len(seats),
         "a list of names, one per seat"),
        ("first", record["first"] is None or record["first"] in seats, "a seat or null"),
        ("winners", _is_names(record["winners"]) and set(record["winners"]) <= set(seats),
         "a list of seats"),
        ("draw", isinstance(record["draw"], bool), "true or false"),
        ("returns", isinstance(record["returns"], list) and len(record["returns"]) == len(seats)
         and all(map(_is_number, record["returns"])), f"a list of numbers, one per seat, each within {LARGEST}"),
        ("payoff", isinstance(record.get("payoff", False), bool), "true or false"),
        ("turns", _is_int(record["turns"]) and record["turns"] >= 0,
         f"a whole number from 0 to {LARGEST}"),
        ("decisions", _is_int(record["decisions"]) and record["decisions"] >= 0,
         f"a whole number from 0 to {LARGEST}"),
        ("capped", isinstance(record["capped"], bool), "true or false"),
        ("scores", record["scores"] is None or (isinstance(record["scores"], dict) and set(
            record["scores"]) == set(seats) and all(map(_is_number, record["scores"].values()))),
         f"null or a number per seat, each within {LARGEST}"),
        ("stats", isinstance(record["stats"], dict) and all(
            _is_stat(v, seats) for v in record["stats"].values()),
         f"an object of numbers within {LARGEST}, truth values or texts, or of those per seat"),
    )
    for key, good, wanted in checks:
        if not good:
            return f"'{key}' must be {wanted}, not {json.dumps(record[key])[:60]}"
    if record["capped"] and (record["winners"] or record["draw"]):
        return "a capped game has no winners and is no draw"
    if record["draw"] and record["winners"]:
        return f"a drawn game has no winners, not {json.dumps(record['winners'])[:60]}"
    return None


def _repeated(record: dict[str, Any], number: int,
              games: dict[tuple[int, tuple[str, ...]], int]) -> str | None:
    """A seed played by the same players as on an earlier line (kept in `games`) is the same
    game: counted twice, it would weigh twice in every share and mean of the report. The same
    seed under other players is another game (a seat-swapped run joined with `cat`)."""
    game = (record["seed"], tuple(record["players"]))
    if game in games:
        return (f"seed {game[0]} with players {', '.join(game[1])[:60]} is line "
                f"{games[game]}'s too: the same game counted twice (a file joined to itself, "
                "or runs whose seeds overlap)")
    games[game] = number
    return None


def _differs(record: dict[str, Any], first: dict[str, Any]) -> str | None:
    """Records of one file are of one game: the same name, seats and kinds of stats."""
    for key in ("game", "seats"):
        if record[key] != first[key]:
            return (f"'{key}' is {json.dumps(record[key])[:60]} but the first record's is "
                    f"{json.dumps(first[key])[:60]}: a file holds the games of one run")
    for name, value in record["stats"].items():
        if name in first["stats"] and _shape(value) != _shape(first["stats"][name]):
            return (f"stat '{name[:60]}' is {_shape(value)} but the first record's is "
                    f"{_shape(first['stats'][name])}: a file holds the games of one run")
    return None


def _shape(stat: object) -> str:
    return "one value per seat" if isinstance(stat, dict) else "one value a game"
