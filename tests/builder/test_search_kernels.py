"""The search's fast paths give exactly what the general code gives.

The distinct-replies kernel's least bound equals the full scan's, and its
vector loop (codes below 32) counts what its scalar loop counts; the compiled
classes-and-bounds pass equals splitting and looking each class up; the compiled
grouping and canonical partition equal the numpy formulations they replaced;
the partial ranking equals a stable argsort; the ordered search over every
opener picks the same opener and value as the plain static order.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from guesswork.builder.metrics import smallest
from guesswork.builder.optimal._scan import VECTOR_SETS, group, labels
from guesswork.builder.optimal.bounds import INFEASIBLE, ScanKernel
from guesswork.builder.optimal.problem import SearchOptions, make_problem
from guesswork.builder.optimal.root import RootSearch
from guesswork.builder.optimal.search import Search
from guesswork.builder.wordlists import WordList, fixed_words, load_wordlist
from guesswork.client.games import Mastermind, Wordle

NO_CAPS = np.zeros(0, dtype=np.int64)


@pytest.fixture(scope="module")
def wordle_problem() -> tuple:
    game = Wordle()
    answers = load_wordlist("wordle-answers-2315", game)
    guesses = WordList.from_words("g", load_wordlist("wordle-guesses-12972", game).words[::7])
    return make_problem(game, answers, guesses)


def test_distinct_replies_give_the_full_scans_least_bound(wordle_problem: tuple) -> None:
    problem, _ = wordle_problem
    kernel = ScanKernel.for_problem(problem, minimax=False)
    rng = np.random.default_rng(7)
    candidates = np.arange(problem.search_guesses, dtype=np.int64)
    for size in [3, 5, 12, 30, 48, 49, 90, 200, 243]:
        for _ in range(4):
            targets = np.sort(rng.choice(problem.n_targets, size, replace=False)).astype(np.int64)
            _, least = kernel.run(candidates, targets, 1 << 40, 0)
            most, _ = kernel.distinct_replies(candidates, targets, size + 1, NO_CAPS, NO_CAPS)
            assert (3 * size - most if most else INFEASIBLE) == least, size


def test_capped_distinct_counts_give_the_same_maximum(wordle_problem: tuple) -> None:
    # Caps from a superset's scan (every class of a guess there) and its best
    # splitters as the probe: the maximum is the plain one.
    problem, _ = wordle_problem
    kernel = ScanKernel.for_problem(problem, minimax=False)
    rng = np.random.default_rng(11)
    candidates = np.arange(problem.search_guesses, dtype=np.int64)
    for size in [60, 120, 240]:
        parent = np.sort(rng.choice(problem.n_targets, size, replace=False)).astype(np.int64)
        kept, _ = kernel.run(candidates, parent, 1 << 40, INFEASIBLE)
        caps = kernel.distinct[: len(candidates)].astype(np.int64)
        probe = candidates[kernel.index[:kept][np.argsort(kernel.bound[:kept])][:16]]
        for guess in rng.choice(problem.search_guesses, 5, replace=False):
            for part in problem.split(int(guess), parent):
                if len(part) < 3:
                    continue
                enough = len(part) + 1
                plain = kernel.distinct_replies(candidates, part, enough, NO_CAPS, NO_CAPS)[0]
                assert kernel.distinct_replies(candidates, part, enough, caps, probe)[0] == plain
                # The caps are obeyed (so the equality above is not vacuous): caps of
                # zero skip every guess.
                nothing = kernel.distinct_replies(candidates, part, enough, caps * 0, NO_CAPS)
                assert nothing == (0, -1)


def test_the_lookahead_bound_is_the_same_with_and_without_the_fast_path(
    wordle_problem: tuple,
) -> None:
    problem, _ = wordle_problem
    fast, plain = Search(problem, SearchOptions()), Search(problem, SearchOptions())
    plain.linear = False
    rng = np.random.default_rng(3)
    # Past 244 targets (the linear table's end) the count gives the least bound
    # only when the guess found with it has no class over 244: both cases occur.
    for size in [3, 8, 25, 60, 150, 300, 700, 1500]:
        targets = np.sort(rng.choice(problem.n_targets, size, replace=False)).astype(np.int64)
        assert fast.lookahead_bound(targets, 99, ()) == plain.lookahead_bound(targets, 99, ())


@pytest.mark.parametrize("hard", [False, True])
def test_one_guess_from_the_cap_the_count_gives_the_scans_bound(
    wordle_problem: tuple, hard: bool
) -> None:
    # With one guess left after this one every class must be a single target: the
    # least bound is 2n - 1 (a target splits the rest), 2n (another guess does) or
    # INFEASIBLE, read from distinct replies; the full scan must agree, with and
    # without a superset's scan (its caps and probe), and all three must occur.
    problem, _ = wordle_problem
    options = SearchOptions(max_guesses=5, hard=hard)
    rng = np.random.default_rng(17)
    seen = set()
    for size in [3, 4, 5, 6, 8, 10, 14, 20, 30]:
        for _ in range(12):
            parent = np.sort(rng.choice(problem.n_targets, 3 * size, replace=False))
            targets = np.sort(rng.choice(parent, size, replace=False)).astype(np.int64)
            fast, plain = Search(problem, options), Search(problem, options)
            plain.linear = False
            node = fast.scan(parent.astype(np.int64), 3, ())
            expected = plain.lookahead_bound(targets, 2, ())
            assert fast.lookahead_bound(targets, 2, (), parent=node) == expected
            alone = Search(problem, options)
            assert alone.lookahead_bound(targets, 2, ()) == expected
            seen.add("inf" if expected >= INFEASIBLE else expected - 2 * size)
    assert seen == ({"inf", -1} if hard else {"inf", -1, 0})


def test_the_lookahead_bound_by_counting_holds_past_the_linear_table() -> None:
    # Mastermind 6x4: 13 non-winning replies, so sets past 14 targets have classes
    # that cost more than 2m - 1: the count's bound must equal the full scan's.
    game = Mastermind()
    codes = fixed_words(game)
    problem, _ = make_problem(game, codes, codes)
    fast, plain = Search(problem, SearchOptions()), Search(problem, SearchOptions())
    plain.linear = False
    rng = np.random.default_rng(5)
    for size in [5, 14, 15, 20, 40, 100, 300, 1296]:
        for _ in range(3):
            targets = np.sort(rng.choice(problem.n_targets, size, replace=False)).astype(np.int64)
            assert fast.lookahead_bound(targets, 99, ()) == plain.lookahead_bound(targets, 99, ())


@pytest.fixture(scope="module")
def mastermind_problem() -> tuple:
    game = Mastermind()
    codes = fixed_words(game)
    return make_problem(game, codes, codes)


def test_the_vector_loop_counts_what_the_scalar_loop_counts(mastermind_problem: tuple) -> None:
    # Mastermind's codes are below 32, so consecutive candidates take the vector
    # loop (where the CPU has AVX2: VECTOR_SETS); the same candidates with one
    # repeated at the end are not consecutive and take the scalar loop. Both must
    # give the same count and the same first guess with it, with and without
    # caps and a probe, for runs of any length and start (the vector loop works
    # in blocks of 32) and sets on both sides of its size limit (128).
    problem, _ = mastermind_problem
    kernel = ScanKernel.for_problem(problem, minimax=False)
    assert kernel.scanner.max_code < 32
    rng = np.random.default_rng(17)
    everything = np.arange(problem.search_guesses, dtype=np.int64)
    checked = 0
    for size in [3, 5, 9, 14, 15, 16, 33, 64, 128, 129, 400]:
        for _ in range(3):
            targets = np.sort(rng.choice(problem.n_targets, size, replace=False)).astype(np.int64)
            kernel.run(everything, targets, 1 << 40, INFEASIBLE)  # each guess's count
            caps = np.full(problem.search_guesses, INFEASIBLE, dtype=np.int64)
            caps[everything] = kernel.distinct[: len(everything)] + rng.integers(
                0, 2, len(everything)
            )
            probe = everything[rng.choice(problem.search_guesses, 16, replace=False)]
            start = int(rng.integers(0, 200))
            stop = int(rng.integers(start + 1, problem.search_guesses + 1))
            run = np.arange(start, stop, dtype=np.int64)
            scalar = np.append(run, run[-1])
            for enough in [size + 1, 6, 1 << 40]:
                for with_caps, with_probe in [(NO_CAPS, NO_CAPS), (caps, probe)]:
                    vector = kernel.distinct_replies(run, targets, enough, with_caps, with_probe)
                    expected = kernel.distinct_replies(
                        scalar, targets, enough, with_caps, with_probe
                    )
                    assert vector == expected, (size, start, stop, enough)
                    checked += vector[0] > 0
    assert checked > 100  # the counts compared are real ones, not "no split"
    # Where the CPU has AVX2 the vector loop was the one compared.
    assert VECTOR_SETS in (0, 1)


@pytest.mark.parametrize("cap", [None, 4, 6])
def test_the_compiled_classes_equal_splitting_and_looking_up(
    mastermind_problem: tuple, wordle_problem: tuple, cap: int | None
) -> None:
    # known_classes gives Problem.split's classes, SetValues.key's keys and
    # known_bound's bounds, whatever the memo holds (exact values, lower bounds
    # above and below the table's, nothing) and under a cap (INFEASIBLE for sets
    # a tree of the guesses left cannot hold).
    rng = np.random.default_rng(23)
    for problem, _ in (mastermind_problem, wordle_problem):
        search = Search(problem, SearchOptions(max_guesses=cap))
        infeasible = 0
        for _ in range(60):
            size = int(rng.integers(3, 400))
            targets = np.sort(rng.choice(problem.n_targets, size, replace=False)).astype(np.int64)
            guess = int(rng.integers(problem.search_guesses))
            depth = int(rng.integers(1, 6))
            expected = problem.split(guess, targets)
            for part in expected:
                if len(part) > 2 and rng.random() < 0.6:
                    key = search.values.key(part, depth)
                    value = int(rng.integers(0, 3 * len(part)))
                    if rng.random() < 0.5:
                        search.exact[key] = (value, 0)
                    else:
                        search.lower[key] = value
            classes, keys, bounds = search.known_classes(guess, targets, depth)
            assert len(classes) == len(expected)
            for part, wanted, key, bound in zip(classes, expected, keys, bounds, strict=True):
                assert np.array_equal(part, wanted)
                assert key == (search.values.key(part, depth) if len(part) > 2 else None)
                assert bound == search.known_bound(part, depth)
                infeasible += bound >= INFEASIBLE
        # Under a cap, some sets were too large for the guesses left (pairs with one
        # left, say): their INFEASIBLE bounds were compared too.
        assert (infeasible > 0) == (cap is not None)


def test_the_compiled_classes_refuse_bad_arguments(mastermind_problem: tuple) -> None:
    problem, _ = mastermind_problem
    kernel = ScanKernel.for_problem(problem, minimax=False)
    targets = np.arange(40, dtype=np.int64)
    with pytest.raises(IndexError, match="guess is outside"):
        kernel.known_classes(problem.search_guesses, targets, {}, {})
    with pytest.raises(IndexError, match="target is outside"):
        kernel.known_classes(0, np.array([problem.n_targets], dtype=np.int64), {}, {})
    with pytest.raises(TypeError, match="dicts"):
        kernel.known_classes(0, targets, [], {})
    classes, keys, _ = kernel.known_classes(0, targets, {}, {})
    key = next(k for k in keys if k is not None)
    with pytest.raises(TypeError, match="tuple"):
        kernel.known_classes(0, targets, {key: 5}, {})
    with pytest.raises(TypeError, match="suffix"):
        kernel.known_classes(0, targets, {}, {}, "x")
    with pytest.raises(ValueError, match="too short"):
        kernel.scanner.classes(0, targets, np.empty(3, np.int64), {}, {}, b"", 2)
    rank = np.zeros(kernel.scanner.max_code + 1, dtype=np.int64)
    with pytest.raises(ValueError, match="rank"):
        kernel.adversary(np.arange(3, dtype=np.int64), targets, rank[:-1])
    with pytest.raises(IndexError, match="guess is outside"):
        kernel.adversary(np.array([problem.search_guesses], dtype=np.int64), targets, rank)
    with pytest.raises(ValueError, match="too short"):
        kernel.scanner.adversary(
            np.arange(3, dtype=np.int64), targets, rank, 99, *[np.empty(2, np.int64)] * 2
        )
    assert sum(len(c) for c in classes) <= len(targets)


def _numpy_signature(codes: np.ndarray, win: int) -> bytes:
    """The canonical partition as numpy computed it before the compiled version."""
    codes = codes.astype(np.int64)
    _, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
    labels = np.argsort(np.argsort(first))[inverse]
    labels[codes == win] = 255
    return labels.astype(np.uint8 if len(first) < 255 else np.int32).tobytes()


def _numpy_classes(row: np.ndarray, targets: np.ndarray, win: int) -> list[np.ndarray]:
    codes = row[targets]
    order = np.argsort(codes, kind="stable")
    ordered = codes[order]
    cuts = np.flatnonzero(np.diff(ordered)) + 1
    parts = np.split(targets[order], cuts)
    classes = [p for p, c in zip(parts, ordered[np.r_[0, cuts]], strict=True) if c != win]
    classes.sort(key=len, reverse=True)
    return classes


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([(np.uint8, 256), (np.uint16, 70_000), (np.uint32, 70_000)]),
    st.integers(2, 256),
    st.lists(st.integers(0, 499), min_size=1, max_size=300, unique=True),
    st.integers(0, 2**32),
)
def test_grouping_and_signatures_equal_the_numpy_versions(
    dtype_and_top: tuple[type, int], space: int, chosen: list[int], seed: int
) -> None:
    # A target-major matrix of three guesses, the middle one's codes drawn from
    # ``space`` codes spread over the dtype's range (wide codes for 16 and 32 bits).
    dtype, top = dtype_and_top
    rng = np.random.default_rng(seed)
    values = np.sort(rng.choice(top, size=space, replace=False))
    row = values[rng.integers(0, space, 500)].astype(dtype)
    matrix = np.ascontiguousarray(np.stack([row[::-1], row, row[::-1]], axis=1))
    targets = np.array(sorted(chosen), dtype=np.int64)
    win = int(values[-1])
    out = np.empty(len(targets), dtype=np.int32)
    count = labels(matrix, 1, targets, win, out)
    signature = (out.astype(np.uint8) if count < 255 else out).tobytes()
    assert signature == _numpy_signature(row[targets], win)
    n = len(targets)
    ordered, starts, codes = np.empty(n, np.int64), np.empty(n + 1, np.int64), np.empty(n, np.int64)
    groups = group(matrix, 1, targets, ordered, starts, codes)
    bounds = starts[: groups + 1].tolist()
    classes = [
        ordered[bounds[i] : bounds[i + 1]]
        for i, c in enumerate(codes[:groups].tolist())
        if c != win
    ]
    classes.sort(key=len, reverse=True)
    expected = _numpy_classes(row, targets, win)
    assert len(classes) == len(expected)
    assert all(np.array_equal(a, b) for a, b in zip(classes, expected, strict=True))


def test_the_compiled_kernels_refuse_bad_arguments(wordle_problem: tuple) -> None:
    # Wrong types, shapes, lengths and indices raise: the C code never reads
    # outside an array.
    problem, _ = wordle_problem
    kernel = ScanKernel.for_problem(problem, minimax=False)
    targets = np.arange(5, dtype=np.int64)
    guesses = np.arange(10, dtype=np.int64)
    with pytest.raises(IndexError, match="target is outside"):
        kernel.run(guesses, np.array([0, problem.n_targets], dtype=np.int64), 99, 99)
    with pytest.raises(IndexError, match="guess is outside"):
        kernel.run(np.array([-1], dtype=np.int64), targets, 99, 99)
    with pytest.raises(IndexError, match="guess is outside"):
        kernel.distinct_replies(np.array([problem.search_guesses]), targets, 6, NO_CAPS, NO_CAPS)
    with pytest.raises(TypeError, match="targets"):
        kernel.run(guesses, targets.astype(np.int32), 99, 99)
    with pytest.raises(TypeError, match="candidates"):
        kernel.run(guesses[::2], targets, 99, 99)  # not contiguous
    with pytest.raises(ValueError, match="caps"):
        kernel.distinct_replies(guesses, targets, 6, np.zeros(3, np.int64), NO_CAPS)
    with pytest.raises(ValueError, match="more candidates"):
        kernel.run(np.zeros(len(kernel.index) + 1, np.int64), targets, 99, 99)
    short = np.empty(2, np.int64)
    with pytest.raises(ValueError, match="too short"):
        group(problem.by_target, 0, targets, short, short, short)
    with pytest.raises(IndexError, match="guess is outside"):
        labels(problem.by_target, -3, targets, problem.win, np.empty(5, np.int32))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=200), st.integers(0, 210))
def test_smallest_is_a_stable_argsort_prefix(values: list[int], count: int) -> None:
    array = np.array(values, dtype=np.float64)
    assert np.array_equal(smallest(array, count), np.argsort(array, kind="stable")[:count])


def _rhymes() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Answers ending -ATCH, -IGHT or -OUND: 17 openers survive the first pass."""
    answers = load_wordlist("wordle-answers-2315", Wordle()).words
    rhymes = tuple(w for w in answers if w.endswith(("ATCH", "IGHT", "OUND")))
    guesses = load_wordlist("wordle-guesses-12972", Wordle()).words[::400]
    return rhymes, tuple(sorted(set(rhymes) | set(guesses)))


