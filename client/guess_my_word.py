"""Guess My Word rules and walking its trees (what the service and bots need).

A target is drawn from an alphabetical, weighted word list; each guess is
answered by where the target lies relative to it. Variants:

``deduce`` (the seed's game)
    A right guess is answered ``"after"``: a reply only says ``target >= guess``
    (``"after"``) or ``target < guess`` (``"before"``). Once one word is left
    the target is known; naming it costs no guess, as the seed counts.
``live`` (the real game)
    A guess equal to the target is answered ``"correct"`` and ends the game.

Trees are built by builder.guess_my_word; this module only plays them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from client.errors import (
    ContradictoryHistoryError,
    GameOverError,
    GuessworkError,
    ImpossibleReplyError,
    InvalidReplyError,
    OffTreeError,
    UnknownWordError,
)

Word = str
Variant = Literal["deduce", "live"]
Reply = Literal["before", "after", "correct"]
#: One turn of a game: the word guessed and the reply it got.
Turn = tuple[str, str]

VARIANTS: tuple[Variant, ...] = ("deduce", "live")
REPLIES: tuple[Reply, ...] = ("before", "after", "correct")


class GuessMyWordError(GuessworkError, ValueError):
    """A tree, a list and a variant that do not fit together, or a bad argument."""


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


def _check_variant(tree: WordTree, variant: str | None) -> Variant:
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
    return variant


def reply(guess: Word, target: Word, variant: Variant) -> Reply:
    """Return the game's reply to ``guess`` when the secret is ``target``.

    >>> reply("cat", "cat", "deduce"), reply("cat", "cat", "live"), reply("dog", "cat", "live")
    ('after', 'correct', 'before')
    """
    if guess == target and variant == "live":
        return "correct"
    return "after" if target >= guess else "before"


def play(tree: WordTree, target: Word, variant: Variant | None = None) -> list[tuple[str, Reply]]:
    """Return the turns (guess, reply) ``tree`` plays when the secret is ``target``.

    The number of turns is the number of guesses. In the ``deduce`` variant
    the game ends at a leaf, whose word is the target (named at no cost). In
    the ``live`` variant it ends with the reply ``"correct"``; a split tree
    names its leaf word with one more guess.

    Raises:
        GuessMyWordError: see :func:`expected_guesses` for the variant.
        UnknownWordError: ``target`` is not one of the tree's words.
    """
    variant = _check_variant(tree, variant)
    turns: list[tuple[str, Reply]] = []
    node = 0
    while True:
        guess = tree.word(node)
        if tree.variant == "deduce" and tree.is_leaf(node):
            if guess != target:
                raise UnknownWordError(f"{target!r} is not in the tree's word list")
            if variant == "live":
                turns.append((guess, "correct"))
            return turns
        answer = reply(guess, target, variant)
        turns.append((guess, answer))
        if answer == "correct":
            return turns
        node = int(tree.node_before[node] if answer == "before" else tree.node_after[node])
        if node < 0:
            raise UnknownWordError(f"{target!r} is not in the tree's word list")


def walk(
    tree: WordTree, history: Sequence[Turn], variant: Variant | None = None
) -> tuple[int, bool]:
    """Return (node, solved): where ``history`` leads in ``tree``.

    ``solved`` is True after a ``"correct"`` reply, and in the ``deduce``
    variant once a single word is left (the target is known).

    Replies are ``"before"``, ``"after"`` or (``live`` only) ``"correct"``.
    In the ``deduce`` variant, once the replies leave a single word the target
    is known and that word is returned: the seed counts no guess for it.

    Raises:
        InvalidReplyError: a reply is not one of ``before``, ``after``, ``correct``.
        ImpossibleReplyError: ``"correct"`` in the ``deduce`` variant, which never gives it.
        OffTreeError: a guess is not the one the tree makes at that point.
        ContradictoryHistoryError: no word of the list gives the replies.
        GameOverError: the history goes on, or asks for a guess, after the game
            ended (``"correct"``, or in ``deduce`` after the target is known).
        GuessMyWordError: see :func:`expected_guesses` for the variant.
    """
    variant = _check_variant(tree, variant)
    node = 0
    for turn, (guess, reply_text) in enumerate(history, start=1):
        if reply_text not in REPLIES:
            raise InvalidReplyError(
                f"turn {turn}: reply {reply_text!r} is not one of {', '.join(REPLIES)}"
            )
        expected = tree.word(node)
        deduce_leaf = tree.variant == "deduce" and tree.is_leaf(node)
        if deduce_leaf and variant == "deduce":
            raise GameOverError(
                f"turn {turn}: the target is already known to be {expected!r}; "
                f"there is nothing left to guess"
            )
        if guess.strip().lower() != expected:
            raise OffTreeError(f"turn {turn}: the tree guesses {expected!r} here, not {guess!r}")
        if reply_text == "correct":
            if variant == "deduce":
                raise ImpossibleReplyError(
                    f"turn {turn}: the deduce variant never answers 'correct' "
                    f"(a right guess is answered 'after')"
                )
            if turn < len(history):
                raise GameOverError(f"turn {turn} was 'correct': the game is over, no turn follows")
            return node, True
        if deduce_leaf:  # played live: the leaf word was the only word left
            child = -1
        else:
            child = int(tree.node_before[node] if reply_text == "before" else tree.node_after[node])
        if child < 0:
            raise ContradictoryHistoryError(
                f"turn {turn}: no word of the list is {reply_text} {expected!r} "
                f"and gives the earlier replies"
            )
        node = child
    return node, tree.variant == "deduce" and variant == "deduce" and tree.is_leaf(node)


def next_guess(tree: WordTree, history: Sequence[Turn], variant: Variant | None = None) -> str:
    """Return the word ``tree`` guesses after ``history``, a list of (guess, reply).

    Replies are ``"before"``, ``"after"`` or (``live`` only) ``"correct"``.
    In the ``deduce`` variant, once the replies leave a single word the target
    is known and that word is returned: the seed counts no guess for it.

    Raises:
        GameOverError: the last reply was ``"correct"``; and the errors of :func:`walk`.
    """
    node, solved = walk(tree, history, variant)
    if solved and history and history[-1][1] == "correct":
        raise GameOverError(f"the game is over: {history[-1][0]!r} was correct")
    return tree.word(node)


def subtree_words(tree: WordTree) -> np.ndarray:
    """Return, for each node, how many words its subtree can still be."""
    sizes = np.zeros(tree.node_count, dtype=np.int64)
    # Children come after their parents (breadth-first numbering): sum backwards.
    for node in range(tree.node_count - 1, -1, -1):
        own = 1 if (tree.variant == "live" or tree.is_leaf(node)) else 0
        below = sum(
            int(sizes[c]) for c in (tree.node_before[node], tree.node_after[node]) if c >= 0
        )
        sizes[node] = own + below
    return sizes


@dataclass(frozen=True, eq=False)
class StoredTree:
    """A Guess My Word tree as the catalog stores it: the tree, its list and figures.

    ``name`` is the policy name (``guess-my-word-{list}-{strategy}-{variant}``);
    ``stats`` holds ``mean`` (exact expected guesses), ``entropy``, ``worst``,
    ``best`` and ``count``.
    """

    name: str
    list_name: str
    list_sha256: str
    strategy: str
    #: The variant the tree is played in (a deduce-shaped tree can be played live).
    variant: Variant
    counts: tuple[int, ...]
    stats: dict[str, float]
    tree: WordTree

    def payload(self) -> str:
        """Return the canonical JSON stored in the catalog (words are in the list)."""
        tree = self.tree
        return json.dumps(
            {
                "strategy": self.strategy,
                "variant": self.variant,
                "shape": tree.variant,
                "counts": list(self.counts),
                "stats": self.stats,
                "node_word": tree.node_word.tolist(),
                "node_before": tree.node_before.tolist(),
                "node_after": tree.node_after.tolist(),
                "node_depth": tree.node_depth.tolist(),
            },
            sort_keys=True,
            separators=(",", ":"),
        )

    @classmethod
    def from_payload(
        cls, name: str, list_name: str, list_sha256: str, words: tuple[str, ...], payload: str
    ) -> StoredTree:
        """Return the stored tree in ``payload`` over ``words``, after checking its shape.

        Raises:
            ValueError: malformed JSON, or a tree whose indices are out of range
                or whose children do not come after their parents.
        """
        data = json.loads(payload)
        variant, shape = data["variant"], data["shape"]
        if variant not in VARIANTS or shape not in VARIANTS or len(data["counts"]) != len(words):
            raise ValueError("wrong variant or counts")
        arrays = [np.array(data[key], dtype=np.int64)
                  for key in ("node_word", "node_before", "node_after", "node_depth")]  # fmt: skip
        word, before, after, depth = arrays
        n = len(word)
        if n == 0 or any(len(a) != n for a in arrays) or ((word < 0) | (word >= len(words))).any():
            raise ValueError("tree arrays are inconsistent")
        index = np.arange(n)
        for child in (before, after):
            if ((child >= 0) & (child <= index)).any() or (child >= n).any():
                raise ValueError("a child does not come after its parent")  # a walk must end
        tree = WordTree(shape, words, word, before, after, depth)
        try:
            _check_variant(tree, variant)
        except GuessMyWordError as error:
            raise ValueError(str(error)) from None
        stats = {str(k): float(v) for k, v in dict(data["stats"]).items()}
        counts = tuple(int(c) for c in data["counts"])
        return cls(
            name, list_name, list_sha256, str(data["strategy"]), variant, counts, stats, tree
        )
