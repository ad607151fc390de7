"""Whether a policy is guaranteed within Wordle's six guesses: the one phrase
(client.policy_info.guarantee) that `guesswork policies`, `play`'s start and the
help say, computed from the shipped policies' own summaries."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from guesswork.__main__ import run
from guesswork.client.messages import policy_json
from guesswork.client.play import start_lines
from guesswork.client.policy_info import WORDLE_GUESS_LIMIT, PolicyInfo, guarantee
from guesswork.service.local import LocalGuesswork

from .test_cli_length import play_lines

ROOT = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
WITHIN = "wordle-3158-g14855-normal-optimal"  # worst 6
PAST = "wordle-4-enable1-normal-neg-entropy"  # worst 8
#: NYT hard over the 2,309 answers and 12,972 guesses: the greedy tree (worst 8) and the
#: cap-6 optimum given SALET over the same lists.
HARD_GREEDY = "wordle-2309-g12972-nyt-hard-neg-entropy"
HARD_CAPPED = "wordle-2309-g12972-nyt-hard-optimal-cap6-first-salet"


@pytest.fixture(scope="module")
def summaries() -> dict[str, PolicyInfo]:
    return {info.name: info for info in LocalGuesswork.open(None).policies()}


def past_the_limit(info: PolicyInfo) -> int:
    """Return how many of ``info``'s targets take more than six guesses, by its histogram."""
    return sum(count for guesses, count in info.histogram if guesses > WORDLE_GUESS_LIMIT)


def play(*options: str) -> str:
    """Return what `guesswork play OPTIONS` prints before the player quits."""
    return play_lines(list(options), ["q"])


def test_a_policy_within_6_is_guaranteed_and_one_past_it_says_how_many_are_not(
    summaries: dict[str, PolicyInfo],
) -> None:
    within, past = summaries[WITHIN], summaries[PAST]
    assert within.worst <= WORDLE_GUESS_LIMIT and guarantee(within) == "guaranteed within 6"
    over = past_the_limit(past)
    assert past.worst == 8 and 0 < over < past.count == sum(n for _, n in past.histogram)
    assert guarantee(past) == (
        f"not guaranteed within 6: {over} of {past.count} answers take 7 or more (worst 8)"
    )
    # Only single-board Wordle has a limit: the other games are played to the end.
    assert guarantee(summaries["jotto-2309-normal-max"]) is None
    assert guarantee(summaries["antiwordle-2309-hard-entropy"]) is None


def test_the_listing_says_each_wordle_policys_guarantee(
    summaries: dict[str, PolicyInfo], capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["policies"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    for name, info in summaries.items():
        said = guarantee(info)
        if said is None:
            assert "guaranteed" not in lines[name]
        else:  # beside the worst case; the catalog still ends the line (before language, prior)
            assert f"worst {info.worst}  {said}  {info.catalog}" in lines[name]
    assert run(["policies", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows[WITHIN]["guarantee"] == "guaranteed within 6"
    assert rows[PAST]["guarantee"] == guarantee(summaries[PAST])
    assert rows["jotto-2309-normal-max"]["guarantee"] is None
    # Each row is the policy's listing JSON (client.messages.policy_json), the guarantee
    # added beside it.
    assert all(
        row == {**policy_json(summaries[name]), "guarantee": row["guarantee"]}
        for name, row in rows.items()
    )


def test_plays_start_says_the_chosen_policys_guarantee(summaries: dict[str, PolicyInfo]) -> None:
    lines = play().splitlines()
    assert lines[0].startswith(f"{WITHIN}: Type the reply")
    assert lines[1].startswith("Default policy: ") and lines[1].endswith("proven optimum.")
    assert lines[2] == f"{WITHIN} is guaranteed within 6."
    assert lines[3] == "Guess 1: TARSE  (3158 possible)"
    # Past the limit it is said plainly, naming how many, and that nothing better is held.
    lines = play("--length", "4").splitlines()
    assert lines[0].startswith(f"{PAST}:")
    assert lines[1] == "Default policy: the catalog's Wordle policy for 4-letter words."
    assert lines[2] == (
        f"{PAST} is {guarantee(summaries[PAST])}; no tree within 6 over these lists is in the "
        "catalog."
    )
    # A policy named is warned about only when it is not guaranteed: the player chose it.
    lines = play("--policy", "wordle-2309-normal-max").splitlines()
    assert lines[1].startswith("Guess 1: ")
    lines = play("--policy", HARD_GREEDY).splitlines()
    assert lines[1] == (
        f"{HARD_GREEDY} is {guarantee(summaries[HARD_GREEDY])}; {HARD_CAPPED} is "
        f"(--policy {HARD_CAPPED})."
    )


def test_a_guaranteed_tree_over_the_same_lists_and_mode_is_named(
    summaries: dict[str, PolicyInfo],
) -> None:
    greedy, capped = summaries[HARD_GREEDY], summaries[HARD_CAPPED]
    assert greedy.worst > 6 >= capped.worst and past_the_limit(greedy) > 0
    said = f"{HARD_GREEDY} is {guarantee(greedy)}"
    listed = list(summaries.values())
    assert start_lines(greedy, listed, None) == [
        f"{said}; {HARD_CAPPED} is (--policy {HARD_CAPPED})."
    ]
    # Not over other lists, nor in another mode.
    others = [info for info in listed if info.name != HARD_CAPPED]
    assert start_lines(greedy, others, "why") == [
        "Default policy: why.",
        f"{said}; no tree within 6 over these lists is in the catalog.",
    ]
    assert start_lines(capped, listed, None) == []
    assert start_lines(capped, listed, "why") == [
        "Default policy: why.",
        f"{HARD_CAPPED} is guaranteed within 6.",
    ]
    assert start_lines(summaries["jotto-2309-normal-max"], listed, None) == []


def test_the_help_says_the_defaults_are_guaranteed_within_6_in_both_modes() -> None:
    for command in ("play", "suggest"):
        result = subprocess.run(
            [sys.executable, "-m", "guesswork", command, "--help"],
            env=ENV,
            capture_output=True,
            text=True,
            timeout=120,
        )
        text = " ".join(result.stdout.split())
        hard = text[text.index("--hard NYT hard mode") :]
        assert "guaranteed within 6 as the normal-mode default is" in hard
        assert "wordle-3158-g14855-nyt-hard-optimal-cap6:" in hard
        policy = text[text.index("--policy POLICY") :]
        assert "proven optimum, guaranteed within 6" in policy
