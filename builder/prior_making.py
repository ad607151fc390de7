"""Making a prior (builder.priors): wordfreq frequencies through 3Blue1Brown's sigmoid.

Each word of a list is ranked by its frequency in running text (wordfreq),
the sorted list laid out evenly on a stretch of the number line of length
``width`` so that about the ``n_common`` most frequent words land on the
positive side, and given the logistic sigmoid of its place. As roget and the
NYT's own list suggest, plurals and past tenses are rarely answers, so their
likelihood is multiplied by a factor (0.1 by default). Likelihoods are stored
as positive integer weights (``round(p * scale)``, at least 1).

Plurals and past tenses are told by English spelling rules (:func:`is_plural`,
:func:`is_past_tense`): the word less its ending must be a word too, at least
:data:`STEM_SHARE` times as frequent. In a Wordle list every word has five
letters, so that stem (``BAKE`` of ``BAKED``) is looked up in the shipped
enable1 dictionary as well as in the list.

Making a prior needs the ``wordfreq`` package (the project pins 3.1.1);
reading and using one (builder.priors) does not. The same words and wordfreq
version give the same weights byte for byte: the ranking is a stable sort,
the sigmoid is evaluated with ``math.exp`` one word at a time, and rounding
is Python's.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from types import ModuleType

import numpy as np

from ..client.letters import upper_word
from .errors import PriorError
from .priors import ParamValue, Prior
from .wordlists import content_sha256, shipped_words

DEFAULT_NAME = "wordfreq-sigmoid"
DEFAULT_LANGUAGE = "en"
DEFAULT_WIDTH = 10.0
DEFAULT_COMMON = 3000
DEFAULT_PLURAL_FACTOR = 0.1
DEFAULT_PAST_FACTOR = 0.1
#: Weights are likelihoods times this: small enough that a weighted total over
#: 14,855 targets fits the exact search's int32 certificates many times over
#: (builder.optimal.problem.check_weights), large enough to keep 4 digits.
DEFAULT_SCALE = 10_000
#: The words a plural's or past tense's stem may be, besides the list's own,
#: for English: the shipped enable1 dictionary (every length, so ``BAKES``
#: in a five-letter list finds ``BAKE``).
DEFAULT_LEXICON = "enable1"
#: How frequent (by wordfreq) a stem must be, relative to the word, for the word to
#: count as its plural or past tense when a prior is made.
STEM_SHARE = 0.25

#: The header comment's opening; ``key=value`` pairs follow it.
_VOWELS = frozenset("AEIOU")


@dataclass(frozen=True)
class Inflections:
    """The words of a list judged plurals and past tenses, and the lexicon used.

    Attributes:
        plurals: words judged plurals (:func:`is_plural`).
        past_tenses: words judged past tenses (:func:`is_past_tense`).
        lexicon: what besides the list a stem could be: ``enable1``, ``none``,
            or ``custom-N-SHA`` (N words whose sorted content_sha256 begins SHA).
    """

    plurals: frozenset[str]
    past_tenses: frozenset[str]
    lexicon: str


def plural_stems(word: str) -> list[str]:
    """Return the words an upper-case ``word`` would be the plural of, by spelling.

    Rule: the word ends in ``S`` but not ``SS``, ``US`` or ``IS`` (``GLASS``,
    ``BONUS``, ``BASIS`` are not plurals); its stems are the word less the
    final ``S`` (``CRANES`` -> ``CRANE``), less a final ``ES`` (``BOXES`` ->
    ``BOX``), and with a final ``IES`` made ``Y`` (``BERRIES`` -> ``BERRY``).
    """
    if not word.endswith("S") or word.endswith(("SS", "US", "IS")):
        return []
    stems = [word[:-1]]
    if word.endswith("ES"):
        stems.append(word[:-2])
    if word.endswith("IES"):
        stems.append(word[:-3] + "Y")
    return [stem for stem in stems if stem]


def past_stems(word: str) -> list[str]:
    """Return the words an upper-case ``word`` would be the past tense of, by spelling.

    Rule: the word ends in ``ED``; its stems are the word less the ``ED``
    (``ROLLED`` -> ``ROLL``), less only the ``D`` (``BAKED`` -> ``BAKE``), with
    a final ``IED`` made ``Y`` (``TRIED`` -> ``TRY``), and less a doubled
    consonant's second letter and the ``ED`` (``STOPPED`` -> ``STOP``).
    """
    if not word.endswith("ED"):
        return []
    stems = [word[:-2], word[:-1]]
    if word.endswith("IED"):
        stems.append(word[:-3] + "Y")
    if len(word) >= 5 and word[-3] == word[-4] and word[-3] not in _VOWELS:
        stems.append(word[:-3])
    return [stem for stem in stems if stem]


def _has_stem(
    word: str,
    stems: list[str],
    known: frozenset[str] | set[str],
    frequency: Callable[[str], float] | None,
) -> bool:
    """Return whether one of ``stems`` is a ``known`` word (and, given ``frequency``,
    one at least :data:`STEM_SHARE` times as frequent as ``word``: BAKED (0.98) and
    BORED (0.54) are past tenses, but GREED is no form of the rare GREE (0.04),
    nor CHAOS (0.06), KUDOS (0.10) or WICKED (0.22) plurals or past tenses)."""
    floor = STEM_SHARE * frequency(word) if frequency is not None else 0.0
    return any(stem in known and (frequency is None or frequency(stem) >= floor) for stem in stems)


def is_plural(
    word: str,
    known: frozenset[str] | set[str],
    frequency: Callable[[str], float] | None = None,
) -> bool:
    """Return whether an upper-case ``word`` is judged a plural: one of its
    :func:`plural_stems` is a word of ``known`` (at least as frequent as ``word``
    by ``frequency``, when given)."""
    return _has_stem(word, plural_stems(word), known, frequency)


def is_past_tense(
    word: str,
    known: frozenset[str] | set[str],
    frequency: Callable[[str], float] | None = None,
) -> bool:
    """Return whether an upper-case ``word`` is judged a past tense: one of its
    :func:`past_stems` is a word of ``known`` (at least as frequent as ``word`` by
    ``frequency``, when given)."""
    return _has_stem(word, past_stems(word), known, frequency)


@cache
def _enable1() -> frozenset[str]:
    """Return the shipped enable1 dictionary's words (every length), upper case."""
    return frozenset(shipped_words("enable1"))


