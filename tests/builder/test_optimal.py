"""Optimal, capped, minimax and lookahead search (builder.optimal) against brute force,
published results and tampered certificates."""

from __future__ import annotations

import dataclasses
import functools
import json
import random
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder import policies
from guesswork.builder.cli import run
from guesswork.builder.optimal import Checkpoint, SearchError, SearchOptions, fingerprint, optimize
from guesswork.builder.policies import OptimalSpec, build_optimal_policy
from guesswork.builder.publish import StoredPolicy, publish_catalog
from guesswork.builder.verify import verify_certificate, verify_policy
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.catalog import open_policy_file
from guesswork.client.games import Game, Jotto, Wordle
from guesswork.client.policy_file import (
    encode_file,
    encode_words,
)
from guesswork.client.policy_format import (
    encode_core,
)
from guesswork.client.probe import Policy

from .stored import stored_policy

WORDLE = Wordle()
ANSWERS = load_wordlist("wordle-answers-2309", WORDLE).words


def brute_force(
    game: Game,
    targets: tuple[str, ...],
    guesses: tuple[str, ...],
    *,
    hard: bool,
    minimax: bool,
    cap: int | None = None,
) -> float:
    """Return the optimum by trying every guess at every node (no bounds, no pruning)."""

    @functools.cache
    def best(remaining: tuple[str, ...], left: int) -> float:
        if left == 0:
            return float("inf")
        candidates = remaining if hard else tuple(dict.fromkeys(guesses + remaining))
        out = float("inf")
        for guess in candidates:
            classes: dict[int, list[str]] = {}
            for target in remaining:
                classes.setdefault(game.reply(guess, target), []).append(target)
            if len(classes) == 1 and guess not in remaining:
                continue
            values = [
                best(tuple(part), left - 1)
                for code, part in classes.items()
                if code != game.win_reply
            ]
            value = (1 + max(values, default=0)) if minimax else len(remaining) + sum(values)
            out = min(out, value)
        return out

    return best(targets, cap or 64)


