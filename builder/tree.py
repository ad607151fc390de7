"""The flat guess tree that every builder produces.

Nodes are numbered breadth-first from the root (node 0). Node ``i`` guesses
``vocabulary[node_guess[i]]`` and covers ``node_size[i]`` targets. Its outgoing
edges are ``edge_offsets[i]:edge_offsets[i+1]``, each a reply code and the
child node it leads to, in the order the seed notebooks list branches (by the
first target, in list order, that gives the reply). The winning reply has no
edge: the game ends there. A node of size 1 with no edges is a leaf whose
guess is its only target.

A target's *score* is the number of guesses it takes: the depth (root = 1)
of the node at which it is guessed, as in the seeds' ``tree_scores``.

:func:`lay_out_tree` turns a rule choosing each node's guess into these
arrays (the greedy builder lays its trees out the same way inside its
compiled kernel).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..client.games import Game, ReplyCode
from .wordlists import WordList


@dataclass(frozen=True)
class GuessTree:
    """A complete guess tree over ``targets``, guessing words of ``guesses``."""

    game: Game
    targets: WordList
    guesses: WordList
    #: The words ``node_guess`` indexes: the guess list, then any targets
    #: missing from it.
    vocabulary: tuple[str, ...]
    node_guess: np.ndarray
    node_size: np.ndarray
    node_depth: np.ndarray
    #: Node i's targets are target_order[node_first[i] : node_first[i] + node_size[i]].
    node_first: np.ndarray
    edge_offsets: np.ndarray
    edge_reply: np.ndarray
    edge_child: np.ndarray
    #: Score of each target, in target-list order, as counted by the builder.
    target_scores: np.ndarray
    #: Target indices grouped so that every node's targets are contiguous.
    target_order: np.ndarray

    @property
    def node_count(self) -> int:
        """Return the number of nodes."""
        return len(self.node_guess)

    @property
    def first_guess(self) -> str:
        """Return the word guessed at the root."""
        return self.vocabulary[int(self.node_guess[0])]

    def guess_word(self, node: int) -> str:
        """Return the word guessed at ``node``."""
        return self.vocabulary[int(self.node_guess[node])]

    def branches(self, node: int) -> list[tuple[ReplyCode, int]]:
        """Return (reply code, child node) for each edge of ``node``, in order."""
        start, stop = int(self.edge_offsets[node]), int(self.edge_offsets[node + 1])
        return list(
            zip(
                self.edge_reply[start:stop].tolist(),
                self.edge_child[start:stop].tolist(),
                strict=False,
            )
        )

    def child(self, node: int, reply: ReplyCode) -> int | None:
        """Return the child reached from ``node`` by ``reply``, or None if no such edge."""
        start, stop = int(self.edge_offsets[node]), int(self.edge_offsets[node + 1])
        hits = np.flatnonzero(self.edge_reply[start:stop] == reply)
        return int(self.edge_child[start + hits[0]]) if len(hits) else None

    def replay(self, target: str) -> list[str]:
        """Return the guesses the tree makes when the secret is ``target``.

        The replies are recomputed with the game's own (pure Python) rule, so
        this checks the tree independently of the builder's bookkeeping.

        Raises:
            KeyError: the tree has no branch for a reply ``target`` produces
                (the target is not one the tree covers).
        """
        node, played = 0, []
        while True:
            guess = self.guess_word(node)
            played.append(guess)
            reply = self.game.reply(guess, target)
            if reply == self.game.win_reply:
                return played
            next_node = self.child(node, reply)
            if next_node is None:
                raise KeyError(f"tree has no branch for {target!r} after {played}")
            node = next_node


#: Chooses a node's guess: (the node's targets, ascending; its depth, root = 1;
#: its path, the (guess row, reply code) pairs from the root) -> the guess's
#: row in the vocabulary.
ChooseGuess = Callable[[np.ndarray, int, tuple[tuple[int, int], ...]], int]


@dataclass(frozen=True)
class TreeLayout:
    """A laid-out tree with each node's targets (ascending target indices)."""

    tree: GuessTree
    node_targets: list[np.ndarray]


def lay_out_tree(
    game: Game,
    targets: WordList,
    guesses: WordList,
    vocabulary: tuple[str, ...],
    matrix: np.ndarray,
    choose: ChooseGuess,
) -> TreeLayout:
    """Return the flat tree whose node guesses ``choose`` picks.

    ``matrix[g, t]`` is the reply to vocabulary row ``g`` when the secret is
    target ``t``. Nodes are expanded breadth-first, ``choose`` called once per
    node in node order; a node's branches are in order of their first target
    in list order. ``target_order`` lists, depth first, each node's winning
    target and then its children's targets, so every node's targets are
    contiguous.

    Returns:
        The tree and each node's targets.

    Raises:
        Whatever ``choose`` raises. (A guess that does not split its targets
        would never end, so ``choose`` must not return one.)
    """
    n = int(matrix.shape[1])
    win = game.win_reply
    node_targets: list[np.ndarray] = [np.arange(n, dtype=np.int64)]
    node_guess: list[int] = []
    node_depth: list[int] = [1]
    node_path: list[tuple[tuple[int, int], ...]] = [()]
    edge_offsets = [0]
    edge_reply: list[int] = []
    edge_child: list[int] = []
    scores = np.zeros(n, dtype=np.int32)
    cursor = 0
    while cursor < len(node_targets):
        members = node_targets[cursor]
        guess = choose(members, node_depth[cursor], node_path[cursor])
        node_guess.append(guess)
        codes = matrix[guess, members]
        _, first_index = np.unique(codes, return_index=True)
        for code in codes[np.sort(first_index)].tolist():
            part = members[codes == code]
            if code == win:
                scores[part] = node_depth[cursor]
                continue
            edge_reply.append(int(code))
            edge_child.append(len(node_targets))
            node_targets.append(part)
            node_depth.append(node_depth[cursor] + 1)
            node_path.append((*node_path[cursor], (guess, int(code))))
        edge_offsets.append(len(edge_reply))
        cursor += 1
    # Each node's targets must be contiguous in target_order: lay them out by
    # a depth-first walk that places a node's winning target, then its children.
    first = np.zeros(len(node_targets), dtype=np.int32)
    order: list[np.ndarray] = []
    position = 0

    def place(node: int) -> None:
        nonlocal position
        first[node] = position
        members = node_targets[node]
        won = members[matrix[node_guess[node], members] == win]
        order.append(won)
        position += len(won)
        for child in edge_child[edge_offsets[node] : edge_offsets[node + 1]]:
            place(child)

    place(0)
    tree = GuessTree(
        game=game,
        targets=targets,
        guesses=guesses,
        vocabulary=vocabulary,
        node_guess=np.array(node_guess, dtype=np.int32),
        node_size=np.array([len(t) for t in node_targets], dtype=np.int32),
        node_depth=np.array(node_depth, dtype=np.int32),
        node_first=first,
        edge_offsets=np.array(edge_offsets, dtype=np.int32),
        edge_reply=np.array(edge_reply, dtype=np.int32),
        edge_child=np.array(edge_child, dtype=np.int32),
        target_scores=scores,
        target_order=np.concatenate(order).astype(np.int32),
    )
    return TreeLayout(tree, node_targets)
