"""The `gdl` command: check, compile, play, simulate, record, replay, show, test, bench.

Thin by design: it parses arguments, prints and prompts; every rule lives in the
interpreter. Only `GdlError` is caught; it prints `FILE:LINE:COL: error: ...` and exits 1
(and a standard output that cannot be written, `Commands`).

Each command imports what it uses when it runs, so `gdl check` does not pay for agents,
simulation, transcripts or JSON (tests/test_startup.py keeps it so).
"""

from __future__ import annotations

import errno
import functools
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn, ParamSpec, TypeVar

import click

from gdl.cli.inputs import (FILE, MAX_SEED, RULE_FILE, RuleFilePath, Seconds,
                            check_transcript_seed, refuse_foreign, refuse_non_transcript,
                            refuse_overwrite, rules_of, save_refused, writable)
from gdl.interpreter.files import STDIO, named
from gdl.interpreter.language.errors import QUOTED_LINE, GdlError, counted, shortened, visible
from gdl.interpreter.language.limits import DEFAULT_MAX_DECISIONS

if TYPE_CHECKING:
    from types import FrameType

    from click.decorators import FC

    from gdl.interpreter.play.balance.simulate import Summary
    from gdl.interpreter.play.debug.coverage import Coverage

P = ParamSpec("P")
R = TypeVar("R")

# Options every command that plays shares: a seed is a 64-bit number (never reduced), counts
# and caps are positive.
SEED = click.IntRange(0, MAX_SEED)
POSITIVE = click.IntRange(min=1)
AGENTS_HELP = ("random, greedy (one ply on the rule file's 'show score') or mcts (tree search; "
               "parameters after colons: mcts:iterations=100:rollout=10:c=1.0, the defaults; "
               "docs/agents.md)")


# The largest cap (--max-turns, --max-decisions): more than any game reaches, and within
# the native engine's C integers (a larger one was an OverflowError there).
MAX_CAP = 10 ** 18