def random_lists(seed: int, pool: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    rng = random.Random(seed)
    return tuple(rng.sample(pool, rng.randint(3, 12))), tuple(rng.sample(pool, rng.randint(5, 50)))


def tree_value(result_tree: object, objective: str) -> int:
    scores = result_tree.target_scores  # type: ignore[attr-defined]
    return int(scores.max()) if objective == "minimax" else int(scores.sum())


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("hard", [False, True])
def test_exact_values_equal_brute_force_on_small_random_lists(seed: int, hard: bool) -> None:
    game: Game = WORDLE if seed % 4 else Jotto()
    pool = ANSWERS if isinstance(game, Wordle) else tuple(w for w in ANSWERS if len(set(w)) == 5)
    target_words, guess_words = random_lists(seed, pool)
    targets = WordList.from_words("t", target_words)
    guesses = WordList.from_words("g", guess_words)
    for objective, cap in (("total", None), ("total", 3), ("minimax", None)):
        expected = brute_force(
            game, target_words, guess_words, hard=hard, minimax=objective == "minimax", cap=cap
        )
        options = SearchOptions(objective=objective, hard=hard, max_guesses=cap)
        if expected == float("inf"):
            with pytest.raises(SearchError, match="cap"):
                optimize(game, targets, guesses, options)
            continue
        result = optimize(game, targets, guesses, options)
        assert result.certificate.value == expected, (objective, cap)
        assert tree_value(result.tree, objective) == expected
        assert result.certificate.proven and result.certificate.lower_bound == expected
        if cap is not None:
            assert int(result.tree.target_scores.max()) <= cap


@pytest.mark.parametrize("seed", range(12))
def test_lookahead_is_an_upper_bound_and_exact_when_the_beam_is_wide(seed: int) -> None:
    target_words, guess_words = random_lists(100 + seed, ANSWERS)
    targets = WordList.from_words("t", target_words)
    guesses = WordList.from_words("g", guess_words)
    exact = optimize(WORDLE, targets, guesses, SearchOptions()).certificate.value
    for beam in (1, 2, 4):
        result = optimize(WORDLE, targets, guesses, SearchOptions(beam=beam))
        cert = result.certificate
        assert cert.value >= exact and cert.lower_bound <= exact
        assert cert.proven == (cert.value == cert.lower_bound)
        assert tree_value(result.tree, "total") == cert.value
    wide = optimize(WORDLE, targets, guesses, SearchOptions(beam=10_000)).certificate
    assert wide.value == exact and wide.proven


def trap_lists(seed: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return random lists heavy in traps (words sharing three letters in place with
    one word, as _ATCH), where a tight cap binds: targets, and guesses holding them."""
    rng = random.Random(seed)
    base = rng.choice(ANSWERS)
    family = [w for w in ANSWERS if sum(a == b for a, b in zip(w, base, strict=True)) >= 3]
    targets = tuple(dict.fromkeys(family[:30] + rng.sample(ANSWERS, 10)))
    return targets, tuple(dict.fromkeys(targets + tuple(rng.sample(ANSWERS, 60))))


def capped_lookahead_case(seed: int, nyt_hard: bool) -> int:
    """Check a beam-1 lookahead within caps 3 and 4 against the exact search (proven
    against brute force above) on trap-heavy lists; return the nodes it widened."""
    target_words, guess_words = trap_lists(seed)
    targets = WordList.from_words("t", target_words)
    guesses = WordList.from_words("g", guess_words)
    widened = 0
    for cap in (3, 4):
        exact_options = SearchOptions(max_guesses=cap, nyt_hard=nyt_hard)
        beam_options = dataclasses.replace(exact_options, beam=1)
        try:
            exact = optimize(WORDLE, targets, guesses, exact_options).certificate.value
        except SearchError:
            with pytest.raises(SearchError, match="cap"):
                optimize(WORDLE, targets, guesses, beam_options)
            continue
        result = optimize(WORDLE, targets, guesses, beam_options)
        assert int(result.tree.target_scores.max()) <= cap
        assert result.certificate.value >= exact
        assert tree_value(result.tree, "total") == result.certificate.value
        widened += result.outcome.stats.widened
    return widened


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("nyt_hard", [False, True], ids=["normal", "nyt-hard"])
def test_a_capped_lookahead_finds_a_tree_within_the_cap_wherever_one_exists(
    seed: int, nyt_hard: bool
) -> None:
    """A beam of one guess often misses the guess a tight cap needs: where none of the
    beam's guesses finishes within the cap, the node is searched over every guess
    (widened), so the lookahead is refused exactly when no tree exists and is
    within the cap otherwise."""
    capped_lookahead_case(seed, nyt_hard)


def test_the_capped_lookahead_cases_widen_nodes() -> None:
    """The cases above include nodes the beam alone could not finish (else they would
    show nothing about widening)."""
    widened = [capped_lookahead_case(seed, nyt_hard=True) for seed in range(20)]
    assert sum(1 for count in widened if count) >= 5


def test_fixed_first_guess_is_played_and_bounds_the_free_optimum() -> None:
    targets = WordList.from_words("t", ANSWERS[:60])
    free = optimize(WORDLE, targets, targets, SearchOptions(hard=True))
    fixed = optimize(WORDLE, targets, targets, SearchOptions(hard=True, first_guess="ABBEY"))
    assert fixed.tree.first_guess == "ABBEY"
    assert fixed.certificate.value >= free.certificate.value
    assert fixed.certificate.first_guess == "ABBEY"
    with pytest.raises(SearchError, match="not in the targets"):
        optimize(WORDLE, targets, targets, SearchOptions(hard=True, first_guess="ZZZZZ"))


def _optimize_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert run(["optimize", *argv, "--json", "--quiet"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


@pytest.mark.slow
def test_wordle_salet_optimum_is_7920_on_the_2315_list(capsys: pytest.CaptureFixture[str]) -> None:
    """The published optimum after SALET (2315 answers, 12972 guesses) is 7920."""
    data = _optimize_json(
        capsys,
        "--targets",
        "wordle-answers-2315",
        "--guesses",
        "wordle-guesses-12972",
        "--mode",
        "normal",
        "--objective",
        "total",
        "--first-guess",
        "SALET",
        "--workers",
        "1",
    )
    assert (data["first_guess"], data["total"], data["worst"], data["proven"]) == (
        "SALET",
        7920,
        5,
        True,
    )


@pytest.mark.slow
def test_mastermind_total_is_5625(capsys: pytest.CaptureFixture[str]) -> None:
    """Koyama and Lai (1993): 5625/1296 expected guesses for 6 colours x 4 pegs."""
    data = _optimize_json(
        capsys,
        "--game",
        "mastermind",
        "--colors",
        "6",
        "--pegs",
        "4",
        "--objective",
        "total",
        "--workers",
        "1",
    )
    assert (data["total"], data["proven"], data["count"]) == (5625, True, 1296)
    assert data["mean"] == pytest.approx(4.3403, abs=1e-4)


def test_mastermind_minimax_is_5(capsys: pytest.CaptureFixture[str]) -> None:
    """Knuth (1976): five guesses always suffice, and four do not."""
    data = _optimize_json(
        capsys,
        "--game",
        "mastermind",
        "--colors",
        "6",
        "--pegs",
        "4",
        "--objective",
        "minimax",
        "--workers",
        "1",
    )
    assert (data["worst"], data["value"], data["proven"], data["lower_bound"]) == (5, 5, True, 5)


# -- certificates --------------------------------------------------------------


@pytest.fixture(scope="module")
def small_policy() -> Policy:
    spec = OptimalSpec("wordle", targets="wordle-answers-2309", mode="hard", first_guess="TRACE")
    built, _ = build_optimal_policy(spec)
    return stored_policy(built.data, built.tree.targets.words, built.tree.guesses.words)


def _tampered(policy: Policy, **changes: object) -> Policy:
    cert = {**(policy.data.certificate or {}), **changes}
    data = dataclasses.replace(policy.data, certificate=cert)
    return stored_policy(data, policy.targets, policy.guesses)


def test_a_fresh_certificate_checks_out(small_policy: Policy) -> None:
    assert verify_policy(small_policy) == []
    assert verify_certificate(small_policy) == []
    cert = small_policy.data.certificate
    assert cert is not None and cert["proven"] and cert["value"] == sum(small_policy.replay_all())


def test_tampered_totals_and_bounds_fail_verify(small_policy: Policy) -> None:
    cert = small_policy.data.certificate
    assert cert is not None
    value = int(cert["value"])
    values = np.frombuffer(cert["node_values"], "<i4").copy()
    values[3] += 1
    bounds = np.frombuffer(cert["node_bounds"], "<i4").copy()
    bounds[5] -= 1
    cases = {
        "value": {"value": value - 1},
        "node value": {"node_values": values.astype("<i4").tobytes()},
        "node bound": {"node_bounds": bounds.astype("<i4").tobytes()},
        "bound above value": {"lower_bound": value + 1, "proven": False},
        "proven with a gap": {"lower_bound": value - 1},
        "refuted root below": {"roots": [["SLATE", value - 5, False]]},
    }
    for label, change in cases.items():
        faults = verify_certificate(_tampered(small_policy, **change))
        assert faults, label
    # A lowered bound declared unproven is self-consistent; rerunning the proof catches it.
    weakened = _tampered(small_policy, lower_bound=value - 1, proven=False)
    assert verify_certificate(weakened) == []
    assert any("bound" in f for f in verify_certificate(weakened, prove=True))
    assert verify_certificate(small_policy, prove=True) == []


def test_tampered_stats_fail_verify(small_policy: Policy) -> None:
    stats = {**small_policy.data.stats, "mean": small_policy.data.stats["mean"] - 0.01}
    data = dataclasses.replace(small_policy.data, stats=stats)
    assert verify_policy(stored_policy(data, small_policy.targets, small_policy.guesses))


def test_verify_command_reports_a_tampered_certificate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "catalog.sqlite"
    argv = [
        "--targets",
        "wordle-answers-2309",
        "--mode",
        "hard",
        "--first-guess",
        "TRACE",
        "--catalog",
        str(catalog),
        "--quiet",
    ]
    # --store, the old name of --publish, still publishes, and says the new name.
    assert run(["optimize", *argv, "--store", "--output", str(tmp_path / "t.gwp")]) == 0
    assert "--store is now --publish" in capsys.readouterr().err
    assert run(["verify", "--catalog", str(catalog)]) == 0
    with open_policy_file(tmp_path / "t.gwp") as single:
        (policy,) = list(single)
    cert = policy.data.certificate
    assert cert is not None
    bad = _tampered(policy, value=int(cert["value"]) + 2)
    # A buggy writer: the file's own checksums are right, the certificate is not.
    core = encode_core(bad.data)
    words = {bad.data.targets.sha256: encode_words(bad.targets)}
    (tmp_path / "bad.gwp").write_bytes(encode_file(core, words))
    assert run(["import", str(tmp_path / "bad.gwp"), "--catalog", str(catalog)]) == 1
    err = capsys.readouterr().err
    assert "certificate value" in err
    # The same tree stored by a buggy catalog writer fails `verify`.
    stored = StoredPolicy.from_data(bad.data, bad.targets, bad.guesses)
    publish_catalog(str(catalog), [stored], [])
    assert run(["verify", "--catalog", str(catalog)]) == 1
    assert "certificate value" in capsys.readouterr().out


# -- long runs ---------------------------------------------------------------------


def test_checkpoint_resumes_and_refuses_another_search(tmp_path: Path) -> None:
    targets = WordList.from_words("t", ANSWERS[:300])
    options = SearchOptions(hard=True, first_guess="ABBEY")
    path = tmp_path / "run.jsonl"
    first = optimize(WORDLE, targets, targets, options, checkpoint=path)
    units = len(path.read_text().splitlines()) - 1
    assert units > 3
    # Cut the last record short, as an interruption would: it is redone.
    text = path.read_text()
    path.write_text(text[: len(text) - 20])
    again = optimize(WORDLE, targets, targets, options, checkpoint=path)
    assert again.certificate.value == first.certificate.value
    assert np.array_equal(again.tree.node_guess, first.tree.node_guess)
    # The fragment was dropped, not extended by the redone record: every line is
    # whole, and the next resume takes the file too.
    lines = path.read_text().splitlines()
    assert len(lines) == units + 1
    assert all(isinstance(json.loads(line), dict) for line in lines)
    # A whole last record that lost only its newline is kept.
    path.write_text(path.read_text().rstrip("\n"))
    third = optimize(WORDLE, targets, targets, options, checkpoint=path)
    assert third.certificate.value == first.certificate.value
    assert path.read_text().splitlines() == lines
    other = SearchOptions(hard=True, first_guess="ABOUT")
    with pytest.raises(SearchError, match="different search"):
        optimize(WORDLE, targets, targets, other, checkpoint=path)
    assert fingerprint(WORDLE, targets, targets, options) != fingerprint(
        WORDLE, targets, targets, other
    )
    assert Checkpoint(None, "x").lookup("unit", 10) is None


def test_worker_processes_give_the_same_tree() -> None:
    targets = WordList.from_words("t", ANSWERS[:400])
    alone = optimize(WORDLE, targets, targets, SearchOptions(hard=True))
    shared = optimize(WORDLE, targets, targets, SearchOptions(hard=True, workers=2))
    assert shared.certificate.value == alone.certificate.value
    assert np.array_equal(shared.tree.node_guess, alone.tree.node_guess)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--beam", "0"], "argument --beam: must be a whole number of at least 1, not '0'"),
        (["--colors", "6"], "mastermind only"),
        (["--first-guess", "QQQQQ"], "not in the guess list"),
        (["--objective", "minimax", "--max-guesses", "5"], "does not apply to --objective minimax"),
        (["--objective", "total-then-worst", "--beam", "4"], "--beam does not apply"),
        (["--max-guesses", "1"], "no tree meets"),
        (["--objective", "best"], "invalid choice"),
        (["--game", "antiwordle", "--mode", "hard"], "wants the most guesses"),
        (["--targets", "no-such-list"], "no-such-list"),
        (["--game", "mastermind", "--colors", "9", "--pegs", "6"], "too large to search"),
    ],
)
def test_bad_options_are_one_line_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = run(["optimize", "--targets", "wordle-answers-2309", "--quiet", *argv])
    err = capsys.readouterr().err
    assert code in (1, 2)
    assert message in err and len(err.strip().splitlines()) == 1


def test_damaged_or_unusable_checkpoints_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "optimize",
        "--targets",
        "wordle-answers-2309",
        "--mode",
        "hard",
        "--first-guess",
        "TRACE",
        "--quiet",
        "--checkpoint",
    ]
    good = tmp_path / "good.jsonl"
    assert run([*argv, str(good)]) == 0
    capsys.readouterr()
    lines = good.read_text().splitlines()
    record = json.loads(lines[1])
    bad_guess = json.dumps({**record, "guesses": [10**6]})
    cases = {
        "directory": (tmp_path, "cannot use it"),
        "damaged line": ("\n".join([lines[0], "[1, 2]", *lines[1:]]), "line 2 is damaged"),
        "bad field": ("\n".join([lines[0], '{"unit": 5}', *lines[1:]]), "line 2 is damaged"),
        "bad guess": ("\n".join([lines[0], bad_guess]), "no valid guess"),
    }
    for label, (content, message) in cases.items():
        if isinstance(content, Path):
            path = content
        else:
            path = tmp_path / f"{label}.jsonl"
            path.write_text(content + "\n")
        assert run([*argv, str(path)]) == 1, label
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, (label, err)


def test_alternatives_are_ranked_only_for_a_policy_that_is_stored(tmp_path: Path) -> None:
    """optimize ranks each node's alternatives only when the policy is kept (--output,
    --publish): a proof only reported skips that work; a stored one has them."""
    from guesswork.builder.cli import run as build
    from guesswork.client.catalog import open_policy_file

    words = tmp_path / "words.txt"
    words.write_text(
        "\n".join(["crane", "slate", "trace", "crate", "grace", "place", "brace", "space"])
    )
    file = tmp_path / "kept.gwp"
    common = ["optimize", "--targets", str(words), "--objective", "total", "--quiet", "--json"]
    assert build(common) == 0
    assert build([*common, "--output", str(file)]) == 0
    policy = open_policy_file(file).policy(open_policy_file(file).list()[0].name)
    assert policy.alternatives(policy.root) and policy.alternative_values(policy.root)


def test_the_default_engine_is_what_was_measured_to_pay() -> None:
    """optimize's default workers (optimal.search_workers): a local Dask cluster of every
    core only for a search over every first guess of at least DASK_MIN_CELLS cells."""
    from guesswork.builder.optimal import DASK_MIN_CELLS, search_workers

    wordle, mastermind = 2315 * 12972, 1296 * 1296
    assert mastermind < DASK_MIN_CELLS <= 2309 * 12972 <= wordle
    assert search_workers(True, wordle, True, cores=2) == 2
    assert search_workers(True, wordle, True, cores=1) == 1
    assert search_workers(True, mastermind, True, cores=2) == 1  # 7.8 s alone, 10.1 s on Dask
    assert search_workers(False, wordle, True, cores=2) == 1  # a fixed opener or a lookahead
    assert search_workers(True, wordle, False, cores=2) == 1  # no Dask: the pool does not pay


def test_a_search_too_large_is_refused_before_the_colour_symmetry(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """9 colours x 6 pegs took 14.6 s to refuse, 13 s of it building the colour symmetry
    of 531,441 codes first: the size is now checked on the lists before anything else."""

    def never(*args: object) -> None:
        raise AssertionError("the colour symmetry was built for a search refused for its size")

    monkeypatch.setattr(policies, "CodeSymmetry", never)
    with pytest.raises(SearchError, match=r"531,441 guesses x 531,441 targets is too large"):
        build_optimal_policy(OptimalSpec("mastermind", length=6, colours=9))
