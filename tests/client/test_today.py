"""Today's game: play and suggest follow the NYT's current lists by default, and a
game whose secret is outside a policy's answer list is played on (live answers
weighted by the shipped prior) and analysed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder.live import GreedyLiveSolver, _ranked
from guesswork.builder.matrices import alphabet_of, letter_array
from guesswork.builder.priors import open_word_weights, shipped_prior
from guesswork.client.games import Wordle
from guesswork.client.policy_choice import TODAY, TODAY_HARD_POLICIES, TODAY_POLICIES
from guesswork.client.suggestion import LIVE_GUESS_LIST
from guesswork.service.local import LocalGuesswork

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
OLD_GAME = "wordle-2309-normal-neg-entropy"
EVERY_WORD = "wordle-14855-weighted-wordfreq-normal-neg-entropy"
WORDLE = Wordle()


@pytest.fixture(scope="module")
def backend() -> LocalGuesswork:
    return LocalGuesswork.open(None)


def guesswork(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "guesswork", *args],
        input=stdin,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
    )


def reply(guess: str, secret: str) -> str:
    return WORDLE.format_reply(WORDLE.reply(guess, secret), "letters")


def best_held(backend: LocalGuesswork, names: tuple[str, ...]) -> str:
    held = {info.name for info in backend.policies()}
    return next(name for name in names if name in held)


def test_play_with_no_options_follows_todays_lists(backend: LocalGuesswork) -> None:
    today = best_held(backend, TODAY_POLICIES)
    policy = backend.lookups.policy(today).policy
    assert policy.data.targets.name == "wordle-answers-3158"
    assert policy.data.guesses.name == "wordle-guesses-14855"
    out = guesswork("play", stdin="q\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"{today}:")
    assert f"Guess 1: {policy.guess(policy.root)}  (3158 possible)" in out.stdout


def test_help_says_which_list_and_as_of_when() -> None:
    out = guesswork("--help")
    assert out.returncode == 0
    text = " ".join(out.stdout.split())
    assert (
        "3158 answers as of 2023-07-01" in text and "14855 guesses allowed since 2022-08-30" in text
    )
    assert "3158 answers as of 2023-07-01" in TODAY
    play_help = " ".join(guesswork("play", "--help").stdout.split())
    assert "3158 answers as of 2023-07-01" in play_help and "--hard" in play_help


def test_suggest_json_names_the_policy_that_answered(backend: LocalGuesswork) -> None:
    out = guesswork("suggest", "--history", "", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["policy"] == best_held(backend, TODAY_POLICIES)
    hard = guesswork("suggest", "--hard", "--history", "", "--json")
    assert json.loads(hard.stdout)["policy"] == best_held(backend, TODAY_HARD_POLICIES)
    assert backend.lookups.policy(json.loads(hard.stdout)["policy"]).policy.data.mode == "nyt-hard"
    named = guesswork("suggest", "--policy", OLD_GAME, "--history", "", "--json")
    assert json.loads(named.stdout)["policy"] == OLD_GAME
    both = guesswork("suggest", "--policy", OLD_GAME, "--hard")
    assert both.returncode == 2 and "--hard picks a policy" in both.stderr


def test_live_answers_off_the_answer_list_are_weighted_by_the_prior(
    backend: LocalGuesswork,
) -> None:
    """PINES is allowed but none of the 2309 answers: after RAISE and ADEPT sixteen
    allowed words fit. The live answer is the greedy step's best with those words
    weighted by the shipped prior, which here differs from counting them alike."""
    history = [("RAISE", reply("RAISE", "PINES")), ("ADEPT", reply("ADEPT", "PINES"))]
    answer = backend.suggest(OLD_GAME, history, 0)
    assert answer.source == LIVE_GUESS_LIST
    lookup = backend.lookups.policy(OLD_GAME)
    turns = lookup.turns(history)
    possible = lookup.possible_words(turns)
    words = lookup.open_words
    alphabet = alphabet_of(words)
    coded = (letter_array(words, 5, alphabet), alphabet)
    step = GreedyLiveSolver().prepared(lookup.policy)[0]
    played = [(turn.word, turn.code) for turn in turns]
    weights = open_word_weights(None, words)
    assert weights is not None and len(possible) == answer.remaining
    weighted = _ranked(lookup.policy, step, coded, possible, 1, played, weights[possible])
    uniform = _ranked(lookup.policy, step, coded, possible, 1, played)
    assert answer.guess == words[weighted.indices[0]] != words[uniform.indices[0]]
    prior = shipped_prior("wordfreq")
    assert [prior.weight_of(words[i]) for i in possible] == weights[possible].tolist()


def test_snafu_is_played_through_play_and_analysed(backend: LocalGuesswork) -> None:
    """SNAFU is a 2023 answer, none of the 2309: the 2022 game's policy plays on over
    its guess list and wins, and analyze values the finished game over every allowed
    word weighted by the prior instead of refusing it."""
    history: list[tuple[str, str]] = []
    while not (answer := backend.suggest(OLD_GAME, history, 0)).solved:
        history.append((answer.guess, reply(answer.guess, "SNAFU")))
    assert history[-1] == ("SNAFU", "GGGGG")
    assert "SNAFU" not in backend.lookups.policy(OLD_GAME).policy.targets
    played = guesswork("play", "--policy", OLD_GAME, stdin="\n".join(r for _, r in history) + "\n")
    assert played.returncode == 0, played.stderr
    assert f"Solved in {len(history)} guesses." in played.stdout
    assert "the secret is outside its answer list" in played.stdout
    text = ",".join(f"{guess}:{code}" for guess, code in history)
    analysed = guesswork("analyze", "--policy", OLD_GAME, "--history", text, "--json")
    assert analysed.returncode == 0, analysed.stderr
    result = json.loads(analysed.stdout)
    assert (result["policy"], result["off_list_policy"]) == (EVERY_WORD, OLD_GAME)
    assert (result["weights"], result["answer"], result["solved"]) == ("wordfreq", "SNAFU", True)
    assert len(result["moves"]) == len(history)
    assert all(0 <= move["skill"] <= 100 and 0 <= move["luck"] <= 100 for move in result["moves"])
    table = guesswork("analyze", "--policy", OLD_GAME, "--history", text)
    assert f"the secret is outside {OLD_GAME}'s answer list" in table.stdout
    assert "weighted by the prior wordfreq" in table.stdout
    # The answer given outright is taken too, and a word no allowed guess fits is not.
    given = guesswork("analyze", "--policy", OLD_GAME, "--history", text, "--answer", "snafu")
    assert given.returncode == 0, given.stderr
    wrong = guesswork("analyze", "--policy", OLD_GAME, "--history", text, "--answer", "qzxvw")
    assert wrong.returncode == 1 and wrong.stderr.count("\n") == 1


def test_the_weighted_analysis_expects_under_the_prior(backend: LocalGuesswork) -> None:
    """Under the every-word policy, E of the tree's own first guess is an expectation
    under the prior: at most the tree's weighted mean (each class is valued by the
    tree or better, exactly), and far below its unweighted mean."""
    lookup = backend.lookups.policy(EVERY_WORD)
    policy = lookup.policy
    secret = "CRANE"
    history: list[tuple[str, str]] = []
    node = policy.root
    while True:
        guess = policy.guess(node)
        history.append((guess, reply(guess, secret)))
        if guess == secret:
            break
        node = policy.step(node, WORDLE.reply(guess, secret))
    analysis = backend.lookups.analyze(EVERY_WORD, history)
    assert analysis.weights == "wordfreq" and analysis.off_list_policy == ""
    first = analysis.moves[0]
    weights = np.asarray(policy.data.weights, dtype=np.float64)
    scores = np.array(policy.replay_all(), dtype=np.float64)
    weighted_mean = float(scores @ weights / weights.sum())
    assert first.guess == policy.guess(policy.root)
    assert weighted_mean - 0.3 < first.expected <= weighted_mean + 1e-9 < scores.mean() - 0.2


def test_policies_lists_say_what_weighs_a_policy(backend: LocalGuesswork) -> None:
    """`guesswork policies`: a weighted policy's line names its prior (its mean is the
    expected guesses under it); --json has `weights` for every policy."""
    out = guesswork("policies")
    assert out.returncode == 0, out.stderr
    lines = {line.split()[0]: line for line in out.stdout.splitlines()}
    assert lines[EVERY_WORD].endswith("weighted by wordfreq")
    assert "weighted" not in lines[OLD_GAME]
    rows = json.loads(guesswork("policies", "--json").stdout)
    assert {row["name"]: row["weights"] for row in rows}[EVERY_WORD] == "wordfreq"
    assert all("weights" in row for row in rows)
