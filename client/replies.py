"""Reading and writing replies as people type or paste them.

Wordle replies are tuples of colours, one per position (MISS=0, YELLOW=1,
GREEN=2); Jotto replies are counts; Mastermind replies are black and white
pegs (:func:`parse_pegs`; :func:`possible_pegs` says which can occur); Guess
My Word replies are positions (:func:`parse_position`). A pasted share text
(``Wordle 1,234 4/6*``, rows of coloured squares) is read by :func:`parse_share`,
and, given with the words played, into a history by :func:`share_history`
(``guesswork --history`` and ``guesswork play`` both take one).
Parsing is lenient about notation (letters, digits, coloured squares, any
case, spaces) but strict about meaning: a reply that no target word could
produce is refused with a message naming the problem.
Every refusal of a reply raises :class:`client.errors.InvalidReplyError`;
:func:`share_history` raises :class:`client.errors.UsageError` for words that
do not match the rows.
"""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata

from .errors import ImpossibleReplyError, InvalidReplyError, UsageError
from .letters import upper_word
from .text import cut, plural, shown

# The same values as client.games; defined here because client.games imports this module.
MISS, YELLOW, GREEN = 0, 1, 2

# Symbols per colour: (miss, yellow, green), indexed by the colour value.
_FORMATS: dict[str, tuple[str, str, str]] = {
    "letters": (".", "Y", "G"),
    "gyb": ("b", "y", "g"),
    "gyx": ("x", "y", "g"),
    "digits": ("0", "1", "2"),
    "emoji": ("\u2b1b", "\U0001f7e8", "\U0001f7e9"),  # black, yellow, green squares
    "emoji-light": ("\u2b1c", "\U0001f7e8", "\U0001f7e9"),  # white, yellow, green
    "emoji-contrast": ("\u2b1b", "\U0001f7e6", "\U0001f7e7"),  # black, blue, orange
}

#: The style names :func:`format_colours` accepts.
STYLES: tuple[str, ...] = tuple(_FORMATS)

# Upper-case symbol -> colour. Every style's symbols are here, so each style parses back.
_SYMBOLS: dict[str, int] = {"-": MISS, "_": MISS}
for _symbols in _FORMATS.values():
    for _colour, _symbol in enumerate(_symbols):
        _SYMBOLS[_symbol.upper()] = _colour

_SQUARES = frozenset(symbol for symbol in _SYMBOLS if not symbol.isascii())

# "4/6" or "X/6" in a share header; the look-arounds keep dates like 1/2/2024 out.
_HEADER_COUNT = re.compile(r"(?<![\d/])([0-9]+|[Xx])/([0-9]+)(?![\d/])")

# A Jotto count, optionally followed by words ("3", "3 letters", "2 in common").
_COUNT = re.compile(r"(-?[0-9]+)(?:\s+[A-Za-z][A-Za-z' -]*)?")

_HINT = "use G/Y/. or g/y/b, 0/1/2, or the coloured squares"


def _clean(text: str) -> str:
    """Return ``text`` without whitespace and invisible characters.

    Pasted emoji often carry variation selectors, zero-width joiners or
    direction marks; none of them is a position, so they are dropped.
    """
    return "".join(
        char
        for char in text
        if not char.isspace()
        and not "\ufe00" <= char <= "\ufe0f"
        and unicodedata.category(char) != "Cf"
    )


def _describe(char: str) -> str:
    """Return ``char`` quoted, with its Unicode name when it is not plain ASCII."""
    if char.isascii() and char.isprintable():
        return repr(char)
    return f"{char!r} ({unicodedata.name(char, f'U+{ord(char):04X}')})"


