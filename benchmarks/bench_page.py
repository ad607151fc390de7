"""The page's weight and its time to a first suggestion, against a baseline page.

Starts one server (``--http``, the shipped catalog) in this process and serves,
by turns, two versions of the page from it: this checkout's ``service/page/``
and the baseline's (``git show REF:service/page/FILE``, REF ``main`` by
default), so both reach the same server, the same gzip and the same API.

* Weight: every file of the page (index.html, app.js, style.css) fetched as a
  browser does (``Accept-Encoding: gzip``), the bytes sent counted, and their
  size uncompressed.
* First suggestion: headless Chromium (Selenium, a 390x844 phone, the browser's
  cache off) loads ``/`` and polls until the suggestion reads "Guess ..."; the
  figure is the page's own clock then (``performance.now()``: milliseconds since
  the navigation began). The server is warmed by one load of each version first;
  the versions then alternate, RUNS loads each, and the median and best are shown.

Usage: python benchmarks/bench_page.py [--baseline REF] [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.remote.webdriver import WebDriver  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from guesswork.client.catalog import open_catalog  # noqa: E402
from guesswork.service.page import CONTENT_TYPES  # noqa: E402
from guesswork.service.server import ServerOptions, start_server  # noqa: E402

FILES = ("index.html", "app.js", "style.css")
#: Polled in the page: the time since navigation once the first suggestion shows.
SHOWN = (
    "const s = document.getElementById('suggestion');"
    "return s && s.textContent.startsWith('Guess ') ? performance.now() : null;"
)


def baseline_files(ref: str, folder: Path) -> Path:
    """Write the page's files at git ``ref`` into ``folder``; return it.

    Raises:
        subprocess.CalledProcessError: git has no such ref or file.
    """
    for name in FILES:
        data = subprocess.run(
            ["git", "show", f"{ref}:service/page/{name}"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        (folder / name).write_bytes(data)
    return folder


class Pages:
    """The page function the server calls: the files of whichever folder is chosen."""

    def __init__(self) -> None:
        self.folder = ROOT / "service" / "page"

    def __call__(self, path: str) -> tuple[bytes, str] | None:
        """Return (contents, content type) of the page file at ``path``, or None."""
        name = "index.html" if path in ("", "/") else path.removeprefix("/")
        if name not in FILES:
            return None
        return (self.folder / name).read_bytes(), CONTENT_TYPES[name[name.rfind(".") :]]


def weight(port: int) -> tuple[int, int]:
    """Return (bytes sent with gzip, bytes uncompressed) of the page's files as served."""
    sent = plain = 0
    for name in FILES:
        url = f"http://127.0.0.1:{port}/{'' if name == 'index.html' else name}"
        request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request) as answer:
            sent += len(answer.read())
        with urllib.request.urlopen(url) as answer:
            plain += len(answer.read())
    return sent, plain


def browser() -> WebDriver:
    """Return headless Chromium as a 390x844 phone."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    metrics = {"width": 390, "height": 844, "pixelRatio": 1}
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    opened = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    opened.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    return opened


def first_suggestion(driver: WebDriver, port: int) -> float:
    """Return the milliseconds from navigation to the first suggestion shown."""
    driver.get(f"http://127.0.0.1:{port}/")
    shown: float = WebDriverWait(driver, 60, poll_frequency=0.002).until(
        lambda d: d.execute_script(SHOWN)
    )
    return shown


def main() -> None:
    """Measure both pages and print the figures and the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main", help="git ref of the baseline page")
    parser.add_argument("--runs", type=int, default=7, help="loads of each page")
    args = parser.parse_args()
    pages = Pages()
    with tempfile.TemporaryDirectory() as temporary:
        old = baseline_files(args.baseline, Path(temporary))
        versions = {f"baseline ({args.baseline})": old, "this checkout": pages.folder}
        options = ServerOptions(address="127.0.0.1:0", http_address="127.0.0.1:0")
        server, _ = start_server(options, open_catalog())
        assert server.web is not None and server.http_port is not None
        server.web.app.page = pages
        driver = browser()
        try:
            weights: dict[str, tuple[int, int]] = {}
            times: dict[str, list[float]] = {name: [] for name in versions}
            for name, folder in versions.items():
                pages.folder = folder
                weights[name] = weight(server.http_port)
                first_suggestion(driver, server.http_port)  # warm: the server and the browser
            for _ in range(args.runs):
                for name, folder in versions.items():
                    pages.folder = folder
                    times[name].append(first_suggestion(driver, server.http_port))
        finally:
            driver.quit()
            server.stop(0, drain=0)
    print(f"{'page':<22} {'gzip bytes':>10} {'raw bytes':>10} {'first ms p50':>13} {'best':>7}")
    for name in versions:
        sent, plain = weights[name]
        print(
            f"{name:<22} {sent:>10} {plain:>10} {statistics.median(times[name]):>13.1f} "
            f"{min(times[name]):>7.1f}"
        )
    before, after = versions
    heavier = weights[after][0] / weights[before][0]
    slower = statistics.median(times[after]) / statistics.median(times[before])
    print(f"ratio (this / baseline): weight {heavier:.2f}, first suggestion {slower:.2f}")


if __name__ == "__main__":
    main()
