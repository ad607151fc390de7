"""NYT hard mode (``--mode nyt-hard``): the vectorised rule, greedy and optimal trees,
live answers, and the acceptance check of every shipped NYT-hard policy.

The acceptance test reads the shipped catalog; set ``GUESSWORK_NYT_HARD_CATALOG``
to a catalog path to check another one (e.g. one built with ``build-all``).
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import random
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder.catalog_specs import CATALOG_SPECS
from guesswork.builder.cli import run
from guesswork.builder.errors import SpecError
from guesswork.builder.live import GreedyLiveSolver
from guesswork.builder.matrices import letter_array
from guesswork.builder.nyt_hard import NytRule, legal_after, node_states
from guesswork.builder.optimal import SearchOptions, optimize
from guesswork.builder.policies import (
    OptimalSpec,
    PolicySpec,
    build_optimal_policy,
    build_policy,
)
from guesswork.builder.publish import StoredPolicy, publish_catalog
from guesswork.builder.verify import nyt_hard_faults, verify_certificate, verify_policy
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.catalog import SHIPPED_CATALOG, open_catalog
from guesswork.client.core import RULE_NYT
from guesswork.client.games import Wordle
from guesswork.client.lookup import PolicyLookup
from guesswork.client.probe import SOLVED, Policy
from guesswork.client.rules import NYT_HARD, nyt_hard_problem

WORDLE = Wordle()
ANSWERS = load_wordlist("wordle-answers-2315", WORDLE).words
ALLOWED = load_wordlist("wordle-guesses-12972", WORDLE).words
NYT_NAMES = sorted(spec.name() for spec in CATALOG_SPECS if spec.mode == NYT_HARD)


# -- the acceptance check -------------------------------------------------------


def nyt_hard_violations(policy: Policy, check_every: int = 25) -> list[str]:
    """Return every way ``policy`` breaks the NYT rule (empty when it keeps it).

    Plays every target through the tree and checks each guess against
    client.games.nyt_hard_problem with the replies before it; checks each
    stored alternative of every node on the way too; and, at every
    ``check_every``-th node, that CheckGuess (PolicyLookup.check with the NYT
    rule) calls the tree's guess legal.
    """
    game = policy.game
    assert game.coloured_replies
    lookup = PolicyLookup(policy)
    problems: list[str] = []
    seen: set[int] = set()
    for target in policy.targets:
        node, turns = policy.root, []
        while True:
            guess = policy.guess(node)
            problem = nyt_hard_problem(game, turns, guess)
            if problem is not None:
                problems.append(f"{policy.name}: {target}: {guess} after {turns}: {problem}")
                break
            if node not in seen:
                seen.add(node)
                for alternative in policy.alternatives(node):
                    if nyt_hard_problem(game, turns, alternative) is not None:
                        problems.append(f"{policy.name}: node {node}: alternative {alternative}")
                if node % check_every == 0:
                    history = [(word, game.format_reply(code)) for word, code in turns]
                    check = lookup.check(history, guess, RULE_NYT)
                    if not check.legal:
                        problems.append(
                            f"{policy.name}: CheckGuess refuses {guess}: {check.reason}"
                        )
            code = game.reply(guess, target)
            turns.append((guess, code))
            node = policy.step(node, code)
            if node == SOLVED:
                break
    return problems


def test_every_shipped_nyt_hard_policy_keeps_the_nyt_rule_for_every_target() -> None:
    """Acceptance: each shipped NYT-hard policy, every target played, every guess legal."""
    location = os.environ.get("GUESSWORK_NYT_HARD_CATALOG") or SHIPPED_CATALOG
    with open_catalog(location) as catalog:
        names = sorted(p.name for p in catalog if p.data.mode == NYT_HARD)
        assert names == NYT_NAMES, f"{location} does not hold the NYT-hard specs' policies"
        for name in names:
            assert nyt_hard_violations(catalog.policy(name)) == []


# -- small policies built here ----------------------------------------------------


@pytest.fixture(scope="module")
def small_catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Return a catalog of NYT-hard greedy and optimal trees over 400 answers."""
    folder = tmp_path_factory.mktemp("nyt")
    targets = folder / "targets.txt"
    targets.write_text("\n".join(ANSWERS[::6][:400]) + "\n")
    policies = []
    greedy = build_policy(
        PolicySpec("wordle", targets=str(targets), guesses="wordle-guesses-12972", mode=NYT_HARD)
    )
    optimal, _ = build_optimal_policy(
        OptimalSpec(
            "wordle",
            targets=str(targets),
            guesses="wordle-guesses-12972",
            mode=NYT_HARD,
            max_guesses=6,
            first_guess="SALET",
        )
    )
    for built in (greedy, optimal):
        tree = built.tree
        policies.append(StoredPolicy.from_data(built.data, tree.targets.words, tree.guesses.words))
    return publish_catalog(str(folder / "catalog.sqlite"), policies)