def _guess_problem(colours: tuple[int, ...], guess: str) -> str | None:
    """Return why no target gives ``colours`` for ``guess``, or None if one does.

    Fill the non-green positions with letters that differ from the guess there:
    exactly one target letter per yellow, every other position a letter the
    guess lacks. That works unless a miss precedes a yellow of the same letter
    (yellows go left to right) or the yellows cannot all get their own spot.
    """
    open_positions = [p for p, colour in enumerate(colours) if colour != GREEN]
    first_miss: dict[str, int] = {}
    for p in open_positions:
        letter = guess[p]
        if colours[p] == MISS:
            first_miss.setdefault(letter, p)
        elif letter in first_miss:
            return (
                f"the {letter} at position {first_miss[letter] + 1} is a miss, "
                f"so the {letter} at position {p + 1} cannot be yellow"
            )

    # Bipartite matching (Kuhn's augmenting paths) of yellows to open positions
    # whose guess letter differs; at most 15 positions, so cost is no concern.
    holder: dict[int, int] = {}  # open position -> the yellow whose letter it holds

    def place(yellow: int, seen: set[int]) -> bool:
        for p in open_positions:
            if guess[p] != guess[yellow] and p not in seen:
                seen.add(p)
                if p not in holder or place(holder[p], seen):
                    holder[p] = yellow
                    return True
        return False

    for p in open_positions:
        if colours[p] == YELLOW and not place(p, set()):
            letter = guess[p]
            return (
                f"there is no room for the {letter} that makes position {p + 1} yellow "
                f"(each yellow {letter} needs its own non-green position without "
                f"{letter} in the guess)"
            )
    return None


def parse_colours(text: str, length: int, guess: str | None = None) -> tuple[int, ...]:
    """Return the colours (MISS/YELLOW/GREEN per position) written in ``text``.

    Accepts ``G``/``Y``/``.`` (``-`` and ``_`` are misses too), ``g``/``y``/``b``,
    ``g``/``y``/``x``, ``2``/``1``/``0`` and the coloured squares (including the
    high-contrast orange and blue), in any case, with spaces anywhere. When
    ``guess`` is given, replies that no target could give for it are refused.

    Raises:
        InvalidReplyError: the text is empty, has a character that is not a
            colour, has the wrong number of positions, ``guess`` has the wrong
            length, or the reply is impossible.
    """
    cleaned = _clean(text)
    if not cleaned:
        raise InvalidReplyError(f"empty reply: type one colour per letter ({_HINT})")
    colours = []
    for position, char in enumerate(cleaned, start=1):
        colour = _SYMBOLS.get(char.upper())
        if colour is None:
            raise InvalidReplyError(
                f"{_describe(char)} at position {position} is not a reply colour; {_HINT}"
            )
        colours.append(colour)
    if len(colours) != length:
        raise InvalidReplyError(
            f"reply {shown(cleaned)} has {plural(len(colours), 'position')}, but words have "
            f"{length} letters"
        )
    word = None if guess is None else upper_word(guess.strip())
    if word is not None and len(word) != length:
        raise InvalidReplyError(
            f"guess {shown(word)} has {plural(len(word), 'letter')}, but words have "
            f"{length} letters"
        )

    non_green = [colour for colour in colours if colour != GREEN]
    if non_green == [YELLOW]:
        raise ImpossibleReplyError(
            f"impossible reply {shown(cleaned)}: when {plural(length - 1, 'letter')} "
            f"{'is' if length == 2 else 'are'} green the other "
            "letter cannot be yellow (its letter would have to be somewhere else in the "
            "word, but every other position is already green)"
        )
    if word is not None:
        problem = _guess_problem(tuple(colours), word)
        if problem is not None:
            raise ImpossibleReplyError(
                f"impossible reply {shown(cleaned)} for guess {shown(word)}: {problem}"
            )
    return tuple(colours)


def format_colours(colours: tuple[int, ...], style: str) -> str:
    """Return ``colours`` written in ``style`` (one of :data:`STYLES`).

    Raises:
        InvalidReplyError: unknown style, or a value that is not a colour.
    """
    try:
        symbols = _FORMATS[style]
    except KeyError:
        raise InvalidReplyError(
            f"unknown reply style {shown(style)}; known styles: {', '.join(STYLES)}"
        ) from None
    bad = [colour for colour in colours if colour not in (MISS, YELLOW, GREEN)]
    if bad:
        raise InvalidReplyError(f"{bad[0]!r} is not a colour; colours are 0, 1 and 2")
    return "".join(symbols[colour] for colour in colours)


#: What a count of digits sent by a caller stands for when it has more than three:
#: larger than any count of letters, pegs or rows, and never converted (Python
#: refuses to read an integer of over 4,300 digits, and a caller may send more).
_TOO_MANY = 1000


