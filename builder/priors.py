"""Answer likelihoods ("priors") for word-game targets: reading, finding and using them.

A list of allowed words holds many a word no setter would pick (``AALII``,
``XYLYL``). A prior says how likely each word is to be the answer: a
positive integer weight per word (its probability is weight / total). Policies
built with one (``--weights PRIOR``) minimise the expected guesses under it.
builder.prior_making makes one from word frequencies (``guesswork-build
priors``, 3Blue1Brown's sigmoid); this module reads prior files, knows the
shipped priors (:data:`SHIPPED_PRIORS`) and gives targets their weights.

A prior file is UTF-8 text: a header comment ``# guesswork prior: key=value
...`` recording its name and every parameter that made it (so the file
documents itself; a value that would not read back as itself, e.g. one with
spaces, is written as a JSON string), then one ``WORD WEIGHT`` line per word
**in the prior's word order** (for a generated prior, the order of the list it
was made from; :meth:`Prior.ranked` gives the most likely first). Keeping the
order makes a file read back the very prior that was written.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from importlib import resources
from pathlib import Path, PurePath
from types import MappingProxyType
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from ..client.letters import letters_problem, upper_word
from ..client.policy_format import PriorRef
from ..client.text import plural
from .errors import PriorError
from .weighted_lists import (
    MAX_TOTAL_COUNT,
    count_lines,
    is_positive_count,
    read_utf8,
)

#: A parameter's value, as a header comment records it.
ParamValue: TypeAlias = str | int | float

HEADER = "# guesswork prior:"
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PAIR = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|[^\s"]+)')
_INT = re.compile(r"-?[0-9]+")
_FLOAT = re.compile(r"-?[0-9]+(?:\.[0-9]+(?:e[-+]?[0-9]+)?|e[-+]?[0-9]+)")


# ---------------------------------------------------------------- the prior


@dataclass(frozen=True)
class Prior:
    """Positive integer weights of words: how likely each is to be the answer.

    Attributes:
        name: what the prior is called (a file's stem, ``wordfreq-sigmoid``).
        words: upper-case words (client.letters), unique, in the order given.
        weights: each word's weight, a positive integer; they add up to less
            than 2**53 (exact in int64 and float64).
        params: every parameter that made the prior (``source``: ``wordfreq``
            or ``file``, and for wordfreq its version, the language, width ...);
            keys are identifiers (not ``name``), values str, int or finite float.

    Raises (on construction):
        PriorError: no words, words and weights that do not pair up, a word
            that is not upper-case letters of one script, a repeated word, a
            weight that is not a positive integer, weights adding up to 2**53
            or more, or a bad name or parameter.
    """

    name: str
    words: tuple[str, ...]
    weights: tuple[int, ...]
    params: dict[str, ParamValue] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "words", tuple(self.words))
        object.__setattr__(self, "weights", tuple(self.weights))
        object.__setattr__(self, "params", dict(self.params))
        if not isinstance(self.name, str) or not self.name.strip():
            raise PriorError(f"a prior's name must be a non-empty string, not {self.name!r}")
        if not self.words:
            raise PriorError("a prior needs at least one word")
        if len(self.words) != len(self.weights):
            raise PriorError(
                f"{plural(len(self.words), 'word')} but {plural(len(self.weights), 'weight')}; "
                "they must pair up"
            )
        seen: dict[str, int] = {}
        for i, (word, weight) in enumerate(zip(self.words, self.weights, strict=True)):
            problem = _word_problem(word)
            if problem is not None:
                raise PriorError(f"word {i} {word!r} {problem}")
            if word in seen:
                raise PriorError(f"word {i} {word!r} repeats word {seen[word]}")
            seen[word] = i
            # bool is an int subclass, but True is no weight.
            if not isinstance(weight, int) or isinstance(weight, bool) or weight <= 0:
                raise PriorError(
                    f"weight of {word!r} must be a positive integer, not {weight!r}; "
                    "weights are positive integers (scale yours)"
                )
        if sum(self.weights) >= MAX_TOTAL_COUNT:
            raise PriorError("weights add up to 2**53 or more; scale them down")
        for key, value in self.params.items():
            _check_param(key, value)

    def __len__(self) -> int:
        return len(self.words)

    @cached_property
    def sha256(self) -> str:
        """Return the SHA-256 (hex) of the content: ``WORD WEIGHT\\n`` lines in word
        order, UTF-8 (name and parameters left out)."""
        digest = hashlib.sha256()
        for line in self._lines():
            digest.update(line.encode("utf-8"))
        return digest.hexdigest()

    @cached_property
    def mapping(self) -> Mapping[str, int]:
        """Return a read-only map from each word to its weight."""
        return MappingProxyType(dict(zip(self.words, self.weights, strict=True)))

    @property
    def total(self) -> int:
        """Return the sum of the weights."""
        return sum(self.weights)

    def weight_of(self, word: str) -> int:
        """Return the weight of ``word`` (any case; see client.letters.upper_word).

        Raises:
            PriorError: the prior has no such word.
        """
        weight = self.mapping.get(upper_word(word))
        if weight is None:
            raise PriorError(f"the prior {self.name!r} has no weight for {upper_word(word)!r}")
        return weight

    def ranked(self) -> list[tuple[str, int]]:
        """Return (word, weight) pairs, the heaviest first (ties: word order)."""
        order = sorted(range(len(self.words)), key=lambda i: -self.weights[i])
        return [(self.words[i], self.weights[i]) for i in order]

    def header(self) -> str:
        """Return the header comment line (no newline): ``# guesswork prior: name=...``
        followed by every parameter as ``key=value``."""
        pairs = [("name", self.name), *self.params.items()]
        return " ".join([HEADER, *(f"{key}={_format_value(value)}" for key, value in pairs)])

    def to_text(self) -> str:
        """Return the prior as a file: the header comment, then one ``WORD WEIGHT``
        line per word in word order (:func:`parse_prior` reads it back equal)."""
        return self.header() + "\n" + "".join(self._lines())

    def _lines(self) -> Iterable[str]:
        return (f"{word} {weight}\n" for word, weight in zip(self.words, self.weights, strict=True))


def _word_problem(word: object) -> str | None:
    """Return why ``word`` cannot be a prior's word, or None if it can."""
    if not isinstance(word, str):
        return "is not a string"
    if upper_word(word) != word:
        return f"is not written in upper case (NFC) as {upper_word(word)!r}"
    return letters_problem(word)


def _check_param(key: object, value: object) -> None:
    """Raise PriorError unless ``key=value`` can be a prior's parameter."""
    if not isinstance(key, str) or not _KEY.fullmatch(key) or key == "name":
        raise PriorError(
            f"parameter name {key!r} must be letters, digits and _ (not starting with a "
            "digit), and not 'name'"
        )
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise PriorError(f"parameter {key}={value!r} must be a string, an integer or a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise PriorError(f"parameter {key}={value!r} must be finite")


def _bare_value(text: str) -> ParamValue:
    """Return the value an unquoted header token stands for: int, float or str."""
    if _INT.fullmatch(text):
        return int(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    return text


def _format_value(value: ParamValue) -> str:
    """Return ``value`` as a header writes it: bare when it reads back as itself,
    else as a JSON string."""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if re.fullmatch(r'[^\s"\\]+', value) and _bare_value(value) == value:
        return value
    return json.dumps(value, ensure_ascii=False)


def parse_header(text: str, where: str = "header") -> dict[str, ParamValue]:
    """Return the ``key=value`` pairs after :data:`HEADER` in a header comment
    (``text`` is the part after it), values as int, float or str.

    Raises:
        PriorError: the text is not ``key=value`` pairs, or a key repeats;
            the message names ``where``.
    """
    pairs: dict[str, ParamValue] = {}
    position, text = 0, text.rstrip()
    while position < len(text):
        found = _PAIR.match(text, position)
        if found is None:
            raise PriorError(
                f"{where}: the header is not 'key=value' pairs at {text[position:].strip()!r}"
            )
        key, token = found.group(1), found.group(2)
        if key in pairs:
            raise PriorError(f"{where}: the header gives {key!r} twice")
        if token.startswith('"'):
            try:
                pairs[key] = str(json.loads(token))
            except json.JSONDecodeError:
                raise PriorError(f"{where}: the header's {key} is a bad string {token}") from None
        else:
            pairs[key] = _bare_value(token)
        position = found.end()
    return pairs


# ---------------------------------------------------------------- reading


def parse_prior(lines: Iterable[str], source: str) -> Prior:
    """Return the prior written as ``WORD WEIGHT`` lines.

    Blank lines and ``#`` comments are ignored, except that a first non-blank
    line ``# guesswork prior: key=value ...`` (as :meth:`Prior.to_text` writes)
    gives the prior's name and parameters. Words may be any case and any
    script's letters (they are upper-cased by client.letters.upper_word);
    weights are positive integers in plain ASCII digits. The prior is named
    by the header, else by ``source``'s stem; its parameters are
    ``{"source": "file"}`` updated with the header's.

    Raises:
        PriorError: a line that is not ``WORD WEIGHT``, a word that is not
            letters of one script, a weight that is not a positive integer
            (decimals, signs, zero), a repeated word (naming both lines), a
            malformed header, no words, or weights adding up to 2**53 or more.
            The message names ``source`` and the line.
    """
    lines = list(lines)
    header: dict[str, ParamValue] = {}
    for number, line in enumerate(lines, start=1):
        if line.strip():
            if line.strip().startswith(HEADER):
                rest = line.strip()[len(HEADER) :]
                header = parse_header(rest, f"{source} line {number}")
            break
    words: list[str] = []
    weights: list[int] = []
    first_line: dict[str, int] = {}
    for number, where, written, weight_text in count_lines(
        lines, source, PriorError, "WORD WEIGHT"
    ):
        word = upper_word(written)
        problem = letters_problem(word)
        if problem is not None:
            raise PriorError(f"{where}: word {written!r} {problem}")
        if not is_positive_count(weight_text):
            raise PriorError(
                f"{where}: weight {weight_text!r} of {word!r} is not a positive integer; "
                "weights are positive integers in digits 0-9 (scale yours, e.g. "
                "round(probability * 10000), and keep the rarest at 1 or more)"
            )
        if word in first_line:
            raise PriorError(f"{where}: {word!r} repeats line {first_line[word]}")
        first_line[word] = number
        words.append(word)
        weights.append(int(weight_text))
    if not words:
        raise PriorError(f"{source}: no 'WORD WEIGHT' lines")
    name = header.pop("name", None)
    params: dict[str, ParamValue] = {"source": "file", **header}
    try:
        return Prior(
            _stem(source) if name is None else str(name), tuple(words), tuple(weights), params
        )
    except PriorError as error:  # the total, the name or a header value
        raise PriorError(f"{source}: {error}") from None


def _stem(source: str) -> str:
    """Return the name a prior read from ``source`` without a header gets."""
    return PurePath(source).stem or source


def load_prior(path: str | Path) -> Prior:
    """Return the prior in the UTF-8 text file at ``path`` (see :func:`parse_prior`;
    without a header it is named after the file's stem).

    Raises:
        PriorError: the file does not exist, cannot be read, is not UTF-8, or
            is malformed.
    """
    text = read_utf8(path, "prior", PriorError)
    return parse_prior(text.splitlines(), str(path))


@dataclass(frozen=True)
class ShippedPrior:
    """A prior shipped with the builder: its file, word count and content SHA-256."""

    file: str
    count: int
    sha256: str


_DATA_PACKAGE = "guesswork.builder.data.priors"
#: The shipped priors, by name. ``wordfreq``: every word the NYT allows
#: (wordle-guesses-14855) with the defaults of builder.prior_making (wordfreq
#: 3.1.1): ``guesswork-build priors --words wordle-guesses-14855 --output
#: builder/data/priors/wordfreq.txt`` makes it again, byte for byte (a test does).
SHIPPED_PRIORS: dict[str, ShippedPrior] = {
    "wordfreq": ShippedPrior(
        "wordfreq.txt", 14855, "2d1bfeaefb46015d7aedaeeee4fb218dbf91e72883b5813ffeedc957540082fc"
    ),
}
#: The prior that weighs possible secrets once a game leaves a policy's answer list
#: (:func:`open_word_weights`), unless the policy's own prior is shipped.
DEFAULT_PRIOR = "wordfreq"


@cache
def shipped_prior(name: str) -> Prior:
    """Return the shipped prior ``name`` after checking its size and SHA-256.

    Raises:
        PriorError: no such shipped prior, or its file is damaged.
    """
    entry = SHIPPED_PRIORS.get(name)
    if entry is None:
        raise PriorError(f"no shipped prior {name!r}; shipped: {', '.join(sorted(SHIPPED_PRIORS))}")
    text = resources.files(_DATA_PACKAGE).joinpath(entry.file).read_text(encoding="utf-8")
    prior = parse_prior(text.splitlines(), entry.file)
    if len(prior) != entry.count or prior.sha256 != entry.sha256:
        raise PriorError(
            f"shipped prior {name} does not match its registered size and SHA-256; "
            f"reinstall the package"
        )
    return dataclasses.replace(prior, name=name)


def resolve_prior(spec: str) -> Prior:
    """Return the prior ``spec`` names: a shipped prior (:data:`SHIPPED_PRIORS`) or a
    prior file's path (:func:`load_prior`).

    Raises:
        PriorError: neither a shipped prior nor an existing file, or the file
            cannot be read or is malformed.
    """
    if spec in SHIPPED_PRIORS:
        return shipped_prior(spec)
    if not Path(spec).is_file():
        raise PriorError(
            f"prior {spec!r} is neither a shipped prior ({', '.join(sorted(SHIPPED_PRIORS))}) "
            f"nor an existing file; make one with guesswork-build priors --output FILE"
        )
    return load_prior(spec)


def open_word_weights(prior: PriorRef | None, words: tuple[str, ...]) -> np.ndarray | None:
    """Return a weight for each of ``words`` (the possible secrets once a game has left
    a policy's answer list), or None to count them alike.

    The weights are a shipped prior's: the policy's own ``prior`` when it is a
    shipped one (same name and SHA-256), else :data:`DEFAULT_PRIOR`. A word the
    prior lacks gets the prior's least weight (a word nobody ranked is taken
    for a rare one); if it knows fewer than half of the words (another
    language, whose few words that are English too would count for more than
    the rest), None.
    """
    chosen = DEFAULT_PRIOR
    shipped = SHIPPED_PRIORS.get(prior.name) if prior is not None else None
    if prior is not None and shipped is not None and shipped.sha256 == prior.sha256:
        chosen = prior.name
    return _open_word_weights(chosen, words)


@lru_cache(maxsize=16)
def _open_word_weights(name: str, words: tuple[str, ...]) -> np.ndarray | None:
    """Return :func:`open_word_weights` for the shipped prior ``name`` (kept per word list)."""
    try:
        prior = shipped_prior(name)
    except PriorError:
        return None  # a damaged installation answers as if unweighted, not at all
    mapping = prior.mapping
    least = min(prior.weights)
    weights = np.array([mapping.get(word, 0) for word in words], dtype=np.int64)
    if 2 * np.count_nonzero(weights) < len(weights):
        return None
    weights[weights == 0] = least
    weights.setflags(write=False)
    return weights


def prior_label(spec: str) -> str:
    """Return the short label of the prior ``spec`` in policy names: its file's stem in
    lower-case letters, digits and hyphens (``My_Prior.txt`` -> ``my-prior``)."""
    return re.sub(r"[^a-z0-9]+", "-", PurePath(spec).stem.lower()).strip("-") or "prior"


# ---------------------------------------------------------------- using


def weights_for(prior: Prior, targets: Sequence[str], list_name: str) -> npt.NDArray[np.int64]:
    """Return each target's weight in target order, as an int64 array.

    ``targets`` are canonical words (a WordList's); the prior may hold more
    words than the targets (a prior over the guesses serves the answers).

    Raises:
        PriorError: the prior has no weight for some targets; the message
            names how many of the targets of ``list_name`` and the first few.
    """
    mapping = prior.mapping
    missing = [target for target in targets if target not in mapping]
    if missing:
        shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
        raise PriorError(
            f"the prior {prior.name!r} has no weight for {len(missing):,} of the "
            f"{len(targets):,} targets of {list_name}: {shown}"
        )
    return np.array([mapping[target] for target in targets], dtype=np.int64)
