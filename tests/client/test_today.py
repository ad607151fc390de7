"""Today's game: play and suggest follow the NYT's current lists by default, or the
policy built for the day under its answer calendar where the catalog holds one,
and say which and why; a game whose secret is outside a policy's answer list is
played on (live answers weighted by the shipped prior) and analysed."""

from __future__ import annotations

import dataclasses
import datetime
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from guesswork.__main__ import run
from guesswork.builder.cli import run as build_run
from guesswork.builder.live import GreedyLiveSolver, _ranked
from guesswork.builder.matrices import alphabet_of, letter_array
from guesswork.builder.priors import open_word_weights, shipped_prior
from guesswork.client.catalog import open_catalog
from guesswork.client.games import Wordle
from guesswork.client.policy_choice import (
    TODAY,
    TODAY_DESCRIPTIONS,
    TODAY_HARD_POLICIES,
    TODAY_POLICIES,
    calendar_policy,
    choose_policy,
)
from guesswork.client.suggestion import LIVE_GUESS_LIST
from guesswork.service.local import LocalGuesswork
from guesswork.service.server import ServerOptions, start_server

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
    assert (result["policy"], result["offListPolicy"]) == (EVERY_WORD, "policies/" + OLD_GAME)
    assert (result["weights"], result["answer"], result["solved"]) == ("wordfreq", "SNAFU", True)
    assert len(result["moves"]) == len(history)
    # A skill or luck of 0 is left out, as the JSON mapping leaves out every default.
    assert all(
        0 <= move.get("skill", 0) <= 100 and 0 <= move.get("luck", 0) <= 100
        for move in result["moves"]
    )
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


#: The day the test's own policies are built for, and the prior naming it.
DAY = datetime.date(2025, 6, 1)
CALENDAR = "calendar-2025-06-01"
DAY_WORDS = {"CRANE": 5, "SLATE": 3, "TRACE": 2, "CRATE": 1, "GRACE": 1, "PLACE": 1}