def _count_of(digits: str) -> int:
    """Return the decimal ``digits`` (no sign) as an int, or ``_TOO_MANY`` past 999."""
    significant = digits.lstrip("0") or "0"
    return _TOO_MANY if len(significant) > 3 else int(significant)


def parse_count(text: str, length: int) -> int:
    """Return the Jotto count in ``text``: an integer, optionally followed by words.

    Raises:
        InvalidReplyError: the text is empty, not a count, negative, or larger
            than ``length``.
    """
    stripped = text.strip()
    if not stripped:
        raise InvalidReplyError(f"empty Jotto reply: type a count from 0 to {length}")
    match = _COUNT.fullmatch(stripped)
    if match is None:
        raise InvalidReplyError(
            f"Jotto reply {shown(stripped)} is not a count: type a whole number from 0 to "
            f"{length}, optionally followed by words such as '3 letters'"
        )
    digits = match.group(1)
    magnitude = _count_of(digits.removeprefix("-"))
    count = -magnitude if digits.startswith("-") else magnitude
    if count < 0:
        raise ImpossibleReplyError(
            f"Jotto reply {shown(stripped)} is impossible: counts cannot be negative"
        )
    if count > length:
        raise ImpossibleReplyError(
            f"Jotto reply {shown(stripped)} is impossible: words have only {length} letters"
        )
    return count


def parse_share(text: str, length: int | None = 5) -> list[tuple[int, ...]]:
    """Return one colour tuple per row of squares in a pasted share text.

    Lines without squares (the ``Wordle 1,234 4/6*`` header, blank lines, links)
    are skipped. A ``n/m`` count in the lines before the first row must match
    the number of rows; ``X/m`` (a lost game) means all ``m`` rows were used.
    ``length`` None takes the word length from the first row.

    Raises:
        InvalidReplyError: there are no rows, a row is not a valid reply (the
            message names the line), or the rows disagree with the header count.
    """
    rows: list[tuple[int, ...]] = []
    claimed: re.Match[str] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if not _SQUARES.intersection(line):
            if not rows and claimed is None:
                claimed = _HEADER_COUNT.search(line)
            continue
        if length is None:
            length = len(_clean(line))
        try:
            rows.append(parse_colours(line, length))
        except InvalidReplyError as error:
            raise InvalidReplyError(f"share text line {number}: {error}") from None
    if not rows:
        raise InvalidReplyError("no rows of coloured squares found in the share text")
    if claimed is not None:  # the header's count, checked against the rows
        guesses, limit = claimed.group(1).upper(), _count_of(claimed.group(2))
        expected = limit if guesses == "X" else _count_of(guesses)
        if expected != len(rows):
            lost = f" (a lost game, so {plural(limit, 'row')})" if guesses == "X" else ""
            raise InvalidReplyError(
                f"share header says {cut(claimed.group(0), 20)}{lost}, but the text has "
                f"{plural(len(rows), 'row')} of squares"
            )
    return rows


def is_share_row(line: str) -> bool:
    """Return True when ``line`` is a share text's row: coloured squares and nothing
    else (spaces and invisible characters aside)."""
    cleaned = _clean(line)
    return bool(cleaned) and _SQUARES.issuperset(cleaned)


def share_header_rows(line: str) -> int | None:
    """Return how many rows a share text's header line announces, or None if ``line``
    is no header: a line without squares holding a ``n/m`` count.

    >>> share_header_rows("Wordle 1,234 4/6*"), share_header_rows("Wordle 1,234 X/6")
    (4, 6)
    >>> share_header_rows("G.Y.."), share_header_rows("2024/10/01") is None
    (None, True)
    """
    if _SQUARES.intersection(line):
        return None
    claimed = _HEADER_COUNT.search(line)
    if claimed is None:
        return None
    guesses, limit = claimed.group(1).upper(), _count_of(claimed.group(2))
    return limit if guesses == "X" else _count_of(guesses)