def judge_inflections(
    words: Sequence[str],
    *,
    language: str = DEFAULT_LANGUAGE,
    lexicon: Iterable[str] | None = None,
    frequency: Callable[[str], float] | None = None,
) -> Inflections:
    """Return which of ``words`` are judged plurals and past tenses (a stem must be
    at least as frequent as the word by ``frequency``, when given).

    A stem counts when it is one of ``words`` or of ``lexicon``; with no
    ``lexicon``, English (``language`` ``en``) uses the shipped enable1
    dictionary (a five-letter list's plurals have four-letter stems, which
    the list itself never holds) and other languages none. The rules
    (:func:`is_plural`, :func:`is_past_tense`) are English ones.

    Raises:
        WordListError: the shipped enable1 file is damaged.
    """
    canonical = [upper_word(word) for word in words]
    if lexicon is not None:
        extra = frozenset(upper_word(word) for word in lexicon)
        label = f"custom-{len(extra)}-{content_sha256(sorted(extra))[:12]}"
    elif language == "en":
        extra, label = _enable1(), DEFAULT_LEXICON
    else:
        extra, label = frozenset(), "none"
    known = extra | frozenset(canonical)
    return Inflections(
        plurals=frozenset(word for word in canonical if is_plural(word, known, frequency)),
        past_tenses=frozenset(word for word in canonical if is_past_tense(word, known, frequency)),
        lexicon=label,
    )


def sigmoid_likelihoods(
    frequencies: Sequence[float], *, width: float = DEFAULT_WIDTH, n_common: int = DEFAULT_COMMON
) -> list[float]:
    """Return each word's likelihood (0 to 1) from its frequency, in the given order.

    As 3Blue1Brown's ``get_frequency_based_priors``: the words are sorted by
    ascending frequency, placed at ``x = linspace(c - width/2, c + width/2, n)``
    with ``c = width * (-0.5 + n_common / n)``, and given ``1 / (1 + exp(-x))``.
    The sort is stable and equal frequencies keep the given order's meaning:
    the word given earlier ranks as the more likely (a list ordered most
    frequent first, as generated lists are, keeps that order).
    """
    n = len(frequencies)
    if n == 0:
        return []
    # Ascending frequency; among equals the later word first (lower x).
    order = sorted(range(n), key=lambda i: (frequencies[i], -i))
    centre = width * (-0.5 + n_common / n)
    places = np.linspace(centre - width / 2, centre + width / 2, n).tolist()
    likelihoods = [0.0] * n
    for x, i in zip(places, order, strict=True):
        # math.exp, not numpy's vector exp: the same result on every machine.
        likelihoods[i] = 1.0 / (1.0 + math.exp(-x)) if x > -700.0 else 0.0
    return likelihoods


def _wordfreq() -> ModuleType:
    """Return the wordfreq module.

    Raises:
        PriorError: wordfreq is not installed (the message gives the pip command).
    """
    try:
        import wordfreq
    except ImportError:
        raise PriorError(
            "making a prior needs wordfreq: pip install wordfreq "
            "(the project pins 3.1.1: pip install 'wordfreq==3.1.1')"
        ) from None
    return wordfreq


