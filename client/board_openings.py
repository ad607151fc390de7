"""Multi-board openings stored with a Wordle policy: the opening is a lookup.

A Wordle policy may carry, besides its tree, the multi-board answers that
every game starts with (client.multiboard): for each stored board count the
first guess of a game of that many boards, and for Dordle (two boards) the
second guess after every pair of replies the first one can get. Each entry
is the joint step's ranking (builder.multiboard), its guess first, then
alternatives, each with its joint value: what the live answer gives for that
position, computed once when the catalog is built (builder.multiboard_openings)
and checked by ``guesswork-build verify``.

Stored in the policy core under ``openings`` (docs/policy-format.rst, section
4): ``{"metric": "joint_entropy", "first": [{"boards", "guesses", "values"},
...], "second": {"boards": 2, "first", "replies", "offsets", "guesses",
"values"}}``, guesses as int32 vocabulary indices and values as float64, both
little-endian ``bin``; ``replies`` holds each position's two reply codes
(board 1's, board 2's), positions in increasing order of ``(reply 1, reply 2)``,
and ``offsets`` where each position's ranking starts in ``guesses``.
"""

from __future__ import annotations

import array
import bisect
import itertools
from dataclasses import dataclass, field
from typing import Any

from .errors import MalformedPolicyError
from .multiboard import JOINT_METRIC, MAX_BOARDS
from .tree_arrays import FLOAT64, INT32, from_little_endian, to_little_endian

#: The most guesses (the answer and its alternatives) one stored position ranks.
MAX_RANKED = 64


@dataclass(frozen=True)
class Ranked:
    """A stored position's ranking: vocabulary indices, best first, with their joint values."""

    guesses: tuple[int, ...]
    values: tuple[float, ...]


