"""Regenerate builder/data/guess_my_word/common-words.txt, the shipped Guess My Word list.

Run: guesswork-build gmw-list [--top N] [--output PATH]

Needs the ``wordfreq`` package (``pip install wordfreq``); the builder itself
does not. The list is the ``N`` most frequent English words of wordfreq
(default 5000), kept when they are lower-case ASCII letters only and at least
three letters long, each with the count ``round(word_frequency * 1e9)``,
sorted alphabetically, one ``word count`` a line after a header comment that
names the source, the wordfreq version and the command. The same wordfreq
version gives the same file byte for byte. After regenerating, update the
count and SHA-256 registered in ``builder/weighted_lists.py`` (``SHIPPED_LIST``).
"""

from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path

from .errors import GmwListError

DEFAULT_OUTPUT = Path(__file__).resolve().parent / "data" / "guess_my_word" / "common-words.txt"
DEFAULT_TOP = 5000
MIN_LETTERS = 3
#: Counts are frequencies per billion words: wordfreq gives about three
#: significant digits, so rarer words of the list still get counts in the thousands.
SCALE = 1e9


def common_words(top: int) -> dict[str, int]:
    """Return {word: count} for the kept words among wordfreq's ``top`` English words.

    Raises:
        GmwListError: wordfreq is not installed.
    """
    try:
        import wordfreq
    except ImportError:
        raise GmwListError(
            "making the Guess My Word list needs wordfreq: pip install '.[gmw-list]'"
        ) from None
    counts: dict[str, int] = {}
    for word in wordfreq.top_n_list("en", top):
        # Apostrophes, digits, accents and one- or two-letter words are not
        # Guess My Word answers.
        if word.isascii() and word.isalpha() and word.islower() and len(word) >= MIN_LETTERS:
            count = round(wordfreq.word_frequency(word, "en") * SCALE)
            if count > 0:
                counts[word] = count
    return counts


def render(counts: dict[str, int], top: int) -> str:
    """Return the file text: the header comment, then ``word count`` lines in alphabetic order."""
    version = metadata.version("wordfreq")
    command = "guesswork-build gmw-list" + ("" if top == DEFAULT_TOP else f" --top {top}")
    header = (
        f"# Guess My Word weighted list: wordfreq {version} top_n_list('en', {top}), "
        f"lower-case a-z words of {MIN_LETTERS}+ letters, "
        f"count = round(word_frequency(word, 'en') * 1e9). Made by: {command}\n"
    )
    return header + "".join(f"{word} {counts[word]}\n" for word in sorted(counts))


def write_list(top: int = DEFAULT_TOP, output: Path = DEFAULT_OUTPUT) -> tuple[int, str]:
    """Write the list to ``output``; return (word count, SHA-256 of the file).

    Raises:
        GmwListError: wordfreq is not installed.
    """
    counts = common_words(top)
    text = render(counts, top)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(text, encoding="ascii")
    return len(counts), hashlib.sha256(text.encode("ascii")).hexdigest()
