"""NYT hard mode under a cap and a ceiling: refutations against brute force (issue #46).

Every opener of small lists where the rule and the cap bind (trap families such
as _ASTE and _IGHT, which hard mode cannot split quickly) is asked whether it
gets below a ceiling, as ``optimize --first-guess WORD --ceiling N`` asks: the
answer must be its exact value when that is below the ceiling, else a refutation
whose lower bound lies between the ceiling and the opener's true value (brute
force). The capped probe (builder.optimal.refute) is checked the same way at
every expansion limit, and the command line's JSON for both outcomes.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder.cli import run
from guesswork.builder.errors import NoTreeBelowCeilingError
from guesswork.builder.matrices import letter_array
from guesswork.builder.nyt_hard import NytRule
from guesswork.builder.optimal import (
    INFEASIBLE,
    RootSearch,
    Search,
    SearchOptions,
    make_problem,
    refute,
)
from guesswork.builder.optimal import optimize as optimal_search
from guesswork.builder.optimal.checkpoint import Checkpoint
from guesswork.builder.optimal.refute import capped_probe
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle
from guesswork.client.rules import nyt_hard_problem

WORDLE = Wordle()
ALLOWED = load_wordlist("wordle-guesses-12972", WORDLE).words


def trap_lists(seed: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Two trap families and three more answers; the guesses add 14 drawn by ``seed``."""
    rng = random.Random(seed)
    targets = ("BASTE", "CASTE", "HASTE", "PASTE", "TASTE", "FIGHT", "LIGHT", "MIGHT", "NIGHT")
    targets += tuple(rng.sample(["CRANE", "SLOTH", "PIOUS", "DWARF", "GLYPH"], 3))
    guesses = tuple(sorted(set(targets) | set(rng.sample(ALLOWED, 14))))
    return tuple(sorted(targets)), guesses


GamePath = tuple[tuple[str, int], ...]


def nyt_least_total(guesses: tuple[str, ...]) -> Callable[[tuple[str, ...], GamePath, int], int]:
    """Return ``best(remaining, path, depth)``: the least NYT-hard total of the targets
    ``remaining`` after the (guess, reply) ``path`` within ``depth`` more guesses
    (INFEASIBLE: none), trying at every node every guess the rule allows after the
    whole path (client.rules). Cached over its arguments."""

    @functools.cache
    def best(remaining: tuple[str, ...], path: GamePath, depth: int) -> int:
        if len(remaining) == 1:
            return 1 if depth >= 1 else INFEASIBLE
        if depth < 2:
            return INFEASIBLE
        legal = (w for w in guesses if nyt_hard_problem(WORDLE, list(path), w) is None)
        return min((after(best, g, remaining, path, depth) for g in legal), default=INFEASIBLE)

    return best


def after(
    best: Callable[[tuple[str, ...], GamePath, int], int],
    guess: str,
    remaining: tuple[str, ...],
    path: GamePath,
    depth: int,
) -> int:
    """Return the least total of ``remaining`` after ``path`` when ``guess`` is played
    next, within ``depth`` guesses counting it (INFEASIBLE: none), each class
    finished by ``best``."""
    classes: dict[int, list[str]] = {}
    for target in remaining:
        classes.setdefault(WORDLE.reply(guess, target), []).append(target)
    if len(classes) == 1 and guess not in remaining:
        return INFEASIBLE  # no progress: never part of a least tree
    total = len(remaining)
    for code, part in classes.items():
        if code != WORDLE.win_reply:
            total += best(tuple(part), (*path, (guess, code)), depth - 1)
    return min(total, INFEASIBLE)


def brute_force(targets: tuple[str, ...], guesses: tuple[str, ...], cap: int) -> dict[str, int]:
    """Return each opener's least total under the NYT rule within ``cap`` guesses
    (INFEASIBLE: none), by ``nyt_least_total``."""
    best = nyt_least_total(guesses)
    return {g: after(best, g, targets, (), cap) for g in guesses}


def fixed(targets: tuple[str, ...], guesses: tuple[str, ...], options: SearchOptions) -> int:
    """Return the search's exact value under ``options``, or raise its refutation."""
    lists = WordList.from_words("t", targets), WordList.from_words("g", guesses)
    result = optimal_search(WORDLE, *lists, options)
    assert result.certificate.proven
    return result.certificate.value