def _tied() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """40 random answers and 200 guesses where two openers share the least value."""
    answers = load_wordlist("wordle-answers-2315", Wordle()).words
    guesses = load_wordlist("wordle-guesses-12972", Wordle()).words
    rng = np.random.default_rng(5)
    for _ in range(4):
        chosen = tuple(sorted(rng.choice(answers, 40, replace=False)))
        pool = tuple(sorted(set(chosen) | set(rng.choice(guesses, 200, replace=False))))
    return chosen, pool


@pytest.mark.parametrize("lists", [_rhymes, _tied], ids=["survivors", "ties"])
def test_ordered_openers_pick_what_the_static_order_picks(lists: object) -> None:
    """A search over every opener (first pass, survivors by one-level bound) finds the
    same value and the same opener, ties included, as trying every opener exactly in
    static order and keeping the first least one."""
    answers, guesses = lists()  # type: ignore[operator]
    game = Wordle()
    problem, _ = make_problem(
        game, WordList.from_words("a", answers), WordList.from_words("g", guesses)
    )
    ordered = RootSearch(problem, SearchOptions())
    outcome = ordered.run(None)
    plain = Search(problem, SearchOptions())
    everything = np.arange(problem.n_targets, dtype=np.int64)
    node = plain.scan(everything, 99, ())
    values = [plain._evaluate(int(g), everything, INFEASIBLE, 99, ()) for g in node.guesses]
    first = int(np.argmin(values))
    assert (outcome.value, outcome.first_guess) == (values[first], int(node.guesses[first]))
    assert ordered.survivors is not None
    if lists is _rhymes:
        assert ordered.survivors == 17
    else:
        assert values.count(values[first]) == 2