def check_parameters(
    *, width: float, n_common: int, plural_factor: float, past_factor: float, scale: int
) -> None:
    """Check :func:`generate_prior`'s numeric parameters.

    Raises:
        PriorError: ``width`` not a finite number above 0, ``n_common`` or
            ``scale`` not an integer of at least 1, or a factor not in (0, 1].
    """
    if (
        isinstance(width, bool)
        or not isinstance(width, int | float)
        or not (math.isfinite(width) and width > 0)
    ):
        raise PriorError(f"width {width!r} must be a finite number above 0")
    for label, value in (("n_common", n_common), ("scale", scale)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise PriorError(f"{label} {value!r} must be a whole number of at least 1")
    for label, factor in (("plural_factor", plural_factor), ("past_factor", past_factor)):
        if isinstance(factor, bool) or not isinstance(factor, int | float) or not (0 < factor <= 1):
            raise PriorError(f"{label} {factor!r} must be more than 0 and at most 1")


def generate_prior(
    words: Sequence[str],
    *,
    language: str = DEFAULT_LANGUAGE,
    width: float = DEFAULT_WIDTH,
    n_common: int = DEFAULT_COMMON,
    plural_factor: float = DEFAULT_PLURAL_FACTOR,
    past_factor: float = DEFAULT_PAST_FACTOR,
    scale: int = DEFAULT_SCALE,
    name: str = DEFAULT_NAME,
    lexicon: Iterable[str] | None = None,
) -> Prior:
    """Return the prior of ``words`` from their wordfreq frequencies.

    Each word (upper-cased by client.letters) is ranked by
    ``wordfreq.word_frequency(word.lower(), language)`` and given a likelihood
    ``p`` by :func:`sigmoid_likelihoods` (``width``, ``n_common``; ties: the
    word given earlier ranks higher). ``p`` is multiplied by ``plural_factor``
    for a word judged a plural and by ``past_factor`` for one judged a past
    tense (:func:`judge_inflections`, with ``lexicon``: the rules are in
    :func:`is_plural` and :func:`is_past_tense`); the weight is
    ``max(1, round(p * scale))``. The prior keeps the words' order, and its
    parameters record every input but the words (``source``, ``wordfreq_version``,
    ``language``, ``width``, ``n_common``, ``scale``, ``plural_factor``,
    ``past_factor``, ``lexicon``). The same words and wordfreq version give
    the same weights byte for byte.

    Raises:
        PriorError: wordfreq is not installed, it has no list for
            ``language``, a parameter is out of range (see
            :func:`check_parameters`), no words, a repeated word or one that is
            not letters, or weights adding up to 2**53 or more.
        WordListError: the shipped enable1 file (the default English lexicon)
            is damaged.
    """
    check_parameters(
        width=width,
        n_common=n_common,
        plural_factor=plural_factor,
        past_factor=past_factor,
        scale=scale,
    )
    wordfreq = _wordfreq()
    languages = sorted(wordfreq.available_languages())
    if language not in languages:
        raise PriorError(
            f"wordfreq has no word list for language {language!r}; it has {', '.join(languages)}"
        )
    canonical = tuple(upper_word(word) for word in words)
    if not canonical:
        raise PriorError("a prior needs at least one word")
    # A stem must be about as common as the word: BAKED is BAKE's past tense,
    # but GREED is no form of GREE, nor CHAOS a plural of CHAO (see _has_stem).
    forms = judge_inflections(
        canonical,
        language=language,
        lexicon=lexicon,
        frequency=lambda word: float(wordfreq.word_frequency(word.lower(), language)),
    )
    frequencies = [float(wordfreq.word_frequency(word.lower(), language)) for word in canonical]
    likelihoods = sigmoid_likelihoods(frequencies, width=float(width), n_common=n_common)
    weights: list[int] = []
    for word, p in zip(canonical, likelihoods, strict=True):
        if word in forms.plurals:
            p *= plural_factor
        if word in forms.past_tenses:
            p *= past_factor
        weights.append(max(1, round(p * scale)))
    params: dict[str, ParamValue] = {
        "source": "wordfreq",
        "wordfreq_version": metadata.version("wordfreq"),
        "language": language,
        "width": float(width),
        "n_common": n_common,
        "scale": scale,
        "plural_factor": float(plural_factor),
        "past_factor": float(past_factor),
        "lexicon": forms.lexicon,
        "stem_share": STEM_SHARE,
        # What the rules found: how many weights the factors lowered.
        "plurals": len(forms.plurals),
        "past_tenses": len(forms.past_tenses),
    }
    return Prior(name, canonical, tuple(weights), params)
