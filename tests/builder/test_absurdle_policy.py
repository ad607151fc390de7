"""Absurdle's line stored as a policy: a complete tree that plays the line against
the adversary, with a certificate that ``verify`` re-checks and ``--prove`` re-proves."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from guesswork.builder.absurdle import absurdle_optimum
from guesswork.builder.absurdle_policy import AbsurdleSpec, build_absurdle_policy
from guesswork.builder.cli import run
from guesswork.builder.errors import SpecError
from guesswork.builder.policies import BuiltPolicy
from guesswork.builder.verify import verify_certificate, verify_policy
from guesswork.builder.wordlists import load_wordlist
from guesswork.client.games import Wordle
from guesswork.client.rules import absurdle_reply

from .stored import as_policy

WORDLE = Wordle()


@functools.cache
def built(mode: str) -> BuiltPolicy:
    return build_absurdle_policy(
        AbsurdleSpec(targets="wordle-answers-2315", guesses="wordle-guesses-12972", mode=mode)
    )


@pytest.mark.parametrize("mode", ["normal", "nyt-hard"])
def test_the_policy_plays_the_proven_line_and_verifies(mode: str) -> None:
    policy = as_policy(built(mode))
    answers = load_wordlist("wordle-answers-2315", WORDLE)
    guesses = load_wordlist("wordle-guesses-12972", WORDLE)
    line = absurdle_optimum(WORDLE, answers, guesses, hard=mode == "nyt-hard")
    assert policy.name == f"wordle-2315-g12972-{mode}-absurdle"
    cert = policy.data.certificate
    assert cert is not None
    assert (cert["objective"], cert["value"], cert["proven"]) == ("absurdle", 4, True)
    assert cert["absurdle"]["line"] == list(line.guesses)
    # Walking the stored tree with the adversary's replies plays the line to the win.
    alive, played, node = list(answers.words), [], policy.root
    while True:
        guess = policy.guess(node)
        played.append(guess)
        code, _ = absurdle_reply(WORDLE, guess, alive)
        if code == WORDLE.win_reply:
            break
        alive = [w for w in alive if WORDLE.reply(guess, w) == code]
        node = policy.step(node, code)
    assert played == list(line.guesses)
    # A complete Wordle tree besides: every target is reached and won.
    assert verify_policy(policy) == []
    assert verify_certificate(policy, prove=True) == []


@pytest.mark.parametrize(
    ("changes", "fault"),
    [
        ({"value": 3, "lower_bound": 3}, "beats Absurdle in 4 guesses, not the certificate's 3"),
        ({"lower_bound": 3, "proven": False}, "not recorded as proven least"),
        ({"absurdle": {"line": ["CRANE", "WHOOP"]}}, "not the line CRANE WHOOP"),
        ({"absurdle": {}}, "has no line"),
        ({"first_guess": "CRANE"}, "not the fixed CRANE"),
    ],
)
def test_a_changed_certificate_fails_verify(changes: dict[str, object], fault: str) -> None:
    faults = verify_certificate(as_policy(built("normal"), changes))
    assert any(fault in text for text in faults), faults


def test_a_value_the_search_does_not_reproduce_fails_prove() -> None:
    # A line claimed one guess longer, its tree's node values made to agree: only
    # running the search again shows that 4 guesses suffice.
    policy = as_policy(built("normal"), {"value": 5, "lower_bound": 5})
    faults = verify_certificate(policy, prove=True)
    assert any("not the certificate's 5" in text for text in faults), faults


def test_bad_specs_are_refused() -> None:
    with pytest.raises(SpecError, match="--mode nyt-hard"):
        AbsurdleSpec(mode="hard").check()
    with pytest.raises(SpecError, match="not jotto"):
        AbsurdleSpec(game="jotto", mode="normal").check()
    with pytest.raises(SpecError, match="--weights"):
        AbsurdleSpec(weights="wordfreq").check()


def test_the_shipped_policies_verify_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    names = [f"wordle-2315-g12972-{mode}-absurdle" for mode in ("normal", "nyt-hard")]
    assert run(["verify", *(f"--policy={name}" for name in names), "--prove", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(row["name"], row["faults"]) for row in report] == [(name, []) for name in names]


def test_optimize_stores_a_line_that_verify_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = str(tmp_path / "mine.sqlite")
    lists = ["--targets", "wordle-answers-2315", "--guesses", "wordle-guesses-12972"]
    command = ["optimize", "--game", "absurdle", *lists, "--mode", "nyt-hard", "--json"]
    assert run([*command, "--first-guess", "SALET", "--catalog", catalog, "--publish"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["name"] == "wordle-2315-g12972-nyt-hard-absurdle-first-salet"
    assert (info["worst"], info["proven"], info["line"][0][0]) == (4, True, "SALET")
    assert run(["verify", "--catalog", catalog, "--policy", info["name"], "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"name": info["name"], "faults": []}]
    # A challenge line ends on one word: it is not a policy.
    assert run([*command, "--challenge", "WHOOP", "--catalog", catalog, "--publish"]) == 2
    assert "challenge line" in capsys.readouterr().err


@pytest.mark.parametrize(("mode", "opener"), [("normal", "CRANE"), ("nyt-hard", "SALET")])
def test_off_the_line_answers_continue_the_best_line(mode: str, opener: str) -> None:
    """A player who opens elsewhere gets, live, the rest of the shortest line that beats
    Absurdle after that opener: played out against the adversary, the game takes
    exactly as many guesses as the search proves least given the opener."""
    from guesswork.service.local import LocalGuesswork

    backend = LocalGuesswork.open(None)
    name = f"wordle-2315-g12972-{mode}-absurdle"
    answers = load_wordlist("wordle-answers-2315", WORDLE)
    guesses = load_wordlist("wordle-guesses-12972", WORDLE)
    best = absurdle_optimum(WORDLE, answers, guesses, first_guess=opener, hard=mode == "nyt-hard")
    alive, history, guess = list(answers.words), [], opener
    while True:
        code, _ = absurdle_reply(WORDLE, guess, alive)
        history.append((guess, WORDLE.format_reply(code)))
        if code == WORDLE.win_reply:
            break
        alive = [word for word in alive if WORDLE.reply(guess, word) == code]
        answer = backend.suggest(name, history)
        assert answer.source == "live"
        guess = answer.guess
    assert [word for word, _ in history] == list(best.guesses)
    assert len(history) == best.worst


def test_a_live_line_search_stops_when_its_call_ends() -> None:
    """The search behind a live answer checks that its caller still waits (a client
    that went away, or a server shutting down, stops it); the refuted sets it keeps
    stay sound, so the next question gets the right answer."""
    import numpy as np

    from guesswork.builder.absurdle_policy import AbsurdleContinuation
    from guesswork.client.catalog import open_catalog
    from guesswork.client.interrupt import CALL_ACTIVE, CallEndedError

    policy = open_catalog().policy("wordle-2315-g12972-normal-absurdle")
    continuation = AbsurdleContinuation(policy)
    everything = np.arange(len(policy.targets))
    token = CALL_ACTIVE.set(lambda: False)
    try:
        with pytest.raises(CallEndedError):
            continuation.first_guess(everything, [])
    finally:
        CALL_ACTIVE.reset(token)
    first = continuation.first_guess(everything, [])
    assert first is not None and policy.vocabulary[first] == built("normal").tree.first_guess
