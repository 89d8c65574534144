"""`gdl serve`'s page in a real browser (headless Chromium through Selenium, as
test_replay_browser.py): Space War with blue played by clicking (an action's button, a piece
and one of the destinations marked on the board), a whole game to its end; an action built
step by step; two browsers at Galaxy of D, each seeing only its own seat's view; live reload
after an edit of the rule file; undo. Skipped only when Chromium or chromedriver cannot be
found on this machine."""

import os
import random
import threading
import time

import pytest
import uvicorn
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from gdl.interpreter.play.serve import app
from gdl.interpreter.play.serve.app import Table, bind, make_server, urls
from gdl.interpreter.play.serve.session import Session
from gdl.interpreter.loader import load_game
from gdl.interpreter.runtime.introspect import result_text

from tests.play.test_replay_browser import CHROMEDRIVER, CHROMIUM, chromium
from tests.helpers import ROOT
from tests.play.test_serve import GALAXY_OF_D, SPACE_WAR, saved_game, server_of

GALAXY_GRID = os.path.join(ROOT, "games", "galaxy_grid.gdl")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or CHROMEDRIVER is None,
    reason="no Chromium or no chromedriver on this machine (Debian: apt-get install "
    "chromium chromium-driver; .ci/run does it)")
WAIT = 20       # seconds
POLL = 0.05     # seconds between looks at the page while waiting


def waited_for(expected):
    """The message of a wait that timed out: what it waited for."""
    return f"not within {WAIT} s: waited for {expected}"


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture
def served():
    """A Space War table served by uvicorn in a thread: blue human, red random. Yields
    (table, {who: URL})."""
    yield from serving(SPACE_WAR, ["human", "random"])


def serving(path, players, seed=1, pace=0.05, watch=None, server=None):
    """A table of the rule file (or the first of `server`'s) served by uvicorn in a thread
    (`watch`: seconds between looks at the rule file, for live reload); yields (table,
    {who: URL}) and stops it."""
    if server is None:
        server = server_of(Table(Session(load_game(path), seed, players, rules_path=path),
                                 pace=pace))
    table = server.tables[0]
    bound = bind("127.0.0.1", 0)
    port = bound.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(server.app(watch), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [bound]}, daemon=True)
    thread.start()
    for _ in range(100):
        if server.started:
            break
        time.sleep(0.05)
    else:
        pytest.fail("uvicorn did not start within 5 s", pytrace=False)
    yield table, dict(urls(table, "127.0.0.1", port))
    server.should_exit = True
    thread.join(10)


