"""The page at / in a real browser: headless Chromium (Debian's chromium and
chromium-driver, through Selenium) plays whole games against a real server: one by
keyboard only, one by taps only, a pasted share text, a Quordle, and a refused
reply. Every screen of them is checked at four viewports (360x740, 390x844,
768x1024, 1280x900): no horizontal overflow, every tappable control at least
44x44 CSS px, a screenshot of the whole page written (``$GUESSWORK_SCREENSHOTS``,
else a pytest temporary folder; named ``WIDTHxHEIGHT-STATE.png``), and axe-core
run inside the page with no violation. On both phones the suggestion and the
reply row are in the first screen. A move asks for no analysis (the guesses
expected come with the suggestion); a finished game asks once per board, and an
analysis that fails says so with a Retry button.

make test installs the browser where it is missing (scripts/ensure_browser.py);
axe-core comes from npm (tests/service/axe/package-lock.json, ``npm ci`` on
first use). Without either this module fails with the reason, it never skips.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from guesswork.client.catalog import Catalog
from guesswork.client.games import Wordle
from guesswork.client.policy_choice import today_policy
from guesswork.client.policy_info import guarantee
from guesswork.service.server import GuessworkServer

#: The viewports every screen is checked at: two phones, a tablet, a desktop.
VIEWPORTS = ((360, 740), (390, 844), (768, 1024), (1280, 900))
PHONE = VIEWPORTS[0]
#: The smallest tap target allowed, in CSS pixels (WCAG 2.5.5, Apple's and Google's guides).
TAP = 44
AXE = Path(__file__).resolve().parent / "axe"
#: Written into node_modules after a successful `npm ci`: the lock it installed.
STAMP = ".guesswork-lock-sha256"
SECRET = "TACIT"
#: A hang guard, not a speed claim: every wait is for an outcome (a row drawn, the
#: analysis shown), and only a page that never gets there fails, however busy the
#: machine (a finished game's analyses are live computations of seconds each).
WAIT = 300
#: The AnalyzeGame calls the page has made since it was loaded (the browser's own
#: record of its fetches: resource timing).
ANALYSES_MADE = (
    "return performance.getEntriesByType('resource')"
    ".filter((e) => e.name.endsWith('/guesswork.v1.Guesswork/AnalyzeGame')).length;"
)


@pytest.fixture(scope="module")
def axe_source() -> str:
    """Return axe-core's script, installed from the pinned lock (`npm ci`, once per lock)."""
    lock = hashlib.sha256((AXE / "package-lock.json").read_bytes()).hexdigest()
    stamp = AXE / "node_modules" / STAMP
    if not stamp.is_file() or stamp.read_text().strip() != lock:
        if shutil.which("npm") is None:
            pytest.fail("axe-core is installed with npm: install Node.js 20 and npm")
        done = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund"],
            cwd=AXE,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"npm ci (axe-core) failed:\n{done.stdout}\n{done.stderr}"
        stamp.write_text(lock + "\n")
    return (AXE / "node_modules" / "axe-core" / "axe.min.js").read_text()


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return the folder the screenshots go to: $GUESSWORK_SCREENSHOTS, else a temporary one."""
    named = os.environ.get("GUESSWORK_SCREENSHOTS")
    folder = Path(named) if named else tmp_path_factory.mktemp("page-screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """Yield headless Chromium with a phone's screen, quit after the module's tests."""
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.fail(
            "headless Chromium is needed: apt-get install chromium chromium-driver "
            "(make test does it: scripts/ensure_browser.py)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    # A phone's screen (Chrome's device emulation: a desktop window has a minimum width).
    metrics = {"width": PHONE[0], "height": PHONE[1], "pixelRatio": 1}
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    # Chromium leaves its singleton folder (org.chromium.Chromium.*) in $TMPDIR after it
    # quits: point it at pytest's own temporary folder, which pytest prunes, not at /tmp.
    scratch = tmp_path_factory.mktemp("chromium-tmp")
    service = Service(driver, env={**os.environ, "TMPDIR": str(scratch)})
    opened = webdriver.Chrome(service=service, options=options)
    try:
        yield opened
    finally:
        opened.quit()


class Page:
    """The page in the browser, with the checks every screen gets."""

    def __init__(self, browser: WebDriver, port: int, axe: str, folder: Path) -> None:
        self.browser, self.axe, self.folder = browser, axe, folder
        # The page re-renders as answers arrive: an element found a moment before may be
        # replaced before it is read (stale), which a wait should take as "not yet".
        self.wait = WebDriverWait(
            browser,
            WAIT,
            ignored_exceptions=(NoSuchElementException, StaleElementReferenceException),
        )
        self.viewport(*PHONE)
        browser.get(f"http://127.0.0.1:{port}/")
        self.wait.until(lambda b: self.text("suggestion").startswith(("Guess ", "Solved")))

    def settled(self) -> None:
        """Wait until no call to the service is in flight (the suggestion's aria-busy)."""
        self.wait.until(
            lambda b: b.find_element(By.ID, "suggestion").get_attribute("aria-busy") == "false"
        )

    def text(self, element_id: str) -> str:
        return str(self.browser.find_element(By.ID, element_id).text)

    def viewport(self, width: int, height: int) -> None:
        """Show the page as a screen of ``width`` x ``height`` CSS pixels (a phone's
        below 700 px) and wait for its layout."""
        self.browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 700},
        )
        self.browser.execute_async_script(
            "const done = arguments[0];"
            "requestAnimationFrame(() => requestAnimationFrame(() => done(true)));"
        )

    def check(self, state: str) -> None:
        """Check the screen shown at every viewport (no horizontal overflow, tap
        targets of 44 px, a screenshot of the whole page), then run axe-core in it;
        end at the phone's."""
        for width, height in VIEWPORTS:
            self.viewport(width, height)
            overflow = self.browser.execute_script(
                "return [document.documentElement.scrollWidth, window.innerWidth];"
            )
            assert overflow[0] <= overflow[1], (state, width, overflow)
            small = self.browser.execute_script(SMALL_TARGETS, TAP)
            assert not small, (state, width, small)
            shot = self.whole_page(width, height)
            (self.folder / f"{width}x{height}-{state}.png").write_bytes(shot)
        self._looks_like_a_page(shot, VIEWPORTS[-1])
        self.viewport(*PHONE)
        violations = self.accessibility()
        assert not violations, (state, json.dumps(violations, indent=1))

    def whole_page(self, width: int, height: int) -> bytes:
        """Return a PNG of the whole page at ``width`` (the screen made as tall as the
        page, then captured beyond the viewport), and show the screen as it was."""
        full = int(self.browser.execute_script("return document.documentElement.scrollHeight;"))
        self.viewport(width, max(full, height))
        shot = self.browser.execute_cdp_cmd(
            "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True}
        )
        self.viewport(width, height)
        return base64.b64decode(shot["data"])

    def reply_row_in_first_screen(self) -> None:
        """On both phones, at the top of the page, the suggestion and the whole reply
        row (its tiles, and the button that sends it) are within the screen."""
        for width, height in VIEWPORTS[:2]:
            self.viewport(width, height)
            bottoms = self.browser.execute_script(
                "window.scrollTo(0, 0);"
                "return ['suggestion', 'tiles', 'submit'].map("
                "(id) => document.getElementById(id).getBoundingClientRect().bottom);"
            )
            assert max(bottoms) <= height, (width, height, bottoms)
        self.viewport(*PHONE)

    def settings(self) -> None:
        """Open (or close) the Settings menu, from the keyboard."""
        self.browser.find_element(By.CSS_SELECTOR, "#settings summary").send_keys(Keys.ENTER)

    def accessibility(self) -> list[dict[str, Any]]:
        """Return axe-core's violations in the page as shown (rule, impact, targets)."""
        if not self.browser.execute_script("return typeof window.axe === 'object';"):
            self.browser.execute_script(self.axe)
        found: list[dict[str, Any]] = self.browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then((r) => done("
            "r.violations.map((v) => ({id: v.id, impact: v.impact,"
            " nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary)}))));"
        )
        return found

    @staticmethod
    def _looks_like_a_page(shot: bytes, size: tuple[int, int]) -> None:
        """A screenshot is the window's width, at least its height, and a picture,
        not a blank page."""
        image = pytest.importorskip("matplotlib.image")
        pixels = image.imread(io.BytesIO(shot), format="png")
        assert pixels.shape[1] == size[0] and pixels.shape[0] >= size[1], pixels.shape
        colours = {tuple(p) for p in pixels[::5, ::5, :3].reshape(-1, 3).round(2).tolist()}
        assert len(colours) > 10

    def keys(self, keys: str) -> None:
        """Type ``keys`` into whatever has the focus (the page's body at first)."""
        ActionChains(self.browser).send_keys(keys).perform()

    def guess(self) -> str:
        return str(self.browser.find_element(By.CSS_SELECTOR, "#suggestion strong").text)

    def rows(self) -> int:
        return len(self.browser.find_elements(By.CSS_SELECTOR, "#board li"))

    def analyses(self) -> int:
        """Return how many AnalyzeGame calls the page has made since it was loaded."""
        return int(self.browser.execute_script(ANALYSES_MADE))

    def expected(self) -> str:
        """Return the Expected guesses number as shown (value and note)."""
        shown = self.browser.find_elements(By.CSS_SELECTOR, '#numbers [data-key="expected"] dd')
        return str(shown[0].text).replace("\n", " ") if shown else ""


#: The visible controls smaller than the tap target (arguments[0] px), as "tag#id text WxH".
SMALL_TARGETS = """
const least = arguments[0];
const found = [];
for (const control of document.querySelectorAll(
    'button, select, input, textarea, summary, a[href], [role=button], [tabindex]')) {
  const box = control.getBoundingClientRect();
  if (!control.getClientRects().length || box.width === 0) continue;
  if (box.width < least - 0.5 || box.height < least - 0.5) {
    found.push(`${control.tagName}#${control.id} ${control.textContent.slice(0, 20)} `
      + `${Math.round(box.width)}x${Math.round(box.height)}`);
  }
}
return found;
"""


@pytest.fixture
def page(
    http_server: GuessworkServer, browser: WebDriver, axe_source: str, screenshots: Path
) -> Page:
    """Return the page freshly loaded at the phone's size (its first suggestion shown)."""
    assert http_server.http_port is not None
    return Page(browser, http_server.http_port, axe_source, screenshots)


def _reply(guess: str, secret: str) -> str:
    game = Wordle()
    return str(game.format_reply(game.reply(guess, secret)))


def test_a_whole_game_by_keyboard_only(page: Page, catalog: Catalog) -> None:
    """Today's Wordle from the keyboard alone: G, Y and . set each tile, Enter sends;
    the analysis reads in words, and the share text comes out at the end."""
    default = today_policy(catalog.list())
    stored = catalog.policy(default)
    assert page.guess() == stored.next_guess([])
    assert page.browser.find_element(By.ID, "game").get_attribute("value") == "wordle"
    assert page.browser.find_element(By.ID, "policy").get_attribute("value") == default
    # Player words only: no policy name outside the advanced panel.
    assert default not in page.text("choose").replace(page.text("advanced"), "")
    assert f"or {stored.alternatives(stored.root)[0]}" in page.text("suggestion")
    # The guesses expected come with the suggestion: the policy's mean at the start.
    assert page.expected() == f"{stored.info.mean:.2f} (exact for the suggested play)"
    assert "Words left\n3,158" in page.text("numbers"), page.text("numbers")
    page.reply_row_in_first_screen()
    page.check("start")
    played = 0
    while not page.text("suggestion").startswith("Solved"):
        guess = page.guess()
        tiles = page.browser.find_elements(By.CSS_SELECTOR, "#tiles .tile")
        assert "".join(tile.text for tile in tiles) == guess
        page.keys(_reply(guess, SECRET) + Keys.ENTER)
        played += 1
        page.wait.until(lambda _, n=played: page.rows() == n)
        if played == 1:
            # The stored tree's mean from here, the turn played counted: exact, never
            # "estimated", and no analysis asked for it.
            node = stored.walk([(guess, _reply(guess, SECRET))]).node
            assert page.expected() == (
                f"{stored.expected_from(node, 1):.2f} (exact for the suggested play)"
            )
            page.check("in-play")
        assert "estimated" not in page.text("numbers")
        assert played <= 6
    assert page.text("suggestion") == f"Solved: {SECRET} in {played} guesses."
    page.wait.until(lambda b: b.find_element(By.ID, "analysis-panel").is_displayed())
    # One analysis, of the finished game: none was asked for on the way.
    assert page.analyses() == 1
    assert not page.browser.find_element(By.ID, "analysis-wait").is_displayed()
    cards = page.browser.find_elements(By.CSS_SELECTOR, "#analysis .move")
    assert len(cards) == played
    assert "Skill" in cards[0].text and "Luck" in cards[0].text and "Words:" in cards[0].text
    assert "skill" in page.text("analysis-summary").lower()
    assert len(page.browser.find_elements(By.CSS_SELECTOR, "#left-chart .chart-row")) == played
    share = page.browser.find_element(By.ID, "share-text").get_attribute("value") or ""
    assert share.startswith(f"Guesswork Wordle {played}/6\n\n") and share.endswith("🟩" * 5)
    page.check("finished")
    # The high-contrast palette, from the keyboard: greens turn orange (#f5793a).
    green = page.browser.find_element(By.CSS_SELECTOR, "#board li:last-child .tile.green")
    assert green.value_of_css_property("background-color") == "rgba(77, 127, 72, 1)"
    page.settings()
    contrast, theme = (page.browser.find_element(By.ID, name) for name in ("contrast", "theme"))
    assert contrast.get_attribute("aria-pressed") == theme.get_attribute("aria-pressed") == "false"
    unpressed = contrast.value_of_css_property("border-top-width")
    contrast.send_keys(" ")
    assert green.value_of_css_property("background-color") == "rgba(245, 121, 58, 1)"
    theme.send_keys(" ")
    # Pressed reads as pressed to a screen reader, and shows in shape (a thick border, a tick).
    assert contrast.get_attribute("aria-pressed") == theme.get_attribute("aria-pressed") == "true"
    assert contrast.value_of_css_property("border-top-width") == "3px" != unpressed
    ticks = page.browser.execute_script(
        "return Array.from(arguments).map((b) => getComputedStyle(b, '::before').content);",
        contrast,
        theme,
    )
    assert ticks == ['"✓ "', '"✓ "'], ticks
    page.check("finished-dark-contrast")
    theme.send_keys(" ")
    contrast.send_keys(" ")
    assert contrast.get_attribute("aria-pressed") == "false"
    page.settings()


def test_a_whole_game_by_taps_only_in_hard_mode(page: Page, catalog: Catalog) -> None:
    """Hard mode by taps alone: a tap on a tile cycles it (empty counts as grey), the
    colour buttons set the ringed one; a refused reply leaves no row; Undo takes one back."""
    hard = today_policy(catalog.list(), hard=True)
    summaries = {info.name: info for info in catalog.list()}
    Select(page.browser.find_element(By.ID, "game")).select_by_value("hard")
    page.wait.until(lambda _: page.text("policy-guarantee").startswith("Playing the suggestions"))
    # The hard policy's first suggestion redraws the reply tiles: tap after it (a loaded
    # suite once tapped before it came, the taps were lost and the reply was accepted).
    page.settled()
    said = guarantee(summaries[hard])
    assert page.text("policy-guarantee") == f"Playing the suggestions, you are {said}."
    # A reply no secret gives (four greens and a yellow): refused, and no row stays.
    for _ in range(4):
        page.browser.find_element(By.CSS_SELECTOR, "#colour-keys .green").click()
    page.browser.find_element(By.CSS_SELECTOR, "#colour-keys .yellow").click()
    page.browser.find_element(By.ID, "submit").click()
    page.wait.until(lambda _: page.text("error"))
    assert page.rows() == 0
    page.check("error")
    # The refused reply's tiles stay to be mended; New game starts afresh.
    page.browser.find_element(By.ID, "new-game").click()
    page.wait.until(lambda _: not page.text("error"))
    secret = "CRIMP"
    played = 0
    undone = False
    while not page.text("suggestion").startswith("Solved"):
        guess = page.guess()
        for index, colour in enumerate(_reply(guess, secret)):
            for _ in range({".": 0, "Y": 1, "G": 2}[colour]):
                page.browser.find_elements(By.CSS_SELECTOR, "#tiles .tile")[index].click()
        page.browser.find_element(By.ID, "submit").click()
        played += 1
        page.wait.until(lambda _, n=played: page.rows() == n)
        assert not page.text("error") and page.analyses() == 0
        if played == 1 and not undone:
            assert page.text("policy-guarantee").startswith("Still guaranteed within 6")
            # Words left, tapped: every word still possible, A to Z (no prior).
            left = int(page.browser.find_element(By.ID, "words-left-button").text.replace(",", ""))
            page.browser.find_element(By.ID, "words-left-button").click()
            page.wait.until(lambda b: b.find_element(By.ID, "words-left-panel").is_displayed())
            words = [w.text for w in page.browser.find_elements(By.CSS_SELECTOR, "#words-left li")]
            assert len(words) == left and words == sorted(words) and secret in words
            assert page.text("words-left-title") == f"Words left, A to Z ({left}):"
            page.browser.find_element(By.ID, "undo").click()
            page.wait.until(lambda _: page.rows() == 0)
            played, undone = 0, True
            # The same first move again, this time kept.
            continue
        assert played <= 6
    assert page.text("suggestion") == f"Solved: {secret} in {played} guesses."
    page.wait.until(lambda b: b.find_element(By.ID, "analysis-panel").is_displayed())
    assert page.analyses() == 1
    assert len(page.browser.find_elements(By.CSS_SELECTOR, "#analysis .move")) == played
    share = page.browser.find_element(By.ID, "share-text").get_attribute("value") or ""
    assert share.startswith(f"Guesswork Wordle, hard mode {played}/6*\n\n")


def test_a_pasted_share_text_is_analysed(page: Page, catalog: Catalog) -> None:
    """A NYT share text without its words: the rows are the replies to the guesses
    suggested; one whose header disagrees leaves the board as it was."""
    default = today_policy(catalog.list())
    stored = catalog.policy(default)
    history: list[tuple[str, str]] = []
    secret = "PLUMB"
    while not history or history[-1][0] != secret:
        guess = stored.next_guess(history)
        history.append((guess, _reply(guess, secret)))
    squares = {"G": "🟩", "Y": "🟨", ".": "⬛"}
    rows = "\n".join("".join(squares[c] for c in reply) for _, reply in history)
    page.browser.find_element(By.CSS_SELECTOR, "#share-panel summary").click()
    box = page.browser.find_element(By.ID, "share")
    # Pasted (ChromeDriver types no emoji: the text is put in as a paste puts it).
    paste = "arguments[0].value = arguments[1];"
    # A header that disagrees with the rows: refused, the board untouched.
    page.browser.execute_script(paste, box, f"Wordle 1,234 {len(history) + 1}/6\n\n{rows}")
    page.browser.find_element(By.ID, "paste").click()
    page.wait.until(lambda _: page.text("error").startswith("Share text:"))
    assert page.rows() == 0 and page.guess() == stored.next_guess([])
    page.browser.execute_script(paste, box, f"Wordle 1,234 {len(history)}/6\n\n{rows}")
    page.browser.find_element(By.ID, "paste").click()
    page.wait.until(lambda b: b.find_element(By.ID, "analysis-panel").is_displayed())
    assert page.rows() == len(history)
    assert page.text("suggestion") == f"Solved: {secret} in {len(history)} guesses."
    cards = page.browser.find_elements(By.CSS_SELECTOR, "#analysis .move")
    assert len(cards) == len(history)
    for card, (turn, (guess, _)) in zip(cards, enumerate(history, start=1), strict=True):
        # The heading reads out the reply in words (hidden text) over the tiles.
        lines = card.text.split("\n")
        assert lines[0] == f"{turn}." and lines[1].startswith(f"{guess}: "), card.text
        assert "Skill" in card.text, card.text
        assert "".join(t.text for t in card.find_elements(By.CSS_SELECTOR, ".tile")) == guess
    page.check("pasted-analysis")


def test_an_analysis_that_fails_says_so_and_retries(page: Page, catalog: Catalog) -> None:
    """The finished game's analysis cannot reach the server (the browser blocks the
    call, as a dropped connection would): a message says so with a Retry button of
    tap size, the game stays; once the server is reachable, Retry shows the analysis."""
    stored = catalog.policy(today_policy(catalog.list()))
    history: list[tuple[str, str]] = []
    while not history or history[-1][0] != SECRET:
        guess = stored.next_guess(history)
        history.append((guess, _reply(guess, SECRET)))
    squares = {"G": "🟩", "Y": "🟨", ".": "⬛"}
    rows = "\n".join("".join(squares[c] for c in reply) for _, reply in history)
    words = "\n".join(guess for guess, _ in history)
    page.browser.find_element(By.CSS_SELECTOR, "#share-panel summary").click()
    box = page.browser.find_element(By.ID, "share")
    text = f"Wordle 1,234 {len(history)}/6\n\n{rows}\n{words}"
    page.browser.execute_script("arguments[0].value = arguments[1];", box, text)
    page.browser.execute_cdp_cmd("Network.enable", {})
    page.browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/AnalyzeGame"]})
    try:
        page.browser.find_element(By.ID, "paste").click()
        retry = page.browser.find_element(By.ID, "retry-analysis")
        page.wait.until(lambda _: retry.is_displayed())
    finally:
        page.browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        page.browser.execute_cdp_cmd("Network.disable", {})
    assert page.text("analysis-note") == (
        "The analysis did not come: the server could not be reached. Your game is kept: try again."
    )
    assert page.rows() == len(history) and not page.text("error")
    assert not page.browser.find_element(By.ID, "analysis-panel").is_displayed()
    page.check("analysis-failed")  # Retry is a tap target: at least 44 px, like the rest
    retry.click()
    page.wait.until(lambda b: b.find_element(By.ID, "analysis-panel").is_displayed())
    assert not page.browser.find_element(By.ID, "analysis-wait").is_displayed()
    assert len(page.browser.find_elements(By.CSS_SELECTOR, "#analysis .move")) == len(history)


#: A Quordle's secrets, from today's answer list.
QUORDLE = ("TACIT", "PLUMB", "CRIMP", "FJORD")


def test_a_quordle_played_and_analysed(page: Page) -> None:
    """Four boards side by side, each reply entered in its own row of tiles from the
    keyboard; at the end every board is analysed."""
    Select(page.browser.find_element(By.ID, "game")).select_by_value("quordle")
    page.wait.until(lambda _: "1 of 9" in page.text("numbers"))
    solved = [False] * len(QUORDLE)
    turn = 0
    while not page.text("suggestion").startswith("Solved"):
        guess = page.guess()
        turn += 1
        open_secrets = [s for s, done in zip(QUORDLE, solved, strict=True) if not done]
        groups = page.browser.find_elements(By.CSS_SELECTOR, "#board-tiles .board-reply")
        assert len(groups) == len(open_secrets)
        page.keys("".join(_reply(guess, s) for s in open_secrets) + Keys.ENTER)
        solved = [done or guess == s for done, s in zip(solved, QUORDLE, strict=True)]
        if not all(solved):
            page.wait.until(lambda _, t=turn: f"{t + 1} of 9" in page.text("numbers"))
            assert page.analyses() == 0  # several boards: analysed at the end only
        if turn == 2:
            page.check("quordle-in-play")
        assert turn <= 12
    assert page.text("suggestion").startswith("Solved: all 4 boards in ")
    headings = [h.text for h in page.browser.find_elements(By.CSS_SELECTOR, "#boards-played h3")]
    assert headings == [f"Board {n}: solved" for n in range(1, 5)]
    page.wait.until(lambda b: b.find_element(By.ID, "analysis-panel").is_displayed())
    boards = page.browser.find_elements(By.CSS_SELECTOR, "#analysis .board-analysis")
    assert len(boards) == 4 and page.analyses() == 4
    for board in boards:
        assert board.find_elements(By.CSS_SELECTOR, ".move")
    share = page.browser.find_element(By.ID, "share-text").get_attribute("value") or ""
    assert share.startswith(f"Guesswork Quordle (4 boards) {turn}/9\nBoard 1: ")
    page.check("quordle-finished")


def _colours(page: Page, reply: str) -> None:
    """Set the pending reply with the colour buttons alone (each sets the ringed tile
    and moves on), then send it."""
    for colour in reply:
        name = {".": "grey", "Y": "yellow", "G": "green"}[colour]
        page.browser.find_element(By.CSS_SELECTOR, f"#colour-keys .{name}").click()
    page.browser.find_element(By.ID, "submit").click()


def test_any_policy_behind_the_advanced_toggle(page: Page, catalog: Catalog) -> None:
    """The policy list is advanced (in Settings): a policy chosen there plays one board,
    and the guarantee line says, in the command line's words, when it is not within 6;
    in a game it is the service's guaranteed_within. A weighted policy lists its words
    left with their chances; a long word's tiles stay tap-sized on a phone."""
    summaries = {info.name: info for info in catalog.list()}
    past = "wordle-4-enable1-normal-neg-entropy"  # worst 8
    assert not page.browser.find_element(By.ID, "policy").is_displayed()
    page.settings()
    page.browser.find_element(By.CSS_SELECTOR, "#advanced summary").click()
    Select(page.browser.find_element(By.ID, "policy")).select_by_value(past)
    page.wait.until(
        lambda _: page.text("policy-guarantee").startswith("Playing the suggestions, you are not")
    )
    said = guarantee(summaries[past])
    assert said is not None and said.startswith("not guaranteed within 6: ")
    assert page.text("policy-guarantee") == f"Playing the suggestions, you are {said}."
    assert page.browser.find_element(By.ID, "game").get_attribute("value") == "custom"
    page.settings()
    # A reply on the way to the tree's worst case (8): the line is not guaranteed.
    stored = catalog.policy(past)
    opener = stored.next_guess([])
    worst = next(t for t in stored.targets if len(stored.play(t)) == summaries[past].worst)
    game = stored.game
    first = game.format_reply(game.reply(opener, worst))
    _colours(page, first)
    page.wait.until(lambda _: page.rows() == 1)
    assert page.text("policy-guarantee") == "Not guaranteed within 6 (worst case 8)."
    # Another word played: answered live, so no stored line bounds the game.
    second = stored.next_guess([(opener, first)])
    own = next(t for t in stored.targets if t not in (second, worst))
    page.browser.find_element(By.CSS_SELECTOR, "#own-word-panel summary").click()
    page.browser.find_element(By.ID, "own-word").send_keys(own)
    page.browser.find_element(By.ID, "use-own-word").click()
    _colours(page, game.format_reply(game.reply(own, worst)))
    page.wait.until(lambda _: page.rows() == 2)
    assert page.text("policy-guarantee").startswith("Not guaranteed (computed live)")
    # Nor is a mean claimed: no stored line plays the rest.
    assert page.expected() == "— (computed live: no stored line)"
    # A weighted policy: the words left, most likely first, each with its chance.
    page.settings()
    Select(page.browser.find_element(By.ID, "policy")).select_by_value(WEIGHTED)
    page.wait.until(lambda _: page.rows() == 0 and page.text("suggestion").startswith("Guess "))
    page.settings()
    page.browser.find_element(By.ID, "words-left-button").click()
    page.wait.until(lambda b: b.find_element(By.ID, "words-left-panel").is_displayed())
    assert (
        page.text("words-left-title") == "Words left, most likely first (the first 500 of 14,855):"
    )
    items = page.browser.find_elements(By.CSS_SELECTOR, "#words-left li")
    assert len(items) == 500 and all(i.text.endswith("%") for i in items[:5]), items[0].text
    # The games offered are in a player's words; Jotto has no "boards".
    labels = [o.text for o in Select(page.browser.find_element(By.ID, "game")).options]
    assert labels[:6] == [
        "Today's Wordle",
        "Wordle, hard mode",
        "Dordle (2 boards)",
        "Quordle (4 boards)",
        "Octordle (8 boards)",
        "Absurdle",
    ]
    assert "Jotto" in labels and "Wordle in German" in labels and "Wordle with 6 letters" in labels
    # The longest word offered: its tiles wrap on a phone, none below 44 px.
    longest = max(info.length for info in summaries.values() if info.game == "wordle")
    Select(page.browser.find_element(By.ID, "game")).select_by_value(f"letters-{longest}")
    page.wait.until(lambda _: len(page.guess()) == longest)
    page.check("long-word")
    Select(page.browser.find_element(By.ID, "game")).select_by_value("jotto")
    page.wait.until(lambda b: b.find_element(By.ID, "text-reply").is_displayed())
    assert "Type the reply" in page.text("reply-help")
    assert "Board" not in page.text("play")


#: A policy whose targets a prior weights.
WEIGHTED = "wordle-14855-weighted-wordfreq-normal-neg-entropy"
