"""Regenerate builder/data/guess_my_word/common-words.txt, the shipped Guess My Word list.

Run: python scripts/make_gmw_list.py [--top N] [--output PATH]

Needs the ``wordfreq`` package (``pip install wordfreq``); the builder itself
does not. The list is the ``N`` most frequent English words of wordfreq
(default 5000), kept when they are lower-case ASCII letters only and at least
three letters long, each with the count ``round(word_frequency * 1e9)``,
sorted alphabetically, one ``word count`` a line after a header comment that
names the source, the wordfreq version and the command. The same wordfreq
version gives the same file byte for byte. After regenerating, update the
count and SHA-256 registered in ``builder/guess_my_word.py`` (``SHIPPED_LIST``).
"""

from __future__ import annotations

import argparse
import hashlib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = ROOT / "builder" / "data" / "guess_my_word" / "common-words.txt"
DEFAULT_TOP = 5000
MIN_LETTERS = 3
#: Counts are frequencies per billion words: wordfreq gives about three
#: significant digits, so rarer words of the list still get counts in the thousands.
SCALE = 1e9


def common_words(top: int) -> dict[str, int]:
    """Return {word: count} for the kept words among wordfreq's ``top`` English words.

    Raises:
        SystemExit: wordfreq is not installed.
    """
    try:
        import wordfreq
    except ImportError:
        raise SystemExit("this script needs wordfreq: pip install wordfreq") from None
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
    command = "python scripts/make_gmw_list.py" + ("" if top == DEFAULT_TOP else f" --top {top}")
    header = (
        f"# Guess My Word weighted list: wordfreq {version} top_n_list('en', {top}), "
        f"lower-case a-z words of {MIN_LETTERS}+ letters, "
        f"count = round(word_frequency(word, 'en') * 1e9). Made by: {command}\n"
    )
    return header + "".join(f"{word} {counts[word]}\n" for word in sorted(counts))


def main(argv: list[str] | None = None) -> None:
    """Write the list and print its size and SHA-256."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=DEFAULT_TOP, help="wordfreq words to consider")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT, help="file to write")
    args = parser.parse_args(argv)
    counts = common_words(args.top)
    text = render(counts, args.top)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="ascii")
    digest = hashlib.sha256(text.encode("ascii")).hexdigest()
    print(f"wrote {args.output}: {len(counts)} words, sha256 {digest}")


if __name__ == "__main__":
    main()
