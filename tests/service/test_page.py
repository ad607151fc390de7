"""The page at / in a real browser: headless Chromium (Debian's chromium and
chromium-driver, through Selenium) plays a whole game against a real server, with
the keyboard only, and reads the solved state and the analysis.

make test installs the browser where it is missing (scripts/ensure_browser.py);
without one this test fails with the reason, it never skips.
"""

from __future__ import annotations

import io
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import Select, WebDriverWait

from guesswork.client.catalog import Catalog
from guesswork.client.games import Wordle
from guesswork.client.policy_choice import today_policy
from guesswork.client.policy_info import guarantee
from guesswork.service.server import GuessworkServer

#: A phone's screen, in CSS pixels: the page must work there.
WIDTH, HEIGHT = 412, 915
SECRET = "TACIT"


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
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
    metrics = {"width": WIDTH, "height": HEIGHT, "pixelRatio": 1}
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    opened = webdriver.Chrome(service=Service(driver), options=options)
    try:
        yield opened
    finally:
        opened.quit()


def _text(browser: WebDriver, element_id: str) -> str:
    return str(browser.find_element(By.ID, element_id).text)


def test_a_whole_game_on_the_page_with_the_keyboard(
    http_server: GuessworkServer, browser: WebDriver, catalog: Catalog, tmp_path: Path
) -> None:
    default = today_policy(catalog.list())
    first = catalog.policy(default).next_guess([])
    browser.get(f"http://127.0.0.1:{http_server.http_port}/")
    wait = WebDriverWait(browser, 60)
    # On load: the default policy's first suggestion, as text.
    wait.until(lambda b: _text(b, "suggestion").startswith("Guess "))
    assert _text(browser, "suggestion").startswith(f"Guess {first} (")
    assert browser.find_element(By.ID, "policy").get_attribute("value") == default
    # The alternatives with their values, in the metric's terms (bits for neg_entropy).
    stored = catalog.policy(default)
    root_values = stored.alternative_values(stored.root)
    shown = _text(browser, "alternatives")
    first_alternative = stored.alternatives(stored.root)[0]
    assert f"{first_alternative} ({-root_values[0]:.2f} bits)" in shown, shown
    game = Wordle()
    played = 0
    shot = b""
    while not _text(browser, "suggestion").startswith("Solved"):
        guess = _text(browser, "suggestion").split()[1]
        reply = game.format_reply(game.reply(guess, SECRET))
        tiles = browser.find_elements(By.CSS_SELECTOR, "#tiles .tile")
        assert "".join(tile.text for tile in tiles) == guess
        for index, colour in enumerate(reply):
            # Keyboard only: each tile takes G, Y or . and moves the focus on.
            browser.find_elements(By.CSS_SELECTOR, "#tiles .tile")[index].send_keys(colour)
        labels = [
            t.get_attribute("aria-label")
            for t in browser.find_elements(By.CSS_SELECTOR, "#tiles .tile")
        ]
        assert all(label and "press to change" in label for label in labels)
        browser.find_element(By.ID, "submit").send_keys("\n")
        played += 1
        wait.until(lambda b, n=played: len(b.find_elements(By.CSS_SELECTOR, "#board li")) == n)
        wait.until(lambda b, g=guess: not _text(b, "suggestion").startswith(f"Guess {g} "))
        if played == 1:
            shot = browser.get_screenshot_as_png()
        assert played <= 6
    assert _text(browser, "suggestion") == f"Solved: {SECRET} in {played} guesses."
    wait.until(lambda b: b.find_element(By.ID, "analysis-panel").is_displayed())
    rows = browser.find_elements(By.CSS_SELECTOR, "#analysis tbody tr")
    assert len(rows) == played
    assert rows[-1].find_elements(By.TAG_NAME, "td")[1].text == SECRET
    assert "skill" in _text(browser, "analysis-summary")
    # The picture analyze --plot draws, served as SVG, is loaded (its natural size known).
    wait.until(
        lambda b: b.execute_script(
            "const p = document.getElementById('analysis-picture');"
            "return p.complete && p.naturalWidth > 0 && !p.hidden;"
        )
    )
    # The high-contrast palette, from the keyboard: greens turn orange (#f5793a).
    green = browser.find_element(By.CSS_SELECTOR, "#board li:last-child .tile.green")
    assert green.value_of_css_property("background-color") == "rgba(83, 141, 78, 1)"
    browser.find_element(By.ID, "contrast").send_keys(" ")
    assert green.value_of_css_property("background-color") == "rgba(245, 121, 58, 1)"
    # The screenshot mid-game: the window's size, and a picture, not a blank page.
    image = pytest.importorskip("matplotlib.image")
    pixels = image.imread(io.BytesIO(shot), format="png")
    assert pixels.shape[:2] == (HEIGHT, WIDTH), pixels.shape
    colours = {tuple(p) for p in pixels[::5, ::5, :3].reshape(-1, 3).round(2).tolist()}
    assert len(colours) > 10
    keep = os.environ.get("GUESSWORK_SCREENSHOT")
    (Path(keep) if keep else tmp_path / "mid-game.png").write_bytes(shot)


