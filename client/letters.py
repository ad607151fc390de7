"""Letters of any alphabet: the one rule for what a letter is, its case and its accents.

A word list may be written in any alphabet (Latin with accents, ß, ñ, Greek,
Cyrillic ...). Every game but Mastermind and Guess My Word reads its words
through this module, so the builder, the policy files, the probe, the service
and the command lines agree on what one word is:

* **Normalisation.** The text is put in Unicode NFC, so ``ñ`` typed as ``n``
  plus a combining tilde is the one letter ``Ñ``.
* **Case.** Every letter is upper-cased on its own: ``ß`` becomes the capital
  ``ẞ`` (U+1E9E), not ``SS``, and Greek final ``ς`` becomes ``Σ``, so a word
  keeps its length. A letter whose capital is not one code point keeps its
  case (``ŉ``, ``ǰ``).
* **One letter** is one code point of a Unicode letter category (``L*``) after
  that. Digits, spaces, apostrophes, hyphens and combining marks that no
  single letter holds are not letters.
* **One script.** All letters of a word belong to one script (the first word
  of the letter's Unicode name: ``LATIN``, ``GREEK``, ``CYRILLIC`` ...), so
  a word of Latin letters with one Greek alpha (U+0391) in it is refused.
* **Accents** are kept unless a :class:`LetterRule` folds them: folding drops
  every combining mark of a letter's canonical decomposition (``Á`` -> ``A``,
  ``Ü`` -> ``U``; the Greek tonos and the diaeresis of Cyrillic ``Ё`` go too)
  except in the letters the rule keeps whole (Spanish keeps ``Ñ``, Russian
  ``Й``).

Each language of :data:`LANGUAGES` has a default rule and an alphabet (the
letters its generated lists may use); ``guesswork-build --fold-accents`` or
``--no-fold-accents`` override the default for one list.

A folded list still matches what players type: :func:`reachable` says a
listed word is the typed one with some accents dropped, which is how
``árbol`` typed finds ``ARBOL`` (client.lookup and the probe use it).
"""

from __future__ import annotations

import re
import string
import unicodedata
from dataclasses import dataclass
from pathlib import PurePath

#: Capitals for the letters whose ``str.upper()`` is not one code point but
#: which have a one-letter capital: ß (``SS`` would change the word's length).
_CAPITALS = {"ß": "ẞ"}


def upper_letter(letter: str) -> str:
    """Return the capital of one letter, keeping words the same length (ß -> ẞ, ς -> Σ)."""
    special = _CAPITALS.get(letter)
    if special is not None:
        return special
    upper = letter.upper()
    if len(upper) != 1:
        upper = unicodedata.normalize("NFC", upper)
    return upper if len(upper) == 1 else letter


