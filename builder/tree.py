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
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from builder.wordlists import WordList
from client.games import Game, ReplyCode


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
