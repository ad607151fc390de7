"""What every game is: the :class:`Game` value, its word rules, and the questions
the lookup, the replay and the builder ask of a game (its capabilities).

A game module (client.games.wordle, .jotto, .mastermind, .guess_my_word)
subclasses :class:`Game` and answers those questions for its game: the reply
rule, one pair at a time (:meth:`Game.reply`) and over arrays
(:meth:`Game.pair_replies`, :meth:`Game.letter_replies`), validity, reply
text, the hard-mode rules that apply, and the flags below. Code outside the
game modules asks these, never which class a game is, so a new game is its
module and a line of client.games.registry.

No numpy here: a stored answer needs none. The array forms import it when
first called.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import InvalidWordError
from ..letters import letters_problem, upper_word
from ..text import plural, shown

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

Word = str
ReplyCode = int

MIN_LENGTH = 2
MAX_LENGTH = 12

#: The replies of (vocabulary index, target index) pairs: two int64 index arrays of
#: one shape in, their int64 reply codes out (:meth:`Game.pair_replies`).
PairRule = Callable[["npt.NDArray[np.int64]", "npt.NDArray[np.int64]"], "npt.NDArray[np.int64]"]


@dataclass(frozen=True)
class Game:
    """Rules shared by every word game: the word length and word validity, and
    the capabilities a game declares (class attributes, read by the lookup, the
    replay and the builder instead of the game's class)."""

    length: int = 5

    id: ClassVar[str] = ""
    #: True when every guess must be consistent with all replies so far.
    consistent_only: ClassVar[bool] = False
    #: True when a policy of the game answers suggestions only (no scoring,
    #: hard-mode checks or Evil replies).
    suggestions_only: ClassVar[bool] = False
    #: True when a reply colours each letter (miss, yellow, green; the base-3 codes
    #: of client.games.wordle): the NYT hard rule (:meth:`nyt_hard_problem`),
    #: coloured squares, the approximate entropy of colours and the exact search's
    #: letter arrays apply.
    coloured_replies: ClassVar[bool] = False
    #: True when the player wants the fewest guesses (all but Antiwordle, whose
    #: player avoids the target): exact search and analysis apply.
    minimises_guesses: ClassVar[bool] = True
    #: True when boards of the game make multi-board games (Dordle, Quordle ...).
    multi_board: ClassVar[bool] = False
    #: True when Absurdle, the adversary that keeps the most targets, is played
    #: with the game's replies.
    absurdle: ClassVar[bool] = False
    #: True when targets may carry weights (a prior): the game has a secret drawn
    #: from a list.
    target_weights: ClassVar[bool] = False
    #: True when the targets are a weighted list whose weights every policy
    #: stores, checked as a builder.weighted_lists.WeightedList (Guess My Word).
    weighted_list: ClassVar[bool] = False
    #: True when words are letters of any script, accents included (a typed word
    #: is looked up with its accents dropped too); False: A-Z or a-z only.
    any_script: ClassVar[bool] = True
    #: True when the game has no word lists: every word (:meth:`all_words`) is both
    #: a guess and a possible target (Mastermind's codes).
    fixed_words: ClassVar[bool] = False
    #: True when a policy has one word list, the targets, guesses included
    #: (Guess My Word).
    one_word_list: ClassVar[bool] = False
    #: True when the game's lists keep one word per set of letters, derived from
    #: the Wordle list of its length in an order the policy records, and targets
    #: must hold no two anagrams (Jotto: a full count would not mean a win).
    letter_set_lists: ClassVar[bool] = False
    #: True when a reply says where the target lies alphabetically (Guess My Word:
    #: before, after, correct), so live answers walk a word tree.
    alphabetical_replies: ClassVar[bool] = False
    #: The name of the builder's compiled kernel for the game's reply rule
    #: (builder.reply_kernels), or None: the builder uses :meth:`letter_replies`.
    reply_kernel: ClassVar[str | None] = None

    def __post_init__(self) -> None:
        if not MIN_LENGTH <= self.length <= MAX_LENGTH:
            raise InvalidWordError(
                f"{self.id}: word length must be between {MIN_LENGTH} and "
                f"{MAX_LENGTH}, not {self.length}"
            )

    @classmethod
    def from_options(
        cls, length: int | None = None, colours: int | None = None, variant: str | None = None
    ) -> Game:
        """Return the game of ``length`` letters (default: the class's own).

        Raises:
            InvalidWordError: a variant or a number of colours was given (only
                Guess My Word and Mastermind have them), or the length is outside
                the supported range.
        """
        if variant is not None:
            raise InvalidWordError(f"{cls.id}: only guess-my-word has a variant")
        if colours is not None:
            raise InvalidWordError(f"{cls.id}: only mastermind has a number of colours")
        return cls() if length is None else cls(length=length)

    @property
    def name(self) -> str:
        """Return the game id with its length, e.g. ``wordle`` or ``wordle-6``."""
        return self.id if self.length == 5 else f"{self.id}-{self.length}"

    def stored(self) -> dict[str, Any]:
        """Return the game as a policy file stores it (client.policy_format):
        ``{"id", "length"}``, and the game's own fields (Mastermind's colours,
        Guess My Word's variant)."""
        return {"id": self.id, "length": self.length}

    @property
    def deduces(self) -> bool:
        """Return True when one target left is known and named at no cost.

        Only Guess My Word's ``deduce`` variant, which never answers with the
        winning reply: a tree's leaf there ends the game without a guess.
        """
        return False

    @property
    def analysable(self) -> bool:
        """Return True when games of this game are analysed move by move
        (builder.analysis): the player minimises guesses and policies score them."""
        return self.minimises_guesses and not self.suggestions_only

    @property
    def interchangeable_colours(self) -> int | None:
        """Return the number of colours when every permutation of them maps the game
        onto itself (Mastermind: the exact search tries one opener per orbit), else
        None."""
        return None

    def fold(self, word: str) -> Word:
        """Return ``word`` stripped, in the game's case: upper, letter by letter as
        client.letters says (ß -> ẞ), in NFC; lower for Guess My Word."""
        return upper_word(word.strip())

    def word_problem(self, word: str) -> str | None:
        """Return why ``word`` is not valid for this game, or None if it is.

        Words are letters of any one script (client.letters), counted in code
        points after NFC: ``ÑANDÚ`` has five.
        """
        problem = letters_problem(word)
        if problem is not None:
            return problem
        if len(word) != self.length:
            return f"has {plural(len(word), 'letter')}, not {self.length}"
        return None

    def first_word_problem(self, words: Sequence[Word]) -> tuple[Word, str] | None:
        """Return the first of ``words`` that is not a word of the game in its case,
        with why (:meth:`word_problem`, or not in the game's case), or None."""
        for word in dict.fromkeys(words):
            problem = self.word_problem(word)
            if problem is None and self.fold(word) != word:
                problem = "not in the game's case"
            if problem is not None:
                return word, problem
        return None

    def normalise_word(self, word: str) -> Word:
        """Return ``word`` in canonical case (see :meth:`fold`).

        Raises:
            InvalidWordError: the word is not valid for this game.
        """
        canonical = self.fold(word)
        problem = self.word_problem(canonical)
        if problem is not None:
            raise InvalidWordError(f"{shown(word)} is not a valid {self.name} word: {problem}")
        return canonical

    def all_words(self) -> tuple[Word, ...]:
        """Return every word of a game with :attr:`fixed_words`, sorted.

        Raises:
            TypeError: the game reads its words from lists.
        """
        raise TypeError(f"{self.id} reads its words from lists")

    @property
    def all_words_name(self) -> str:
        """Return the name of the list :meth:`all_words` makes (e.g. ``mastermind-6x4``).

        Raises:
            TypeError: the game reads its words from lists.
        """
        raise TypeError(f"{self.id} reads its words from lists")

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

    def reply_codes(self, guess: Word, words: tuple[Word, ...]) -> npt.NDArray[np.int64]:
        """Return the int64 reply codes of ``guess`` against each of ``words``."""
        import numpy as np  # only for many targets at once: a stored answer needs none

        return np.fromiter((self.reply(guess, w) for w in words), np.int64, len(words))

    def pair_replies(self, vocabulary: tuple[Word, ...], targets: tuple[Word, ...]) -> PairRule:
        """Return the reply rule over (``vocabulary`` index, ``targets`` index) pairs,
        as arrays (client.replay: every node's targets at once).

        This default applies :meth:`reply` pair by pair; a game with an array form
        of its rule returns that (``tests/test_reply_rules.py`` checks each against
        :meth:`reply`).
        """

        def replies(
            guess: npt.NDArray[np.int64], target: npt.NDArray[np.int64]
        ) -> npt.NDArray[np.int64]:
            import numpy as np  # the replay has it loaded already

            pairs = zip(guess.tolist(), target.tolist(), strict=True)
            return np.fromiter(
                (self.reply(vocabulary[g], targets[t]) for g, t in pairs), np.int64, len(guess)
            )

        return replies

    def letter_replies(
        self, guess_letters: npt.NDArray[np.integer], target_letters: npt.NDArray[np.integer]
    ) -> npt.NDArray[np.integer]:
        """Return the replies of every guess to every target, ``(guesses, targets)``
        codes in an integer dtype that holds them, from letter arrays coded in one
        alphabet (builder.matrices), where the builder has no compiled kernel
        (:attr:`reply_kernel`) for them.

        Raises:
            TypeError: the game has no reply rule over letter arrays.
        """
        raise TypeError(f"no reply matrix for game {self.name!r}")

    def nyt_hard_problem(self, turns: Sequence[tuple[Word, ReplyCode]], word: Word) -> str | None:
        """Return why ``word`` breaks the NYT hard mode after ``turns`` (None: it may),
        for a game with :attr:`coloured_replies` (client.rules.nyt_hard_problem).

        Raises:
            TypeError: the game's replies colour no letters.
        """
        raise TypeError(f"the NYT hard rule applies to Wordle, not {self.id}")

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

    def reply_caption(self, code: ReplyCode) -> str:
        """Return reply ``code`` as a caption for a figure (builder.report): its text,
        or what it counts (Jotto: ``2 in common``)."""
        return self.format_reply(code)
