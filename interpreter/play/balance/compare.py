"""Compare the balance of two rule files (a base and a variant of it).

`compare(base, variant, games, seed, spec, ...)` simulates both with the same seeds (game i
plays seed `seed + i` in each) and the same agents, and returns, per seat, the win share in
each (of finished games, with its 95% Wilson interval) and the difference variant - base
with its 95% interval (Newcombe's hybrid score interval, built from the two Wilson
intervals: sound for shares near 0 or 1 and for few games, where the plain normal
interval is not). A seat's shares differ when the interval of the difference leaves out 0
(and each run finished a game). When either rule
file declares a `payoff(s)`, `mean_returns` gives each run's mean return per seat too.

The two runs are taken as independent samples: the same seed under different rules soon
plays a different game, so pairing games by seed would claim a precision it does not have.
With several seats each interval holds at 95% on its own, not all of them together.

Ctrl-C stops the run being played (its summary covers the games played so far); a base
stopped so leaves the variant unplayed, and the result says `interrupted`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...language.errors import GdlDataError
from ..agents.agents import make_agents
from .simulate import Summary, simulate, wilson, wilson_exact

if TYPE_CHECKING:
    from ...runtime.engine import Game


def compare(base: tuple[Game, str], variant: tuple[Game, str], games: int, seed: int = 0,
            spec: str = "random", **options: Any) -> dict[str, Any]:
    """`base`, `variant`: (game, path). `options` go to `simulate` (max_turns, workers,
    max_decisions, ray, progress). Returns the comparison as plain data (what
    `gdl compare --json` prints)."""
    (base_game, base_path), (variant_game, variant_path) = base, variant
    if base_game.seats != variant_game.seats:
        raise GdlDataError(f"{variant_path} has seats {', '.join(variant_game.seats)} but "
                           f"{base_path} has {', '.join(base_game.seats)}: compare plays the "
                           "same seats in both")
    if "human" in make_agents(spec, len(base_game.seats), seed):
        raise GdlDataError("compare plays agents only; use 'gdl play' for humans")
    runs: dict[str, Summary] = {}
    for name, game, path in (("base", base_game, base_path),
                             ("variant", variant_game, variant_path)):
        if any(run.interrupted for run in runs.values()):
            # Ctrl-C stopped the base: the variant is not played (no games, no cluster)
            runs[name], _ = simulate(game, 0, seed, spec, path=path, **{**options, "ray": None})
        else:
            runs[name], _ = simulate(game, games, seed, spec, path=path, **options)
    seats: dict[str, dict[str, Any]] = {}
    for seat in base_game.seats:
        one, two = (wilson_exact(runs[n].wins[seat], runs[n].finished)
                    for n in ("base", "variant"))
        low, high = newcombe(one, two)
        seats[seat] = {"base": runs["base"].win_share[seat],
                       "variant": runs["variant"].win_share[seat],
                       "difference": [round(two[0] - one[0], 3), round(low, 3),
                                      round(high, 3)],
                       "differs": bool(runs["base"].finished and runs["variant"].finished)
                       and (low > 0 or high < 0)}
    payoffs = {n: run.mean_returns for n, run in runs.items()
               if run.mean_returns is not None}
    return {"base": base_path, "variant": variant_path, "games": games, "seed": seed,
            "players": spec, "seats": seats,
            **({"mean_returns": payoffs} if payoffs else {}),
            "draws": {n: wilson(run.draws, run.finished) for n, run in runs.items()},
            "capped": {n: run.capped for n, run in runs.items()},
            "finished": {n: run.finished for n, run in runs.items()},
            "mean_decisions": {n: run.mean_decisions for n, run in runs.items()},
            "interrupted": any(run.interrupted for run in runs.values()),
            "differs": any(s["differs"] for s in seats.values())}


def newcombe(one: tuple[float, float, float],
             two: tuple[float, float, float]) -> tuple[float, float]:
    """The 95% interval of share two - share one, from each share's Wilson interval
    (share, low, high): Newcombe (1998), method 10."""
    p1, low1, high1 = one
    p2, low2, high2 = two
    difference = p2 - p1
    return (difference - ((p2 - low2) ** 2 + (high1 - p1) ** 2) ** 0.5,
            difference + ((high2 - p2) ** 2 + (p1 - low1) ** 2) ** 0.5)


def verdict(result: dict[str, Any]) -> str:
    """The one line a designer reads first."""
    unfinished = [name for name in ("base", "variant") if not result["finished"][name]]
    if unfinished:      # no share of no games: nothing to tell apart
        why = "interrupted" if result["interrupted"] else "raise --max-turns or --max-decisions"
        return (f"verdict: nothing to compare: no game of the {' and the '.join(unfinished)} "
                f"finished ({why})")
    moved = [f"{seat} {100 * s['difference'][0]:+.1f} points" for seat, s in
             result["seats"].items() if s["differs"]]
    if moved:
        return (f"verdict: the win shares differ ({', '.join(moved)}; 95% intervals of the "
                "difference leave out 0)")
    return ("verdict: no significant difference in win shares (every seat's 95% interval "
            "of the difference holds 0)")
