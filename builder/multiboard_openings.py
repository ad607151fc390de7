"""The multi-board openings a Wordle policy stores (client.board_openings).

Each stored ranking is the joint step's at its position (builder.multiboard.
rank_boards, as the live answer ranks it): the first guess of a game of each
board count in :data:`OPENING_BOARDS`, and for Dordle the second guess after
every pair of replies the first one can get. Every board of those positions
holds the whole target list or one of the first guess's reply classes, so each
such set's values are computed once over the whole vocabulary, with the live
step's own arithmetic (builder.live.GreedyLiveSolver.board_values), and read
for each position's candidates: the 20,000 or so Dordle positions of a
3158-target list take seconds, not the hours of asking the live step each.
"""

from __future__ import annotations

import array
import dataclasses
from collections.abc import Sequence

import numpy as np

from ..client.board_openings import BoardOpenings, Ranked
from ..client.core import DEFAULT_ALTERNATIVES
from ..client.play_boards import PLAY_ALTERNATIVES
from ..client.policy_format import content_hash, encode_core
from ..client.probe import Policy
from ..client.text import with_article
from .live import GreedyLiveSolver
from .multiboard import rank_boards
from .publish import StoredPolicy

#: The board counts whose first guess is stored: Dordle, Quordle, Octordle.
OPENING_BOARDS = (2, 4, 8)
#: Guesses ranked at each stored first guess: the guess and the interactive
#: helper's alternatives (client.play_boards).
FIRST_RANKED = 1 + PLAY_ALTERNATIVES
#: Guesses ranked at each stored Dordle second guess: the guess and the default
#: alternatives (more are not stored: 20,000 positions of 21 would add 5 MB).
SECOND_RANKED = 1 + DEFAULT_ALTERNATIVES


def board_openings(
    policy: Policy, counts: Sequence[int] = OPENING_BOARDS, solver: GreedyLiveSolver | None = None
) -> BoardOpenings:
    """Return ``policy``'s openings: the first guess for each of ``counts`` boards and,
    when 2 is among them, Dordle's second guess after every pair of first replies.

    Raises:
        GuessMyWordError: not a word-guessing policy with a greedy step.
        ValueError: a board count below 1.
    """
    if any(boards < 1 for boards in counts):
        raise ValueError(f"board counts must be at least 1, not {sorted(counts)}")
    live = solver or GreedyLiveSolver()
    step, values_over = live.board_values(policy)
    weights = policy.data.numpy_weights()
    everything = np.arange(len(policy.targets), dtype=np.int64)
    whole = values_over(everything, None)
    target_rows = live.prepared(policy)[2]

    def ranked(sets: list[np.ndarray], values: list[np.ndarray], count: int) -> Ranked:
        found = rank_boards(
            step,
            [target_rows[members] for members in sets],
            count,
            lambda number, candidates: values[number][candidates],
            [None if weights is None else weights[members] for members in sets],
        )
        return Ranked(tuple(int(g) for g in found.guesses), tuple(float(v) for v in found.values))

    first = {
        boards: ranked([everything] * boards, [whole] * boards, FIRST_RANKED)
        for boards in sorted(set(counts))
    }
    if 2 not in first:
        return BoardOpenings(first, reply_space=policy.game.reply_space)
    opener = first[2].guesses[0]
    win = policy.game.win_reply
    codes = live.target_replies(policy, opener)
    classes = {int(code): everything[codes == code] for code in np.unique(codes)}
    values = {code: values_over(members, None) for code, members in classes.items() if code != win}
    keys, offsets = array.array("q"), array.array("q", [0])
    guesses, ranked_values = array.array("i"), array.array("d")
    for reply_1 in sorted(classes):
        for reply_2 in sorted(classes):
            open_codes = [code for code in (reply_1, reply_2) if code != win]
            if not open_codes:
                continue  # two boards with one secret: no game
            position = ranked(
                [classes[code] for code in open_codes],
                [values[code] for code in open_codes],
                SECOND_RANKED,
            )
            keys.append(reply_1 * policy.game.reply_space + reply_2)
            guesses.extend(position.guesses)
            ranked_values.extend(position.values)
            offsets.append(len(guesses))
    return BoardOpenings(
        first, opener, keys, offsets, guesses, ranked_values, policy.game.reply_space
    )


def with_board_openings(
    stored: StoredPolicy, counts: Sequence[int] = OPENING_BOARDS
) -> StoredPolicy:
    """Return ``stored`` with its multi-board openings computed afresh and attached
    (a new core: its content hash changes with them).

    Raises:
        GuessMyWordError: not a word-guessing policy with a greedy step.
    """
    data = dataclasses.replace(stored.data, openings=None)
    targets = stored.words[data.targets.sha256][1]
    guesses = stored.words[data.guesses.sha256][1]
    core = encode_core(data)
    plain = Policy(data, targets, guesses, core, content_hash(core))
    with_them = dataclasses.replace(data, openings=board_openings(plain, counts))
    return StoredPolicy.from_data(with_them, targets, guesses)


def openings_faults(policy: Policy) -> list[str]:
    """Return how ``policy``'s stored openings differ from the joint step's rankings at
    their positions, computed again (empty when they agree, or when it stores none)."""
    stored = policy.data.openings
    if stored is None:
        return []
    game = policy.game
    if not game.multi_board:
        return [f"multi-board openings stored with {with_article(game.id)} policy"]
    fresh = board_openings(policy, sorted(stored.first))
    for boards, ranked in sorted(stored.first.items()):
        if ranked != fresh.first[boards]:
            return [f"the stored first guesses of {boards} boards are not the joint step's"]
    if (stored.second_after, list(stored.second_keys)) != (
        fresh.second_after,
        list(fresh.second_keys),
    ):
        return ["the stored Dordle second guesses do not cover the first guess's reply pairs"]
    if (
        list(stored.second_offsets),
        list(stored.second_guesses),
        list(stored.second_values),
    ) != (list(fresh.second_offsets), list(fresh.second_guesses), list(fresh.second_values)):
        return ["a stored Dordle second guess is not the joint step's"]
    return []
