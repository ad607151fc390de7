"""Text for messages people read: counted nouns (``1 guess``, ``2 guesses``), nouns
with their article (``an antiwordle policy``) and callers' values cut to a
bounded length (:func:`shown`).

Every message that puts a count before a noun goes through :func:`plural`,
so the singular is right wherever the count can be 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from guesswork import DISTRIBUTION

_VOWELS = frozenset("aeiou")


def plural_of(noun: str) -> str:
    """Return the plural of an English ``noun`` by the regular rules (guess -> guesses,
    entry -> entries, policy -> policies, word -> words); the last word of a phrase
    is the one changed (``invalid entry`` -> ``invalid entries``)."""
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and len(noun) > 1 and noun[-2].lower() not in _VOWELS:
        return noun[:-1] + "ies"
    return noun + "s"


def with_article(noun: str) -> str:
    """Return ``noun`` after "a", or "an" where it starts with a vowel letter.

    >>> with_article("antiwordle policy"), with_article("Wordle word"), with_article("Evil Wordle")
    ('an antiwordle policy', 'a Wordle word', 'an Evil Wordle')
    """
    return f"{'an' if noun[:1].lower() in _VOWELS else 'a'} {noun}"


def version_refused(subject: str, version: int, readable: Sequence[int], remedy: str) -> str:
    """Return why ``subject`` ``version`` (e.g. "policy format 7") is not read, in one line.

    A version newer than every one in ``readable`` needs a newer Guesswork (the
    pip command is given); an older one is told ``remedy`` (rebuild, convert).

    >>> print(version_refused("policy format", 675, (3, 4), "rebuild it"))  # doctest: +ELLIPSIS
    policy format 675 is newer than this Guesswork reads (3, 4): upgrade it with `pip ...`
    >>> version_refused("catalog schema", 1, (5,), "rebuild the catalog")
    'catalog schema 1 is no longer read; this Guesswork reads 5 (rebuild the catalog)'
    """
    known = ", ".join(map(str, readable))
    if version > max(readable):
        return (
            f"{subject} {version} is newer than this Guesswork reads ({known}): upgrade it "
            f"with `pip install --upgrade {DISTRIBUTION}`"
        )
    return f"{subject} {version} is no longer read; this Guesswork reads {known} ({remedy})"


def plural(count: int, noun: str, plural_noun: str | None = None, *, grouped: bool = False) -> str:
    """Return ``count`` and ``noun``, the noun plural unless the count is 1.

    ``plural_noun`` overrides the regular plural (:func:`plural_of`);
    ``grouped`` writes the count with thousands separators (``12,972 words``).

    >>> plural(1, "guess"), plural(3, "guess"), plural(1, "invalid entry")
    ('1 guess', '3 guesses', '1 invalid entry')
    >>> plural(0, "policy"), plural(12972, "word", grouped=True)
    ('0 policies', '12,972 words')
    """
    number = f"{count:,}" if grouped else str(count)
    if count == 1:
        return f"{number} {noun}"
    return f"{number} {plural_noun if plural_noun is not None else plural_of(noun)}"


#: How many characters of a caller's value a message repeats: the rest is counted,
#: not shown, so a message stays one line and a gRPC trailer stays small however
#: long the value sent (README, "Errors"; service.errors bounds whole messages).
SHOWN_CHARACTERS = 80


def shown(value: str, limit: int = SHOWN_CHARACTERS) -> str:
    """Return ``value`` quoted as ``repr`` does, cut to its first ``limit`` characters
    when longer, with its length stated.

    >>> shown("crane")
    "'crane'"
    >>> shown("x" * 1000, 5)
    "'xxxxx'... (1,000 characters)"
    """
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value):,} characters)"


def cut(text: str, limit: int) -> str:
    """Return ``text`` cut to its first ``limit`` characters when longer, its length stated.

    >>> cut("a message", 20), cut("a long message", 6)
    ('a message', 'a long... (14 characters)')
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"
