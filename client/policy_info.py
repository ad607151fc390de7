"""A policy's summary: the one type every listing uses (catalog, service, command line).

A catalog's manifest holds one per policy (client.catalog_manifest), so
listing a catalog, or answering the service's ListPolicies and GetPolicy,
reads no policy; a policy's own summary is derived from its data
(client.policy_format.info_of) and must equal the manifest's when the policy
is read. The gRPC ``Policy`` message is this summary field for field
(client.messages maps the two), and ``guesswork policies --json`` prints
that message's JSON (client.messages.policy_json); :meth:`PolicyInfo.to_json`
is the manifest's stored form only.

:func:`guarantee` says whether a policy wins within its game's guess limit
(Wordle's six) for every target: the one phrase the listing, ``play`` and the
page show.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class PolicyInfo:
    """A policy's summary, as listed by a catalog."""

    name: str
    game: str
    #: Word length (Mastermind: pegs); 0 for Guess My Word, whose words have any length.
    length: int
    mode: str
    metric: str
    #: The target list's name.
    targets: str
    guesses: str
    #: How many targets.
    count: int
    #: Guesses per target: the mean (weighted: expected under the weights), the
    #: standard deviation and median (see client.stats), the most and the fewest.
    mean: float
    worst: int
    content_hash: str
    #: Which catalog listed it: "shipped" or "user" (client.catalog); "" for a
    #: policy's own summary, which knows no catalog.
    catalog: str = ""
    #: The language of its target list (client.letters.list_language), e.g.
    #: "es"; "" for lists that name none.
    language: str = ""
    #: What weighs its targets: the prior's name (a weighted policy), the weighted
    #: list's name (Guess My Word, whose list counts are its weights), or None
    #: when every target is alike.
    weights: str | None = None
    stdev: float = 0.0
    median: float = 0.0
    best: int = 0
    #: (guesses, targets solved in exactly that many), by guesses.
    histogram: tuple[tuple[int, int], ...] = ()
    #: SHA-256 (hex) of each word list as stored (client.policy_format.ListRef).
    targets_sha256: str = ""
    guesses_sha256: str = ""
    #: How many words the guess list holds.
    guess_count: int = 0
    #: What made it, e.g. "guesswork 0.1.0".
    builder: str = ""
    #: Mastermind's number of colours; 0 for other games.
    colours: int = 0
    #: A weighted policy's mean over its targets taken as equally likely; None
    #: for the others (their mean is that already).
    uniform_mean: float | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the summary as a catalog manifest stores it (client.catalog_manifest;
        the histogram as an object, ``{"GUESSES": TARGETS}``): a stored format, kept as
        it is so that catalogs stay byte for byte; answers print the ``Policy``
        message's JSON instead (client.messages.policy_json)."""
        value = dict(self.__dict__)
        value["histogram"] = {str(guesses): count for guesses, count in self.histogram}
        return value

    @classmethod
    def from_json(cls, value: object) -> PolicyInfo:
        """Return the summary a JSON object holds (as :meth:`to_json` writes it).

        Raises:
            ValueError: ``value`` is not such an object: a field is missing,
                unknown, or of the wrong type.
        """
        if not isinstance(value, dict) or set(value) != _FIELD_TYPES.keys():
            raise ValueError("not a policy summary")
        for key, kinds in _FIELD_TYPES.items():
            item = value[key]
            if not isinstance(item, kinds) or isinstance(item, bool):
                raise ValueError(f"policy summary field {key!r} has the wrong type")
        histogram = []
        for guesses, count in value["histogram"].items():
            if not (guesses.isdigit() and type(count) is int):
                raise ValueError("policy summary field 'histogram' has the wrong type")
            histogram.append((int(guesses), count))
        uniform = value["uniform_mean"]
        return cls(
            **{
                **value,
                "mean": float(value["mean"]),
                "stdev": float(value["stdev"]),
                "median": float(value["median"]),
                "uniform_mean": None if uniform is None else float(uniform),
                "histogram": tuple(sorted(histogram)),
            }
        )


#: Each field's JSON types (a float may be written as an integer).
_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    field.name: {
        "int": (int,),
        "float": (float, int),
        "str | None": (str, type(None)),
        "float | None": (float, int, type(None)),
        "tuple[tuple[int, int], ...]": (dict,),
    }.get(str(field.type), (str,))
    for field in fields(PolicyInfo)
}


#: The guesses the NYT's Wordle allows: a policy whose worst case is within it never
#: loses a game whose secret is one of its targets.
WORDLE_GUESS_LIMIT = 6


def guess_limit(info: PolicyInfo) -> int | None:
    """Return the guesses ``info``'s game allows, or None for a game without a limit.

    Only single-board Wordle has one here (of any word length: the game is the
    NYT's, played with other lists); the other games are played to the end.
    """
    return WORDLE_GUESS_LIMIT if info.game == "wordle" else None


def guarantee(info: PolicyInfo) -> str | None:
    """Return whether ``info``'s policy wins within its game's guess limit, as the
    listing, ``play`` and the page say it: ``"guaranteed within 6"`` when its
    stored worst case is within the limit, else e.g. ``"not guaranteed within 6:
    57 of 3158 answers take 7 or more (worst 9)"`` (the count from its
    histogram); None for a game without a limit (:func:`guess_limit`).

    The page (service/page/app.js, ``guaranteeOf``) writes the same phrase from
    the same fields of ListPolicies' answer: change the two together.

    >>> info = PolicyInfo("p", "wordle", 5, "normal", "max", "t", "g", 3, 4.0, 8, "",
    ...                   histogram=((3, 1), (6, 1), (8, 1)))
    >>> guarantee(info)
    'not guaranteed within 6: 1 of 3 answers takes 7 or more (worst 8)'
    >>> guarantee(PolicyInfo("p", "wordle", 5, "normal", "max", "t", "g", 3, 3.0, 6, ""))
    'guaranteed within 6'
    """
    limit = guess_limit(info)
    if limit is None:
        return None
    if info.worst <= limit:
        return f"guaranteed within {limit}"
    if not info.histogram:  # a summary without one: the worst case alone is known
        return f"not guaranteed within {limit} (worst {info.worst})"
    over = sum(count for guesses, count in info.histogram if guesses > limit)
    takes = "takes" if over == 1 else "take"
    return (
        f"not guaranteed within {limit}: {over} of {info.count} answers {takes} "
        f"{limit + 1} or more (worst {info.worst})"
    )