def _bounded_cap(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    if value is not None and value > MAX_CAP:
        shown = str(value) if len(str(value)) <= 30 else f"{str(value)[:20]}... " \
            f"({len(str(value))} digits)"
        raise click.BadParameter(f"{shown} is more than 10**18, which no game reaches: give "
                                 "a smaller cap, or leave the option out")
    return value


def max_turns_option(default: int | None = None) -> Callable[[FC], FC]:
    return click.option("--max-turns", type=POSITIVE, default=default,
                        show_default=default is not None, callback=_bounded_cap,
                        help="A game still running after this many turns is capped.")


max_decisions_option = click.option(
    "--max-decisions", type=POSITIVE, default=DEFAULT_MAX_DECISIONS, show_default=True,
    callback=_bounded_cap,
    help="A game still running after this many decisions is capped (a game whose turn "
    "counter never advances stops too).")


# Worker processes beyond twice the cores only wait for them, each paying its start-up.
CORES = os.cpu_count() or 1
MAX_WORKERS = 2 * CORES


def _bounded_workers(ctx: click.Context, param: click.Parameter,
                     value: int | None) -> int | None:
    if value is not None and value > MAX_WORKERS:
        raise click.BadParameter(
            f"{value} is more than twice this machine's {counted(CORES, 'core')}: "
            f"more processes only wait for the cores (give at most {MAX_WORKERS})")
    return value


def workers_option(help: str) -> Callable[[FC], FC]:
    return click.option("--workers", type=POSITIVE, default=None, callback=_bounded_workers,
                        help=f"{help} At most {MAX_WORKERS}, twice this machine's cores.")


ray_option = click.option(
    "--ray", "ray_address", is_flag=False, flag_value="local", default=None,
    metavar="[ADDRESS]", help="Play the games on a Ray cluster: its head's HOST:PORT, "
    "'auto', or ray://HOST:PORT; 'local' or nothing: a Ray instance on this machine (needs "
    "pip install -e '.[ray]'). The results do not depend on it.")


def _checked_players(ctx: click.Context, param: click.Parameter,
                     value: str | None) -> str | None:
    """--players: each a player type gdl has, its parameters in range, told as a usage
    error of the option (how many there may be is the command's to say, with the game)."""
    if value:
        from gdl.interpreter.play.agents.agents import parse_player
        for name in value.split(","):
            try:
                parse_player(name.strip())
            except GdlError as exc:
                raise click.BadParameter(exc.message) from None
    return value


def _set_backend(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:       # worker processes and every game the command loads see it
        os.environ["GDL_BACKEND"] = value


force_option = click.option(
    "--force", is_flag=True, help="Replace the output file even when it is not an earlier "
    "output of this command (a file of your own there would be lost).")


backend_option = click.option(
    "--backend", type=click.Choice(["auto", "native", "python"]), default=None,
    expose_value=False, callback=_set_backend,
    help="Run the rules as Python, or compiled to C (native; needs Cython and a C compiler; "
    "auto: native when they are present). Default: $GDL_BACKEND, else python.")


def told(line: str, *outputs: str | None) -> None:
    """A line of the command's own (a summary, what it wrote): on the standard output, or
    on the standard error when one of the files it writes, `outputs`, is the standard
    output ('-'), which then holds that file's text alone."""
    click.echo(line, err=STDIO in outputs)


def _names_as_bytes() -> None:
    """Print a path whose bytes are not UTF-8 (held as lone surrogates) as those bytes on
    both streams, as the standard output does in a UTF-8 locale and as `ls` shows it: the
    standard error would write 'n\\udcff.gdl'."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="surrogateescape")


def _warn(line: str) -> None:
    """A warning of the command's: on the standard error, after 'warning: '."""
    click.echo(f"warning: {line}", err=True)


def user_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """Turn a GdlError into its message on stderr and exit status 1."""
    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except GdlError as exc:
            click.echo(exc.render(), err=True)
            sys.exit(1)
    return wrapper


# Why a write fails when the disk under it is full or failing: on the standard output, the
# only file the commands write without `files.save` (which names the file it could not write).
_FULL = frozenset(getattr(errno, name) for name in ("ENOSPC", "EDQUOT", "EFBIG", "EIO")
                  if hasattr(errno, name))


class Commands(click.Group):
    """The `gdl` group: click's, where a standard output that cannot be written (a full
    disk, `> /dev/full`) is one message and exit status 1, not a traceback (and a second one
    as Python flushes the stream at exit). Click itself quiets a closed pipe."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        try:
            try:
                return super().main(*args, **kwargs)
            finally:
                # (None: closed, `>&-`; closed by the command, as `gdl lsp`'s server does)
                if sys.stdout is not None and not sys.stdout.closed:
                    sys.stdout.flush()      # what is left to write fails here, not at exit
        except OSError as exc:
            if exc.errno not in _FULL:
                raise
            try:    # what the stream still holds goes nowhere when Python flushes it at exit
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            except (OSError, ValueError):
                pass
            click.echo(f"error: cannot write the standard output: {exc.strerror}", err=True)
            sys.exit(1)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gdl", prog_name="gdl", message="%(prog)s %(version)s")
def main() -> None:
    """gdl: check, play, simulate, record and replay board games written in gdl.

    A file named '-' is the standard input (a file read) or output (a file written)."""
    _names_as_bytes()


@main.command()
@click.argument("files", nargs=-1, required=True, type=RuleFilePath(stdin=True))
@click.option("--strict", is_flag=True,
              help="Also report what is only likely wrong (warnings), and fail on any.")
def check(files: tuple[str, ...], strict: bool) -> None:
    """Parse and check rule files ('-': the standard input); one line per valid file."""
    from gdl.interpreter.language import lint
    from gdl.interpreter.loader import check_file, check_source, read_standard_input, summary
    failed = False
    for path in _rule_files(files):
        if isinstance(path, EmptyFolder):
            click.echo(path.message, err=True)
            failed = True
            continue
        try:
            if path == STDIO:
                text, path = read_standard_input()
                resolved = check_source(text, path)
            else:
                resolved = check_file(path)
        except GdlError as exc:
            click.echo(exc.render(), err=True)
            failed = True
            continue
        found = lint.warnings(resolved) if strict else []
        for warning in found:
            click.echo(warning.as_error().render(), err=True)
        if found:
            failed = True
            click.echo(f"{path}: {counted(len(found), 'warning')} (--strict)", err=True)
            continue
        if strict:
            _typed_notes(resolved)
        click.echo(visible(f"{path}: ok: {summary(resolved)}"))
    sys.exit(1 if failed else 0)


def _typed_notes(program: Any) -> None:
    """`check --strict`: a note (not a failure) for each construct that keeps the file off
    the typed native engine, so the native backend runs it untyped, several times slower.
    Imported only here: a plain check stays quick (tests/test_startup.py)."""
    import re

    from gdl.interpreter.runtime import typed
    if not typed.enabled():
        return
    for said in typed.outside_all(program):
        place = re.match(r"(.*?:\d+:\d+: )?(.*)", said, re.S)
        assert place is not None
        click.echo(visible(f"{place.group(1) or ''}note: {place.group(2)}: --backend native "
                           "runs this file untyped, several times slower ('gdl compile "
                           "--backend native' says more)"), err=True)


class EmptyFolder(NamedTuple):
    """A folder named on the command line that holds none of the files the command wants
    (`files`: what they are, e.g. 'rule files (*.gdl)')."""

    folder: str
    files: str = "rule files (*.gdl)"

    @property
    def message(self) -> str:
        return f"{self.folder}: error: no {self.files} in this folder"


def _rule_files(paths: Iterable[str]) -> Iterator[str | EmptyFolder]:
    """The files to check: each path, and for a folder every `*.gdl` under it (sorted), or
    an `EmptyFolder` for a folder that holds none."""
    for path in paths:
        if path == STDIO or not os.path.isdir(path):
            yield path
            continue
        found = _files_under(path, ".gdl")
        if not found:
            yield EmptyFolder(path)
        yield from found


def _files_under(folder: str, ending: str) -> list[str]:
    """Every file under `folder` whose name ends with `ending`, sorted: regular files only,
    as a pipe or a device there (a FIFO named `x.gdl`) would be read for ever."""
    return sorted(os.path.join(inside, name) for inside, _, names in os.walk(folder)
                  for name in names if name.endswith(ending)
                  and os.path.isfile(os.path.join(inside, name)))


@main.command("compile")
@click.argument("file", type=RuleFilePath(stdin=True))
@click.option("--backend", type=click.Choice(["python", "native"]), default="python",
              show_default=True, help="native: the source given to Cython.")
@user_errors
def compile_command(file: str, backend: str) -> None:
    """Print the Python that gdl generates for a rule file (what actually runs; '-': the
    standard input)."""
    from gdl.interpreter.loader import generated_python, read_standard_input
    text, file = read_standard_input() if file == STDIO else (None, file)
    click.echo(generated_python(file, backend, text), nl=False)


@main.command()
@click.argument("file", type=RULE_FILE, required=False)
@click.option("--seed", type=SEED, default=None, help="Seed of the game's dice (default: 0 "
              "when no seat is human; otherwise a fresh seed, told when the game ends).")
@click.option("--players", default=None, callback=_checked_players,
              help="Comma-separated, one per seat: human, " + AGENTS_HELP + "; seats not "
              "named are random, and a lone 'human' is you in the first seat against random "
              "ones (default: random; with --resume, the saved game's players).")
@click.option("--moves", type=FILE, help="Scripted decisions, played first: a file "
              "with one per line (action text or number), or a transcript (then its seed "
              "is the default).")
@click.option("--resume", type=FILE, help="Continue a game saved with 'save FILE' "
              "at a prompt (or any transcript of an unfinished game).")
@click.option("--save", type=FILE, help="Keep the game so far in this transcript: "
              "written before each human decision, at the end and on Ctrl-C (gdl play "
              "--resume FILE continues it; it holds the seed and everything hidden).")
@max_turns_option()
@max_decisions_option
@backend_option
@user_errors
def play(file: str | None, seed: int | None, players: str | None, moves: str | None,
         resume: str | None, save: str | None, max_turns: int | None,
         max_decisions: int) -> None:
    """Play a game in the terminal.

    On a terminal each decision is one screen; type 'help' at a prompt for the commands
    (narrowing a long list, undo, save, concede, quit). Ctrl-C leaves (exit 130); with
    --save FILE the game so far is in FILE."""
    from gdl.cli.playthrough import run_play
    if file is None and resume is None:
        raise click.UsageError("give a rule file (or --resume TRANSCRIPT)")
    if moves == resume == STDIO:
        raise click.UsageError("--moves and --resume cannot both read the standard input "
                               "('-'): give one of them as a file")
    for transcript in (resume, moves):
        if transcript is not None:
            check_transcript_seed(transcript)
    try:
        status = run_play(file, seed, players, moves, max_turns, max_decisions, resume,
                          keep=save)
    except KeyboardInterrupt:
        click.echo("\ninterrupted", err=True)
        sys.exit(130)
    sys.exit(status)


@main.command()
@click.argument("file", type=RULE_FILE)
@click.option("--seats", default=None, help="Who plays each seat: SEAT=PLAYER, comma-separated;"
              " a player is human or " + AGENTS_HELP + "; seats not named are random "
              "(default: the first seat human, the others random).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: every network of this machine).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="0: any free port.")
@click.option("--seed", type=SEED, default=None, help="Seed of the game's dice (default: a "
              "fresh one when a seat is human, else 0).")
@click.option("--pace", type=Seconds(0, 60), default=0.5, show_default=True,
              help="Seconds an agent waits before each decision, so people can follow.")
@click.option("--save", type=FILE, help="A transcript of the game so far, rewritten "
              "after every decision (gdl play --resume FILE continues it; it holds the seed "
              "and everything hidden); game N of several: FILE with -N before its extension.")
@click.option("--games", type=click.IntRange(1, 200), default=1, show_default=True,
              help="Games to start (game N's seed: --seed plus N-1); the lobby URL starts "
              "more.")
@click.option("--resume", type=FILE, help="Go on with a game saved as a transcript "
              "(gdl serve --save, gdl play's save, gdl record), with its seed and players "
              "(--seats replaces them).")
@backend_option
@user_errors
def serve(file: str, seats: str | None, host: str, port: int, seed: int | None,
          pace: float, save: str | None, games: int, resume: str | None) -> None:
    """Serve a game to browsers: a page per human seat and one for a spectator.

    Prints one secret URL per human seat and one for the spectator of each game, and the
    lobby's (the games, and a new one); each browser receives only its own seat's view.
    Needs the extra: pip install -e '.[serve]'. Ctrl-C stops."""
    try:
        from gdl.interpreter.play.serve.app import serve_file
    except ModuleNotFoundError as exc:
        if exc.name not in ("starlette", "uvicorn"):
            raise
        raise GdlError("gdl serve needs Starlette and uvicorn: from a clone, pip install -e "
                       "'.[serve]'") from None
    from gdl.interpreter.play.serve.app import saved_as
    if save == STDIO:
        # Not the standard output, written once when the server stops: a server killed,
        # or a machine that goes down, would lose the game, which --save is there to keep.
        raise click.BadParameter("the standard output ('-') cannot hold a saved game: --save "
                                 "writes the game again after every decision, so that it "
                                 "outlives the server, and game N to FILE-N; the standard "
                                 "output holds the URLs. Give a file, or save a game from "
                                 "the lobby's 'save' link", param_hint="'--save'")
    for number in range(1, games + 1):
        refuse_overwrite("--save", saved_as(save, number), ("rule file", file))
    for number in range(1, games + 1):
        refuse_non_transcript("--save", saved_as(save, number))
    if resume is not None:
        check_transcript_seed(resume)
    serve_file(file, seats, host, port, seed, pace, say=click.echo, save=save, games=games,
               resume=resume, refused=lambda path: save_refused(path, ("rule file", file)))


@main.command()
@click.argument("file", type=RULE_FILE)
@click.option("--games", type=POSITIVE, default=100, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Game i uses seed + i.")
@click.option("--players", default="random", show_default=True, callback=_checked_players,
              help="Comma-separated, one per seat: " + AGENTS_HELP + "; one name stands for "
              "every seat, seats not named are random.")
@max_turns_option(1000)
@max_decisions_option
@workers_option("Worker processes (default: one per idle core); 1 plays in this process; a "
                "run too short to gain from them starts none. The results do not depend on "
                "it.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--out", type=FILE, help="Also write one record per game (seed, "
              "players, winners, length, scores, stats) to this .jsonl or .csv file ('-': "
              "JSON Lines on the standard output, the summary on the standard error).")
@click.option("--check", is_flag=True, help="Check the rule file's invariants after every "
              "decision; the first that does not hold is an error naming the decision.")
@ray_option
@backend_option
@force_option
@user_errors
def simulate(file: str, games: int, seed: int, players: str, max_turns: int,
             max_decisions: int, workers: int | None, as_json: bool, out: str | None,
             check: bool, ray_address: str | None, force: bool) -> None:
    """Play many games with agents and summarise the results.

    Ctrl-C stops the run and prints the summary of the games finished so far (exit 130)."""
    from gdl.interpreter import load_game
    from gdl.interpreter.play.balance.simulate import simulate as run
    last_seeds(seed, games)
    refuse_overwrite("--out", out, ("rule file", file))
    refuse_foreign("--out", out, "records", force)
    if out is not None:
        from gdl.interpreter.play.balance.game_records import check_out_path
        check_out_path(out)
        writable(out)                               # before the games, not after them
    if ray_address is not None:
        from gdl.interpreter.play.balance.cluster import import_ray
        import_ray(ray_address)
    from gdl.interpreter.play.balance.simulate import default_workers
    game = load_game(file)
    run_games = functools.partial(run, game, games, seed, players, max_turns,
                                  workers=workers or default_workers(ray_address), path=file,
                                  max_decisions=max_decisions, ray=ray_address, check=check)
    if not as_json and sys.stderr.isatty():
        with click.progressbar(length=games, label="simulating", file=sys.stderr) as bar:
            summary, records = run_games(progress=bar.update)
    else:
        summary, records = run_games()
    if out is not None:
        from gdl.interpreter.play.balance.game_records import write_records
        write_records(out, records)
    if as_json:
        import json
        told(json.dumps(summary.to_json(), sort_keys=True), out)
    else:
        print_summary(summary, games, seed, out)
        if out is not None and out != STDIO:
            click.echo(f"  wrote {counted(len(records), 'record')} to {out}")
    if summary.interrupted:
        sys.exit(130)


def last_seeds(seed: int, games: int) -> None:
    """Game i of a run plays seed + i: the last one must be a seed too."""
    if seed + games - 1 > MAX_SEED:
        raise click.BadParameter(f"the last game would play seed {seed + games - 1}, more "
                                 f"than {MAX_SEED}", param_hint="'--seed' and '--games'")


def print_summary(summary: Summary, games: int, seed: int,
                  out: str | None = None) -> None:
    """The summary of a run; on the standard error when the records go to the standard
    output (`out` '-')."""
    def say(line: str) -> None:
        told(line, out)
    played = (f"interrupted after {summary.games} of {counted(games, 'game')}"
              if summary.interrupted else counted(games, "game"))
    say(f"{summary.game}: {played} from seed {seed}")
    say(f"  finished {summary.finished}, capped {summary.capped} "
        f"(at {counted(summary.max_turns, 'turn')} or "
        f"{counted(summary.max_decisions, 'decision')}), "
        f"draws {summary.draws}")
    for seat, wins in summary.wins.items():
        share, low, high = summary.win_share[seat]
        if not summary.finished:        # no share of no games: nothing to estimate
            say(f"  {seat} won {wins} (no game finished)")
            continue
        say(f"  {seat} won {wins} ({100 * share:.1f}% of finished games, 95% interval "
            f"{100 * low:.1f}-{100 * high:.1f}%)")
    if summary.mean_returns is not None:
        say("  mean return (payoff) of finished games: " + ", ".join(
            f"{seat} {value:+g}" for seat, value in summary.mean_returns.items()))
    say(f"  {summary.mean_decisions} decisions and {summary.mean_turns} turns a "
        f"game on average (turns {summary.min_turns} to "
        f"{summary.max_turns_played}), {counted(summary.decisions, 'decision')} in all")
    workers = summary.workers
    where = f" on Ray ({summary.ray})" if summary.ray else ""
    say(f"  {summary.seconds} s with {counted(workers, 'worker')}"
        f"{where}: "
        f"{summary.games_per_second} games/s, "
        f"{summary.decisions_per_second} decisions/s")


@main.command()
@click.argument("base", type=RULE_FILE)
@click.argument("variant", type=RULE_FILE)
@click.option("--games", type=POSITIVE, default=400, show_default=True,
              help="Games of each file.")
@click.option("--seed", type=SEED, default=0, show_default=True,
              help="Game i of each file uses seed + i.")
@click.option("--players", default="random", show_default=True,
              callback=_checked_players)
@max_turns_option(1000)
@max_decisions_option
@workers_option("Worker processes (default: one per idle core).")
@ray_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@backend_option
@user_errors
def compare(base: str, variant: str, games: int, seed: int, players: str, max_turns: int,
            max_decisions: int, workers: int | None, ray_address: str | None,
            as_json: bool) -> None:
    """Do two rule files differ in balance? Plays both with the same seeds and players.

    Per seat: the win share in each (of finished games) and the difference with its 95%
    interval; the verdict line says whether some seat's share differs."""
    from gdl.interpreter import load_game
    from gdl.interpreter.play.balance.compare import compare as run
    from gdl.interpreter.play.balance.simulate import default_workers
    last_seeds(seed, games)
    if ray_address is not None:
        from gdl.interpreter.play.balance.cluster import import_ray
        import_ray(ray_address)
    result = run((load_game(base), base), (load_game(variant), variant), games, seed, players,
                 max_turns=max_turns,

                 max_decisions=max_decisions, workers=workers or default_workers(ray_address),
                 ray=ray_address)
    if as_json:
        import json
        click.echo(json.dumps(result, sort_keys=True))
    else:
        print_comparison(result)
    if result["interrupted"]:
        sys.exit(130)


def print_comparison(result: dict[str, Any]) -> None:
    def share(value: Sequence[float]) -> str:
        return f"{100 * value[0]:5.1f}% ({100 * value[1]:.1f}-{100 * value[2]:.1f})"
    games = counted(result["games"], "game")
    if result["interrupted"]:
        base, variant = (result["finished"][n] + result["capped"][n] for n in ("base", "variant"))
        games = f"interrupted after {base} and {variant} of {games}"
    click.echo(f"{result['base']} against {result['variant']}: {games} each "
               f"from seed {result['seed']}, players {result['players']}")
    click.echo(f"  {'seat':10} {'base win share':22} {'variant win share':22} "
               "difference (95% interval)")
    for seat, s in result["seats"].items():
        d, low, high = (100 * v for v in s["difference"])
        click.echo(f"  {seat:10} {share(s['base']):22} {share(s['variant']):22} "
                   f"{d:+.1f} points ({low:+.1f} to {high:+.1f})"
                   f"{'  differs' if s['differs'] else ''}")
    click.echo(f"  {'draws':10} {share(result['draws']['base']):22} "
               f"{share(result['draws']['variant'])}")
    click.echo(f"  finished {result['finished']['base']} and {result['finished']['variant']}, "
               f"capped {result['capped']['base']} and {result['capped']['variant']}; "
               f"{result['mean_decisions']['base']} and "
               f"{result['mean_decisions']['variant']} decisions a game")
    for name, returns in result.get("mean_returns", {}).items():
        click.echo(f"  mean return (payoff) in {name}: " + ", ".join(
            f"{seat} {value:+g}" for seat, value in returns.items()))
    from gdl.interpreter.play.balance.compare import verdict
    click.echo(verdict(result))


@main.command()
@click.argument("records", type=FILE)
@click.option("-o", "--output", type=FILE, required=True,
              help="The page to write (one self-contained HTML file; '-': the standard "
              "output).")
@force_option
@user_errors
def report(records: str, output: str, force: bool) -> None:
    """Write a balance report of simulated games: 'gdl simulate ... --out RECORDS.jsonl'
    ('-': the standard input).

    Win share per seat, outcomes (draws, caps), first-player advantage, results per agent,
    game lengths and the rule file's stats, with plots (needs pip install -e '.[report]')."""
    refuse_overwrite("--output", output, ("records file", records))
    refuse_foreign("--output", output, "page", force)
    from gdl.interpreter.play.balance.report import write_report
    analysis = write_report(records, output)
    told(f"wrote {named(output, written=True)}: {analysis['game']}, "
         f"{counted(analysis['games'], 'game')}", output)


@main.command()
@click.argument("file", type=RULE_FILE)
@click.option("--seed", type=SEED, default=0, show_default=True)
@click.option("--players", default="random", show_default=True, callback=_checked_players,
              help="Comma-separated, one per seat: " + AGENTS_HELP + ".")
@max_turns_option()
@max_decisions_option
@click.option("-o", "--output", type=FILE, help="Transcript file (default, and '-': "
              "the standard output).")
@backend_option
@user_errors
def record(file: str, seed: int, players: str, max_turns: int | None, max_decisions: int,
           output: str | None) -> None:
    """Play a game with agents and write its transcript.

    Ctrl-C writes the game so far, ending 'unfinished:' (gdl play --resume goes on), and
    exits 130."""
    refuse_overwrite("--output", output, ("rule file", file))
    refuse_non_transcript("--output", output)     # as a save: not a file of the person's
    writable(output or STDIO)                       # before the game, not after it
    import signal

    def terminated(signum: int, frame: FrameType | None) -> NoReturn:
        # a polite kill (SIGTERM) unwinds, so a transcript being written is removed
        # rather than left half-made beside the real one
        raise SystemExit(128 + signum)
    signal.signal(signal.SIGTERM, terminated)
    from gdl.interpreter import load_game
    from gdl.interpreter.play.agents.agents import make_agents
    from gdl.interpreter.play.transcript import Interrupted, record as write
    game = load_game(file)
    agents = make_agents(players, len(game.seats), seed)
    if "human" in agents:
        raise GdlError("record plays agents only; use 'gdl play' for humans")
    names = [a.name for a in agents]
    output = None if output == STDIO else output
    try:
        text = write(game, file, seed, agents, names, output, max_turns, max_decisions)
    except KeyboardInterrupt as stop:
        if not (isinstance(stop, Interrupted) and stop.text):
            # a second Ctrl-C, while the game so far was being written: nothing was
            click.echo("\ninterrupted", err=True)
            sys.exit(130)
        if not output:
            click.echo(stop.text, nl=False)
        where = f"wrote {output}" if output else "wrote it to the standard output"
        click.echo(f"\ninterrupted after {counted(stop.decisions, 'decision')}: {where}, "
                   f"the game so far (gdl play --resume {output or 'FILE'} goes on)", err=True)
        sys.exit(130)
    if output:
        click.echo(f"wrote {output}")
    else:
        click.echo(text, nl=False)


@main.command()
@click.argument("transcript", type=FILE)
@click.option("--html", "html_path", type=FILE, help="Also write a page that shows "
              "the game step by step in a browser (one self-contained file; '-': the "
              "standard output).")
@click.option("--seat", help="With --html: the page shows only what this seat saw (default: "
              "every view, the full one and each seat's, to choose from).")
@force_option
@user_errors
def replay(transcript: str, html_path: str | None, seat: str | None, force: bool) -> None:
    """Re-run a transcript ('-': the standard input); exit 1 at the first step that
    differs."""
    check_transcript_seed(transcript)
    name = named(transcript)
    if html_path is None:
        if seat is not None:
            raise click.UsageError("--seat is for the page: give --html OUT.html too")
        from gdl.interpreter.play.transcript import read_transcript, replay as run
        steps = run(transcript)
        if read_transcript(transcript).ending == "unfinished":     # a save: it goes on
            click.echo(f"{name}: ok: the game is unfinished after "
                       f"{counted(steps, 'decision')}, replayed identically ('gdl play "
                       "--resume' goes on from there)")
        else:
            verb = "replays" if steps == 1 else "replay"
            click.echo(f"{name}: ok: {counted(steps, 'decision')} {verb} identically")
        return
    from gdl.interpreter.play.render.replay_page import write_page
    refuse_overwrite("--html", html_path, ("transcript", transcript),
                     ("rule file of the transcript", rules_of(transcript)))
    refuse_foreign("--html", html_path, "page", force)
    steps = write_page(transcript, html_path, seat)
    told(f"{name}: ok: wrote {named(html_path, written=True)} ({counted(steps, 'step')}"
         f"{', as ' + seat + ' saw them' if seat else ''})", html_path)


@main.command()
@click.argument("file", type=RULE_FILE)
@click.option("--seed", type=SEED, default=None, help="The seed (default: the seed of a "
              "transcript given as --moves, else 0).")
@click.option("--moves", type=FILE, help="A file of decisions to play first, one per "
              "line (action text or number), or a transcript, as 'gdl play --moves' reads "
              "them.")
@click.option("--seat", help="Draw what this seat sees (default: everything).")
@click.option("--svg", "svg_path", type=FILE,
              help="Write the picture to this SVG file ('-': the standard output; default: "
              "print the text drawing).")
@force_option
@user_errors
def show(file: str, seed: int | None, moves: str | None, seat: str | None,
         svg_path: str | None, force: bool) -> None:
    """Draw one position: the setup of a game, or where the --moves lead."""
    refuse_overwrite("--svg", svg_path, ("rule file", file), ("moves file", moves))
    refuse_foreign("--svg", svg_path, "picture", force)
    from gdl.interpreter import load_game
    from gdl.interpreter.play.playing import play_moves, viewer_of
    from gdl.interpreter.play.transcript import read_script
    game = load_game(file)
    viewer = viewer_of(game, seat)
    script, script_seed = read_script(moves, game, warn=_warn) if moves else ([], None)
    state = game.new_state(seed if seed is not None else script_seed or 0)
    if moves:
        play_moves(game, state, script, named(moves), as_seat=script_seed is None)
    view = game.view(state, viewer)
    if svg_path is None:
        from gdl.interpreter.runtime.view import render
        click.echo(render(game, view))
        return
    from gdl.interpreter.play.render.pictures import picture
    from gdl.interpreter.files import save
    save(svg_path, picture(game, view))
    told(f"wrote {named(svg_path, written=True)}", svg_path)


@main.command("test")
@click.argument("paths", nargs=-1, required=True, type=FILE)
@click.option("--coverage", "with_coverage", is_flag=True, help="Also report which rules of "
              "the rule files the scenarios exercised (as 'gdl coverage' does for games).")
@click.option("--annotate", type=FILE, help="With --coverage: write the rule files "
              "line by line, each with how often it ran ('!': never), to this file ('-': "
              "stdout).")
@force_option
@user_errors
def test_command(paths: tuple[str, ...], with_coverage: bool, annotate: str | None,
                 force: bool) -> None:
    """Run scenario files (folders are searched for *.scenario; '-': the standard input)."""
    from gdl.interpreter.play.scenarios.runner import Outcome, run_scenarios
    if annotate and not with_coverage:
        raise click.UsageError("--annotate is for the coverage report: give --coverage too")
    files: list[str] = []
    empty = []
    for path in paths:
        if path != STDIO and os.path.isdir(path):
            found = _files_under(path, ".scenario")
            if not found:
                empty.append(EmptyFolder(path, "scenario files (*.scenario)"))
            files.extend(found)
        else:
            files.append(path)
    refuse_overwrite("--annotate", annotate, *(("scenario file", path) for path in files))
    refuse_foreign("--annotate", annotate, "annotated", force)
    writable(annotate)
    for folder in empty:
        click.echo(folder.message, err=True)

    def outcomes_of(path: str) -> list[Outcome]:
        try:
            outcomes: list[Outcome] = run_scenarios(path)
            return outcomes
        except GdlError as exc:
            return [Outcome(named(path), 1, (exc.render(),))]
    report = None
    if with_coverage:
        from gdl.interpreter.play.debug.coverage import scenario_coverage
        report, results = scenario_coverage(files, outcomes_of)
    else:
        results = [outcomes_of(path) for path in files]
    passed = failed = 0     # scenarios: a file holds one more for each `reset` line
    for outcomes in results:
        for outcome in outcomes:
            failed += bool(outcome.failures)
            passed += not outcome.failures
            for failure in outcome.failures:
                click.echo(failure, err=True)
    told(f"{passed} passed, {failed} failed", annotate)
    if report is not None:
        write_coverage(report, annotate)
    sys.exit(1 if failed or empty or not files else 0)


@main.command()
@click.argument("files", nargs=-1, type=RULE_FILE)
@click.option("--games", type=POSITIVE, default=200, show_default=True)
@click.option("--seed", type=SEED, default=1, show_default=True)
@max_turns_option(1000)
@max_decisions_option
@backend_option
@user_errors
def bench(files: Sequence[str], games: int, seed: int, max_turns: int,
          max_decisions: int) -> None:
    """Benchmark: load time and random-play decisions per second, per game (no FILES:
    games/*.gdl of the current folder)."""
    import glob
    from gdl.interpreter.play.balance.simulate import benchmark
    last_seeds(seed, games)
    files = files or sorted(glob.glob("games/*.gdl"))
    if not files:
        raise click.UsageError("no rule file to benchmark: name the rule files (without any, "
                               "gdl bench runs games/*.gdl of the current folder, and there "
                               "is none here)")
    click.echo(f"{'file':34} {'load ms':>8} {'games':>6} {'decisions':>10} {'decisions/s':>12}")
    for path in files:
        row = benchmark(path, games, seed, max_turns, max_decisions)
        click.echo(f"{path:34} {row['parse_check_ms']:>8} {row['games']:>6} "
                   f"{row['decisions']:>10} {row['decisions_per_second']:>12}")



@main.command("fmt")
@click.argument("paths", nargs=-1, required=True, type=FILE)
@click.option("--check", is_flag=True, help="Change nothing; list the files that would "
              "change and exit 1 if there are any.")
@click.option("--diff", "show_diff", is_flag=True, help="Change nothing; print what would "
              "change as a unified diff.")
def fmt_command(paths: tuple[str, ...], check: bool, show_diff: bool) -> None:
    """Lay rule files out in the one canonical layout (folders: every *.gdl under them;
    - reads the standard input and writes the standard output)."""
    from gdl.interpreter.tools.fmt import format_files
    files: list[str] = []
    for path in _rule_files(paths):
        if isinstance(path, EmptyFolder):
            click.echo(path.message, err=True)
            sys.exit(1)
        files.append(path)
    ok = format_files(files, check, show_diff, say=click.echo,
                      warn=functools.partial(click.echo, err=True))
    sys.exit(0 if ok else 1)


@main.command("lsp")
@user_errors
def lsp_command() -> None:
    """Run the language server on stdin/stdout (for an editor; needs the lsp extra)."""
    from gdl.interpreter.tools.lsp import serve
    serve()


@main.command()
@click.argument("file", type=FILE)
@click.argument("action", nargs=-1)
@click.option("--seed", type=SEED, default=None, help="With a rule file: the seed (default: "
              "the seed of a transcript given as --moves, else 0).")
@click.option("--moves", type=FILE, help="With a rule file: decisions to play first, "
              "one per line, or a transcript, as 'gdl play --moves' reads them.")
@click.option("--step", type=POSITIVE, help="With a transcript: the position before its "
              "decision K.")
@click.option("--seat", help="Explain as this seat sees it: its own decisions only, hidden "
              "pieces as '?', nothing of the dice to come or of other seats' secrets.")
@click.option("--legal", "list_legal", is_flag=True, help="List the legal actions, grouped "
              "by action, instead of explaining one.")
@user_errors
def explain(file: str, action: tuple[str, ...], seed: int | None, moves: str | None,
            step: int | None, seat: str | None, list_legal: bool) -> None:
    """Say why ACTION is legal or not at a position, and what playing it would do.

    The position: a rule file after --moves from --seed, or a transcript at --step."""
    from gdl.interpreter.language.errors import IllegalAction
    from gdl.interpreter.play.debug import explain as tool
    if not action and not list_legal:
        raise click.UsageError("give an action to explain as --legal lists it (its name, "
                               "then its arguments: 'ACTION PIECE CELL'), or --legal")
    if action and list_legal:
        raise click.UsageError("give either an action or --legal, not both")
    if seed is not None and tool.is_transcript(file):
        raise click.UsageError("a transcript has its own seed: give --step, not --seed")
    check_transcript_seed(file)
    game, state, where = tool.position(file, seed, moves, step, seat, warn=_warn)
    viewer = tool.viewer_of(game, seat)
    lines = tool.heading(game, state, where, viewer)
    try:
        lines += tool.legal_lines(game, state, viewer) if list_legal else \
            tool.explain(game, state, " ".join(action), viewer)
    except IllegalAction as exc:
        typed = shortened(" ".join(action), QUOTED_LINE)   # thousands of characters, maybe
        raise GdlError(f"'{typed}' is not an action here: {exc.message}") from None
    click.echo("\n".join(lines))



@main.command()
@click.argument("file", type=RULE_FILE)
@click.option("--games", type=POSITIVE, default=20, show_default=True)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Game i uses seed + i.")
@click.option("--players", default="random", show_default=True,
              callback=_checked_players)
@max_turns_option(1000)
@max_decisions_option
@click.option("--annotate", type=FILE, help="Write the rule files line by line, "
              "each with how often it ran ('!': never), to this file ('-': stdout).")
@force_option
@user_errors
def coverage(file: str, games: int, seed: int, players: str, max_turns: int,
             max_decisions: int, annotate: str | None, force: bool) -> None:
    """Play games with agents and report which rules they never exercised."""
    from gdl.interpreter.play.debug.coverage import games_coverage
    last_seeds(seed, games)
    refuse_overwrite("--annotate", annotate, ("rule file", file))
    refuse_foreign("--annotate", annotate, "annotated", force)
    writable(annotate)
    report = games_coverage(file, games, seed, players, max_turns, max_decisions)
    write_coverage(report, annotate)


def write_coverage(report: Coverage, annotate: str | None) -> None:
    """The summary on stdout; the annotated rule files to a file, or to the standard output
    ('-'), the summary then on the standard error."""
    refuse_overwrite("--annotate", annotate, *(("rule file", path) for path in report.files))
    for line in report.summary():
        told(line, annotate)
    if annotate:
        from gdl.interpreter.files import save
        save(annotate, "\n".join(report.annotated()) + "\n")
        told(f"wrote {named(annotate, written=True)}", annotate)


if __name__ == "__main__":
    main()