def test_built_policies_pass_the_acceptance_check_and_verify(small_catalog: Path) -> None:
    with open_catalog(small_catalog) as catalog:
        assert [p.data.mode for p in catalog] == [NYT_HARD, NYT_HARD]
        for policy in catalog:
            assert nyt_hard_violations(policy, check_every=7) == []
            assert verify_policy(policy) == []
            assert verify_certificate(policy, prove=True) == []
        optimal = next(p for p in catalog if p.data.certificate is not None)
        assert optimal.data.certificate["nyt_hard"] is True
        assert optimal.data.certificate["proven"] is True


def test_a_normal_mode_tree_labelled_nyt_hard_is_caught() -> None:
    """The checks can fail: normal mode's tree breaks the NYT rule somewhere."""
    built = build_policy(
        PolicySpec("wordle", targets="wordle-answers-2315", guesses="wordle-guesses-12972")
    )
    relabelled = dataclasses.replace(built.data, mode=NYT_HARD)
    stored = StoredPolicy.from_data(relabelled, ANSWERS, ALLOWED)
    policy = Policy(relabelled, ANSWERS, ALLOWED, stored.core, stored.content_hash)
    assert nyt_hard_violations(policy)
    assert nyt_hard_faults(policy)
    normal = Policy(built.data, ANSWERS, ALLOWED, stored.core, stored.content_hash)
    assert nyt_hard_faults(normal) == []  # other modes are not held to the rule


# -- the vectorised rule -----------------------------------------------------------


def test_legal_mask_agrees_with_the_rule_on_random_histories() -> None:
    """builder.nyt_hard against client.games.nyt_hard_problem, word by word."""
    rng = random.Random(11)
    words = ANSWERS
    letters = letter_array(words, 5)
    legal_seen = 0
    for trial in range(60):
        secret = rng.choice(words)
        turns = []
        for _ in range(rng.randint(0, 4)):
            guess = rng.choice(ALLOWED)
            # Real replies, and (one history in three) arbitrary ones, which may
            # contradict each other: two greens in one place allow nothing.
            code = rng.randrange(243) if trial % 3 == 0 else WORDLE.reply(guess, secret)
            turns.append((guess, code))
        mask = legal_after(letters, turns)
        expected = np.array([nyt_hard_problem(WORDLE, turns, w) is None for w in words])
        assert np.array_equal(mask, expected), turns
        legal_seen += int(expected.sum())
    assert legal_seen > 1000  # the histories allow some words and forbid others


def test_rule_states_are_canonical_bytes() -> None:
    rule = NytRule(letter_array(("SALET", "STEAL", "TEASE"), 5))
    assert rule.child(b"", 0, 0) == b""  # all misses require nothing
    yellow_e = WORDLE.parse_reply("...Y.", "SALET")
    state = rule.child(b"", 0, yellow_e)
    assert rule.legal(state).tolist() == [0, 1, 2]
    green_s = WORDLE.parse_reply("G....", "SALET")
    assert rule.legal(rule.child(state, 0, green_s)).tolist() == [0, 1]
    assert rule.path_state(((0, yellow_e), (0, green_s))) == rule.child(state, 0, green_s)


# -- greedy and optimal trees -------------------------------------------------------


def brute_force_nyt(targets: tuple[str, ...], guesses: tuple[str, ...]) -> int:
    """Return the least total guesses under the NYT rule, trying every legal guess."""

    @functools.cache
    def best(remaining: tuple[str, ...], legal: tuple[str, ...], turns: tuple) -> int:
        if len(remaining) == 1:
            return 1
        out = 1 << 30
        for guess in legal:
            classes: dict[int, list[str]] = {}
            for target in remaining:
                classes.setdefault(WORDLE.reply(guess, target), []).append(target)
            if len(classes) == 1 and guess not in remaining:
                continue
            total = len(remaining)
            for code, part in classes.items():
                if code != WORDLE.win_reply:
                    total += solve(tuple(part), (*turns, (guess, code)))
            out = min(out, total)
        return out

    def solve(remaining: tuple[str, ...], turns: tuple) -> int:
        # Memoised by the legal guesses, not the path: they are all that matters.
        legal = tuple(w for w in guesses if nyt_hard_problem(WORDLE, list(turns), w) is None)
        return best(remaining, legal, turns if len(remaining) == 1 else ())

    return solve(targets, ())


def test_optimal_search_matches_brute_force_where_the_rule_binds() -> None:
    targets = ("BASTE", "CASTE", "HASTE", "PASTE", "TASTE", "WASTE")
    guesses = tuple(sorted(set(targets) | set(random.Random(21).sample(ALLOWED, 40))))
    lists = WordList.from_words("t", targets), WordList.from_words("g", guesses)
    nyt = optimize(WORDLE, *lists, SearchOptions(nyt_hard=True))
    normal = optimize(WORDLE, *lists, SearchOptions())
    assert nyt.outcome.proven
    assert nyt.outcome.value == brute_force_nyt(targets, guesses)
    assert normal.outcome.value < nyt.outcome.value  # the rule costs guesses here


