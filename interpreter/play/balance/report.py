"""Balance report: a simulation's per-game records -> one self-contained HTML page.

`analyse(records)` turns the records (`batch.GameRecord`s, from `game_records.read_records`)
into plain numbers: win
share per seat with 95% Wilson intervals (over finished games), draws and capped games, game
lengths, the first player's advantage, results per agent, a summary of every `stat`, and of
each seat's returns when the rule file declares a `payoff(s)` (as the records say; records
of an older file, which do not say, when some return is not 1 win, -1 loss, 0 draw).
`write_report(records_path, out_path)` draws them with matplotlib (the optional extra
`gdl[report]`) as SVG pictures written into the page itself, so the page needs no network
and no script; the same records give the same page byte for byte.

Why matplotlib rather than plotly: static SVG in the page is some tens of kB a chart and
opens anywhere, where plotly's inlined script is some 3.5 MB for every page; the charts here
are for reading, not for zooming.
"""

from __future__ import annotations

import html
import io
from collections import Counter
from collections.abc import Sequence
from typing import Any

from ...files import PAGE_MARK, named, save
from ...language.errors import GdlDataError, counted
from .batch import GameRecord
from .game_records import read_records
from .simulate import wilson

EXTRA = "pip install -e '.[report]'"
BINS = 30       # at most this many bars in a length histogram


def write_report(records_path: str, out_path: str) -> dict[str, Any]:
    """Read the records, write the page; returns the analysis."""
    records = read_records(records_path)
    figure_class = _figure_class()
    analysis = analyse(records)
    import matplotlib
    with matplotlib.rc_context({"text.parse_math": False}):    # a '$' in a name is no TeX
        text = page(analysis, records, named(records_path), figure_class)
    save(out_path, text)
    return analysis


def _figure_class() -> Any:
    """matplotlib's `Figure` (untyped: an optional extra), drawing without a display."""
    try:
        import matplotlib
    except ImportError:
        raise GdlDataError(f"gdl report draws with matplotlib, an optional extra: "
                           f"{EXTRA}") from None
    matplotlib.use("Agg")
    from matplotlib.figure import Figure
    return Figure


# ----- the numbers --------------------------------------------------------------------------
def analyse(records: Sequence[GameRecord]) -> dict[str, Any]:
    """The numbers of the page (plain data; `seats` a list, as in the records' JSON)."""
    seats = list(records[0].seats)
    finished = [r for r in records if not r.capped]
    wins = {seat: sum(seat in r.winners for r in finished) for seat in seats}
    first_games = [r for r in finished if r.first is not None]
    first_won = sum(r.first in r.winners for r in first_games)
    later = [(seat, r) for r in first_games for seat in seats if seat != r.first]
    payoffs = any(map(_declares_payoff, finished))
    returns = {"returns": {seat: _summary([r.returns[i] for r in finished])
                           for i, seat in enumerate(seats)}} if payoffs else {}
    return {
        "game": records[0].game, "seats": seats, "games": len(records),
        "finished": len(finished), "capped": len(records) - len(finished),
        "draws": sum(r.draw for r in finished),
        "wins": wins,
        "win_share": {seat: wilson(n, len(finished)) for seat, n in wins.items()},
        # what each seat would win if the wins were shared equally (draws and shared wins
        # taken into account): the line a fair game's bars stand at
        "fair_share": round(sum(wins.values()) / len(seats) / len(finished), 3)
        if finished else 0.0,
        "decisions": _spread([r.decisions for r in records]),
        "turns": _spread([r.turns for r in records]),
        "first": {
            "games": len(first_games),
            "seats": dict(Counter(r.first for r in first_games)),
            "won": first_won, "share": wilson(first_won, len(first_games)),
            "later_share": wilson(sum(seat in r.winners for seat, r in later), len(later)),
        },
        "agents": _agents(finished, seats),
        "players": dict(Counter(",".join(r.players) for r in records)),
        "stats": _stats(records),
        "seeds": [min(r.seed for r in records), max(r.seed for r in records)],
    } | returns


def _declares_payoff(record: GameRecord) -> bool:
    """Does the rule file of a finished game's record declare a `payoff(s)`? As the record
    says; a record written before records said so: when its returns are not those of no
    payoff (a payoff whose returns are all 1, -1 or 0 goes unseen)."""
    if record.payoff is not None:
        return record.payoff
    return record.returns != _default_returns(record)


def _default_returns(record: GameRecord) -> tuple[float, ...]:
    """The returns of a finished game without a payoff: 1 win, -1 loss, 0 draw."""
    if record.draw:
        return (0.0,) * len(record.seats)
    return tuple(1.0 if seat in record.winners else -1.0 for seat in record.seats)


