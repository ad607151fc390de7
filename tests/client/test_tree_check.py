"""The tree structure check's two implementations (plain Python and numpy) agree.

Each crafted tree below breaks one rule (a deduced tree's rule: the small tree at the end); both implementations must refuse it
with the same first problem, and both must accept every shipped tree.
"""

from __future__ import annotations

import array
from collections.abc import Callable

import pytest

from guesswork.client.catalog import open_catalog
from guesswork.client.errors import MalformedPolicyError
from guesswork.client.probe import Policy
from guesswork.client.tree_arrays import INT32, TreeArray, no_alternatives
from guesswork.client.tree_check import TreeShape, check_tree

Arrays = dict[str, TreeArray]


def _shape(policy: Policy) -> TreeShape:
    data = policy.data
    return TreeShape(
        nodes=data.node_count,
        edges=data.node_count - 1,
        targets=len(policy.targets),
        vocabulary=len(policy.vocabulary),
        reply_space=policy.game.reply_space,
        deduces=policy.game.deduces,
    )


def _problem(arrays: Arrays, shape: TreeShape, with_numpy: bool) -> str | None:
    """Return the check's message for ``arrays``, or None when it accepts them."""
    try:
        check_tree(arrays, shape, "t", with_numpy=with_numpy)
    except MalformedPolicyError as error:
        return str(error)
    return None


@pytest.fixture(scope="module")
def policies() -> dict[str, Policy]:
    with open_catalog() as catalog:
        return {
            "wordle": catalog.policy("wordle-2309-normal-neg-entropy"),
            "jotto": catalog.policy("jotto-2309-normal-max"),
        }


def test_both_accept_every_shipped_tree() -> None:
    with open_catalog() as catalog:
        for name in catalog.names():
            policy = catalog.policy(name)
            arrays = dict(policy.data.arrays)
            assert _problem(arrays, _shape(policy), False) is None, name
            assert _problem(arrays, _shape(policy), True) is None, name


def _set(name: str, index: int, value: int) -> Callable[[Arrays], None]:
    def change(arrays: Arrays) -> None:
        values = array.array(INT32, (int(v) for v in arrays[name]))
        values[index] = value
        arrays[name] = values

    return change


def _swap(name: str, i: int, j: int) -> Callable[[Arrays], None]:
    def change(arrays: Arrays) -> None:
        values = array.array(INT32, (int(v) for v in arrays[name]))
        values[i], values[j] = values[j], values[i]
        arrays[name] = values

    return change


def _copy(name: str, source: int, index: int, add: int = 0) -> Callable[[Arrays], None]:
    def change(arrays: Arrays) -> None:
        values = array.array(INT32, (int(v) for v in arrays[name]))
        values[index] = values[source] + add
        arrays[name] = values

    return change


def _reversed_values(node: int) -> Callable[[Arrays], None]:
    """Reverse the values of ``node``'s alternatives (so they decrease)."""

    def change(arrays: Arrays) -> None:
        offsets, values = arrays["alt_offsets"], array.array("d", arrays["alt_value"])
        start, end = int(offsets[node]), int(offsets[node + 1])
        values[start:end] = array.array("d", reversed(values[start:end]))
        arrays["alt_value"] = values

    return change


def _own_guess(node: int) -> Callable[[Arrays], None]:
    """Make ``node``'s first alternative its own guess."""

    def change(arrays: Arrays) -> None:
        guesses = array.array(INT32, (int(v) for v in arrays["alt_guess"]))
        guesses[int(arrays["alt_offsets"][node])] = int(arrays["node_guess"][node])
        arrays["alt_guess"] = guesses

    return change


def _both(*changes: Callable[[Arrays], None]) -> Callable[[Arrays], None]:
    def change(arrays: Arrays) -> None:
        for one in changes:
            one(arrays)

    return change


def _drop_last(name: str) -> Callable[[Arrays], None]:
    def change(arrays: Arrays) -> None:
        arrays[name] = arrays[name][:-1]

    return change


