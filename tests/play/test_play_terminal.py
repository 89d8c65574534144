"""`gdl play` on a real terminal (a pseudo-terminal of 100x40): one screen per decision,
pinned by golden renderings at a fixed seed; the hot-seat curtain; Ctrl-C.

Regenerate the screens after a deliberate change with `python -m tests.play.test_play_terminal`
and review the diff of tests/golden/screens/."""

import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time

import pytest

from tests.helpers import ROOT
SCREENS = os.path.join(ROOT, "tests", "golden", "screens")
CLEAR = "\x1b[H\x1b[2J\x1b[3J"

# game -> (players, seed, lines typed before the screen that is pinned)
GAMES = {
    "space_war": ("human", 3, ["station c2", "Fighter#5"]),
    "galaxy_of_d": ("human", 3, ["1", "1", "1", "1", "1", "1", "1", "8", "1"]),
    "game": ("human", 3, ["1"]),
    "galaxy_grid": ("human", 3, ["list Fire"]),
    "galaxy_aflame": ("human", 3, ["1"] * 12),
}
WAITS = ("> ", "look away)", "go back")


def play_in_terminal(args, typed, rows=40, columns=100, colour=False):
    """Run `gdl ARGS` on a pseudo-terminal of rows x columns, typing each line of `typed`
    when a prompt is waiting; returns (everything written, exit status). Without `colour`
    the terminal is told to show none (NO_COLOR), as the golden screens are plain text."""
    pid, fd = pty.fork()
    if pid == 0:
        # Ctrl-C interrupts, as at a person's terminal, even when this test runs where
        # SIGINT is ignored (a shell's background job): an ignored signal stays ignored
        # through exec, and Python then installs no KeyboardInterrupt
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        os.chdir(ROOT)
        # the terminal's own size, not the one COLUMNS and LINES may say
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("NO_COLOR", None)
        if not colour:
            env["NO_COLOR"] = "1"
        os.execve(sys.executable, [sys.executable, "-m", "gdl.cli.main", *args], env)
    out = b""
    pending = list(typed)
    deadline = time.time() + 60
    while time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
            continue
        text = out.decode("utf-8", "replace")
        if pending is not None and text.endswith(WAITS):
            if pending:
                line = pending.pop(0)
                os.write(fd, line if isinstance(line, bytes) else line.encode() + b"\n")
            else:
                pending = None
                os.write(fd, b"quit\n")
    for _ in range(100):        # its end, some seconds at most after its last words
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:               # still running: never left to hang the suite
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)
        pytest.fail("gdl was still running after 60 s; it wrote:\n"
                    + out.decode("utf-8", "replace"))
    os.close(fd)
    return out.decode("utf-8", "replace").replace("\r\n", "\n"), os.waitstatus_to_exitcode(status)


def last_screen(output):
    """The last screen drawn: after the last clear, up to its prompt."""
    screen = output.rsplit(CLEAR, 1)[-1]
    return screen[:screen.rfind("> ") + 2]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_screen_a_person_sees(name):
    players, seed, typed = GAMES[name]
    output, status = play_in_terminal(
        ["play", f"games/{name}.gdl", "--players", players, "--seed", str(seed)], typed)
    assert status == 0, output
    assert "Traceback" not in output
    screen = last_screen(output)
    lines = screen.split("\n")
    assert len(lines) <= 40 and max(len(line) for line in lines) <= 100, screen
    with open(os.path.join(SCREENS, f"{name}.txt"), encoding="utf-8") as handle:
        assert screen == handle.read()


def test_a_screen_has_no_empty_key_or_seat_lines():
    """Before the first mark tic-tac-toe has no piece to name in a key, and its seats no
    variables: the screen has neither line, not 'key:' or 'x:' with nothing after them."""
    output, status = play_in_terminal(["play", "games/classic/tic_tac_toe.gdl", "--players",
                                       "human,random", "--seed", "1"], [], rows=24, columns=80)
    assert status == 0, output
    lines = [line.rstrip() for line in last_screen(output).split("\n")]
    assert "  a  b  c" in "\n".join(lines)
    assert not [line for line in lines if line.endswith(":")], lines


def test_every_screen_fits_the_terminal():
    output, _ = play_in_terminal(["play", "games/galaxy_of_d.gdl", "--players", "human",
                                  "--seed", "5"], ["1"] * 40)
    for screen in output.split(CLEAR)[1:-1]:
        lines = screen[:screen.rfind("> ") + 2].split("\n")    # without what was typed
        assert len(lines) <= 40 and max(len(line) for line in lines) <= 100, screen


