"""Walking a stored policy: the probe that bots embed (no server needed).

Open a catalog or a single policy file with :func:`client.catalog.open_catalog`
or :func:`client.catalog.open_policy_file`, pick a :class:`Policy`, and ask it
for the next guess given the history so far::

    >>> from guesswork.client.catalog import open_catalog
    >>> with open_catalog() as catalog:
    ...     policy = catalog.policy("wordle-2309-normal-max")
    ...     policy.next_guess([])
    ...     policy.next_guess([("arise", "⬛⬛⬛⬛⬛"), ("blond", ".....")])
    'ARISE'
    'DUMPY'

A history is a sequence of (guess, reply) pairs; a reply may be a reply code
or text in any accepted form (``GY..Y``, ``gybbg``, ``21001``, emoji...).
:meth:`Policy.next_guess` raises :class:`~client.errors.OffTreeError` (a
``KeyError``) when the history leaves the tree; :meth:`Policy.get_next_guess`
returns a default instead. Bots that keep their own cursor use
:meth:`Policy.step`, one dictionary lookup per turn.

In Guess My Word's ``deduce`` variant the walk can also end at a *known*
node (:meth:`Policy.known`): one word is left, and it is the answer without
being guessed (see client.policy_format).

A Policy is immutable after construction; reading it from several threads is
safe.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cached_property
from typing import Any, NamedTuple

from .errors import GameOverError, OffTreeError
from .games import Game, ReplyCode
from .letters import reachable
from .policy_format import PolicyData, info_of
from .policy_info import PolicyInfo
from .remaining import Ints, subtree_totals, subtree_worst
from .text import with_article
from .tree_arrays import edge_keys

Reply = ReplyCode | str
History = Iterable[tuple[str, Reply]]

#: The node value meaning "the last reply was the winning one".
SOLVED = -1


class Position(NamedTuple):
    """Where a history leads: the node (or SOLVED) and how many turns were played."""

    node: int
    turns: int

    @property
    def solved(self) -> bool:
        """Return True when the last reply was the winning one."""
        return self.node == SOLVED


class Policy:
    """A stored guess tree, ready to walk in constant time per turn."""

    def __init__(
        self,
        data: PolicyData,
        targets: tuple[str, ...],
        guesses: tuple[str, ...],
        core: bytes,
        content_hash: str,
    ) -> None:
        self.data = data
        self.core = core
        self.content_hash = content_hash
        self.targets = targets
        self.vocabulary = guesses + data.extra_words
        self._guess_list = guesses
        # Cached because step() is the hot path: one multiply, one dict lookup.
        self._space = data.game.reply_space
        self._win = data.game.win_reply
        arrays = data.arrays
        offsets = arrays["edge_offsets"]
        keys = edge_keys(offsets, arrays["edge_reply"], self._space)
        self._edges = dict(zip(keys, map(int, arrays["edge_child"]), strict=True))
        self._known = (
            frozenset(node for node in range(data.node_count) if offsets[node + 1] == offsets[node])
            if data.game.deduces
            else frozenset()
        )

    @property
    def name(self) -> str:
        """Return the policy's name."""
        return self.data.name

    @property
    def game(self) -> Game:
        """Return the game's rules."""
        return self.data.game

    @property
    def guesses(self) -> tuple[str, ...]:
        """Return the guess list (without the extra target words)."""
        return self._guess_list

    @property
    def stats(self) -> dict[str, Any]:
        """Return the stored statistics (count, mean, stdev, median, worst, best, histogram)."""
        return self.data.stats

    @property
    def info(self) -> PolicyInfo:
        """Return the policy's summary."""
        return info_of(self.data, self.content_hash)

    @property
    def root(self) -> int:
        """Return the root node (the state before any guess)."""
        return 0

    def guess(self, node: int) -> str:
        """Return the word the policy guesses at ``node``.

        Raises:
            GameOverError: ``node`` is SOLVED.
        """
        if node == SOLVED:
            raise GameOverError("the game is solved: there is no next guess")
        return self.vocabulary[int(self.data.arrays["node_guess"][node])]

    def known(self, node: int) -> bool:
        """Return True when ``node``'s one target is known without a guess (the game is over).

        Only in a game that deduces (Guess My Word's ``deduce`` variant): its
        leaves name the target, which :meth:`guess` returns, at no cost.
        """
        return node in self._known

    def remaining_count(self, node: int) -> int:
        """Return how many targets are still possible at ``node`` (0 once solved)."""
        return 0 if node == SOLVED else int(self.data.arrays["node_size"][node])

    def remaining_indices(self, node: int) -> Ints:
        """Return the indices (into :attr:`targets`, in the tree's order) of the targets
        still possible at ``node``; none once solved."""
        if node == SOLVED:
            return ()
        arrays = self.data.arrays
        first = int(arrays["node_first"][node])
        return arrays["target_order"][first : first + int(arrays["node_size"][node])]

    def remaining_targets(self, node: int) -> list[str]:
        """Return the targets still possible at ``node``, in target-list order."""
        return [self.targets[int(i)] for i in sorted(self.remaining_indices(node))]

    def worst_from(self, node: int) -> int:
        """Return the most guesses the tree takes from ``node`` on, its guess counted
        (client.remaining.subtree_worst; 0 once solved or known). The first call
        computes every node's, once per policy (linear in the tree)."""
        if node == SOLVED or node in self._known:
            return 0
        return self._subtree_worst[node]

    @cached_property
    def _subtree_worst(self) -> list[int]:
        # Computed on first use (most callers never ask); two threads computing it
        # at once get equal lists, so the race is harmless.
        arrays = self.data.arrays
        return subtree_worst(arrays["edge_offsets"], arrays["edge_child"], self.game.deduces)

    def expected_from(self, node: int, played: int = 0) -> float:
        """Return the guesses the game takes on average, the ``played`` ones counted, when
        the tree plays on from ``node``: ``played`` plus the mean, over the targets still
        possible (weighted as the policy weighs them, as its stored ``mean``), of the
        guesses the tree takes from ``node``, its guess counted (so at the root with
        nothing played, the policy's ``mean``: the nearest float to the exact quotient,
        client.stats). ``played`` once solved or known. The first call computes every
        node's sums, once per policy (client.remaining.subtree_totals, linear in the
        tree)."""
        if node == SOLVED or node in self._known:
            return float(played)
        totals, masses = self._subtree_totals
        # One division of exact integers, as the stored mean is computed.
        return (played * masses[node] + totals[node]) / masses[node]

    def outlook(self, node: int, played: int) -> tuple[int, float]:
        """Return what playing the tree on from ``node`` promises, ``played`` turns
        counted: the guesses within which the game is certain to end (``played`` +
        :meth:`worst_from`) and the guesses it takes on average (:meth:`expected_from`)."""
        return played + self.worst_from(node), self.expected_from(node, played)

    @cached_property
    def _subtree_totals(self) -> tuple[list[int], list[int]]:
        # As _subtree_worst: computed on first use; a race computes equal lists.
        arrays = self.data.arrays
        return subtree_totals(
            arrays["edge_offsets"],
            arrays["edge_child"],
            arrays["node_size"],
            arrays["node_first"],
            arrays["target_order"],
            self.data.weights,
            self.game.deduces,
        )

    def alternatives(self, node: int) -> tuple[str, ...]:
        """Return the stored next-best guesses at ``node``, best first (none once solved).

        They are the policy's greedy ranking at that node without its own
        guess, recorded by the builder (policy format 2; format-1 policies
        have none): what to try when a game refuses the suggested word.
        """
        if node == SOLVED:
            return ()
        arrays = self.data.arrays
        offsets = arrays["alt_offsets"]
        chosen = arrays["alt_guess"][int(offsets[node]) : int(offsets[node + 1])]
        return tuple(self.vocabulary[i] for i in chosen.tolist())

    def alternative_values(self, node: int) -> tuple[float, ...]:
        """Return the metric values of :meth:`alternatives` at ``node``, in their order
        (lower is better; none once solved, and none for a format-1 policy)."""
        if node == SOLVED:
            return ()
        arrays = self.data.arrays
        offsets = arrays["alt_offsets"]
        values = arrays["alt_value"][int(offsets[node]) : int(offsets[node + 1])]
        return tuple(float(value) for value in values)

    def reply_code(self, node: int, reply: Reply) -> ReplyCode:
        """Return ``reply`` as a code, parsing text against the guess at ``node``.

        Raises:
            InvalidReplyError: the text is malformed or impossible for that guess.
        """
        if isinstance(reply, str):
            return self.game.parse_reply(reply, self.guess(node))
        return int(reply)

    def step(self, node: int, reply: Reply) -> int:
        """Return the node reached from ``node`` by ``reply`` (SOLVED on a win).

        Constant time: one dictionary lookup (plus parsing, for text replies).

        Raises:
            OffTreeError: the tree has no branch for that reply at that node.
            InvalidReplyError: a text reply is malformed or impossible.
            GameOverError: ``node`` is already SOLVED, or known (:meth:`known`).
        """
        code = reply if isinstance(reply, int) else self.reply_code(node, reply)
        if code == self._win:
            return SOLVED
        child: int | None = self._edges.get(node * self._space + code)
        if child is None:
            if node in self._known:
                raise GameOverError(f"the target is already known to be {self.guess(node)!r}")
            if not 0 <= node < self.data.node_count:
                raise OffTreeError(f"policy {self.name!r} has no node {node}")
            if not 0 <= code < self._space:
                raise OffTreeError(f"{code} is not {with_article(self.game.name)} reply code")
            raise OffTreeError(
                f"policy {self.name!r} has no branch for reply "
                f"{self.game.format_reply(code)!r} to {self.guess(node)}: no target in "
                f"its list gives that reply"
            )
        return child

    def walk(self, history: History) -> Position:
        """Return where ``history`` leads in the tree.

        Raises:
            OffTreeError: a guess differs from the policy's, or a reply has no branch.
            InvalidReplyError: a reply text is malformed or impossible.
            GameOverError: the history continues after the winning reply, or
                after the target is known (:meth:`known`).
        """
        node, turns = self.root, 0
        for guess, reply in history:
            if node == SOLVED:
                raise GameOverError(
                    f"the history continues after the game was solved on turn {turns}"
                )
            expected = self.guess(node)
            if node in self._known:
                raise GameOverError(
                    f"turn {turns + 1}: the target is already known to be {expected!r}; "
                    f"there is nothing left to guess"
                )
            if not self._means(self.game.fold(guess), expected):
                raise OffTreeError(
                    f"history leaves policy {self.name!r} at turn {turns + 1}: "
                    f"it guesses {expected}, not {self.game.fold(guess)}"
                )
            node = self.step(node, reply)
            turns += 1
        return Position(node, turns)

    def _means(self, typed: str, listed: str) -> bool:
        """Return True when the canonical word ``typed`` is the vocabulary word ``listed``:
        the same, or (for a list with its accents folded, client.letters) ``listed``
        with some accents dropped, when ``typed`` is no vocabulary word itself."""
        if typed == listed:
            return True
        if typed.isascii() or reachable(typed, listed) is None:
            return False
        return typed not in self._vocabulary_set

    @cached_property
    def _vocabulary_set(self) -> frozenset[str]:
        return frozenset(self.vocabulary)

    def next_guess(self, history: History = ()) -> str:
        """Return the policy's next guess after ``history`` (at a known node, the target).

        Raises:
            OffTreeError: the history leaves the tree (a ``KeyError``).
            GameOverError: the history ends with the winning reply.
            InvalidReplyError: a reply text is malformed or impossible.
        """
        return self.guess(self.walk(history).node)

    def get_next_guess(self, history: History = (), default: str | None = None) -> str | None:
        """Return the next guess after ``history``, or ``default`` if it leaves the tree.

        Raises:
            GameOverError: the history ends with the winning reply.
            InvalidReplyError: a reply text is malformed or impossible.
        """
        try:
            return self.next_guess(history)
        except OffTreeError:
            return default

    def play(self, target: str) -> list[str]:
        """Return the guesses the policy makes when the secret is ``target``.

        A known target (:meth:`known`) is not guessed: the game ends there.

        Raises:
            OffTreeError: ``target`` is not one of the policy's targets.
        """
        node, guesses = self.root, []
        while node != SOLVED and node not in self._known:
            guess = self.guess(node)
            guesses.append(guess)
            node = self.step(node, self.game.reply(guess, target))
        if node != SOLVED and self.guess(node) != target:
            raise OffTreeError(f"{target} is not a target of policy {self.name!r}")
        return guesses

    def replay_all(self) -> Sequence[int]:
        """Return each target's score (guesses needed), by replaying it through the tree.

        Raises:
            OffTreeError: a target falls off the tree (a corrupt or crafted tree).
        """
        return [len(self.play(target)) for target in self.targets]