def share_history(text: str) -> list[tuple[str, str]]:
    """Return the turns of a pasted share text given together with its guesses.

    The rows of squares, in order, are the replies; the words on the other
    lines (not the header, the line holding the ``n/m`` count, nor a link),
    in order and separated by spaces or commas, are the guesses, e.g.
    ``"RAISE TONAL TACOS\\nWordle 1,234 3/6\\n\\n⬛🟨⬛⬛⬛\\n..."``.

    Raises:
        InvalidReplyError: a row is not a reply, or the header's count is not
            the number of rows.
        UsageError: a word is not made of letters, or the words are not as
            many as the rows.

    >>> share = "Wordle 1,234 3/6*\\n\\n⬛🟨⬛⬛⬛\\n🟩🟨⬛⬛⬛\\n🟩🟩🟩🟩🟩"
    >>> share_history("raise, tonal tacos\\n" + share)
    [('raise', '.Y...'), ('tonal', 'GY...'), ('tacos', 'GGGGG')]
    """
    rows = parse_share(text, None)
    words: list[str] = []
    for line in text.splitlines():
        if is_share_row(line) or share_header_rows(line) is not None or "://" in line:
            continue
        for word in filter(None, re.split(r"[\s,]+", line)):
            if not word.isalpha():
                raise UsageError(
                    f"share text: {word!r} is neither a guess, the header nor a row of squares"
                )
            words.append(word)
    if len(words) != len(rows):
        raise UsageError(
            f"the share text has {plural(len(rows), 'row')} of squares but "
            f"{plural(len(words), 'guess')} {'was' if len(words) == 1 else 'were'} given: "
            "give the words played, in order, with the share text"
        )
    return [(word, format_colours(row, "letters")) for word, row in zip(words, rows, strict=True)]


def format_share(
    title: str, rows: list[tuple[int, ...]], limit: int = 6, hard: bool = False
) -> str:
    """Return a share text in the NYT's shape: ``TITLE n/limit`` (``*`` for hard
    mode), a blank line, one row of coloured squares per guess. :func:`parse_share`
    reads it back. A game longer than ``limit`` shows its own count (``8/6``):
    this helper plays on where the NYT would have stopped.

    Raises:
        InvalidReplyError: a row holds a value that is not a colour.

    >>> print(format_share("Wordle", [(0, 1, 0, 0, 0), (2, 2, 2, 2, 2)], hard=True))
    Wordle 2/6*
    <BLANKLINE>
    ⬛🟨⬛⬛⬛
    🟩🟩🟩🟩🟩
    """
    header = f"{title} {len(rows)}/{limit}{'*' if hard else ''}"
    return "\n".join([header, "", *(format_colours(row, "emoji") for row in rows)])


# ------------------------------------------------------------ Mastermind pegs

_PEG_NUMBERS = re.compile(r"([0-9]+)\s*(?:,\s*|\s+)([0-9]+)")  # "2 1", "2,1"
_PEG_LETTERS = re.compile(r"[BW]+")  # "BBW"
_PEG_COUNT_FIRST = re.compile(r"(?:[0-9]+[BW])+")  # "2B1W"
_PEG_LETTER_FIRST = re.compile(r"(?:[BW][0-9]+)+")  # "B2W1"
_PEG_HINT = "write the black then the white pegs, e.g. '2B1W', 'BBW', '2 1' or 'B2W1'"


def parse_pegs(text: str, length: int) -> tuple[int, int]:
    """Return the (black, white) pegs written in ``text`` for codes of ``length`` pegs.

    Raises:
        InvalidReplyError: malformed text; ImpossibleReplyError for pegs no
            code of that length gets (more pegs than places, or all but one
            black and the last white).
    """
    black, white = _read_pegs(text)
    stripped, k = text.strip(), length
    if black + white > k:
        raise ImpossibleReplyError(
            f"impossible Mastermind reply {shown(stripped)}: {black} black and {white} white "
            f"pegs make {black + white}, but codes have only {k} pegs"
        )
    if (black, white) == (k - 1, 1):
        raise ImpossibleReplyError(
            f"impossible Mastermind reply {shown(stripped)}: when {plural(k - 1, 'peg')} "
            f"{'is' if k == 2 else 'are'} black the "
            "last cannot be white (its colour would have to be in another place, but "
            "every other place is already black)"
        )
    return black, white