def test_a_refusal_or_help_leaves_the_screen_whole_on_a_short_terminal():
    """At 80x24 the board leaves a few lines: a refusal shares them with the actions, and
    help, longer, has a page of its own; the title and the board stay on every screen."""
    refusals = ["not accepted: 'e0' is not a cell, a piece or a word of a legal action",
                "not accepted: 'fly away' is not legal: there is no action 'fly' in phase "
                "'play';\n     actions here: move, fire, end, offer_draw"]
    output, status = play_in_terminal(
        ["play", "games/space_war.gdl", "--players", "human", "--seed", "3"],
        ["station c2", "e1 e0", "fly away", "help", ""], rows=24, columns=80)
    assert status == 0 and "Traceback" not in output
    screens = [s[:s.rfind("> ") + 2] for s in output.split(CLEAR)[1:] if "> " in s]
    for screen in screens:
        lines = screen.split("\n")
        assert len(lines) <= 24 and max(len(line) for line in lines) <= 80, screen
        assert lines[0].startswith("Space War - ") and " a  b  c " in lines[1], screen
    for refusal in refusals:
        assert any(screen.endswith(refusal + "\nblue> ") for screen in screens), refusal
    assert "press Enter to go back" in output.split("blue> help", 1)[1].split(CLEAR)[1]


def test_hot_seat_hides_the_screen_until_the_next_player_is_there():
    """Two people, a game with secret choices: the screen is cleared and waits before each
    seat's view, and one seat's secret choice shows to the other only as made."""
    output, status = play_in_terminal(
        ["play", "games/galaxy_of_d.gdl", "--players", "human,human", "--seed", "3"],
        ["", "3", ""])
    assert status == 0
    screens = output.split(CLEAR)
    assert screens[1].startswith("one to play: press Enter when one is at the screen")
    curtain = next(i for i, s in enumerate(screens) if s.startswith("two to play: press"))
    assert "throw scissors" in screens[curtain - 1]     # one's own screen, before the curtain
    two = screens[curtain + 1]
    assert "one: chooses in secret" in two and "one: throw" not in two


def test_a_concession_is_told_on_the_next_screen_and_saved(tmp_path):
    """Red concedes at its screen: yellow's screen tells it, with what it did, and yellow
    can save the game."""
    saved = tmp_path / "game.txt"
    output, status = play_in_terminal(
        ["play", "games/game.gdl", "--players", "human,human", "--seed", "3"],
        ["", "concede", "", f"save {saved}"])
    assert status == 0 and "Traceback" not in output
    screens = output.split(CLEAR)
    yellow = [s for s in screens if s.endswith("yellow> ") or "yellow> save" in s]
    assert yellow and "red concedes" in yellow[0] and "  out: red" in yellow[0]
    assert "saved 0 decisions and 1 concession to" in screens[-1]
    assert "concede: red" in saved.read_text().splitlines()


def test_a_game_without_turns_draws_nothing_outside_its_screens():
    """A game with no `turn` phase has no turn line for the logs; its start, an agent to
    decide first, is not printed as plain output before the first screen either (it was:
    the board, drawn above the screen that then cleared it)."""
    output, status = play_in_terminal(
        ["play", "games/classic/phantom_ttt.gdl", "--players", "random,human", "--seed", "1"],
        [], rows=24, columns=80)
    assert status == 0 and "Traceback" not in output
    assert output.startswith(CLEAR), output.split(CLEAR)[0]


def test_ctrl_c_leaves_cleanly_with_status_130():
    output, status = play_in_terminal(
        ["play", "games/space_war.gdl", "--players", "human", "--seed", "1"], [b"\x03"])
    assert status == 130
    assert output.rstrip().endswith("interrupted")
    assert "Traceback" not in output


def test_ctrl_c_tells_a_fresh_seed_as_quit_does():
    output, status = play_in_terminal(
        ["play", "games/space_war.gdl", "--players", "human"], [b"\x03"])
    assert status == 130 and "Traceback" not in output
    assert "the seed was " in output and "(replay: --seed " in output


def test_piped_output_stays_plain():
    import subprocess
    result = subprocess.run([sys.executable, "-m", "gdl.cli.main", "play", "games/space_war.gdl",
                             "--players", "human", "--seed", "3"], input="quit\n",
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert CLEAR not in result.stdout and "\x1b" not in result.stdout


def regenerate():
    os.makedirs(SCREENS, exist_ok=True)
    for name, (players, seed, typed) in sorted(GAMES.items()):
        output, _ = play_in_terminal(
            ["play", f"games/{name}.gdl", "--players", players, "--seed", str(seed)], typed)
        with open(os.path.join(SCREENS, f"{name}.txt"), "w", encoding="utf-8") as handle:
            handle.write(last_screen(output))
        print(f"wrote {name}.txt")


if __name__ == "__main__":
    regenerate()
