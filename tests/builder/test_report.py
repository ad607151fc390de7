"""``guesswork-build report``: pictures of the expected size that are not blank, embedded
in a self-contained HTML page or written as one PNG; one-line errors."""

from __future__ import annotations

import base64
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from guesswork.builder.cli import run

image = pytest.importorskip("matplotlib.image")

TWO = ["wordle-2309-normal-neg-entropy", "wordle-2315-g12972-normal-optimal-first-salet"]
JOTTO = "jotto-2309-hard-max"


def build(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = run(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def decoded(data: bytes) -> Any:
    """Return the pixels of PNG ``data`` (rows x columns x channels, 0..1)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return image.imread(io.BytesIO(data), format="png")


def colours(pixels: Any) -> int:
    """Return how many distinct colours a sample of the pixels holds."""
    sample = pixels[::5, ::5, :3].reshape(-1, 3).round(2)
    return len({tuple(p) for p in sample.tolist()})


def test_a_png_report_of_two_policies_is_one_figure_of_the_expected_size(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "report.png"
    status, out, err = build(capsys, "report", *TWO, "--output", str(output), "--json")
    assert (status, err) == (0, "")
    assert json.loads(out)["pictures"] == [{"name": "report", "width": 1600, "height": 600}]
    pixels = decoded(output.read_bytes())
    assert pixels.shape[:2] == (600, 1600)
    assert colours(pixels) > 20  # bars of two colours, curves, text: not blank
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_png_report_of_one_policy_adds_its_tree(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "one.png"
    status, out, _ = build(capsys, "report", TWO[1], "--output", str(output))
    assert status == 0 and out.startswith(f"wrote {output}: 1 policy; report 1600x1400")
    pixels = decoded(output.read_bytes())
    assert pixels.shape[:2] == (1400, 1600)
    tree = pixels[700:, :, :3]  # the lower half: the tree, with Wordle's coloured squares
    green = (abs(tree[..., 0] - 0x6A / 255) < 0.02) & (abs(tree[..., 1] - 0xAA / 255) < 0.02)
    assert green.sum() > 100


@pytest.mark.parametrize(
    ("policies", "pictures"),
    [
        (TWO, [("histogram", 800, 500), ("cumulative", 800, 500)]),
        ([JOTTO], [("histogram", 800, 500), ("cumulative", 800, 500), ("tree", 1600, 800)]),
    ],
)
def test_an_html_report_embeds_its_pictures_and_a_table(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    policies: list[str],
    pictures: list[tuple[str, int, int]],
) -> None:
    output = tmp_path / "report.html"
    status, _, err = build(capsys, "report", *policies, "--output", str(output))
    assert (status, err) == (0, "")
    page = output.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "http" not in page  # nothing to fetch
    for name in policies:
        assert f"<td>{name}</td>" in page
    found = re.findall(
        r'<img alt="(\w+)" width="(\d+)" height="(\d+)" src="data:image/png;base64,([^"]+)">', page
    )
    assert [(alt, int(w), int(h)) for alt, w, h, _ in found] == pictures
    for _, width, height, data in found:
        pixels = decoded(base64.b64decode(data))
        assert pixels.shape[:2] == (int(height), int(width)) and colours(pixels) > 10


@pytest.mark.parametrize(
    ("args", "status", "words"),
    [
        (["chess", "--output", "r.png"], 1, "no policy"),
        ([JOTTO, "--output", "r.gif"], 1, ".html or .png"),
        ([JOTTO], 2, "--output"),
        ([JOTTO, "--output", "/nonexistent/dir/r.png"], 1, "cannot write"),
    ],
)
def test_report_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], status: int, words: str
) -> None:
    code, out, err = build(capsys, "report", *args)
    assert (code, out) == (status, "")
    assert err.count("\n") == 1 and words in err


def test_without_matplotlib_the_report_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, out, err = build(capsys, "report", JOTTO, "--output", str(tmp_path / "r.png"))
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and "pip install 'guesswork-solver[plots]'" in err
