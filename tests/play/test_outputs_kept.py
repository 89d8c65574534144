"""Commands that write a file the user names never destroy a file the user made: `gdl
simulate --out`, `gdl report -o`, `gdl replay --html`, `gdl show --svg`, `gdl coverage
--annotate` and `gdl test --coverage --annotate` replace an existing file only when it is an
earlier output of the same kind (records, a page, a picture, annotated rule files: gdl's
marks on them, `cli/inputs.py` OUTPUTS), or with --force. A refusal names the file and the
way on, exits 2, and leaves the file byte for byte."""

import os

import pytest

from tests.helpers import ROOT, invoke

SPACE_WAR = os.path.join(ROOT, "games", "space_war.gdl")
TIC_TAC_TOE = os.path.join(ROOT, "games", "classic", "tic_tac_toe.gdl")
MINE = b"my own notes\nnot to be lost\n"


def _records(tmp_path):
    path = tmp_path / "games.jsonl"
    result = invoke("simulate", TIC_TAC_TOE, "--games", "2", "--out", str(path))
    assert result.exit_code == 0, result.output
    return path


def _transcript(tmp_path):
    path = tmp_path / "game.txt"
    result = invoke("record", TIC_TAC_TOE, "--players", "random,random", "--seed", "2",
                    "-o", str(path))
    assert result.exit_code == 0, result.output
    return path


def _scenario(tmp_path):
    path = tmp_path / "one.scenario"
    path.write_text(f"rules {TIC_TAC_TOE}\n\nreset\nplay mark a1\nexpect turn_number == 1\n",
                    encoding="utf-8")
    return path


# (the command's arguments before the output, the output option, the output's name)
CASES = {
    "simulate --out": (lambda tmp: ["simulate", TIC_TAC_TOE, "--games", "2"], "--out",
                       "out.jsonl"),
    "simulate --out csv": (lambda tmp: ["simulate", TIC_TAC_TOE, "--games", "2"], "--out",
                           "out.csv"),
    "report -o": (lambda tmp: ["report", str(_records(tmp))], "-o", "report.html"),
    "replay --html": (lambda tmp: ["replay", str(_transcript(tmp))], "--html", "page.html"),
    "show --svg": (lambda tmp: ["show", TIC_TAC_TOE], "--svg", "board.svg"),
    "coverage --annotate": (lambda tmp: ["coverage", TIC_TAC_TOE, "--games", "2"],
                            "--annotate", "annotated.txt"),
    "test --annotate": (lambda tmp: ["test", str(_scenario(tmp)), "--coverage"],
                        "--annotate", "annotated.txt"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_output_keeps_a_file_of_yours_and_replaces_its_own(tmp_path, case):
    make, option, name = CASES[case]
    before = make(tmp_path)
    if "report" in case:
        pytest.importorskip("matplotlib")
    out = tmp_path / name
    out.write_bytes(MINE)
    refused = invoke(*before, option, str(out))
    assert refused.exit_code == 2, refused.output
    assert f"{out} exists and is not" in refused.output
    assert "--force" in refused.output and "Traceback" not in refused.output
    assert out.read_bytes() == MINE                     # byte for byte
    forced = invoke(*before, option, str(out), "--force")
    assert forced.exit_code in (0, 1), forced.output    # (a failing scenario exits 1)
    written = out.read_bytes()
    assert written != MINE and written
    again = invoke(*before, option, str(out))           # its own earlier output: replaced
    assert again.exit_code in (0, 1), again.output
    assert out.read_bytes()


def test_an_empty_file_and_a_new_name_are_written(tmp_path):
    empty = tmp_path / "empty.svg"
    empty.write_bytes(b"")
    assert invoke("show", TIC_TAC_TOE, "--svg", str(empty)).exit_code == 0
    assert empty.read_text(encoding="utf-8").startswith("<svg")
    fresh = tmp_path / "fresh.svg"
    assert invoke("show", TIC_TAC_TOE, "--svg", str(fresh)).exit_code == 0
    assert fresh.is_file()


def test_another_kind_of_gdl_output_is_not_replaced(tmp_path):
    """A page is not a picture: `show --svg` over a replay page is refused as well."""
    page = tmp_path / "page.html"
    assert invoke("replay", str(_transcript(tmp_path)), "--html", str(page)).exit_code == 0
    kept = page.read_bytes()
    refused = invoke("show", TIC_TAC_TOE, "--svg", str(page))
    assert refused.exit_code == 2 and "is not a picture gdl drew" in refused.output
    assert page.read_bytes() == kept