@pytest.fixture(scope="module")
def day_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user catalog holding DAY's policies, normal and NYT hard, as `guesswork-build
    today` makes them: weighted by a prior named after the day's calendar (here a
    small list and a prior file written by hand, built in a second)."""
    folder = tmp_path_factory.mktemp("today")
    words = folder / "words.txt"
    words.write_text("".join(f"{word.lower()}\n" for word in DAY_WORDS), encoding="utf-8")
    prior = folder / f"{CALENDAR}.txt"
    prior.write_text(
        f"# guesswork prior: name={CALENDAR} source=file\n"
        + "".join(f"{word} {weight}\n" for word, weight in DAY_WORDS.items()),
        encoding="utf-8",
    )
    catalog = folder / "catalog.sqlite"
    for mode in ("normal", "nyt-hard"):
        built = ["build", "--targets", str(words), "--weights", str(prior), "--mode", mode]
        assert build_run([*built, "--catalog", str(catalog), "--quiet"]) == 0
    return catalog


@pytest.fixture
def with_day(day_catalog: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """DAY's catalog as the user catalog over the shipped one; yields its policies'
    names by mode."""
    monkeypatch.setenv("GUESSWORK_CATALOG", str(day_catalog))
    with open_catalog(str(day_catalog)) as opened:
        names = {info.mode: info.name for info in opened.list()}
    assert all(
        info.weights == CALENDAR
        for info in LocalGuesswork.open(None).policies()
        if info.name in names.values()
    )
    yield names


def suggested(capsys: pytest.CaptureFixture[str], *options: str) -> dict[str, object]:
    assert run(["suggest", "--history", "", "--json", *options]) == 0
    answer: dict[str, object] = json.loads(capsys.readouterr().out)
    return answer


def test_the_days_policy_is_the_default_on_its_day(
    with_day: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    answer = suggested(capsys, "--date", "2025-06-01")
    assert answer["policy"] == with_day["normal"]
    assert (
        answer["policyReason"]
        == "the policy, built for 2025-06-01 under that day's answer calendar"
    )
    hard = suggested(capsys, "--date", "2025-06-01", "--hard")
    assert hard["policy"] == with_day["nyt-hard"] and "built for 2025-06-01" in str(
        hard["policyReason"]
    )
    # Another day, and today (not DAY), have none: today's lists' policy, and why.
    backend = LocalGuesswork.open(None)
    other = suggested(capsys, "--date", "2025-06-02")
    assert other["policy"] == best_held(backend, TODAY_POLICIES)
    assert other["policyReason"] == (
        "no policy built for 2025-06-02 (`guesswork-build today --date 2025-06-02` builds one); "
        + TODAY_DESCRIPTIONS[str(other["policy"])]
    )
    assert datetime.date.today() != DAY
    today = suggested(capsys)
    assert today["policy"] == best_held(backend, TODAY_POLICIES)
    assert str(today["policyReason"]).startswith(
        f"no policy built for {datetime.date.today()} (`guesswork-build today` builds one); "
    )
    # A named policy has no reason: it was not chosen.
    named = suggested(capsys, "--policy", OLD_GAME)
    assert named["policy"] == OLD_GAME and "policyReason" not in named


def test_suggest_says_why_on_stderr_and_play_at_its_start(
    with_day: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(["suggest", "--history", "", "--date", "2025-06-01"]) == 0
    out, err = capsys.readouterr()
    # The answer alone on stdout, as scripts read it; the choice on stderr.
    assert out.count("\n") == 1 and out.startswith("TRACE  (6 possible, stored)")
    assert err == (
        f"Default policy {with_day['normal']}: the policy, built for 2025-06-01 under that "
        "day's answer calendar\n"
    )
    assert run(["suggest", "--history", "", "--policy", OLD_GAME]) == 0
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert run(["play", "--date", "2025-06-01"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"{with_day['normal']}: Type the reply")
    assert lines[1:3] == [
        "Default policy: the policy, built for 2025-06-01 under that day's answer calendar.",
        f"{with_day['normal']} is guaranteed within 6.",
    ]


def test_the_choice_is_the_same_against_a_server(
    day_catalog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with open_catalog(str(day_catalog)) as opened:
        server, port = start_server(ServerOptions(address="127.0.0.1:0"), opened)
        try:
            answer = suggested(capsys, "--server", f"127.0.0.1:{port}", "--date", "2025-06-01")
        finally:
            server.stop(0, drain=0)
        normal = calendar_policy(opened.list(), DAY)
    assert normal is not None and answer["policy"] == normal
    assert "built for 2025-06-01" in str(answer["policyReason"])


def test_the_days_policy_prefers_an_optimum_then_the_name(with_day: dict[str, str]) -> None:
    """Of several policies built for the day in the wanted mode, one named optimal
    first, then the first by name; the other mode's, other days' and other lengths'
    never."""
    listed = LocalGuesswork.open(None).policies()
    day = next(info for info in listed if info.name == with_day["normal"])
    others = [
        dataclasses.replace(day, name="b-optimal"),
        dataclasses.replace(day, name="a-greedy"),
        dataclasses.replace(day, name="0-six-letters", length=6),
        dataclasses.replace(day, name="0-other-day", weights="calendar-2025-06-02"),
    ]
    assert calendar_policy([*listed, *others], DAY) == "b-optimal"
    assert calendar_policy([*listed, *others[1:]], DAY) == "a-greedy"
    assert calendar_policy([*listed, *others], DAY, hard=True) == with_day["nyt-hard"]
    assert calendar_policy(listed, DAY + datetime.timedelta(days=1)) is None
    choice = choose_policy([*listed, *others], None, 5, day=DAY)
    assert choice.name == "b-optimal" and "built for 2025-06-01" in str(choice.reason)
    # A multi-board game plays today's lists, whatever the day.
    boards = choose_policy(listed, None, None, calendar=False)
    assert boards.name == best_held(LocalGuesswork.open(None), TODAY_POLICIES)


def test_every_one_of_todays_policies_is_described() -> None:
    assert set(TODAY_POLICIES + TODAY_HARD_POLICIES) == set(TODAY_DESCRIPTIONS)
    # Shipped by the lead after the plain cap-6 optimum, before the one given SALET.
    tarse = TODAY_HARD_POLICIES.index("wordle-3158-g14855-nyt-hard-optimal-cap6-first-tarse")
    assert TODAY_HARD_POLICIES[tarse - 1] == "wordle-3158-g14855-nyt-hard-optimal-cap6"
    assert TODAY_HARD_POLICIES[tarse + 1].endswith("-cap6-first-salet")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--date", "2025-6-1"], "argument --date: a day is written YYYY-MM-DD"),
        (["--date", "2025-02-30"], "argument --date: '2025-02-30' is not a day of the calendar"),
        (["--date", "2025-06-01", "--policy", OLD_GAME], "--date picks a policy"),
        (["--date", "2025-06-01", "--length", "6"], "drop --length, --language and --boards"),
        (["--date", "2025-06-01", "--language", "es"], "drop --length, --language and --boards"),
        (["--date", "2025-06-01", "--board", "", "--board", ""], "on one board"),
    ],
)
def test_a_bad_date_is_a_one_line_usage_error(
    options: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["suggest", *options]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err, err
    assert "Traceback" not in err
