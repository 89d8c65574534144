"""Each shipped game's picture as a player sees it: the golden pictures of tests/golden/svg/
(one per game, scripts/regenerate_golden.py) drawn by headless Chromium and read back as
pixels. Every seat's colour (its `show colour`, or a cell it holds, tinted) covers more
than its swatch in the key would, the picture is drawn at its own size, and docs/ holds its
screenshot (scripts/regenerate_screenshots.py). Skipped without Chromium, as
test_replay_browser.py is."""

import io
import os
import re

import pytest
from PIL import Image

from gdl.interpreter.language.look import colour_of
from gdl.interpreter.play.playing import viewer_of
from gdl.interpreter.play.render.pictures import GROUND, seat_colours
from gdl.interpreter.play.render.replay_page import state_after

from tests.helpers import GOLDEN, ROOT
from tests.play.test_replay_browser import CHROMEDRIVER, CHROMIUM, chromium

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no Chromium or no chromedriver on this machine (Debian: apt-get install "
    "chromium chromium-driver; .ci/run does it)")
PICTURES = sorted(os.listdir(GOLDEN / "svg"))
ENOUGH = 300            # pixels: a key swatch has about 110


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


def _tint(colour, ground=GROUND["square"], opacity=0.6):
    """A cell `show cell` fills: the colour over the ground at that opacity, as RGB."""
    mix = (opacity * int(colour[i:i + 2], 16) + (1 - opacity) * int(ground[i:i + 2], 16)
           for i in (1, 3, 5))
    return tuple(round(c) for c in mix)


def _count(image, rgb, tolerance=6):
    return sum(n for n, pixel in image.getcolors(1 << 20)
               if all(abs(a - b) <= tolerance for a, b in zip(pixel, rgb)))


@pytest.mark.parametrize("name", PICTURES)
def test_every_seat_shows_in_its_colour(browser, name):
    path = GOLDEN / "svg" / name
    width, height = map(int, re.search(r'width="(\d+)" height="(\d+)"',
                                       path.read_text(encoding="utf-8")).groups())
    transcript, step, seat = re.match(r"(.+?)_step(\d+)(?:_(.+))?\.svg", name).groups()
    game, state = state_after(str(GOLDEN / f"{transcript}.txt"), int(step))
    view = game.view(state, viewer_of(game, seat))
    browser.set_window_size(width + 40, height + 200)
    browser.get(path.as_uri())
    shown = browser.execute_script(
        "var r = document.documentElement.getBoundingClientRect(); return [r.width, r.height]")
    assert [round(v) for v in shown] == [width, height]
    image = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("RGB")
    for seat_name, colour in seat_colours(game.seats, view).items():
        rgb = tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))
        found = _count(image, rgb) + _count(image, _tint(colour))
        assert found > ENOUGH, f"{name}: {seat_name} ({colour}) covers {found} pixels"
    game_name = re.match(r"(.+?)_seed\d+", name).group(1)
    assert os.path.exists(os.path.join(ROOT, "docs", f"look_{game_name}.png"))


def test_galaxy_of_d_paints_each_side_in_its_colour():
    """Seat one plays Cynder in the golden game: blue; two plays Redog: red."""
    game, state = state_after(str(GOLDEN / "galaxy_of_d_seed1.txt"), 150)
    view = game.view(state, None)
    assert seat_colours(game.seats, view) == {"one": colour_of("blue"),
                                              "two": colour_of("red")}