def test_the_page_says_whether_the_policy_is_guaranteed_within_6(
    http_server: GuessworkServer, browser: WebDriver, catalog: Catalog
) -> None:
    """The page's phrase is the command line's (client.policy_info.guarantee), worked
    out in the page from ListPolicies' worst case and histogram."""
    summaries = {info.name: info for info in catalog.list()}
    default = today_policy(catalog.list())
    past = "wordle-4-enable1-normal-neg-entropy"  # worst 8
    browser.get(f"http://127.0.0.1:{http_server.http_port}/")
    wait = WebDriverWait(browser, 60)
    wait.until(lambda b: _text(b, "suggestion").startswith("Guess "))
    assert _text(browser, "policy-guarantee") == f"{default} is {guarantee(summaries[default])}."
    Select(browser.find_element(By.ID, "policy")).select_by_value(past)
    wait.until(lambda b: _text(b, "policy-guarantee").startswith(f"{past} is not"))
    said = guarantee(summaries[past])
    assert said is not None and said.startswith("not guaranteed within 6: ")
    assert _text(browser, "policy-guarantee") == f"{past} is {said}."
    # A multi-board game has a limit of its own, shown with each guess.
    Select(browser.find_element(By.ID, "boards")).select_by_value("2")
    wait.until(lambda b: "of 7" in _text(b, "suggestion"))
    assert _text(browser, "policy-guarantee") == ""


#: A Dordle's secrets, from today's answer list.
DORDLE = ("TACIT", "PLUMB")


def _dordle_on_the_backend(policy: str) -> list[str]:
    """Return the guesses the application core suggests for :data:`DORDLE` until both
    boards are solved, each board's replies computed here."""
    from guesswork.service.local import LocalGuesswork

    game, backend = Wordle(), LocalGuesswork.open(None)
    histories: list[list[tuple[str, str]]] = [[], []]
    guesses: list[str] = []
    while True:
        answer = backend.suggest_boards(policy, histories, 0)
        if answer.solved:
            return guesses
        guesses.append(answer.guess)
        for board, secret in zip(histories, DORDLE, strict=True):
            if not board or board[-1][0] != secret:
                board.append((answer.guess, game.format_reply(game.reply(answer.guess, secret))))


def test_a_dordle_on_the_page_with_the_keyboard(
    http_server: GuessworkServer, browser: WebDriver, catalog: Catalog
) -> None:
    default = today_policy(catalog.list())
    expected = _dordle_on_the_backend(default)
    browser.get(f"http://127.0.0.1:{http_server.http_port}/")
    wait = WebDriverWait(browser, 60)
    wait.until(lambda b: _text(b, "suggestion").startswith("Guess "))
    # Two boards, chosen from the keyboard: the hard-mode box is then off limits.
    Select(browser.find_element(By.ID, "boards")).select_by_value("2")
    wait.until(lambda b: "of 7" in _text(b, "suggestion"))
    assert browser.find_element(By.ID, "hard").get_attribute("disabled") is not None
    game = Wordle()
    solved = [False, False]

    def enter_replies(turn: int, guess: str) -> None:
        shown = _text(browser, "suggestion")
        assert shown.startswith(f"Guess {guess} (guess {turn} of 7"), (shown, expected)
        open_secrets = [s for s, done in zip(DORDLE, solved, strict=True) if not done]
        groups = browser.find_elements(By.CSS_SELECTOR, "#board-tiles .board-reply")
        assert len(groups) == len(open_secrets)
        for number, secret in enumerate(open_secrets):
            reply = game.format_reply(game.reply(guess, secret))
            for index, colour in enumerate(reply):
                # Found again for each key: a key redraws every board's tiles.
                group = browser.find_elements(By.CSS_SELECTOR, "#board-tiles .board-reply")[number]
                tiles = group.find_elements(By.CSS_SELECTOR, ".tile")
                assert "".join(tile.text for tile in tiles) == guess
                tiles[index].send_keys(colour)
        browser.find_element(By.ID, "submit").send_keys("\n")

    # Undo takes the first guess back from both boards.
    enter_replies(1, expected[0])
    wait.until(lambda b: "(guess 2 of 7" in _text(b, "suggestion"))
    assert len(browser.find_elements(By.CSS_SELECTOR, "#boards-played li")) == 2
    browser.find_element(By.ID, "undo").send_keys("\n")
    wait.until(lambda b: "(guess 1 of 7" in _text(b, "suggestion"))
    assert not browser.find_elements(By.CSS_SELECTOR, "#boards-played li")
    for turn, guess in enumerate(expected, start=1):
        enter_replies(turn, guess)
        solved = [done or guess == secret for done, secret in zip(solved, DORDLE, strict=True)]
        if turn < len(expected):
            wait.until(lambda b, t=turn: f"(guess {t + 1} of 7" in _text(b, "suggestion"))
    wait.until(lambda b: _text(b, "suggestion").startswith("Solved"))
    assert _text(browser, "suggestion") == (
        f"Solved: all 2 boards in {len(expected)} guesses (limit 7)."
    )
    headings = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#boards-played h3")]
    assert headings == ["Board 1: solved", "Board 2: solved"]
    # Each board lists its own turns: every guess until it was solved.
    for number, secret in enumerate(DORDLE):
        rows = browser.find_elements(
            By.CSS_SELECTOR, f"#boards-played section:nth-child({number + 1}) li"
        )
        assert len(rows) == expected.index(secret) + 1