# One crafted change per rule (the message it must bring), on the Wordle tree unless named.
CASES: list[tuple[str, str, Callable[[Arrays], None]]] = [
    ("wordle", "edge offsets are not increasing", _set("edge_offsets", 0, 1)),
    ("wordle", "edge offsets are not increasing", _swap("edge_offsets", 1, 2)),
    ("wordle", "a child does not come after its parent", _set("edge_child", 5, 0)),
    ("wordle", "a child does not come after its parent", _set("edge_child", 5, 10**6)),
    ("wordle", "a node is not reached by exactly one edge", _copy("edge_child", 8, 7)),
    ("wordle", "a guess index is outside the word lists", _set("node_guess", 3, 10**6)),
    ("wordle", "a guess index is outside the word lists", _set("node_guess", 3, -1)),
    ("wordle", "a reply code is outside the game's replies", _set("edge_reply", 0, 243)),
    ("wordle", "a node has two edges for one reply", _copy("edge_reply", 0, 1)),
    ("wordle", "node sizes do not cover the targets", _set("node_size", 0, 5)),
    ("wordle", "node sizes do not cover the targets", _set("node_size", 9, 0)),
    ("wordle", "a node's targets lie outside the target list", _set("node_first", 4, -1)),
    ("wordle", "a node's targets lie outside the target list", _set("node_first", 4, 2308)),
    ("wordle", "target order is not a permutation", _set("target_order", 0, 1)),
    ("wordle", "alternative offsets do not cover", _set("alt_offsets", 0, 1)),
    ("wordle", "alternative offsets are not increasing", _swap("alt_offsets", 1, 30)),
    ("wordle", "an alternative's guess index is outside", _set("alt_guess", 0, 10**6)),
    ("wordle", "node sizes do not add up along the edges", _copy("node_size", 1, 1, add=2)),
    ("wordle", "node_first has", _drop_last("node_first")),
    ("wordle", "alternatives are not ranked best first", _reversed_values(0)),
    ("wordle", "alternatives are not ranked best first", _reversed_values(40)),
    ("wordle", "alternatives repeat a guess, or hold the node's own", _own_guess(0)),
    ("wordle", "alternatives repeat a guess, or hold the node's own", _copy("alt_guess", 0, 1)),
    # The first node with either problem is named, whichever rule it breaks.
    ("wordle", "alternatives repeat a guess", _both(_own_guess(3), _reversed_values(40))),
    ("wordle", "alternatives are not ranked", _both(_own_guess(40), _reversed_values(3))),
    ("jotto", "a reply code is outside the game's replies", _set("edge_reply", 2, 6)),
]


@pytest.mark.parametrize(("tree", "message", "change"), CASES)
def test_both_refuse_a_crafted_tree_with_the_same_first_problem(
    policies: dict[str, Policy], tree: str, message: str, change: Callable[[Arrays], None]
) -> None:
    policy = policies[tree]
    arrays: Arrays = dict(policy.data.arrays)
    change(arrays)
    shape = _shape(policy)
    in_python, with_numpy = _problem(arrays, shape, False), _problem(arrays, shape, True)
    assert in_python is not None and message in in_python
    assert with_numpy == in_python


def _small_deduced_tree(sizes: list[int]) -> tuple[Arrays, TreeShape]:
    """Return a five-node tree (root -> 1 -> 3, root -> 2 -> 4) with ``sizes``, deduced."""
    arrays: Arrays = {
        "node_guess": array.array(INT32, [0, 1, 2, 3, 4]),
        "node_size": array.array(INT32, sizes),
        "node_first": array.array(INT32, [0] * 5),
        "edge_offsets": array.array(INT32, [0, 2, 3, 4, 4, 4]),
        "edge_reply": array.array(INT32, [0, 1, 0, 0]),
        "edge_child": array.array(INT32, [1, 2, 3, 4]),
        "target_order": array.array(INT32, range(sizes[0])),
        **no_alternatives(5),
    }
    return arrays, TreeShape(5, 4, sizes[0], 5, 3, True)


def test_the_first_failing_node_decides_between_two_size_problems() -> None:
    """The earlier node's problem is named, whichever rule it breaks: the numpy check
    must not report in rule order."""
    valid, shape = _small_deduced_tree([2, 1, 1, 1, 1])
    assert _problem(valid, shape, False) is None and _problem(valid, shape, True) is None
    # Node 1 (inner) wins a target; node 2's child is too big, so node 2 wins -1.
    deduced_first, shape = _small_deduced_tree([3, 2, 1, 1, 2])
    for with_numpy in (False, True):
        assert "a node of a deduced tree wins a target" in str(
            _problem(deduced_first, shape, with_numpy)
        )
    # Node 1 wins -1 (its leaf is too big); node 2 (inner) wins a target.
    sizes_first, shape = _small_deduced_tree([3, 1, 2, 2, 1])
    for with_numpy in (False, True):
        assert "node sizes do not add up" in str(_problem(sizes_first, shape, with_numpy))