@pytest.mark.parametrize("probe", [0, 2, refute.PROBE_EXPANSIONS])
@pytest.mark.parametrize(("seed", "cap"), [(0, 4), (1, 4), (4, 4), (2, 5), (3, 5)])
def test_each_opener_below_a_ceiling_or_refuted_as_brute_force_says(
    seed: int, cap: int, probe: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each probe limit: none (straight to the uncapped search), one it exceeds, the default.
    monkeypatch.setattr(refute, "PROBE_EXPANSIONS", probe)
    targets, guesses = trap_lists(seed)
    truth = brute_force(targets, guesses, cap)
    finite = sorted(v for v in truth.values() if v < INFEASIBLE)
    assert finite and len(finite) < len(truth)  # some openers win within the cap, some cannot
    ceilings = {finite[0], finite[len(finite) // 2], finite[-1] + 1, 10_000}
    for word, value in truth.items():
        for ceiling in ceilings:
            options = SearchOptions(
                nyt_hard=True, max_guesses=cap, first_guess=word, ceiling=ceiling
            )
            if value < ceiling:
                assert fixed(targets, guesses, options) == value, (word, ceiling)
                continue
            with pytest.raises(NoTreeBelowCeilingError) as raised:
                fixed(targets, guesses, options)
            # Sound: a proven bound, never above the opener's true value (any bound of
            # INFEASIBLE or more says the same: no tree within the cap).
            assert ceiling <= raised.value.bound, (word, ceiling)
            assert min(raised.value.bound, INFEASIBLE) <= value, (word, ceiling)


@pytest.mark.parametrize("limit", [0, 1, 3, 10, 10_000])
def test_the_capped_probe_refutes_only_what_brute_force_refutes(limit: int) -> None:
    targets, guesses = trap_lists(0)
    cap = 4
    truth = brute_force(targets, guesses, cap)
    lists = WordList.from_words("t", targets), WordList.from_words("g", guesses)
    problem, vocabulary = make_problem(WORDLE, *lists)
    everything = np.arange(problem.n_targets, dtype=np.int64)
    found = 0
    for word, value in truth.items():
        for best in sorted({value, value + 1, 40, 60}):
            if best >= INFEASIBLE:
                continue
            options = SearchOptions(nyt_hard=True, max_guesses=cap, ceiling=best)
            search = Search(problem, options)
            guess = vocabulary.words.index(word)
            parts, states, bounds = search.class_bounds(guess, everything, best, cap - 1, (guess,))
            refuted = capped_probe(
                search, guess, everything, parts, states, bounds, best, cap - 1, limit
            )
            if refuted is None:
                # Without a limit the probe decides: it finds every refutation there is.
                assert limit < 10_000 or value < best, (word, best)
                continue
            assert best <= refuted and min(refuted, INFEASIBLE) <= value, (word, best)
            found += 1
            # The root reaches the same answer through the probe.
            root = RootSearch(problem, options, search=Search(problem, options))
            answer, exact = root.evaluate_root(guess, everything, best, cap)
            assert not exact and best <= answer and min(answer, INFEASIBLE) <= value
    assert found > 0 or limit == 0


def test_the_command_line_answers_refuted_or_the_total(
    capsys: pytest.CaptureFixture[str], tmp_path
) -> None:
    targets, guesses = trap_lists(0)
    truth = brute_force(targets, guesses, 4)
    (tmp_path / "t.txt").write_text("\n".join(targets) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(guesses) + "\n")
    lists = ["--targets", str(tmp_path / "t.txt"), "--guesses", str(tmp_path / "g.txt")]
    base = ["optimize", *lists, "--mode", "nyt-hard", "--max-guesses", "4", "--quiet", "--json"]
    winner = min(truth, key=lambda w: (truth[w], w))
    loser = next(w for w in sorted(truth) if truth[w] >= INFEASIBLE)
    value = truth[winner]
    assert run([*base, "--first-guess", winner, "--ceiling", str(value + 1)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["refuted"], report["total"], report["ceiling"]) == (False, value, value + 1)
    assert run([*base, "--first-guess", winner, "--ceiling", str(value)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["refuted"], report["total"], report["infeasible"]) == (True, None, False)
    assert report["lower_bound"] == value  # its true value: the ceiling, reached
    assert run([*base, "--first-guess", loser, "--ceiling", str(value)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["refuted"] and report["lower_bound"] >= value
    # Only the total objective takes a ceiling.
    assert run([*base, "--objective", "minimax", "--ceiling", "9"]) == 2
    assert "--ceiling" in capsys.readouterr().err


def test_a_guess_s_class_states_in_one_call_equal_each_state_alone() -> None:
    # NytRule.children is the search's compiled form of NytRule.child.
    rule = NytRule(letter_array(ALLOWED, 5))
    rng = random.Random(7)
    for _ in range(500):
        state = b""
        for _ in range(rng.randrange(4)):
            state = rule.child(state, rng.randrange(len(ALLOWED)), rng.randrange(243))
        guess = rng.randrange(len(ALLOWED))
        codes = np.array([rng.randrange(243) for _ in range(rng.randrange(8))], dtype=np.int64)
        assert rule.children(state, guess, codes) == [
            rule.child(state, guess, int(c)) for c in codes
        ]
    with pytest.raises(ValueError, match="negative"):
        rule.children(b"", 0, np.array([-1], dtype=np.int64))


@pytest.mark.parametrize(("seed", "cap"), [(0, 5), (2, 5)])
def test_a_search_over_every_opener_refutes_its_survivors_by_the_probe_too(
    seed: int, cap: int, tmp_path: Path
) -> None:
    # The survivors of the first pass must beat the best opener so far: each is probed
    # within the cap, then searched without it, as under --ceiling, and one refuted so
    # is recorded whole in the checkpoint (before, only a ceiling's search did this).
    targets, guesses = trap_lists(seed)
    truth = brute_force(targets, guesses, cap)
    best = min(truth.values())
    lead = min(w for w in truth if truth[w] == best)
    lists = WordList.from_words("t", targets), WordList.from_words("g", guesses)
    options = SearchOptions(nyt_hard=True, max_guesses=cap, lead_opener=lead)
    path = tmp_path / "run.ckpt"
    _, vocabulary = make_problem(WORDLE, *lists)
    result = optimal_search(WORDLE, *lists, options, checkpoint=path)
    assert result.certificate.value == best
    assert result.outcome.survivors
    everything = np.arange(len(targets), dtype=np.int32)
    whole = Checkpoint.unit(0, everything, cap).split(":", 1)[1]
    records = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    refuted = [r for r in records if r["unit"].endswith(":" + whole)]
    assert refuted and all(r["guesses"] is None for r in refuted)
    for record in refuted:
        # Each whole refutation is sound: at least the best, at most the opener's value.
        word = vocabulary.words[int(record["unit"].split(":")[0])]
        assert best <= record["value"] and min(record["value"], INFEASIBLE) <= truth[word]