def test_salet_optima_reproduce_the_published_figures() -> None:
    """Alex Selby's NYT hard-mode optima for SALET (six guesses at most): 8122 and 8099."""
    for answers, total in (("wordle-answers-2315", 8122), ("wordle-answers-2309", 8099)):
        built, result = build_optimal_policy(
            OptimalSpec(
                "wordle",
                targets=answers,
                guesses="wordle-guesses-12972",
                mode=NYT_HARD,
                max_guesses=6,
                first_guess="SALET",
            )
        )
        assert (result.outcome.value, result.outcome.proven) == (total, True)
        assert int(built.tree.target_scores.max()) == 6


def test_greedy_nodes_consider_only_legal_guesses_of_the_whole_list() -> None:
    built = build_policy(
        PolicySpec(
            "wordle", targets="wordle-answers-2315", guesses="wordle-guesses-12972", mode=NYT_HARD
        )
    )
    tree = built.tree
    letters = letter_array(tree.vocabulary, 5)
    states = node_states(
        letters, tree.node_guess, tree.edge_offsets, tree.edge_reply, tree.edge_child
    )
    targets = set(ANSWERS)
    outside = [int(g) for g in tree.node_guess if tree.vocabulary[int(g)] not in targets]
    assert outside  # guesses come from the whole list, not only the targets left
    for node in range(tree.node_count):
        rule = NytRule(letters)
        assert int(tree.node_guess[node]) in rule.legal(rule.key(states[node]))


def test_nyt_hard_is_refused_for_other_games() -> None:
    with pytest.raises(SpecError, match="nyt-hard"):
        PolicySpec("jotto", mode=NYT_HARD).check()
    with pytest.raises(SpecError, match="unknown mode"):
        PolicySpec("wordle", mode="nyt").check()


def test_cli_evaluate_and_optimize_take_mode_nyt_hard(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    catalog = str(tmp_path / "c.sqlite")
    lists = ["--targets", "wordle-answers-2315", "--guesses", "wordle-guesses-12972"]
    assert run(["evaluate", *lists, "--mode", "nyt-hard", "--quiet", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["mode"], report["policy"]) == (
        "nyt-hard",
        "wordle-2315-g12972-nyt-hard-neg-entropy",
    )
    argv = ["optimize", *lists, "--mode", "nyt-hard", "--first-guess", "SALET", "--max-guesses"]
    assert run([*argv, "6", "--quiet", "--json", "--catalog", catalog]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 8122
    assert run(["evaluate", "--game", "jotto", "--mode", "nyt-hard", "--quiet"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# -- live answers ---------------------------------------------------------------------


def test_live_answers_rank_only_legal_guesses(small_catalog: Path) -> None:
    """Off the tree, every suggestion keeps the NYT rule; on it, live = stored."""
    solver = GreedyLiveSolver()
    rng = random.Random(5)
    with open_catalog(small_catalog) as catalog:
        for policy in catalog:
            lookup = PolicyLookup(policy, solver)
            for _ in range(25):
                secret = rng.choice(policy.targets)
                history: list[tuple[str, str]] = []
                turns: list[tuple[str, int]] = []
                for opener in ("CRANE", "ROUTE"):  # off the tree from the first turn
                    code = WORDLE.reply(opener, secret)
                    if code == WORDLE.win_reply:
                        break
                    history.append((opener, WORDLE.format_reply(code)))
                    turns.append((opener, code))
                    answer = lookup.suggest(history, alternatives=10)
                    for word in (answer.guess, *answer.alternatives):
                        assert nyt_hard_problem(WORDLE, turns, word) is None, (turns, word)
        greedy = next(p for p in catalog if p.data.certificate is None)
        arrays = greedy.data.numpy_arrays()
        for node in range(0, greedy.data.node_count, 17):
            if greedy.remaining_count(node) < 2:
                continue
            first, size = int(arrays["node_first"][node]), int(arrays["node_size"][node])
            remaining = np.sort(arrays["target_order"][first : first + size]).astype(np.int64)
            path = _path_to(greedy, node)
            ranked = solver.rank(greedy, remaining, 6, path).indices
            stored = [greedy.guess(node), *greedy.alternatives(node)][: len(ranked)]
            assert [greedy.vocabulary[i] for i in ranked] == stored


def _path_to(policy: Policy, node: int) -> list[tuple[str, int]]:
    """Return the (guess, reply code) turns from the root to ``node``."""
    arrays = policy.data.numpy_arrays()
    parent: dict[int, tuple[int, int]] = {}
    offsets = arrays["edge_offsets"]
    for source in range(policy.data.node_count):
        for edge in range(int(offsets[source]), int(offsets[source + 1])):
            parent[int(arrays["edge_child"][edge])] = (source, int(arrays["edge_reply"][edge]))
    turns: list[tuple[str, int]] = []
    while node in parent:
        node, code = parent[node]
        turns.append((policy.guess(node), code))
    return turns[::-1]
