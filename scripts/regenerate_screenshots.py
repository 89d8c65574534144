"""Regenerate the screenshots of docs/ (docs/look_<game>.png): each golden picture of
tests/golden/svg/ (scripts/regenerate_golden.py lists them, one per shipped game) as headless
Chromium draws it, at its own size; and docs/replay.png, the replay page of Galaxy of D's
golden game as seat one saw it at step 60. Look at every one before committing.
Usage: python scripts/regenerate_screenshots.py   (run from the repository root; needs
Chromium: Debian's `chromium`)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SVG = os.path.join(ROOT, "tests", "golden", "svg")
DOCS = os.path.join(ROOT, "docs")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")


def screenshot(chromium, path, png_path, size=None, anchor=""):
    """Chromium's drawing of one file, `size` (width, height) in px: by default an SVG
    picture's own."""
    if size is None:
        with open(path, encoding="utf-8") as handle:
            head = handle.read(400)
        size = re.search(r'width="(\d+)" height="(\d+)"', head).groups()
    width, height = size
    profile = tempfile.mkdtemp(prefix="gdl-shot-")
    try:
        subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}",
                        f"--window-size={width},{height}", f"--screenshot={png_path}",
                        "file://" + os.path.abspath(path) + anchor],
                       check=True, capture_output=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def main():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("no Chromium on this machine (Debian: apt-get install chromium)", file=sys.stderr)
        return 1
    for name in sorted(os.listdir(SVG)):
        game = re.match(r"(.+?)_seed\d+", name).group(1)
        out = os.path.join(DOCS, f"look_{game}.png")
        screenshot(chromium, os.path.join(SVG, name), out)
        print(f"wrote {os.path.relpath(out, ROOT)}")
    from gdl.interpreter.play.render.replay_page import make_page
    page = os.path.join(tempfile.mkdtemp(prefix="gdl-page-"), "replay.html")
    with open(page, "w", encoding="utf-8") as handle:
        handle.write(make_page(os.path.join(ROOT, "tests", "golden", "galaxy_of_d_seed1.txt"),
                               "one")[0])
    out = os.path.join(DOCS, "replay.png")
    screenshot(chromium, page, out, (1200, 800), "#step=60")
    print(f"wrote {os.path.relpath(out, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