def strip_accents(letter: str) -> str:
    """Return one letter without the combining marks of its canonical decomposition."""
    base = "".join(c for c in unicodedata.normalize("NFD", letter) if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", base) if base else letter


def upper_word(text: str) -> str:
    """Return ``text`` in NFC with every letter upper-cased on its own (accents kept)."""
    if text.isascii():
        return text.upper()  # the common case, and the same result
    return "".join(upper_letter(c) for c in unicodedata.normalize("NFC", text))


@dataclass(frozen=True)
class LetterRule:
    """How one word list's words are written: accents folded or kept.

    Attributes:
        fold_accents: drop the accents of every letter not in ``keep``.
        keep: the capital letters kept whole when folding, e.g. ``"Ñ"``.
    """

    fold_accents: bool = False
    keep: str = ""

    def word(self, text: str) -> str:
        """Return ``text`` as the list stores it: NFC, upper case, accents folded or kept."""
        if text.isascii():
            return text.upper()
        upper = upper_word(text)
        if not self.fold_accents:
            return upper
        folded = (c if c in self.keep else upper_letter(strip_accents(c)) for c in upper)
        return unicodedata.normalize("NFC", "".join(folded))

    def describe(self) -> str:
        """Return the rule in words, e.g. ``accents folded, Ñ kept``."""
        if not self.fold_accents:
            return "accents kept"
        return "accents folded" + (f", {' '.join(self.keep)} kept" if self.keep else "")


#: The rule of lists that name no language: accents are kept as written.
KEEP_ACCENTS = LetterRule()


@dataclass(frozen=True)
class Language:
    """A language lists can be generated for: its default letter rule and its alphabet."""

    code: str
    name: str
    rule: LetterRule
    #: The letters (capitals) the language writes, accented ones included; a
    #: generated list keeps the words whose letters are these after its rule.
    alphabet: str

    def letters(self, rule: LetterRule) -> frozenset[str]:
        """Return the alphabet as a list read with ``rule`` writes it (folded or not)."""
        return frozenset(rule.word(letter) for letter in self.alphabet)


_LATIN = string.ascii_uppercase
_GREEK = "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ" + "ΆΈΉΊΌΎΏΪΫΐΰ"
_RUSSIAN = "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ" + "Ё"

#: Languages by ISO 639-1 code. The defaults follow the games' own clones:
#: Spanish ones fold accents but keep Ñ; French, Italian and Portuguese ones
#: play unaccented letters; German ones keep every accent, and with accents
#: folded still keep Ä, Ö, Ü (ß is a letter of its own, ẞ); Greek ones
#: drop the tonos and dialytika; Russian ones drop the diaeresis of Ё but keep Й. French
#: lists leave out words with Œ or Æ, which no accent folding makes A-Z.
LANGUAGES: dict[str, Language] = {
    language.code: language
    for language in (
        Language("en", "English", KEEP_ACCENTS, _LATIN),
        Language("es", "Spanish", LetterRule(True, "Ñ"), _LATIN + "ÑÁÉÍÓÚÜ"),
        Language("fr", "French", LetterRule(True), _LATIN + "ÀÂÇÉÈÊËÎÏÔÙÛÜŸ"),
        Language("de", "German", LetterRule(False, "ÄÖÜ"), _LATIN + "ÄÖÜẞ"),
        Language("it", "Italian", LetterRule(True), _LATIN + "ÀÈÉÌÍÎÒÓÙÚ"),
        Language("pt", "Portuguese", LetterRule(True), _LATIN + "ÁÂÃÀÇÉÊÍÓÔÕÚÜ"),
        Language("el", "Greek", LetterRule(True), _GREEK),
        Language("ru", "Russian", LetterRule(True, "Й"), _RUSSIAN),
    )
}


def rule_for(language: str | None = None, fold_accents: bool | None = None) -> LetterRule:
    """Return the letter rule of ``language`` (None: accents kept), with its accent
    folding overridden by ``fold_accents`` when that is given (the kept letters stay).

    Raises:
        KeyError: an unknown language code.
    """
    rule = KEEP_ACCENTS if language is None else LANGUAGES[language].rule
    if fold_accents is None or fold_accents == rule.fold_accents:
        return rule
    return LetterRule(fold_accents, rule.keep)


def script_of(letter: str) -> str:
    """Return the script of a letter: the first word of its Unicode name (``LATIN``)."""
    return unicodedata.name(letter, "UNKNOWN").split(" ", 1)[0]


def letters_problem(word: str) -> str | None:
    """Return why ``word`` is not made of letters of one script, or None if it is.

    ``word`` is taken as given (already in NFC and upper case: see
    :meth:`LetterRule.word`).
    """
    if not word:
        return "is empty"
    if word.isascii():
        return None if word.isalpha() else f"not made only of letters ({_first_non_letter(word)})"
    scripts: dict[str, str] = {}
    for char in word:
        category = unicodedata.category(char)
        if category.startswith("M"):
            name = unicodedata.name(char, f"U+{ord(char):04X}")
            return f"has an accent no single letter holds ({name})"
        if not category.startswith("L"):
            return f"not made only of letters ({_first_non_letter(word)})"
        scripts.setdefault(script_of(char), char)
    if len(scripts) > 1:
        names = " and ".join(f"{script.title()} {char}" for script, char in scripts.items())
        return f"mixes scripts ({names})"
    return None


def _first_non_letter(word: str) -> str:
    """Return which character of ``word`` (one that is not all letters) is not a letter."""
    char = next((c for c in word if not c.isalpha()), None)
    return "a character is not a letter" if char is None else f"{char!r} is not a letter"


def accent_key(word: str) -> str:
    """Return ``word`` with every accent dropped: the key under which a typed word
    and the listed words it may mean are found together."""
    return "".join(upper_letter(strip_accents(c)) for c in upper_word(word))


def reachable(typed: str, listed: str) -> int | None:
    """Return how many letters of ``typed`` lose their accents to give ``listed``,
    or None when ``listed`` is not ``typed`` with some accents dropped.

    Both are canonical words (:func:`upper_word`); ``ÁRBOL`` reaches ``ARBOL``
    (1), ``AÑO`` reaches ``AÑO`` (0) and ``ANO`` (1).
    """
    if len(typed) != len(listed):
        return None
    dropped = 0
    for have, want in zip(typed, listed, strict=True):
        if have != want:
            if upper_letter(strip_accents(have)) != want:
                return None
            dropped += 1
    return dropped


def resolve(typed: str, known: dict[str, list[str]]) -> str | None:
    """Return the listed word a typed canonical word means, or None.

    ``known`` maps :func:`accent_key` to the listed words with that key. The
    word itself wins; else the listed word reached by dropping the fewest
    accents (``ÁÑO`` finds ``AÑO`` before ``ANO``); a tie means nothing.
    """
    ranked = sorted(
        (dropped, word)
        for word in known.get(accent_key(typed), [])
        if (dropped := reachable(typed, word)) is not None
    )
    if not ranked or (len(ranked) > 1 and ranked[0][0] == ranked[1][0]):
        return None
    return ranked[0][1]


def accent_index(words: tuple[str, ...] | list[str]) -> dict[str, list[str]]:
    """Return :func:`resolve`'s map: each accent key and the ``words`` holding it."""
    index: dict[str, list[str]] = {}
    for word in words:
        index.setdefault(accent_key(word), []).append(word)
    return index


#: The names of generated lists: ``LANG-LENGTH-topN`` (``es-5-top2000``).
_LIST_NAME = re.compile(r"([a-z]{2,3})-(\d{1,2})-top(\d+)")


def list_language(name: str) -> str:
    """Return the language of a word list from its name, or ``""``.

    Lists made by ``guesswork-build wordlist`` are named ``LANG-LENGTH-topN``
    (the shipped ``es-5-top2000``); a file so named (``es-6-top3000.txt``,
    any folder) counts too. A policy's language is its target list's.
    """
    found = _LIST_NAME.fullmatch(PurePath(name).stem if name.endswith(".txt") else name)
    return found.group(1) if found and found.group(1) in LANGUAGES else ""
