"""Game rules as values: Wordle (any word length), Antiwordle and Jotto.

A game is an immutable object, never a global switch, so two games can be used
side by side. Every game defines which words are valid, the reply to a
(guess, target) pair as a small integer *reply code*, the winning reply, how
many reply codes exist, and how replies are written as text.

Reply codes
-----------
* Wordle-like games: each position is a base-3 digit, miss=0, yellow=1,
  green=2, the first letter being the most significant digit. So for five
  letters ``'.....'`` is 0, ``'....G'`` is 2 and ``'GGGGG'`` is 242. Sorting
  codes sorts replies as their digit strings ``'00000'`` .. ``'22222'``.
* Jotto: the number of letters the guess and the target share (0..k).

The Wordle reply rule lives in :func:`wordle_reply`; everything else (the
vectorised matrices in ``builder``, the service) is checked against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from client import replies
from client.errors import InvalidWordError, UnknownGameError

Word = str
ReplyCode = int

MIN_LENGTH = 2
MAX_LENGTH = 12

MISS, YELLOW, GREEN = 0, 1, 2


def wordle_reply(guess: Word, target: Word) -> tuple[int, ...]:
    """Return the Wordle colours (MISS/YELLOW/GREEN per position) of ``guess``.

    The NYT rule: greens are matched first; then, left to right, a letter is
    yellow only while the target still has an unmatched copy of it. So
    ``NINNY`` against ``ANNEX`` is ``Y.G..``: one N is green and only one more
    N exists in the target, so only the leftmost other N is yellow.
    Both words must have the same length (not checked here: hot path).
    """
    colours = [MISS] * len(guess)
    unmatched: dict[str, int] = {}  # target letters not matched by a green
    for i, (g, t) in enumerate(zip(guess, target, strict=False)):
        if g == t:
            colours[i] = GREEN
        else:
            unmatched[t] = unmatched.get(t, 0) + 1
    for i, letter in enumerate(guess):
        if colours[i] == MISS and unmatched.get(letter, 0) > 0:
            unmatched[letter] -= 1
            colours[i] = YELLOW
    return tuple(colours)


def colours_to_code(colours: tuple[int, ...] | list[int]) -> ReplyCode:
    """Return the reply code of a sequence of colours (first = most significant)."""
    code = 0
    for colour in colours:
        code = code * 3 + colour
    return code


def code_to_colours(code: ReplyCode, length: int) -> tuple[int, ...]:
    """Return the colours of a Wordle reply code, first position first."""
    digits = []
    for _ in range(length):
        code, digit = divmod(code, 3)
        digits.append(digit)
    return tuple(reversed(digits))


def jotto_reply(guess: Word, target: Word) -> int:
    """Return the number of letters ``guess`` and ``target`` have in common."""
    return len(set(guess) & set(target))


@dataclass(frozen=True)
class Game:
    """Rules shared by every word game: the word length and word validity."""

    length: int = 5

    id: ClassVar[str] = ""
    #: True when every guess must be consistent with all replies so far.
    consistent_only: ClassVar[bool] = False

    def __post_init__(self) -> None:
        if not MIN_LENGTH <= self.length <= MAX_LENGTH:
            raise InvalidWordError(
                f"{self.id}: word length must be between {MIN_LENGTH} and "
                f"{MAX_LENGTH}, not {self.length}"
            )

    @property
    def name(self) -> str:
        """Return the game id with its length, e.g. ``wordle`` or ``wordle-6``."""
        return self.id if self.length == 5 else f"{self.id}-{self.length}"

    def word_problem(self, word: str) -> str | None:
        """Return why ``word`` is not valid for this game, or None if it is."""
        if not word.isascii() or not word.isalpha():
            return "not made only of letters A-Z"
        if len(word) != self.length:
            return f"has {len(word)} letters, not {self.length}"
        return None

    def normalise_word(self, word: str) -> Word:
        """Return ``word`` in canonical (upper) case.

        Raises:
            InvalidWordError: the word is not valid for this game.
        """
        canonical = word.strip().upper()
        problem = self.word_problem(canonical)
        if problem is not None:
            raise InvalidWordError(f"{word!r} is not a valid {self.name} word: {problem}")
        return canonical

    @property
    def reply_space(self) -> int:
        """Return how many reply codes exist (codes are 0..reply_space-1)."""
        raise NotImplementedError

    @property
    def win_reply(self) -> ReplyCode:
        """Return the reply code meaning the guess is the target."""
        raise NotImplementedError

    def reply(self, guess: Word, target: Word) -> ReplyCode:
        """Return the reply code for ``guess`` when the secret is ``target``."""
        raise NotImplementedError

    def parse_reply(self, text: str, guess: Word | None = None) -> ReplyCode:
        """Return the reply code written in ``text``.

        When ``guess`` is given, replies impossible for that guess are refused.

        Raises:
            InvalidReplyError: the text is malformed or the reply is impossible.
        """
        raise NotImplementedError

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        """Return reply ``code`` as text in the given style."""
        raise NotImplementedError


@dataclass(frozen=True)
class Wordle(Game):
    """Wordle for words of ``length`` letters, with the NYT duplicate rule."""

    id: ClassVar[str] = "wordle"

    @property
    def reply_space(self) -> int:
        return int(3**self.length)

    @property
    def win_reply(self) -> ReplyCode:
        return int(3**self.length) - 1

    @property
    def distinct_replies(self) -> int:
        """Return how many codes can occur: all but "k-1 greens and a yellow"."""
        return int(3**self.length) - self.length

    def reply(self, guess: Word, target: Word) -> ReplyCode:
        return colours_to_code(wordle_reply(guess, target))

    def parse_reply(self, text: str, guess: Word | None = None) -> ReplyCode:
        colours = replies.parse_colours(text, self.length, guess)
        return colours_to_code(colours)

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        return replies.format_colours(code_to_colours(code, self.length), style)


@dataclass(frozen=True)
class Antiwordle(Wordle):
    """Antiwordle: Wordle replies, but the guesser tries to *avoid* the target.

    Only guesses consistent with every reply so far are allowed.
    """

    id: ClassVar[str] = "antiwordle"
    consistent_only: ClassVar[bool] = True


@dataclass(frozen=True)
class Jotto(Game):
    """Jotto: the reply is how many letters guess and target share.

    Words must have ``length`` distinct letters, and a word list must not hold
    two anagrams (otherwise a full-count reply would not mean a win).
    """

    id: ClassVar[str] = "jotto"

    def word_problem(self, word: str) -> str | None:
        problem = super().word_problem(word)
        if problem is None and len(set(word.upper())) != len(word):
            return "repeats a letter"
        return problem

    @property
    def reply_space(self) -> int:
        return self.length + 1

    @property
    def win_reply(self) -> ReplyCode:
        return self.length

    @property
    def distinct_replies(self) -> int:
        """Return how many codes can occur (0..length shared letters)."""
        return self.length + 1

    def reply(self, guess: Word, target: Word) -> ReplyCode:
        return jotto_reply(guess, target)

    def parse_reply(self, text: str, guess: Word | None = None) -> ReplyCode:
        return replies.parse_count(text, self.length)

    def format_reply(self, code: ReplyCode, style: str = "letters") -> str:
        return str(code)


def partition(game: Game, guess: Word, targets: list[Word]) -> dict[ReplyCode, list[Word]]:
    """Return the targets grouped by the reply ``guess`` gets from each.

    Groups appear in order of their first target, and keep the targets' order.
    """
    branches: dict[ReplyCode, list[Word]] = {}
    for target in targets:
        branches.setdefault(game.reply(guess, target), []).append(target)
    return branches


def consistent_targets(
    game: Game, targets: list[Word], guess: Word, reply: ReplyCode
) -> list[Word]:
    """Return the targets that would give ``reply`` to ``guess``, in order."""
    return [target for target in targets if game.reply(guess, target) == reply]


GAMES: dict[str, type[Game]] = {cls.id: cls for cls in (Wordle, Antiwordle, Jotto)}


def make_game(game_id: str, length: int = 5) -> Game:
    """Return the rules object for ``game_id`` with words of ``length`` letters.

    Raises:
        UnknownGameError: no such game (the message lists the known ones).
        InvalidWordError: the length is outside the supported range.
    """
    try:
        cls = GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGameError(f"unknown game {game_id!r}; known games: {known}") from None
    return cls(length=length)
