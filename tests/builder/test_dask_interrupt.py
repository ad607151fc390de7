"""Ctrl-C on a search running on a local Dask cluster (builder.optimal.interrupts).

A real ``guesswork-build optimize --workers 2`` in its own process group is
sent SIGINT the way a terminal sends it (to the whole group, its worker
processes included) once it has settled a unit: it prints its one line and
nothing else, exits 130, and leaves a checkpoint that a resumed run finishes
with the uninterrupted value. No mocks, and no wall-clock assertions.

Each test gives SIGINT Python's default handler first, as a terminal's
foreground job has it: the suite may run as a background job of a shell
without job control, which ignores SIGINT, and an ignored SIGINT is inherited
by every process started (the search would never be interrupted) and keeps
the handler from being installed (the finalizer test would wait forever).
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from guesswork.builder.cli import run
from guesswork.builder.optimal.interrupts import QuietInterrupt
from guesswork.builder.wordlists import load_wordlist
from guesswork.client.games import Wordle

pytest.importorskip("distributed")


@pytest.fixture(autouse=True)
def _sigint_as_a_terminal_job_has_it() -> Iterator[None]:
    """Give SIGINT Python's default handler for the test (see the module docstring),
    then give back what it had."""
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("a signal handler is set from the main thread only")
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _units(checkpoint: Path) -> int:
    """Return the units recorded in ``checkpoint`` so far (0 if it is not there yet)."""
    if not checkpoint.exists():
        return 0
    return max(0, checkpoint.read_bytes().count(b"\n") - 1)  # the first line is the fingerprint


def _report(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    """Run ``argv`` with --json in this process; return its report."""
    capsys.readouterr()
    assert run([*argv, "--json"]) == 0
    report: dict[str, object] = json.loads(capsys.readouterr().out)
    return report


def test_ctrl_c_prints_one_line_and_the_checkpoint_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every second answer, normal mode, every opener: a few seconds of search on
    # two workers, its first units settled long before the last.
    answers = load_wordlist("wordle-answers-2315", Wordle()).words[::2]
    targets = tmp_path / "half.txt"
    targets.write_text("\n".join(answers) + "\n")
    checkpoint = tmp_path / "half.ckpt"
    argv = ["optimize", "--targets", str(targets), "--quiet", "--checkpoint", str(checkpoint)]
    search = subprocess.Popen(
        [sys.executable, "-m", "guesswork.builder", *argv, "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        while search.poll() is None and _units(checkpoint) < 1:
            time.sleep(0.02)
        os.killpg(search.pid, signal.SIGINT)  # as Ctrl-C: the coordinator and its workers
        _, err = search.communicate(timeout=300)
    finally:
        if search.poll() is None:
            os.killpg(search.pid, signal.SIGKILL)
            search.wait()
    assert err == "guesswork-build: interrupted\n"  # no worker's traceback, no Dask log
    assert search.returncode == 130
    kept = checkpoint.read_text()
    lines = kept.splitlines()
    assert kept.endswith("\n") and len(lines) >= 2
    assert all(isinstance(json.loads(line), dict) for line in lines)  # no line cut short
    # Resumed on a new cluster, the search finishes where it stopped (appending to
    # what was kept) with the value of a run never interrupted.
    resumed = _report([*argv, "--workers", "2"], capsys)
    assert checkpoint.read_text().startswith(kept)
    alone = _report(["optimize", "--targets", str(targets), "--quiet", "--workers", "1"], capsys)
    assert resumed["engine"] == "dask-local"
    assert (resumed["value"], resumed["proven"]) == (alone["value"], True)


def test_an_interrupt_in_a_finalizer_is_raised_after_it() -> None:
    # Python drops what a __del__ raises: there the handler holds the interrupt
    # back, and sends it again until the search acknowledges it.
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("a signal handler is set from the main thread only")
    interrupt = QuietInterrupt()
    interrupt.install()
    dropped: list[bool] = []

    class Finalized:
        def __del__(self) -> None:
            signal.raise_signal(signal.SIGINT)  # the handler runs here, inside __del__
            dropped.append(True)  # reached: it did not raise here

    try:
        with pytest.raises(KeyboardInterrupt):
            Finalized()
            while True:  # until the interrupt is sent again, outside the finalizer
                time.sleep(0.01)
        interrupt.acknowledge()
        assert dropped == [True] and interrupt.interrupted
        assert logging.root.manager.disable == logging.CRITICAL  # Dask's unwinding unlogged
    finally:
        interrupt.restore()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert logging.root.manager.disable == logging.NOTSET
