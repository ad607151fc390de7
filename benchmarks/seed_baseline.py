"""A straightforward pure-Python implementation of the seeds' greedy algorithm.

This is the baseline the benchmarks compare against: the notebooks' own
``reply_for`` (memoised with ``lru_cache``, as the 2022 notebook does),
``partition_counts``, metrics and ``minimizing_tree``, written plainly.
It is not used by the product.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from math import log2


@lru_cache(None)
def wordle_reply_for(guess: str, target: str) -> str:
    """The 2022 notebook's reply_for."""
    reply = ["G" if guess[i] == target[i] else "." for i in range(5)]
    counts = Counter(target[i] for i in range(5) if guess[i] != target[i])
    for i in range(5):
        if reply[i] == "." and counts[guess[i]] > 0:
            counts[guess[i]] -= 1
            reply[i] = "Y"
    return "".join(reply)


@lru_cache(None)
def jotto_reply_for(guess: str, target: str) -> int:
    """The notebooks' Jotto reply_for."""
    return len(set(target).intersection(guess))


@lru_cache(None)
def mastermind_reply_for(guess: str, target: str) -> tuple[int, int]:
    """Mastermind's (black, white) pegs, written as plainly (the seeds leave
    Mastermind as an exercise: "Implement Mastermind with 6 colors and 4 pegs")."""
    black = sum(g == t for g, t in zip(guess, target, strict=True))
    common = sum((Counter(guess) & Counter(target)).values())
    return black, common - black


def expectation(counts: list[int]) -> float:
    n = sum(counts)
    return sum((x / n) * x for x in counts)


def neg_entropy(counts: list[int]) -> float:
    n = sum(counts)
    return sum((x / n) * log2(x / n) for x in counts)


SEED_METRICS: dict[str, Callable[[list[int]], float]] = {
    "max": max,
    "expectation": expectation,
    "neg_entropy": neg_entropy,
}


@dataclass
class Node:
    guess: str
    size: int
    branches: dict


def minimizing_tree(
    reply_for: Callable,
    metric: Callable,
    targets: list[str],
    wordlist: list[str],
    inconsistent: bool,
    inconsistent_max: int = 125,
) -> Node | str:
    """The 2022 notebook's minimizing_tree."""
    if len(targets) == 1:
        return targets[0]

    def partition_counts(guess: str) -> list[int]:
        return sorted(Counter(reply_for(guess, t) for t in targets).values())

    guesses = wordlist if (inconsistent and 3 < len(targets) <= inconsistent_max) else targets
    guess = min(guesses, key=lambda g: metric(partition_counts(g)))
    branches = defaultdict(list)
    for target in targets:
        branches[reply_for(guess, target)].append(target)
    return Node(
        guess,
        len(targets),
        {
            reply: minimizing_tree(
                reply_for, metric, branch, wordlist, inconsistent, inconsistent_max
            )
            for reply, branch in branches.items()
        },
    )


def tree_scores(node: Node) -> Iterator[int]:
    """The 2022 notebook's tree_scores."""
    for subtree in node.branches.values():
        if isinstance(subtree, str):
            yield 1 if subtree == node.guess else 2
        else:
            yield from (score + 1 for score in tree_scores(subtree))
