"""The README and docs/: short README, every runnable example runs as shown, and the
documentation site builds with warnings as errors, its references written from the code."""

from __future__ import annotations

import argparse
import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

from guesswork.builder.cli import build_parser as builder_parser
from guesswork.client.cli import build_parser as client_parser
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.service.cli import build_parser as service_parser

from .runnable_docs import Example, console_steps, examples, run_examples

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
#: The environment's bin folder: make test runs .venv/bin/python, so .venv/bin.
BIN = Path(sys.executable).parent


def test_the_readme_is_a_readme() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert "../shared" not in text  # a clone has no ../shared
    for target in re.findall(r"\]\((docs/[^)#]+)", text):
        assert (ROOT / target).is_file(), f"the README links {target}, which is not there"


def test_the_readme_examples_run_as_shown(tmp_path: Path) -> None:
    found = examples(README)
    assert len(found) >= 6 and {example.language for example in found} == {"console", "pycon"}
    assert run_examples(found, BIN, tmp_path) == []


@pytest.mark.parametrize(
    "page", sorted(path.name for path in DOCS.glob("*.rst") if examples(path)), ids=str
)
def test_the_docs_examples_run_as_shown(page: str, tmp_path: Path) -> None:
    assert run_examples(examples(DOCS / page), BIN, tmp_path) == []


def test_a_wrong_output_or_a_failing_command_is_reported(tmp_path: Path) -> None:
    """The runner is a check that can fail: output unlike the shown, or a failing command."""
    wrong = Example(README, 1, "console", "$ echo one\ntwo\n$ false")
    problems = run_examples([wrong], BIN, tmp_path)
    assert len(problems) == 2 and "--- shown\ntwo\n--- printed\none\n" in problems[0]
    assert "$ false\n(exit 1)" in problems[1]
    failing = Example(README, 1, "pycon", ">>> 1 + 1\n3")
    assert "the doctest failed" in run_examples([failing], BIN, tmp_path)[0]
    script = Example(README, 1, "shell", "true\nfalse\necho never")
    (problem,) = run_examples([script], BIN, tmp_path)
    assert "the commands failed (exit 1)" in problem and "never" not in problem


def test_examples_run_with_progress_off(tmp_path: Path) -> None:
    """No progress line in an example's output, however slow the machine (issue #43)."""
    shown = Example(README, 1, "console", "$ echo ${GUESSWORK_PROGRESS-unset}\n0")
    assert run_examples([shown], BIN, tmp_path) == []


def test_a_transcript_feeds_what_is_typed_at_the_prompt() -> None:
    steps = console_steps("$ guesswork play\nGuess 1: SALET\nreply> .G..G\nGuess 2: THING\n")
    assert len(steps) == 1 and steps[0].typed == [".G..G"]
    assert steps[0].shown == ["Guess 1: SALET", "reply> \0", "Guess 2: THING"]


def _option_anchors(parser: argparse.ArgumentParser, prog: str) -> set[str]:
    """Return the anchor Sphinx gives every option of ``parser`` and its subcommands
    (``guesswork-suggest-server`` for ``guesswork suggest --server``)."""
    found = {
        re.sub(r"[^a-z0-9]+", "-", f"{prog} {name.lstrip('-')}".lower())
        for action in parser._actions
        if action.help != argparse.SUPPRESS  # a renamed flag kept for old scripts
        for name in action.option_strings
    }
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= _option_anchors(sub, f"{prog} {name}")
    return found


def test_the_docs_build_without_a_warning_and_document_everything(tmp_path: Path) -> None:
    out = tmp_path / "html"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-n",
            "-q",
            "-b",
            "html",
            str(DOCS),
            str(out),
            "-d",
            str(tmp_path / "doctrees"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    cli = (out / "cli.html").read_text(encoding="utf-8")
    # Sphinx gives each documented option an anchor: cmdoption-PROG-SUBCOMMAND-OPTION.
    anchors = set(re.findall(r'id="cmdoption-([^"]+)"', cli))
    parsers = [
        (client_parser(), "guesswork"),
        (builder_parser(), "guesswork-build"),
        (service_parser()[0], "guesswork-serve"),
    ]
    for parser, prog in parsers:
        missing = _option_anchors(parser, prog) - anchors
        assert not missing, f"options not in the CLI reference: {sorted(missing)}"
    grpc = html.unescape(re.sub(r"<[^>]+>", "", (out / "grpc.html").read_text(encoding="utf-8")))
    for method in pb.DESCRIPTOR.services_by_name["Guesswork"].methods:
        assert f"rpc {method.name}(" in grpc, method.name
    for message in pb.DESCRIPTOR.message_types_by_name:
        assert f"\n{message}¶" in grpc, message  # its heading
