"""An exact proof starts without a JIT and reads one, target-major, reply matrix.

``guesswork-build optimize`` imports no numba, whether its reply matrix is
cached or computed (the search's and the reply matrices' kernels are C; the
greedy builder's numba kernels load only for commands that use them), and the
matrix it reads is the target-major one,
cached on disk under its own key and reused by the next run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder import matrix_cache
from guesswork.builder.matrices import reply_matrix
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle

# Runs the command line in a fresh interpreter and reports what it imported.
PROBE = """
import json, sys
from guesswork.builder.cli import run
status = run(sys.argv[1:])
print(json.dumps({"status": status, "numba": "numba" in sys.modules}), file=sys.stderr)
"""


def _optimize(cache: Path, *options: str) -> tuple[dict[str, object], dict[str, object]]:
    command = [sys.executable, "-c", PROBE, "optimize", "--json", "--quiet", *options]
    env = {**os.environ, "GUESSWORK_CACHE": str(cache)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    return json.loads(done.stdout), json.loads(done.stderr.strip().splitlines()[-1])


def test_a_proof_on_a_cached_matrix_loads_no_jit(tmp_path: Path) -> None:
    options = ("--targets", "wordle-answers-2315", "--guesses", "wordle-answers-2315")
    options += ("--first-guess", "RAISE", "--workers", "1")
    first, first_run = _optimize(tmp_path, *options)  # computes and caches the matrix
    second, second_run = _optimize(tmp_path, *options)
    assert first_run == {"status": 0, "numba": False}  # computing a matrix compiles nothing
    assert second_run == {"status": 0, "numba": False}
    assert first["value"] == second["value"] and second["proven"] is True
    files = sorted(path.name for path in tmp_path.rglob("*.npy"))
    assert len(files) == 2  # the guess-major matrix, and the target-major one made from it


def test_the_target_major_matrix_is_the_same_matrix_laid_out_by_target(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GUESSWORK_CACHE", str(tmp_path))
    game = Wordle()
    answers = load_wordlist("wordle-answers-2315", game)
    guesses = WordList.from_words("some", load_wordlist("wordle-guesses-12972", game).words[::50])
    by_guess = reply_matrix(game, guesses, answers, use_disk=False)
    by_target = reply_matrix(game, guesses, answers, target_major=True)
    assert np.array_equal(by_guess, by_target)
    assert by_target.T.flags.c_contiguous and not by_target.flags.c_contiguous
    # Read back from disk (a new process's view): the same, still target-major.
    key = next(tmp_path.rglob("*.npy")).name.split("-")[0]
    stored = matrix_cache.load(key, by_guess.shape, by_guess.dtype.type)
    assert stored is not None and np.array_equal(stored, by_guess)
    assert stored.T.flags.c_contiguous
