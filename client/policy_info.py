"""A policy's summary: the one type every listing uses (catalog, service, command line).

A catalog's manifest holds one per policy (client.catalog_manifest), so
listing a catalog reads no policy; a policy's own summary is derived from
its data (client.policy_format.info_of) and must equal the manifest's when
the policy is read.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True)
class PolicyInfo:
    """A policy's summary, as listed by a catalog."""

    name: str
    game: str
    length: int
    mode: str
    metric: str
    targets: str
    guesses: str
    count: int
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

    def to_json(self) -> dict[str, Any]:
        """Return the summary as a JSON-ready dict."""
        return dict(self.__dict__)

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
        return cls(**{**value, "mean": float(value["mean"])})


#: Each field's JSON types (a float may be written as an integer).
_FIELD_TYPES: dict[str, tuple[type, ...]] = {
    field.name: {"int": (int,), "float": (float, int), "str | None": (str, type(None))}.get(
        str(field.type), (str,)
    )
    for field in fields(PolicyInfo)
}