def _read_pegs(text: str) -> tuple[int, int]:
    """Return the (black, white) pegs written in ``text`` (not checked against a game)."""
    stripped = text.strip()
    if not stripped:
        raise InvalidReplyError(f"empty Mastermind reply: {_PEG_HINT}")
    numbers = _PEG_NUMBERS.fullmatch(stripped)
    if numbers is not None:
        return _count_of(numbers.group(1)), _count_of(numbers.group(2))
    compact = re.sub(r"[\s,]", "", stripped).upper()
    if _PEG_LETTERS.fullmatch(compact):
        return compact.count("B"), compact.count("W")
    if _PEG_COUNT_FIRST.fullmatch(compact):
        pairs = [(letter, _count_of(n)) for n, letter in re.findall(r"([0-9]+)([BW])", compact)]
    elif _PEG_LETTER_FIRST.fullmatch(compact):
        pairs = [(letter, _count_of(n)) for letter, n in re.findall(r"([BW])([0-9]+)", compact)]
    else:
        raise InvalidReplyError(
            f"Mastermind reply {shown(stripped)} is not a count of pegs; {_PEG_HINT}"
        )
    counts = dict(pairs)
    if len(counts) != len(pairs):
        twice = "black" if [letter for letter, _ in pairs].count("B") > 1 else "white"
        raise InvalidReplyError(
            f"Mastermind reply {shown(stripped)} gives the {twice} pegs twice; {_PEG_HINT}"
        )
    return counts.get("B", 0), counts.get("W", 0)


def _fewest_whites(kept: tuple[int, ...], rest: int) -> int:
    """Return the fewest white pegs over the ``rest`` non-black places.

    ``kept[c]`` is how many non-black places of the guess have colour ``c``;
    every colour of the game is among them. A secret puts in each such place a
    colour other than the guess's there, so at most ``rest - kept[c]`` places
    get colour ``c``, and colour ``c`` earns ``min(kept[c], placed)`` whites.
    """
    fewest = {0: 0}  # places filled so far -> fewest whites
    for count in kept:
        following: dict[int, int] = {}
        for filled, whites in fewest.items():
            for placed in range(min(rest - count, rest - filled) + 1):
                total = whites + min(count, placed)
                if total < following.get(filled + placed, rest + 1):
                    following[filled + placed] = total
        fewest = following
    return fewest[rest]


@functools.lru_cache(maxsize=256)
def possible_pegs(guess_counts: tuple[int, ...], colours: int) -> frozenset[tuple[int, int]]:
    """Return every (black, white) some secret gives a guess with these colour counts.

    ``guess_counts`` holds how often the guess uses each of its colours (in a
    canonical order: only the counts matter). For each choice of how many pegs
    of each colour are *not* black (``kept``), the secret's other places each
    take a colour other than the guess's there. The most whites is
    ``min(rest, 2 * (rest - max(kept)))`` (a matching of places to guess pegs
    of another colour), the fewest is 0 when some colour is absent from those
    places (fill them with it), else :func:`_fewest_whites`. Changing one
    place changes the whites by at most one and every filling can reach every
    other, so every count in between occurs too.
    """
    length = sum(guess_counts)
    lacks_a_colour = colours > len(guess_counts)
    possible: set[tuple[int, int]] = set()
    for kept in itertools.product(*(range(count + 1) for count in guess_counts)):
        rest = sum(kept)
        most = min(rest, 2 * (rest - max(kept)))
        fewest = 0 if lacks_a_colour or 0 in kept else _fewest_whites(kept, rest)
        possible.update((length - rest, white) for white in range(fewest, most + 1))
    return frozenset(possible)


# ------------------------------------------------------------ Guess My Word

#: Guess My Word's replies, by code: where the target lies, or the win.
BEFORE, AFTER, CORRECT = 0, 1, 2
POSITIONS = ("before", "after", "correct")


def parse_position(text: str, correct_allowed: bool = True) -> int:
    """Return the code of a Guess My Word reply: ``before``, ``after`` or ``correct``, any case.

    Raises:
        InvalidReplyError: another word; ImpossibleReplyError for ``correct``
            where it is not allowed (the ``deduce`` variant never gives it).
    """
    answer = text.strip().lower()
    if answer not in POSITIONS:
        raise InvalidReplyError(f"reply {shown(text)} is not one of {', '.join(POSITIONS)}")
    if answer == "correct" and not correct_allowed:
        raise ImpossibleReplyError(
            "the deduce variant never answers 'correct' (a right guess is answered 'after')"
        )
    return POSITIONS.index(answer)
