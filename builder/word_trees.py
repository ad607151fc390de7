"""Guess My Word trees (:class:`WordTree`): playing them, and storing them as policies.

A tree is built by a strategy of builder.guess_my_word over a weighted,
alphabetical list (builder.weighted_lists), and played in a variant of the
game (client.games.GuessMyWord: ``deduce``, the seed's, or ``live``). To be
stored, served and exported like every other policy it becomes the ordinary
flat policy format (:func:`policy_data`): the weighted list is both the
target and the guess list, its counts are the core's ``target_weights``, and
the tree is walked by client.probe like any other. In the ``deduce`` variant
a leaf's word is deduced, not guessed: it becomes a node without edges, which
a game that deduces reads as the known target (see client.policy_format).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from ..client.errors import GuessMyWordError, UnknownWordError
from ..client.games import AFTER, BEFORE, GuessMyWord
from ..client.policy_format import ListRef, PolicyData
from ..client.stats import weighted_entropy, weighted_stats
from ..client.strategy import WordTreeStrategy
from ..client.text import plural
from ..client.tree_arrays import TreeArray, no_alternatives
from .policies import BUILDER
from .weighted_lists import WeightedList
from .wordlists import content_sha256

Variant = Literal["deduce", "live"]
Reply = Literal["before", "after", "correct"]

VARIANTS: tuple[Variant, ...] = ("deduce", "live")
#: Reply texts by reply code (client.games.GuessMyWord's codes).
_REPLIES: tuple[Reply, ...] = ("before", "after", "correct")


@dataclass(frozen=True, eq=False)
class WordTree:
    """A binary guess tree over ``words``, stored flat.

    Nodes are numbered breadth-first from the root (node 0). Node ``i``
    guesses ``words[node_word[i]]``; its ``"before"`` and ``"after"`` children
    are ``node_before[i]`` and ``node_after[i]`` (-1: no child). ``node_depth``
    counts edges from the root.

    In a split tree (``variant == "deduce"``) every internal node has both
    children and guesses the first word of its ``after`` subtree; a node with
    no children is a leaf: its word is deduced, not guessed. In a key tree
    (``variant == "live"``) every node is a guess and ``"correct"`` ends there.
    """

    variant: Variant
    words: tuple[str, ...]
    node_word: np.ndarray
    node_before: np.ndarray
    node_after: np.ndarray
    node_depth: np.ndarray

    @property
    def node_count(self) -> int:
        """Return the number of nodes."""
        return len(self.node_word)

    @property
    def first_guess(self) -> str:
        """Return the word guessed first (for a one-word split tree, the known word)."""
        return self.word(0)

    def word(self, node: int) -> str:
        """Return the word at ``node``."""
        return self.words[int(self.node_word[node])]

    def is_leaf(self, node: int) -> bool:
        """Return True if ``node`` has no children."""
        return bool(self.node_before[node] < 0 and self.node_after[node] < 0)


def check_variant(tree: WordTree, variant: str | None) -> Variant:
    """Return the variant to play ``tree`` in (its own when ``variant`` is None).

    Raises:
        GuessMyWordError: ``variant`` is unknown, or is ``deduce`` for a key tree.
    """
    if variant is None:
        return tree.variant
    if variant not in VARIANTS:
        raise GuessMyWordError(f"unknown variant {variant!r}; variants: {', '.join(VARIANTS)}")
    if variant == "deduce" and tree.variant == "live":
        raise GuessMyWordError(
            "a live (key) tree cannot be played in the deduce variant: a right guess "
            "is answered 'after' and leaves the subtree that holds it"
        )
    return "deduce" if variant == "deduce" else "live"


def _path(tree: WordTree, target: str, variant: Variant) -> list[int]:
    """Return the nodes a game with secret ``target`` visits, the last where it ends.

    ``deduce``: it ends at the target's leaf (deduced). ``live``: at the first
    node that guesses the target (for a split tree, the node splitting just
    before it, or else its leaf).

    Raises:
        UnknownWordError: ``target`` is not one of the tree's words.
    """
    node, nodes = 0, []
    while True:
        nodes.append(node)
        guess = tree.word(node)
        if (variant == "live" and guess == target) or tree.is_leaf(node):
            if guess != target:
                raise UnknownWordError(f"{target!r} is not in the tree's word list")
            return nodes
        node = int(tree.node_after[node] if target >= guess else tree.node_before[node])
        if node < 0:
            raise UnknownWordError(f"{target!r} is not in the tree's word list")


def play(tree: WordTree, target: str, variant: Variant | None = None) -> list[tuple[str, Reply]]:
    """Return the turns (guess, reply) ``tree`` plays when the secret is ``target``.

    The number of turns is the number of guesses. In the ``deduce`` variant
    the game ends at a leaf, whose word is the target (named at no cost). In
    the ``live`` variant it ends with the reply ``"correct"``; a split tree
    names its leaf word with one more guess.

    Raises:
        GuessMyWordError: see :func:`check_variant`.
        UnknownWordError: ``target`` is not one of the tree's words.
    """
    played = check_variant(tree, variant)
    game = GuessMyWord(variant=played)
    nodes = _path(tree, target, played)
    if played == "deduce":
        nodes = nodes[:-1]  # the leaf's word is known, not guessed
    return [(tree.word(node), _REPLIES[game.reply(tree.word(node), target)]) for node in nodes]


def policy_arrays(tree: WordTree, variant: Variant) -> tuple[dict[str, TreeArray], np.ndarray]:
    """Return the flat policy arrays of ``tree`` played in ``variant``, and each word's
    guess count (in word order).

    Each word is played through the tree; the policy keeps the nodes some word
    reaches (a split tree played live never reaches the leaf of a word it
    already guessed), in the tree's breadth-first order, with the ``before``
    and ``after`` edges between them. A node covers the words that reach it,
    an interval of the list, so the target order is the list's own. In the
    ``deduce`` variant a leaf has no edges and is the known word; ``live``
    wins at the node that guesses the word.

    Raises:
        GuessMyWordError: see :func:`check_variant`.
    """
    played = check_variant(tree, variant)
    words = tree.words
    visits = np.zeros(tree.node_count, dtype=np.int64)
    first = np.full(tree.node_count, len(words), dtype=np.int64)
    scores = np.zeros(len(words), dtype=np.int64)
    for index, word in enumerate(words):
        nodes = _path(tree, word, played)
        visits[nodes] += 1
        first[nodes] = np.minimum(first[nodes], index)
        scores[index] = len(nodes) - 1 if played == "deduce" else len(nodes)
    kept = np.flatnonzero(visits > 0)
    renumber = np.full(tree.node_count, -1, dtype=np.int64)
    renumber[kept] = np.arange(len(kept))
    offsets, replies, children = [0], [], []
    for node in kept.tolist():
        for code, child in ((BEFORE, tree.node_before[node]), (AFTER, tree.node_after[node])):
            if child >= 0 and renumber[child] >= 0:
                replies.append(code)
                children.append(int(renumber[child]))
        offsets.append(len(replies))
    arrays: dict[str, TreeArray] = {
        "node_guess": tree.node_word[kept].astype(np.int32),
        "node_size": visits[kept].astype(np.int32),
        "node_first": first[kept].astype(np.int32),
        "edge_offsets": np.array(offsets, dtype=np.int32),
        "edge_reply": np.array(replies, dtype=np.int32),
        "edge_child": np.array(children, dtype=np.int32),
        "target_order": np.arange(len(words), dtype=np.int32),
        **no_alternatives(len(kept)),
    }
    return arrays, scores


def entropy(weights: WeightedList) -> float:
    """Return the entropy of the target distribution in bits (client.stats)."""
    return weighted_entropy(weights.count_array())


def word_tree_stats(scores: np.ndarray, weights: WeightedList) -> dict[str, Any]:
    """Return a Guess My Word policy's statistics: each word's guess count ``scores``
    weighted by its count for ``mean``, ``stdev`` (of the population) and ``median``,
    words per score in ``histogram``, and the list's ``entropy``.

    Defined in client.stats (:func:`~client.stats.weighted_stats`), where readers
    recheck them: ``mean`` is exact (integer sums, one division, as
    builder.guess_my_word's ``expected_guesses``).
    """
    return weighted_stats([int(s) for s in scores.tolist()], weights.counts)


def policy_data(
    tree: WordTree, weights: WeightedList, tree_kind: str, variant: Variant, list_name: str
) -> PolicyData:
    """Return ``tree`` played in ``variant`` as a policy, named
    ``guess-my-word-{list_name}-{tree_kind}-{variant}``.

    Raises:
        GuessMyWordError: ``weights`` is over other words than the tree, or
            see :func:`check_variant`.
    """
    if weights.words != tree.words:
        raise GuessMyWordError(
            f"the weights' {plural(len(weights), 'word')} "
            f"{'is' if len(weights) == 1 else 'are'} not the tree's "
            f"{plural(len(tree.words), 'word')}"
        )
    arrays, scores = policy_arrays(tree, variant)
    words = ListRef(list_name, content_sha256(weights.words), len(weights.words))
    return PolicyData(
        name=f"guess-my-word-{list_name}-{tree_kind}-{variant}",
        game=GuessMyWord(variant=variant),
        mode=variant,
        strategy=WordTreeStrategy(tree_kind),
        targets=words,
        guesses=words,
        extra_words=(),
        builder=BUILDER,
        stats=word_tree_stats(scores, weights),
        arrays=arrays,
        weights=weights.count_array().astype(np.int64),
    )
