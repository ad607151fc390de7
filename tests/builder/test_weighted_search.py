"""The exact search under target weights (answer likelihoods): equal weights give
today's trees, a brute-force oracle agrees on small weighted sets, and a weighted
certificate fails verify when a weight changes."""

from __future__ import annotations

import dataclasses
import functools
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder.optimal import SearchError, SearchOptions, make_problem
from guesswork.builder.optimal.bounds import INFEASIBLE
from guesswork.builder.optimal.build import build_tree
from guesswork.builder.optimal.checkpoint import Checkpoint
from guesswork.builder.optimal.cluster import root_search
from guesswork.builder.optimal.problem import Problem
from guesswork.builder.optimal.search import Search
from guesswork.builder.policies import OptimalSpec, build_optimal_policy
from guesswork.builder.publish import StoredPolicy
from guesswork.builder.verify import verify_certificate, verify_policy
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle
from guesswork.client.policy_format import decode_core, encode_core
from guesswork.client.probe import Policy

WORDLE = Wordle()
ANSWERS = load_wordlist("wordle-answers-2309", WORDLE).words
GUESSES = load_wordlist("wordle-guesses-12972", WORDLE).words


def weighted_brute_force(matrix: np.ndarray, win: int, weights: np.ndarray, cap: int = 64) -> int:
    """Return the least weighted total over every tree solving each target within ``cap``
    guesses (INFEASIBLE if none), trying every guess at every node."""

    @functools.cache
    def best(remaining: tuple[int, ...], left: int) -> int:
        if left == 0:
            return INFEASIBLE
        if len(remaining) == 1:
            return int(weights[remaining[0]])
        mass = int(weights[list(remaining)].sum())
        out = INFEASIBLE
        for guess in range(matrix.shape[0]):
            classes: dict[int, list[int]] = {}
            for target in remaining:
                classes.setdefault(int(matrix[guess, target]), []).append(target)
            if len(classes) == 1 and win not in classes:
                continue  # splits nothing and wins nothing
            parts = [best(tuple(part), left - 1) for code, part in classes.items() if code != win]
            if all(part < INFEASIBLE for part in parts):
                out = min(out, mass + sum(parts))
        return out

    return best(tuple(range(matrix.shape[1])), cap)


def random_weighted_problem(
    seed: int, sizes: tuple[int, int], extra: int
) -> tuple[int, np.ndarray, Problem]:
    """Return a random problem: a size in ``sizes`` (half open) of answers, weighted 1 to
    29, guessed from them and ``extra`` other guesses; (size, weights, problem)."""
    rng = np.random.default_rng(seed)
    size = int(rng.integers(*sizes))
    chosen = sorted(rng.choice(len(ANSWERS), size, replace=False).tolist())
    targets = WordList.from_words("t", [ANSWERS[i] for i in chosen])
    others = [GUESSES[i] for i in rng.choice(len(GUESSES), extra, replace=False).tolist()]
    guesses = WordList.from_words(
        "g", [*targets.words, *(w for w in others if w not in targets.words)]
    )
    weights = rng.integers(1, 30, size=size)
    problem, _ = make_problem(WORDLE, targets, guesses, weights)
    return size, weights, problem


@pytest.mark.parametrize("seed", range(12))
def test_the_weighted_optimum_equals_brute_force(seed: int) -> None:
    size, weights, problem = random_weighted_problem(seed, (3, 9), 10)
    assert problem.weights is not None
    found = Search(problem, SearchOptions()).solve(np.arange(size), INFEASIBLE)
    assert found == weighted_brute_force(problem.matrix, problem.win, weights)


def test_the_weighted_optimum_within_a_cap_equals_brute_force() -> None:
    """The least expected guesses subject to every target within the cap (the game's
    limit), as the shipped weighted optimum is built: equal to brute force, refused
    exactly when no tree fits, and dearer than the uncapped optimum where it binds."""
    outcomes: set[str] = set()
    for seed in range(16):
        size, weights, problem = random_weighted_problem(100 + seed, (6, 12), 4)
        free = Search(problem, SearchOptions()).solve(np.arange(size), INFEASIBLE)
        for cap in (2, 3):
            found = Search(problem, SearchOptions(max_guesses=cap)).solve(
                np.arange(size), INFEASIBLE, cap
            )
            assert found == weighted_brute_force(problem.matrix, problem.win, weights, cap)
            outcomes.add(
                "infeasible" if found >= INFEASIBLE else "binds" if found > free else "free"
            )
    assert outcomes == {"infeasible", "binds", "free"}


def _search_tree(problem_weights: np.ndarray | None, options: SearchOptions) -> tuple[object, ...]:
    """Return what a search over every opener of a 90-answer problem yields: value,
    first guess and the flat tree arrays (with node values and bounds)."""
    targets = WordList.from_words("t", ANSWERS[::26])
    guesses = WordList.from_words("g", GUESSES[::40])
    problem, vocabulary = make_problem(WORDLE, targets, guesses)
    problem = dataclasses.replace(problem, weights=problem_weights)
    root = root_search(problem, options, checkpoint=Checkpoint(None, "test"))
    try:
        outcome = root.run(None)
        tree, values, bounds = build_tree(root.search, WORDLE, targets, guesses, vocabulary)
    finally:
        root.close()
    return (
        outcome.value,
        outcome.first_guess,
        [(r.guess, r.value, r.exact, r.settled_by) for r in outcome.roots],
        tree.node_guess.tolist(),
        tree.edge_child.tolist(),
        values.tolist(),
        bounds.tolist(),
    )


