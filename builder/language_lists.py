"""Word lists per language from wordfreq: ``guesswork-build wordlist``.

    guesswork-build wordlist --language es --length 5 --top 2000 [--output FILE]
                             [--fold-accents | --no-fold-accents]

Needs the ``wordfreq`` package (``pip install '.[gmw-list]'``, pinned at the
version the Guess My Word list uses); the builder itself does not. The list
holds the ``N`` most frequent words of ``K`` letters of wordfreq's list for
the language (``wordfreq.iter_wordlist``, most frequent first), each written
with the language's letter rule (client.letters: NFC, upper case, accents
folded or kept; ``--fold-accents`` or ``--no-fold-accents`` override it):

* an entry is kept when it is letters only (no digits, apostrophes, hyphens
  or spaces) and every letter, after the rule, is a letter of the language's
  alphabet (so other scripts and foreign letters are left out);
* two entries that the rule writes alike (``están`` and ``estan`` when
  accents fold) count once, at the more frequent one's place.

wordfreq marks no proper nouns (it lower-cases everything), so names
frequent in the language's texts (``paris``, ``david``) stay in; it also
case-folds ``ß`` to ``ss``, so German lists spell ``weiss``.

The file is a header comment naming the source, its version, the filters
and the command, then one word a line, lower case, most frequent first (a
list's order breaks the builder's ties). The same wordfreq version gives the
same file byte for byte; a test regenerates a shipped one. Lists are named
``LANG-K-topN`` (client.letters.list_language reads the language back from
the name, so policies over ``es-5-top2000`` are listed as Spanish).
"""

from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path

from ..client.letters import LANGUAGES, LetterRule
from .errors import WordListError

DATA = Path(__file__).resolve().parent / "data" / "wordlists"
DEFAULT_TOP = 2000
#: The lists shipped under builder/data/wordlists: (language, length, top).
SHIPPED_LANGUAGE_LISTS = (
    ("es", 5, 2000),
    ("de", 5, 2000),
    ("fr", 5, 2000),
    ("el", 5, 2000),
    ("ru", 5, 2000),
)


def list_name(language: str, length: int, top: int) -> str:
    """Return a generated list's name, e.g. ``es-5-top2000``."""
    return f"{language}-{length}-top{top}"


def language_words(language: str, length: int, top: int, rule: LetterRule) -> list[str]:
    """Return the ``top`` most frequent kept words of ``length`` letters, most frequent
    first, as ``rule`` writes them (upper case).

    Raises:
        WordListError: wordfreq is not installed, or the language is unknown.
    """
    try:
        import wordfreq
    except ImportError:
        raise WordListError(
            "making a language's word list needs wordfreq: pip install '.[gmw-list]'"
        ) from None
    if language not in LANGUAGES:
        raise WordListError(f"unknown language {language!r}; known: {', '.join(LANGUAGES)}")
    alphabet = LANGUAGES[language].letters(rule)
    words: list[str] = []
    seen: set[str] = set()
    for entry in wordfreq.iter_wordlist(language):
        if not entry.isalpha():  # digits, apostrophes, hyphens, spaces
            continue
        word = rule.word(entry)
        if len(word) != length or word in seen or not alphabet.issuperset(word):
            continue
        seen.add(word)
        words.append(word)
        if len(words) == top:
            break
    return words


def command_line(language: str, length: int, top: int, rule: LetterRule) -> str:
    """Return the command that makes the list (the header names it)."""
    command = f"guesswork-build wordlist --language {language} --length {length} --top {top}"
    if rule.fold_accents != LANGUAGES[language].rule.fold_accents:
        command += " --fold-accents" if rule.fold_accents else " --no-fold-accents"
    return command


def render(language: str, length: int, top: int, rule: LetterRule) -> str:
    """Return the file text: the header comment, then one lower-case word a line.

    Raises:
        WordListError: wordfreq is not installed, or the language is unknown.
    """
    words = language_words(language, length, top, rule)
    name = LANGUAGES[language].name
    letters = "".join(sorted(LANGUAGES[language].letters(rule)))
    header = (
        f"# {list_name(language, length, top)}: the {len(words)} most frequent {length}-letter "
        f"{name} words of wordfreq {metadata.version('wordfreq')} "
        f"(iter_wordlist({language!r})), letters only, of {letters.lower()} after the "
        f"letter rule ({rule.describe()}), most frequent first. "
        f"Made by: {command_line(language, length, top, rule)}\n"
    )
    return header + "".join(f"{word.lower()}\n" for word in words)


def write_list(
    language: str, length: int, top: int, rule: LetterRule, output: Path | None
) -> tuple[str, int, str]:
    """Write the list to ``output`` (None: return it only); return (text, word count,
    SHA-256 of the text).

    Raises:
        WordListError: wordfreq is not installed, or the language is unknown.
    """
    text = render(language, length, top, rule)
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(text, encoding="utf-8")
    count = sum(1 for line in text.splitlines() if not line.startswith("#"))
    return text, count, hashlib.sha256(text.encode("utf-8")).hexdigest()