@dataclass(frozen=True)
class BoardOpenings:
    """The stored multi-board openings of one policy."""

    #: Board count -> the first guess's ranking for a game of that many boards.
    first: dict[int, Ranked]
    #: Dordle: the first guess the second guesses follow (a vocabulary index), or None.
    second_after: int | None = None
    #: Dordle: each position's key, reply 1 x reply space + reply 2, ascending.
    second_keys: array.array[int] = field(default_factory=lambda: array.array("q"), repr=False)
    #: Dordle: where each position's ranking starts in :attr:`second_guesses` (one more
    #: entry than positions).
    second_offsets: array.array[int] = field(default_factory=lambda: array.array("q"), repr=False)
    second_guesses: array.array[int] = field(default_factory=lambda: array.array("i"), repr=False)
    second_values: array.array[float] = field(default_factory=lambda: array.array("d"), repr=False)
    #: The reply space of the policy's game (the keys' base).
    reply_space: int = 243

    def second(self, first: int, reply_1: int, reply_2: int) -> Ranked | None:
        """Return the stored Dordle ranking after ``first`` got these replies, or None."""
        if first != self.second_after:
            return None
        key = reply_1 * self.reply_space + reply_2
        at = bisect.bisect_left(self.second_keys, key)
        if at == len(self.second_keys) or self.second_keys[at] != key:
            return None
        start, stop = self.second_offsets[at], self.second_offsets[at + 1]
        return Ranked(tuple(self.second_guesses[start:stop]), tuple(self.second_values[start:stop]))

    def to_map(self) -> dict[str, Any]:
        """Return the openings as the core's ``openings`` map (canonical bytes)."""
        stored: dict[str, Any] = {
            "metric": JOINT_METRIC,
            "first": [
                {
                    "boards": boards,
                    "guesses": to_little_endian(INT32, array.array("i", ranked.guesses)),
                    "values": to_little_endian(FLOAT64, array.array("d", ranked.values)),
                }
                for boards, ranked in sorted(self.first.items())
            ],
        }
        if self.second_after is not None:
            space = self.reply_space
            replies = array.array("i")
            for key in self.second_keys:
                replies.extend((key // space, key % space))
            stored["second"] = {
                "boards": 2,
                "first": self.second_after,
                "replies": to_little_endian(INT32, replies),
                "offsets": to_little_endian(INT32, array.array("i", self.second_offsets)),
                "guesses": to_little_endian(INT32, self.second_guesses),
                "values": to_little_endian(FLOAT64, self.second_values),
            }
        return stored


def decode_openings(
    value: Any, vocabulary: int, reply_space: int, where: str
) -> BoardOpenings | None:
    """Return the stored openings after checking their structure (None if absent).

    Raises:
        MalformedPolicyError: a missing or mistyped field, a board count outside
            1..MAX_BOARDS or stored twice, a ranking empty or longer than
            MAX_RANKED, a guess outside the vocabulary, a reply outside the game's
            reply space, positions out of order, or offsets that do not cut the
            guesses into the positions' rankings.
    """
    if value is None:
        return None

    def fail(problem: str) -> MalformedPolicyError:
        return MalformedPolicyError(f"{where}: openings: {problem}")

    if not isinstance(value, dict) or value.get("metric") != JOINT_METRIC:
        raise fail(f"not a map of metric {JOINT_METRIC!r}")
    entries = value.get("first")
    if not isinstance(entries, list):
        raise fail("first must be an array")
    first: dict[int, Ranked] = {}
    for entry in entries:
        boards = entry.get("boards") if isinstance(entry, dict) else None
        if not isinstance(boards, int) or not 1 <= boards <= MAX_BOARDS or boards in first:
            raise fail(f"a first guess for a board count of 1 to {MAX_BOARDS}, once each")
        guesses = _ints(entry.get("guesses"), "first.guesses", fail)
        values = _floats(entry.get("values"), "first.values", fail)
        _check_ranking(guesses, values, vocabulary, fail)
        first[boards] = Ranked(tuple(guesses), tuple(values))
    second = value.get("second")
    if second is None:
        return BoardOpenings(first, reply_space=reply_space)
    if not isinstance(second, dict) or second.get("boards") != 2:
        raise fail("second must be a map for two boards")
    after = second.get("first")
    if not isinstance(after, int) or not 0 <= after < vocabulary:
        raise fail("second.first must be a guess of the vocabulary")
    replies = _ints(second.get("replies"), "second.replies", fail)
    offsets = _ints(second.get("offsets"), "second.offsets", fail)
    guesses = _ints(second.get("guesses"), "second.guesses", fail)
    values = _floats(second.get("values"), "second.values", fail)
    positions = len(replies) // 2
    if len(replies) % 2 or len(offsets) != positions + 1 or len(values) != len(guesses):
        raise fail("second's replies, offsets, guesses and values do not line up")
    if any(not 0 <= code < reply_space for code in replies):
        raise fail(f"a reply code outside 0..{reply_space - 1}")
    keys = array.array(
        "q", (replies[2 * i] * reply_space + replies[2 * i + 1] for i in range(positions))
    )
    if any(a >= b for a, b in itertools.pairwise(keys)):
        raise fail("second's positions must be in increasing order of their replies, once each")
    if offsets[0] != 0 or offsets[-1] != len(guesses):
        raise fail("second.offsets must start at 0 and end at the guesses' count")
    for start, stop in itertools.pairwise(offsets):
        if not 0 < stop - start <= MAX_RANKED:
            raise fail(f"each ranking holds 1 to {MAX_RANKED} guesses")
    _check_ranking(guesses, values, vocabulary, fail, ranked=False)
    return BoardOpenings(
        first,
        after,
        keys,
        array.array("q", offsets),
        guesses,
        values,
        reply_space,
    )


def _ints(value: Any, name: str, fail: Any) -> array.array[int]:
    if not isinstance(value, bytes) or len(value) % 4:
        raise fail(f"{name} must be int32 bytes")
    return from_little_endian(INT32, value)


def _floats(value: Any, name: str, fail: Any) -> array.array[float]:
    if not isinstance(value, bytes) or len(value) % 8:
        raise fail(f"{name} must be float64 bytes")
    return from_little_endian(FLOAT64, value)


def _check_ranking(
    guesses: array.array[int],
    values: array.array[float],
    vocabulary: int,
    fail: Any,
    ranked: bool = True,
) -> None:
    if len(guesses) != len(values) or (ranked and not 0 < len(guesses) <= MAX_RANKED):
        raise fail(f"a ranking holds 1 to {MAX_RANKED} guesses, each with its value")
    if any(not 0 <= guess < vocabulary for guess in guesses):
        raise fail("a guess outside the vocabulary")
    if any(value != value for value in values):  # NaN: no value to compare
        raise fail("a value that is not a number")