def my_turn(browser):
    """Wait until the page offers blue's actions; their texts."""
    WebDriverWait(browser, WAIT).until(
        lambda b: b.find_element(By.TAG_NAME, "body").get_attribute("data-mine") == "yes"
        and b.find_elements(By.CSS_SELECTOR, "#actions button"), waited_for("blue's actions"))
    return [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#actions button")]


def log_lines(browser):
    return [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#log li")]


def test_play_by_clicking(browser, served):
    table, links = served
    browser.get(links["blue"])
    actions = my_turn(browser)                    # red has chosen its side
    assert actions[0].startswith("station ")
    browser.find_element(By.CSS_SELECTOR, "#actions button").click()
    WebDriverWait(browser, WAIT).until(lambda b: f"blue: {actions[0]}" in log_lines(b),
                                       waited_for(f"the log's 'blue: {actions[0]}'"))
    for _ in range(3):                            # move a fighter: click it, then a mark
        my_turn(browser)
        fighter = next(piece for piece in browser.find_elements(By.CSS_SELECTOR, "#board .pc")
                       if piece.get_attribute("data-owner") == "blue"
                       and piece.get_attribute("data-kind") == "Fighter"
                       and any(f" {piece.get_attribute('data-label')} " in f" {text} "
                               for text in my_turn(browser)))
        label = fighter.get_attribute("data-label")
        fighter.click()
        shown = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#actions button")]
        assert shown and all(label in text.split() for text in shown)
        marks = browser.find_elements(By.CSS_SELECTOR, "#board .dest")
        assert marks
        before = len(log_lines(browser))
        cell = marks[0].get_attribute("data-cell")
        marks[0].click()
        going = [text for text in shown if cell in text.split()]
        if len(going) > 1:                        # several actions go there: pick the first
            browser.find_element(By.CSS_SELECTOR, "#actions button").click()
        WebDriverWait(browser, WAIT).until(lambda b: len(log_lines(b)) > before,
                                           waited_for("a new log line"))
        assert any(line.startswith(f"blue: ") and label in line and cell in line
                   for line in log_lines(browser)[before:])
    assert sum(1 for seat, _ in table.session.history if seat == 0) == 4
    my_turn(browser)
    box = browser.find_element(By.ID, "text")
    box.send_keys("fly away\n")
    WebDriverWait(browser, WAIT).until(
        lambda b: b.find_element(By.ID, "message").text.startswith("not accepted: 'fly away'"),
        waited_for("the message 'not accepted: 'fly away''"))
    assert "error" in browser.find_element(By.ID, "message").get_attribute("class")


def test_wrong_token_gets_nothing(browser, served):
    table, links = served
    browser.get(links["blue"][:-3] + "abc")
    assert browser.find_element(By.TAG_NAME, "body").text == "forbidden"


def test_a_page_beyond_the_most_on_a_link_says_why(browser, served, monkeypatch):
    """A link open in MOST_PAGES pages already: one more page is refused, and says why
    (the server's close reason), without trying again."""
    monkeypatch.setattr(app, "MOST_PAGES", 1)
    table, links = served
    browser.get(links["blue"])
    my_turn(browser)
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    try:
        browser.get(links["blue"])
        WebDriverWait(browser, WAIT).until(
            lambda b: b.find_element(By.ID, "conn").text.startswith("refused"),
            waited_for("the page refused"))
        assert browser.find_element(By.ID, "conn").text == (
            "refused: this link is open in 1 page already, the most: close one, then reload "
            "this page")
    finally:
        browser.close()
        browser.switch_to.window(first)
    assert browser.find_element(By.ID, "conn").text == "connected"


def test_build_an_action_step_by_step(browser):
    """Galaxy Grid's dice placement ('place Move 4+5 Direction 6'), built word by word:
    each step offers the next words the listed actions take, and lists only the actions
    that begin with the words chosen; `back` takes one back; the action is played once the
    words name one."""
    for table, links in serving(GALAXY_GRID, ["random", "human", "random", "random"]):
        browser.get(links["blue"])
        actions = my_turn(browser)
        assert all(text.startswith("place ") for text in actions) and len(actions) > 1
        chosen, went_back = [], False
        def blue_played():
            return any(seat == 1 for seat, _ in table.session.history)

        while not blue_played():
            WebDriverWait(browser, WAIT).until(
                lambda b: blue_played() or b.find_elements(By.CSS_SELECTOR, "#steps button"),
                waited_for("blue's decision or the next words"))
            if blue_played():
                break
            words, listed = browser.execute_script(
                "function texts(css) { return Array.from(document.querySelectorAll(css), "
                "function (b) { return b.textContent; }); }"
                "return [texts('#steps button'), texts('#actions button')];")
            listed = [text.split() for text in listed]
            assert words and len(chosen) < 12
            assert all(text[:len(chosen)] == chosen for text in listed)
            assert set(words) == {text[len(chosen)] for text in listed if len(text) > len(chosen)}
            if len(chosen) == 2 and not went_back:
                browser.find_element(By.ID, "back").click()     # one step back, then on
                chosen.pop()
                went_back = True
                continue
            browser.find_element(By.CSS_SELECTOR, f'#steps button[data-word="{words[-1]}"]').click()
            chosen.append(words[-1])
        played = [text for (seat, _), text in zip(table.session.history, table.session.texts)
                  if seat == 1]
        # the words chosen named one action: it was played
        assert len(played) == 1 and played[0].split()[:len(chosen)] == chosen
        assert went_back and len(chosen) >= 3


# What the page shows, in one call: is it the viewer's decision, the actions listed, the
# heading (whose decision, or the result), the message line, the log, the position's title.
PAGE = """return {
  mine: document.body.getAttribute('data-mine') === 'yes',
  actions: Array.from(document.querySelectorAll('#actions button'), b => b.textContent),
  deciding: document.getElementById('deciding').textContent,
  message: document.getElementById('message').textContent,
  error: document.getElementById('message').className === 'error',
  log: Array.from(document.querySelectorAll('#log li'), li => li.textContent),
  title: document.getElementById('title').textContent};"""
# Kept in the page before its script runs: every websocket message it receives, as sent.
RECORD = """(function () {
  var Real = window.WebSocket;
  window.received = [];
  function Recorded(url, protocols) {
    var socket = protocols === undefined ? new Real(url) : new Real(url, protocols);
    socket.addEventListener('message', function (e) { window.received.push(e.data); });
    return socket;
  }
  Recorded.prototype = Real.prototype;
  ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'].forEach(function (k) { Recorded[k] = Real[k]; });
  window.WebSocket = Recorded;
})();"""


def page(browser):
    return browser.execute_script(PAGE)


def decisions_of(seat, lines):
    """The log's lines of `seat`'s decisions (not indented: 'blue: move ...')."""
    return [line for line in lines if line.startswith(f"{seat}: ")]


def settled(browser, seat, made):
    """The page once it has shown `made` decisions of `seat` and it is that seat's decision
    again or the game is over, with the log's game-over line (the position after a
    decision is sent before its log lines): the page, else False."""
    shown = page(browser)
    if len(decisions_of(seat, shown["log"])) != made:
        return False
    if shown["deciding"].startswith("game over: "):
        return shown if shown["deciding"] in shown["log"] else False
    if shown["mine"] and shown["actions"]:
        return shown
    return False


def wait_settled(browser, seat, made):
    return WebDriverWait(browser, WAIT, POLL).until(
        lambda b: settled(b, seat, made), waited_for(f"{seat}'s page after {made} decisions"))


def click_piece_then_mark(browser, chooser, actions):
    """Click one of blue's pieces that some action names, then one of the cells marked
    for it (then the first action listed, when several go there); False when no piece
    of blue's is named by an action."""
    pieces = [piece for piece in browser.find_elements(By.CSS_SELECTOR, "#board .pc")
              if piece.get_attribute("data-owner") == "blue" and any(
                  piece.get_attribute("data-label") in text.split() for text in actions)]
    if not pieces:
        return False
    chooser.choice(pieces).click()
    marks = browser.find_elements(By.CSS_SELECTOR, "#board .dest")
    if marks:
        chooser.choice(marks).click()
        if "go to" not in page(browser)["message"]:
            return True                     # the one action going there was played
    browser.find_element(By.CSS_SELECTOR, "#actions button").click()
    return True


def test_whole_space_war_game_by_clicking(browser):
    """A whole Space War game in Chromium, blue played with the mouse against a random
    red: now a piece and a marked cell, now a button of the list, until the page shows
    the game over; every decision blue clicked was played, in order."""
    for table, links in serving(SPACE_WAR, ["human", "random"], seed=5, pace=0.01):
        browser.get(links["blue"])
        chooser = random.Random(3)
        made = 0
        while not (shown := wait_settled(browser, "blue", made))["deciding"].startswith(
                "game over: "):
            assert made < 200
            if made % 3 != 2 or not click_piece_then_mark(browser, chooser, shown["actions"]):
                buttons = browser.find_elements(By.CSS_SELECTOR, "#actions button")
                chooser.choice(buttons).click()
            made += 1
        session = table.session
        assert session.state.result is not None
        result = result_text(session.game, session.state)
        assert shown["deciding"] == f"game over: {result}"
        assert f"game over: {result}" in shown["log"]
        assert not shown["mine"] and not shown["actions"]
        played = [text for (seat, _), text in zip(session.history, session.texts) if seat == 0]
        assert len(played) == made > 10
        assert decisions_of("blue", shown["log"]) == [f"blue: {text}" for text in played]


def recorded(browser):
    """The websocket messages the page received, as sent (RECORD)."""
    return "\n".join(browser.execute_script("return window.received;"))


def test_two_browsers_each_see_only_their_own(browser):
    """Galaxy of D, both seats human, each in its own Chromium: while one seat buys its
    starting ships in secret, its page lists each purchase, and the other's page (its
    source and every websocket message it received) holds none of them, only 'chooses in
    secret'."""
    making = chromium()
    other = next(making)
    try:
        pages = {"one": browser, "two": other}
        for table, links in serving(GALAXY_OF_D, ["human", "human"], seed=5, pace=0):
            for seat, driver in pages.items():
                driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                       {"source": RECORD})
                driver.get(links[seat])
            buyer = None
            for _ in range(60):
                decider = WebDriverWait(browser, WAIT, POLL).until(
                    lambda _: next((seat for seat, driver in pages.items()
                                    if page(driver)["mine"] and page(driver)["actions"]),
                                   None),
                    waited_for("a seat with actions"))
                shown = page(pages[decider])
                bought = [line for line in decisions_of(decider, shown["log"])
                          if line.startswith(f"{decider}: buy ")]
                if len(bought) >= 2:
                    buyer = decider
                    break
                texts = shown["actions"]
                wanted = next((text for text in texts if text.startswith("buy ")), None) \
                    or ("pass" if "pass" in texts else texts[0 if decider == "one" else -1])
                before = len(shown["log"])
                pages[decider].find_element(
                    By.XPATH, f'//ul[@id="actions"]//button[text()="{wanted}"]').click()
                WebDriverWait(browser, WAIT, POLL).until(
                    lambda _: len(page(pages[decider])["log"]) > before,
                    waited_for(f"a new line in {decider}'s log"))
            assert buyer is not None, table.session.texts
            watcher = "two" if buyer == "one" else "one"
            WebDriverWait(browser, WAIT, POLL).until(
                lambda _: page(pages[watcher])["log"][-1] == f"{buyer}: chooses in secret",
                waited_for(f"{watcher}'s log's '{buyer}: chooses in secret'"))
            mine, theirs = pages[buyer], pages[watcher]
            assert all(line in mine.page_source for line in bought)
            secret = [line.split(": ", 1)[1] for line in bought]    # 'buy Freighter'
            full = table.session.game.view(table.session.state, None)
            order = full["seats"][table.session.game.seats.index(buyer)]["vars"]["order"]
            assert order.startswith("[") and order != "[]"
            assert "chooses in secret" in recorded(theirs) and '"position"' in recorded(theirs)
            for hidden in ([f"{buyer}: {text}" for text in secret] + [order, order[1:-1]]):
                assert hidden not in theirs.page_source, hidden
                assert hidden not in recorded(theirs), hidden
            assert f"{buyer}: {secret[0]}" in recorded(mine)
    finally:
        next(making, None)


def test_live_reload_in_the_browser(browser, tmp_path):
    """The rule file (a copy) edited on disk while blue plays: a mistake shows its check
    error, with its file, line and column, on the page; the fix reloads the position in
    the new rules, replaying the decisions so far, and blue plays on."""
    rules = tmp_path / "space_war.gdl"
    text = open(SPACE_WAR, encoding="utf-8").read()
    rules.write_text(text, encoding="utf-8")
    line = text[:text.index("param laser_range = 4")].count("\n") + 1
    for table, links in serving(str(rules), ["human", "random"], pace=0.01, watch=0.05):
        browser.get(links["blue"])
        wait_settled(browser, "blue", 0)
        browser.find_element(By.CSS_SELECTOR, "#actions button").click()
        shown = wait_settled(browser, "blue", 1)
        assert shown["title"].startswith("Space War - ")
        decisions = len(table.session.history)
        rules.write_text(text.replace("param laser_range = 4", "param laser_range = far_away"),
                         encoding="utf-8")
        shown = WebDriverWait(browser, WAIT, POLL).until(
            lambda b: page(b)["error"] and page(b), waited_for("the check error"))
        assert shown["message"].startswith(
            f"{rules}:{line}:21: error: unknown name 'far_away'"), shown["message"]
        assert any(entry.startswith("the rule file changed and does not check:")
                   for entry in shown["log"])
        rules.write_text(text.replace('game "Space War"', 'game "Space War II"'),
                         encoding="utf-8")
        told = f"the rule file changed: replayed all {decisions} decisions"
        shown = WebDriverWait(browser, WAIT, POLL).until(
            lambda b: page(b)["message"] == told and page(b), waited_for(repr(told)))
        assert not shown["error"] and shown["title"].startswith("Space War II - ")
        assert shown["log"][-1] == told and shown["mine"] and shown["actions"]
        assert browser.find_element(By.CSS_SELECTOR, "#game").text.startswith("Space War")
        browser.find_element(By.CSS_SELECTOR, "#actions button").click()
        wait_settled(browser, "blue", 2)
        assert table.session.game.name == "Space War II"
        assert len(table.session.history) > decisions


def test_undo_in_the_browser(browser):
    """Undo in Chromium, blue human against a random red: the button is disabled, saying
    why, before blue's first decision; after two, it takes back blue's last and red's
    after it: the page shows blue's decision as it was before, and blue plays on."""
    for table, links in serving(SPACE_WAR, ["human", "random"], seed=2, pace=0.01):
        browser.get(links["blue"])
        wait_settled(browser, "blue", 0)
        undo = browser.find_element(By.ID, "undo")
        assert undo.is_displayed() and not undo.is_enabled()
        assert undo.get_attribute("title") == "nothing to undo: you have made no decision yet"
        browser.find_element(By.CSS_SELECTOR, "#actions button").click()
        before = wait_settled(browser, "blue", 1)
        board = browser.find_element(By.ID, "board").get_attribute("innerHTML")
        assert browser.find_element(By.ID, "undo").is_enabled()
        browser.find_elements(By.CSS_SELECTOR, "#actions button")[-1].click()
        wait_settled(browser, "blue", 2)
        made, texts = list(table.session.history), list(table.session.texts)
        last = max(index for index, (seat, _) in enumerate(made) if seat == 0)
        browser.find_element(By.ID, "undo").click()
        shown = WebDriverWait(browser, WAIT, POLL).until(
            lambda b: page(b)["log"] and page(b)["log"][-1].startswith("undo: ") and page(b),
            waited_for("the log's 'undo: '"))
        taken = len(made) - last
        assert shown["log"][-1] == (f"undo: {taken} decision{'s' if taken > 1 else ''} taken "
                                    f"back, to before blue's last ({texts[last]})")
        assert table.session.history == made[:last]
        assert shown["actions"] == before["actions"] and shown["mine"]
        assert browser.find_element(By.ID, "board").get_attribute("innerHTML") == board
        assert len(decisions_of("blue", shown["log"])) == 1
        browser.find_elements(By.CSS_SELECTOR, "#actions button")[0].click()
        wait_settled(browser, "blue", 2)
        assert table.session.history[last][0] == 0


def test_resume_in_the_browser(browser, tmp_path):
    """A game saved after 10 decisions, served again with --resume: blue's page shows the
    saved game's decisions and where it was resumed, and blue plays on by clicking."""
    played, saved = saved_game(tmp_path, SPACE_WAR, ["human", "random"], 4, 10)
    server = make_server(SPACE_WAR, None, None, 0.01, resume=str(saved))
    for table, links in serving(SPACE_WAR, None, server=server):
        browser.get(links["blue"])
        made = len(decisions_of("blue", played.log(0)))
        shown = wait_settled(browser, "blue", made)
        count = len(played.history)
        assert shown["log"][:-1] == played.log(0)
        assert shown["log"][-1] == f"resumed from saved.txt: replayed all {count} decisions"
        assert shown["actions"] == played.position(0)["actions"]
        browser.find_elements(By.CSS_SELECTOR, "#actions button")[-1].click()
        wait_settled(browser, "blue", made + 1)
        assert table.session.history[:count] == played.history
        assert table.session.history[count][0] == 0


BATTLESHIP = os.path.join(ROOT, "games", "classic", "battleship.gdl")


def test_a_wide_board_leaves_the_decision_panel_in_the_window(browser):
    """Battleship's two grids side by side make a board wider than 1,000 pixels: at
    1200 x 900 the board shrinks (its picture scales) so the decision panel stays beside it,
    inside the window; at 600 pixels the panel goes under the board. Nothing needs a
    sideways scroll at either width."""
    for table, links in serving(BATTLESHIP, ["human", "random"]):
        try:
            for width in (1200, 600):
                browser.set_window_size(width, 900)
                browser.get(links["one"])
                WebDriverWait(browser, WAIT).until(
                    lambda b: b.find_elements(By.CSS_SELECTOR, "#actions button"),
                    waited_for("one's actions"))
                inner = browser.execute_script("return document.documentElement.clientWidth")
                wide = browser.execute_script("return document.documentElement.scrollWidth")
                assert wide <= inner
                board = browser.find_element(By.CSS_SELECTOR, "#board svg").rect
                panel = browser.find_element(By.ID, "decide").rect
                assert board["x"] + board["width"] <= inner
                assert panel["x"] + panel["width"] <= inner
                if width == 1200:
                    assert panel["x"] >= board["x"] + board["width"]    # beside the board
                else:
                    assert panel["y"] >= board["y"] + board["height"]   # under it
        finally:
            browser.set_window_size(1280, 900)