def _spread(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    middle = len(ordered) // 2
    median = (ordered[middle] if len(ordered) % 2 else
              (ordered[middle - 1] + ordered[middle]) / 2)
    return {"mean": round(sum(values) / len(values), 2), "median": median,
            "min": ordered[0], "max": ordered[-1]}


def _agents(finished: Sequence[GameRecord],
            seats: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per agent name: seat-games in finished games, wins, win share with its interval."""
    played: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for record in finished:
        for seat, agent in zip(seats, record.players):
            played[agent] += 1
            won[agent] += seat in record.winners
    return {agent: {"seat_games": played[agent], "wins": won[agent],
                    "share": wilson(won[agent], played[agent])} for agent in sorted(played)}


def _stats(records: Sequence[GameRecord]) -> dict[str, Any]:
    """Per `stat` (per seat for `stat NAME(s)`): numbers -> mean, min, max; truth values ->
    share true; text -> the most frequent values."""
    found: dict[str, Any] = {}
    for name, value in records[0].stats.items():
        if isinstance(value, dict):
            found[name] = {seat: _summary([r.stats.get(name, {}).get(seat)
                                           for r in records]) for seat in value}
        else:
            found[name] = _summary([r.stats.get(name) for r in records])
    return found


def _summary(values: Sequence[Any]) -> dict[str, Any]:
    present = [v for v in values if v is not None]
    if not present:
        return {"kind": "none"}
    if all(isinstance(v, bool) for v in present):
        return {"kind": "truth", "true": sum(present), "of": len(present),
                "share": wilson(sum(present), len(present))}
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return {"kind": "number", **_spread(present)}
    common = Counter(str(v) for v in present).most_common(5)
    return {"kind": "text", "common": [[text, n] for text, n in common], "of": len(present)}


# ----- the page -----------------------------------------------------------------------------
STYLE = """body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{padding:.2em .8em;text-align:right;
border-bottom:1px solid #ddd}th:first-child,td:first-child{text-align:left}
figure{margin:0 0 1.5em}svg{max-width:100%;height:auto}.note{color:#555}"""


def page(analysis: dict[str, Any], records: Sequence[GameRecord], source: str,
         figure_class: Any) -> str:
    """The HTML page of `analysis` of `records` (read from the file `source`)."""
    a = analysis
    title = f"Balance of {a['game']}: {counted(a['games'], 'game')}"
    players = "; ".join(f"{p} ({counted(n, 'game')})" for p, n in a["players"].items())
    parts = [f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">{PAGE_MARK}"
             f"<title>{_e(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>{_e(title)}</h1>",
             f"<p class=\"note\">From {_e(source)}: seeds {a['seeds'][0]} to {a['seeds'][1]}; "
             f"players {_e(players)}. "
             "Shares are of finished games, with 95% Wilson intervals.</p>"]
    parts += _outcomes(a, figure_class)
    parts += _seat_section(a, figure_class)
    parts += _first_section(a, figure_class)
    parts += _agent_section(a, figure_class)
    parts += _length_section(a, records, figure_class)
    parts += _stat_section(a)
    parts += _returns_section(a)
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _e(text: object) -> str:
    return html.escape(str(text))


def _percent(share: Sequence[float]) -> str:
    value, low, high = share
    return f"{100 * value:.1f}% ({100 * low:.1f}-{100 * high:.1f}%)"


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _svg(figure: Any) -> str:
    """The figure as SVG text for the page: text kept as text, fixed ids and no date, so the
    same numbers draw the same bytes."""
    import matplotlib
    out = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "gdl"}):
        figure.savefig(out, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = out.getvalue()
    text = text[text.index("<svg"):]
    if "<metadata>" in text:        # who drew it, as RDF: nothing a reader needs
        text = text[:text.index("<metadata>")] + text[text.index("</metadata>") + 11:]
    return "<figure>" + text + "</figure>"


def _share_bars(figure_class: Any, labels: Sequence[str], shares: Sequence[Sequence[float]],
                fair: float | None, ylabel: str) -> str:
    """Bars of shares with their intervals as error bars, and a line at the fair share."""
    figure = figure_class(figsize=(6, 3))
    axes = figure.subplots()
    values = [s[0] for s in shares]
    errors = [[s[0] - s[1] for s in shares], [s[2] - s[0] for s in shares]]
    axes.bar(labels, values, yerr=errors, capsize=6, color="#4c72b0")
    if fair is not None:
        axes.axhline(fair, color="#c44e52", linestyle="--", label=f"equal share {fair:.1%}")
        axes.legend(loc="upper right")
    axes.set_ylim(0, 1)
    axes.set_ylabel(ylabel)
    return _svg(figure)


def _outcomes(a: dict[str, Any], figure_class: Any) -> list[str]:
    rows = [[f"{seat} won", a["wins"][seat]] for seat in a["seats"]]
    rows += [["draws", a["draws"]], ["capped (unfinished)", a["capped"]],
             ["games", a["games"]]]
    figure = figure_class(figsize=(6, 1.6))
    axes = figure.subplots()
    left = 0
    for label, count in rows[:-1]:
        axes.barh([0], [count], left=left, label=f"{label} ({count})")
        left += count
    axes.set_yticks([])
    axes.set_xlim(0, max(a["games"], 1))
    axes.set_xlabel("games")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.6), ncol=3, frameon=False)
    return ["<h2>Outcomes: wins, draws and caps</h2>", _table(["outcome", "games"], rows),
            _svg(figure)]


def _seat_section(a: dict[str, Any], figure_class: Any) -> list[str]:
    if not a["finished"]:       # no share of no games
        return ["<h2>Win share per seat</h2><p>No game finished: every one was capped, so "
                "there are no win shares (raise --max-turns or --max-decisions).</p>"]
    shares = [a["win_share"][seat] for seat in a["seats"]]
    rows = [[seat, a["wins"][seat], _percent(a["win_share"][seat])] for seat in a["seats"]]
    return ["<h2>Win share per seat</h2>",
            _table(["seat", "wins", "win share (95% interval)"], rows),
            _share_bars(figure_class, a["seats"], shares, a["fair_share"], "win share")]


def _first_section(a: dict[str, Any], figure_class: Any) -> list[str]:
    first = a["first"]
    if not first["games"]:
        return ["<h2>First-player advantage</h2><p>No finished game had a first player.</p>"]
    went_first = ", ".join(f"{seat} {n}" for seat, n in first["seats"].items())
    text = (f"<p>In {first['games']} finished games the seat that played first (by seat: "
            f"{_e(went_first)}) won {first['won']}: {_percent(first['share'])}, against "
            f"{_percent(first['later_share'])} for a seat that played later; shared "
            f"equally, the wins would give each seat {a['fair_share']:.1%}.</p>")
    return ["<h2>First-player advantage</h2>", text,
            _share_bars(figure_class, ["played first", "played later"],
                        [first["share"], first["later_share"]], a["fair_share"],
                        "win share")]


def _agent_section(a: dict[str, Any], figure_class: Any) -> list[str]:
    if not a["finished"]:
        return ["<h2>Results per agent</h2><p>No game finished.</p>"]
    agents = a["agents"]
    rows = [[name, v["seat_games"], v["wins"], _percent(v["share"])]
            for name, v in agents.items()]
    parts = ["<h2>Results per agent</h2>",
             _table(["agent", "seats played (finished games)", "wins",
                     "win share (95% interval)"], rows)]
    if len(agents) > 1:
        parts.append(_share_bars(figure_class, list(agents),
                                 [v["share"] for v in agents.values()], a["fair_share"],
                                 "win share"))
    return parts


def _length_section(a: dict[str, Any], records: Sequence[GameRecord],
                    figure_class: Any) -> list[str]:
    figure = figure_class(figsize=(6, 3))
    axes = figure.subplots()
    finished = [r.decisions for r in records if not r.capped]
    capped = [r.decisions for r in records if r.capped]
    low, high = a["decisions"]["min"], a["decisions"]["max"]
    bins = min(BINS, high - low + 1)
    axes.hist([finished, capped], bins=bins, range=(low - 0.5, high + 0.5), stacked=True,
              label=["finished", "capped"], color=["#4c72b0", "#dd8452"])
    axes.set_xlabel("decisions in the game")
    axes.set_ylabel("games")
    axes.legend(loc="upper right")
    rows = [[what, s["mean"], s["median"], s["min"], s["max"]]
            for what, s in (("decisions", a["decisions"]), ("turns", a["turns"]))]
    return ["<h2>Game length</h2>", _table(["per game", "mean", "median", "min", "max"], rows),
            _svg(figure)]


def _stat_section(a: dict[str, Any]) -> list[str]:
    if not a["stats"]:
        return []
    rows = []
    for name, summary in a["stats"].items():
        if "kind" in summary:
            rows.append([name, "", _stat_text(summary)])
        else:
            rows += [[name, seat, _stat_text(s)] for seat, s in summary.items()]
    return ["<h2>Statistics (the rule file's stat values at the end of each game)</h2>",
            _table(["stat", "seat", "over the games"], rows)]


def _returns_section(a: dict[str, Any]) -> list[str]:
    if "returns" not in a:
        return []
    rows = [[seat, _stat_text(summary)] for seat, summary in a["returns"].items()]
    return ["<h2>Returns (the rule file's payoff at the end of each finished game)</h2>",
            _table(["seat", "over the games"], rows)]


def _stat_text(summary: dict[str, Any]) -> str:
    kind = summary["kind"]
    if kind == "number":
        return (f"mean {summary['mean']}, median {summary['median']}, "
                f"{summary['min']} to {summary['max']}")
    if kind == "truth":
        return f"true in {summary['true']} of {summary['of']}: {_percent(summary['share'])}"
    if kind == "text":
        return ", ".join(f"{text} ({n})" for text, n in summary["common"]) + \
            f" of {summary['of']}"
    return "no value"
