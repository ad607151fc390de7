"""A catalog's lookups, and the one rule for secrets off a policy's answer list.

A :class:`CatalogLookup` makes the lookup (client.lookup.PolicyLookup) of each
policy of a catalog when first asked for, and refuses a name the catalog does
not list before anything is read.

Real games leave the answer list: a secret such as TACOS is allowed by the
game but is no target of a 2,309-answer policy. A history that contradicts
every target is therefore answered live over the policy's *open words*
(:attr:`~guesswork.client.lookup.PolicyLookup.open_words`) as possible
secrets, with source ``live-guess-list``: its vocabulary (guess list and
targets), widened by a :class:`~guesswork.client.lookup.WiderList`, the
catalog's largest guess list of the same game that holds the policy's whole
guess list (:meth:`CatalogLookup.wider_list`; for the 2309-answer trees, the
12,972 allowed guesses: every word the game accepts). Words of the wider list
are also accepted as the player's guesses, answered live (SALET on a policy
whose guess list is the 2,309 answers). Only a history no open word fits is a
:class:`~guesswork.client.errors.ContradictoryHistoryError`. The same rule
serves game analysis: a game whose secret is none of the targets is valued
under :meth:`CatalogLookup.off_list_policy`, the catalog's policy of the same
game and mode whose targets hold every open word. Finding either reads other
policies of the catalog, which is why the rule lives here and a policy's
lookup is handed its wider list.

Thread-safe: each policy's lookup and off-list policy is made once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from .catalog import Catalog
from .errors import PolicyNotFoundError
from .live_solver import LiveSolver
from .lookup import PolicyLookup, WiderList
from .probe import Policy
from .text import shown

if TYPE_CHECKING:
    from .policy_info import PolicyInfo


class CatalogLookup:
    """Answers for every policy of a catalog (see :class:`PolicyLookup`), each made when
    first asked for (its policy read then). Thread-safe."""

    def __init__(self, catalog: Catalog, live: LiveSolver | None = None) -> None:
        self.catalog = catalog
        self._live = live
        self._lock = threading.Lock()
        self._lookups: dict[str, PolicyLookup] = {}
        #: Each policy's off-list policy (:meth:`off_list_policy`), found on first use.
        self._off_list: dict[str, PolicyLookup | None] = {}

    def __iter__(self) -> Iterator[PolicyLookup]:
        """Yield every policy's lookup, sorted by name (reading every policy)."""
        return iter(self.policy(name) for name in self.names())

    def names(self) -> list[str]:
        """Return every policy name, sorted."""
        return self.catalog.names()

    def policy(self, name: str) -> PolicyLookup:
        """Return the lookup of policy ``name`` (a ``policies/`` prefix is allowed).

        Raises:
            PolicyNotFoundError: no such policy.
            PolicyFormatError: its stored form fails a check.
        """
        short = name.removeprefix("policies/")
        with self._lock:
            lookup = self._lookups.get(short)
        if lookup is not None:
            return lookup
        self.info(short)  # a name not listed is refused before anything is read
        policy = self.catalog.policy(short)
        self.check_served(policy)
        made = PolicyLookup(policy, self._live, lambda: self.wider_list(policy))
        with self._lock:
            return self._lookups.setdefault(short, made)

    def check_served(self, policy: Policy) -> None:
        """Check, once, what a policy read adds to the checks made when reading it, before
        any answer of it is served; here nothing (service.local checks certificates).

        Raises:
            PolicyFormatError: the policy fails the check.
        """

    def info(self, name: str) -> PolicyInfo:
        """Return the summary of policy ``name`` (a ``policies/`` prefix is allowed); no
        policy is read.

        Raises:
            PolicyNotFoundError: no such policy.
        """
        short = name.removeprefix("policies/")
        if short not in self.catalog:
            raise PolicyNotFoundError(
                f"no policy {shown(short)} among the {len(self.catalog)} in the catalog; "
                "`guesswork policies` (ListPolicies) lists them",
                metadata={"policy": short},
            )
        return self.catalog.info(short)

    # -- off-list answers: one rule, for live answers and game analysis ----

    def wider_list(self, policy: Policy) -> WiderList | None:
        """Return the largest guess list of another policy of ``policy``'s game that holds
        ``policy``'s whole guess list and more words; None if there is none.

        This is the one rule of off-list answers. That list's words are ones the game
        accepts (another policy guesses them), so they are possible secrets of a
        real game once none of the policy's targets fits: the policy's
        :attr:`PolicyLookup.open_words` (the 12,972 allowed guesses for a tree over
        the 2,309 answers), which live answers rank and :meth:`off_list_policy`'s
        policy holds. Ties go to the list name first in order. Reads one policy per
        candidate list (to compare its game whole), and only when first needed.
        """
        own = frozenset(policy.guesses)
        seen = {policy.data.guesses.name}
        found: list[WiderList] = []
        for info, other in self._same_game(policy, lambda info: info.guesses not in seen):
            seen.add(info.guesses)
            if len(other.guesses) > len(own) and own.issubset(other.guesses):
                found.append(WiderList(info.guesses, tuple(other.guesses)))
        return min(found, key=lambda listed: (-len(listed.words), listed.name), default=None)

    def off_list_policy(self, lookup: PolicyLookup) -> PolicyLookup | None:
        """Return the policy that values a game whose secret left ``lookup``'s answer list
        (game analysis, builder.analysis): of the same game and mode, with every open
        word of ``lookup`` (:meth:`wider_list`'s words, the possible secrets live
        answers take) among its targets; a weighted one (a prior) first, then the
        fewest targets, then by name. None if the catalog has none. Found once per
        policy.

        Raises:
            PolicyFormatError: the policy chosen fails a check (:meth:`policy`).
        """
        policy = lookup.policy
        with self._lock:
            if policy.name in self._off_list:
                return self._off_list[policy.name]
        needed = frozenset(lookup.open_words)
        mode = policy.data.mode
        # The summaries rule out most policies unread; the few left are read and
        # compared whole (the game's every parameter, the target words).
        fits = [
            other
            for info, other in self._same_game(
                policy, lambda info: info.mode == mode and info.count >= len(needed)
            )
            if needed.issubset(other.targets)
        ]
        best = min(
            fits,
            key=lambda other: (other.data.prior is None, other.data.targets.count, other.name),
            default=None,
        )
        chosen = None if best is None else self.policy(best.name)
        with self._lock:
            self._off_list[policy.name] = chosen
        return chosen

    def _same_game(
        self, policy: Policy, keep: Callable[[PolicyInfo], bool]
    ) -> Iterator[tuple[PolicyInfo, Policy]]:
        """Yield (summary, policy) of each other policy of the catalog that plays
        ``policy``'s game, compared whole (its every parameter), among those whose
        summary ``keep`` accepts (asked lazily, just before each is read): only
        those of the same game and word length by their summaries are read."""
        game, name = policy.game, policy.name
        for info in self.catalog.list():
            same_kind = info.game == game.id and info.length == game.length
            if info.name == name or not same_kind or not keep(info):
                continue
            other = self.catalog.policy(info.name)
            if other.game == game:
                yield info, other
