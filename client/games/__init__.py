"""Game rules as values: Wordle (any word length), Antiwordle, Jotto, Mastermind
and Guess My Word.

A game is an immutable object, never a global switch, so two games can be used
side by side. Every game defines which words are valid, the reply to a
(guess, target) pair as a small integer *reply code*, the winning reply, how
many reply codes exist, and how replies are written as text; and it declares
what it can do (:class:`~guesswork.client.games.base.Game`'s capabilities:
coloured replies, hard-mode rules, weights, multi-board games ...), which is
what the lookup, the replay and the builder ask of it, never its class.

One module per game, each rule in both forms (one pair at a time, and over
numpy arrays for many pairs at once):

* :mod:`.wordle`: Wordle and Antiwordle. Each position is a base-3 digit,
  miss=0, yellow=1, green=2, the first letter the most significant digit, so
  for five letters ``'.....'`` is 0, ``'....G'`` is 2 and ``'GGGGG'`` is 242.
  Sorting codes sorts replies as their digit strings ``'00000'`` .. ``'22222'``.
* :mod:`.jotto`: the number of letters the guess and the target share (0..k).
* :mod:`.mastermind` (``k`` pegs): ``black * (k + 1) + white``, where black
  pegs count the right colour in the right place and white pegs the right
  colour in the wrong place; there are ``(k + 1) ** 2`` codes, of which only
  ``black + white <= k`` (and never ``k-1`` black with one white) can occur.
  Codes are words of the first ``colours`` letters, so a 6-colour game's codes
  are ``AAAA`` .. ``FFFF``.
* :mod:`.guess_my_word`: where the target lies alphabetically, ``before`` (0)
  or ``after`` (1) the guess, or ``correct`` (2, the win; never given in the
  ``deduce`` variant). Its words are lower case, of any length.

:mod:`.base` holds what every game is, :mod:`.registry` the games by id (a new
game is its module and a line there), :mod:`.arrays` what the array forms
share (loaded with numpy, on their first call: a stored answer needs none).

Words of Wordle, Antiwordle and Jotto are letters of any one script (A-Z, Ñ,
ẞ, Greek, Cyrillic ...), in upper case as :mod:`guesswork.client.letters`
defines it; replies compare letters as they are written. Mastermind codes
stay A-Z, and Guess My Word words a-z.

>>> game = make_game("wordle")
>>> game.format_reply(game.reply("NINNY", "ANNEX"))
'Y.G..'

The array forms and the builder's compiled kernels are checked against the
rules one pair at a time in one place, ``tests/test_reply_rules.py``.
"""

from __future__ import annotations

from .base import MAX_LENGTH, MIN_LENGTH, Game, PairRule, ReplyCode, Word
from .guess_my_word import AFTER, BEFORE, CORRECT, GUESS_MY_WORD_VARIANTS, GuessMyWord
from .jotto import Jotto, jotto_reply
from .mastermind import MAX_COLOURS, MIN_COLOURS, Mastermind, all_codes, mastermind_reply
from .registry import GAMES, make_game
from .wordle import (
    GREEN,
    MISS,
    YELLOW,
    Antiwordle,
    ColouredGame,
    Wordle,
    code_to_colours,
    colours_to_code,
    wordle_reply,
)

__all__ = [
    "AFTER",
    "BEFORE",
    "CORRECT",
    "GAMES",
    "GREEN",
    "GUESS_MY_WORD_VARIANTS",
    "MAX_COLOURS",
    "MAX_LENGTH",
    "MIN_COLOURS",
    "MIN_LENGTH",
    "MISS",
    "YELLOW",
    "Antiwordle",
    "ColouredGame",
    "Game",
    "GuessMyWord",
    "Jotto",
    "Mastermind",
    "PairRule",
    "ReplyCode",
    "Word",
    "Wordle",
    "all_codes",
    "code_to_colours",
    "colours_to_code",
    "jotto_reply",
    "make_game",
    "mastermind_reply",
    "wordle_reply",
]