@pytest.mark.parametrize(
    "options",
    [SearchOptions(), SearchOptions(max_guesses=5), SearchOptions(nyt_hard=True, max_guesses=6)],
    ids=["normal", "capped", "nyt-hard"],
)
def test_equal_weights_give_todays_trees_and_totals(options: SearchOptions) -> None:
    """Weights of 1 through the weighted kernels: the same value, openers settled,
    tree, node values and bounds as the unweighted search (the same uncapped and
    capped; NYT hard mode's constraint states too)."""
    count = len(ANSWERS[::26])
    unweighted = _search_tree(None, options)
    weighted = _search_tree(np.ones(count, dtype=np.int64), options)
    assert weighted == unweighted


def test_equal_weights_are_the_unweighted_problem_and_bad_weights_are_refused() -> None:
    targets = WordList.from_words("t", ANSWERS[:30])
    problem, _ = make_problem(WORDLE, targets, targets, np.full(30, 7))
    assert problem.weights is None
    with pytest.raises(SearchError, match="30 positive integers"):
        make_problem(WORDLE, targets, targets, np.arange(30))
    with pytest.raises(SearchError, match="scale them down"):
        make_problem(WORDLE, targets, targets, np.full(30, 10**8) + np.arange(30))
    weighted, _ = make_problem(WORDLE, targets, targets, np.arange(1, 31))
    with pytest.raises(SearchError, match="total objective"):
        Search(weighted, SearchOptions(objective="minimax"))


# -- a weighted policy and its certificate ----------------------------------------


@pytest.fixture(scope="module")
def weighted_policy(tmp_path_factory: pytest.TempPathFactory) -> Policy:
    """An optimised policy over 120 answers weighted by a small prior file."""
    folder = tmp_path_factory.mktemp("weighted")
    words = ANSWERS[::19]
    (folder / "answers.txt").write_text("\n".join(words) + "\n")
    rng = np.random.default_rng(5)
    lines = [f"{word} {int(rng.integers(1, 500))}" for word in words]
    (folder / "likely.txt").write_text("\n".join(lines) + "\n")
    spec = OptimalSpec(
        "wordle", targets=str(folder / "answers.txt"), weights=str(folder / "likely.txt")
    )
    built, _ = build_optimal_policy(spec)
    targets, guesses = built.tree.targets.words, built.tree.guesses.words
    stored = StoredPolicy.from_data(built.data, targets, guesses)
    core = encode_core(stored.data)
    return Policy(decode_core(core, "test"), targets, guesses, core, stored.content_hash)


def _with_weights(policy: Policy, weights: np.ndarray) -> Policy:
    data = dataclasses.replace(policy.data, weights=weights)
    core = encode_core(data)
    stored = StoredPolicy.from_data(data, policy.targets, policy.guesses)
    return Policy(
        decode_core(core, "test"), policy.targets, policy.guesses, core, stored.content_hash
    )


def test_a_weighted_certificate_checks_out_and_names_its_prior(weighted_policy: Policy) -> None:
    data = weighted_policy.data
    assert data.prior is not None and data.prior.name == "likely" and data.weights is not None
    assert "weighted-likely" in data.name
    assert verify_policy(weighted_policy) == []
    assert verify_certificate(weighted_policy) == []
    cert = data.certificate
    assert cert is not None and cert["proven"]
    scores = np.array(weighted_policy.replay_all())
    assert cert["value"] == int((scores * data.weights).sum())
    assert data.stats["mean"] == pytest.approx(cert["value"] / int(data.numpy_weights().sum()))
    assert data.stats["uniform_mean"] == pytest.approx(scores.mean())


def test_changing_one_weight_fails_verify(weighted_policy: Policy) -> None:
    weights = np.array(weighted_policy.data.weights, dtype=np.int64)
    weights[int(np.argmax(weights))] += 1
    faults = verify_certificate(_with_weights(weighted_policy, weights))
    assert faults and "differs" in faults[0]


def test_the_weighted_tree_beats_the_uniform_one_on_its_own_weights(
    weighted_policy: Policy, tmp_path: Path
) -> None:
    """The weighted optimum's expected guesses under the weights are at most those
    of the unweighted optimum's tree (it is the least over all trees)."""
    weights = np.asarray(weighted_policy.data.weights)
    words = weighted_policy.targets
    (tmp_path / "answers.txt").write_text("\n".join(words) + "\n")
    plain, _ = build_optimal_policy(OptimalSpec("wordle", targets=str(tmp_path / "answers.txt")))
    order = {word: i for i, word in enumerate(plain.tree.targets.words)}
    scores = np.array([plain.tree.target_scores[order[w]] for w in words])
    assert int(weighted_policy.data.certificate["value"]) <= int((scores * weights).sum())
