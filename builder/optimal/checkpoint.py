"""The checkpoint file: finished root branches of one search, as JSON lines.

The first line fingerprints the search (game, lists, options); each later
line records one unit (a root branch): its id, its value and, when the value
was below the budget it was searched with, the subtree's guesses in
:func:`.subtrees.subtree_guesses` order. A refuted opener's record (a unit of
all the targets) may add its refutation witness (:mod:`.witness`): ``witness``,
[[reply code, bound], ...], and ``uncapped``: true where the uncapped search
proved it; records without them (older files) still load, their openers
simply without a witness.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import numpy as np

from ...client.games import Game
from ..errors import SearchError
from ..wordlists import WordList
from .problem import SearchOptions
from .witness import Witness, is_witness_list

#: Options that change how fast a result comes, never the result.
_SPEED_ONLY = ("workers", "bound_store", "memo_limit", "scheduler")


def fingerprint(
    game: Game,
    targets: WordList,
    guesses: WordList,
    options: SearchOptions,
    weights: np.ndarray | None = None,
) -> str:
    """Return a digest identifying a search (for checkpoints); what only changes how
    fast a result comes (workers, a bound store, the memo limit, the cluster) does not
    count, so a run may resume with other settings of those, on another cluster.
    Target ``weights`` count when given (unweighted searches keep their digests)."""
    # nyt_hard, lead_opener and ceiling count only when set, so older checkpoints keep
    # their fingerprints. A lead opener changes no tree, but it changes the bounds that
    # refuted openers are recorded with, so a run resumes only under its own lead; a
    # ceiling changes which openers are searched at all.
    settings = {
        k: v
        for k, v in vars(options).items()
        if k not in _SPEED_ONLY and not (k in ("nyt_hard", "lead_opener", "ceiling") and not v)
    }
    if weights is not None:
        settings["weights"] = hashlib.sha256(
            np.ascontiguousarray(weights, "<i8").tobytes()
        ).hexdigest()
    text = json.dumps(
        [game.name, targets.sha256, guesses.sha256, settings, "optimal-v1"], sort_keys=True
    )
    return hashlib.sha256(text.encode()).hexdigest()


def _is_unit_record(record: Any) -> bool:
    """Return True if ``record`` has the shape :meth:`Checkpoint.save` writes."""
    if not isinstance(record, dict) or not isinstance(record.get("unit"), str):
        return False
    value, guesses = record.get("value"), record.get("guesses")
    if not isinstance(value, int) or isinstance(value, bool):
        return False
    if "witness" in record and not is_witness_list(record["witness"]):
        return False
    if "uncapped" in record and record["uncapped"] is not True:
        return False
    return guesses is None or (
        isinstance(guesses, list) and all(type(g) is int and g >= 0 for g in guesses)
    )


class Checkpoint:
    """Finished root branches of one search, appended to a JSON-lines file.

    The first line fingerprints the search (lists, options); a file from a
    different search is refused rather than mixed in.
    """

    def __init__(self, path: Path | None, fingerprint: str) -> None:
        """Open (or start) the checkpoint at ``path``; None keeps nothing.

        Raises:
            SearchError: the file cannot be read or written, belongs to another
                search, or has a damaged record before its last line.
        """
        self.path = path
        self.done: dict[str, dict[str, Any]] = {}
        if path is None:
            return
        try:
            if path.exists():
                text = path.read_text()
                self._load(path, text.splitlines(), fingerprint)
                if not text.endswith("\n"):
                    self._mend(path, text)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps({"fingerprint": fingerprint}) + "\n")
        except (OSError, UnicodeDecodeError) as error:
            raise SearchError(f"checkpoint {path}: cannot use it ({error})") from None

    def _load(self, path: Path, lines: list[str], fingerprint: str) -> None:
        """Read the records of an existing file into :attr:`done`.

        Raises:
            SearchError: the file belongs to another search or has a damaged
                record before its last line.
        """
        try:
            head = json.loads(lines[0]) if lines else {}
        except json.JSONDecodeError:
            head = {}
        if not isinstance(head, dict) or head.get("fingerprint") != fingerprint:
            raise SearchError(
                f"checkpoint {path} belongs to a different search; remove it or use another"
            )
        for number, line in enumerate(lines[1:], start=2):
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                if number == len(lines):
                    break  # the last line cut short by an interruption: redo that branch
                record = None
            if not _is_unit_record(record):
                raise SearchError(
                    f"checkpoint {path} line {number} is damaged; remove the file to start over"
                )
            self.done[record["unit"]] = record

    @staticmethod
    def _mend(path: Path, text: str) -> None:
        """End the file at a line's end: a last line cut short (the process was killed
        as it wrote it) is dropped, its branch redone, so that the next record starts
        a line of its own instead of extending the fragment into a damaged line that
        the resume after this one would refuse; a whole last record only gains its
        newline.

        Raises:
            OSError: the file cannot be written.
        """
        last = text[text.rfind("\n") + 1 :]
        try:
            whole = _is_unit_record(json.loads(last))
        except json.JSONDecodeError:
            whole = False
        with path.open("r+b") as handle:
            if whole:
                handle.seek(0, 2)
                handle.write(b"\n")
            else:
                handle.truncate(len(text[: len(text) - len(last)].encode()))

    @staticmethod
    def unit(guess: int, targets: np.ndarray, depth: int) -> str:
        """Return the id of the unit "branch ``targets`` after root ``guess``"."""
        digest = hashlib.sha256(targets.astype(np.int32).tobytes() + bytes([depth])).hexdigest()
        return f"{guess}:{digest[:32]}"

    def lookup(self, unit: str, budget: int) -> tuple[int, list[int] | None] | None:
        """Return a stored result usable under ``budget``.

        Returns:
            (value, subtree guesses) for an exact value below ``budget``,
            (value, None) for a refutation at or above it, or None when the
            unit is not stored or must be searched again under this budget.
        """
        record = self.done.get(unit)
        if record is None:
            return None
        value = int(record["value"])
        if record["guesses"] is not None:
            return (value, list(record["guesses"])) if value < budget else (value, None)
        return (value, None) if value >= budget else None

    @staticmethod
    def opener_unit(guess: int) -> str:
        """Return the id of the unit "first-pass bound of opener ``guess``"."""
        return f"level:{guess}"

    def recorded(self, unit: str) -> int | None:
        """Return the value stored for ``unit`` whatever its budget, or None if none is.

        For units whose value is a bound that any later run may reuse as it
        is (a first-pass opener bound), not a budgeted search result.
        """
        record = self.done.get(unit)
        return None if record is None else int(record["value"])

    def witness(self, unit: str) -> Witness | None:
        """Return the refutation witness stored with ``unit``, or None (no record, or
        one written without a witness)."""
        record = self.done.get(unit)
        if record is None or "witness" not in record:
            return None
        return Witness.from_list(record["witness"], bool(record.get("uncapped", False)))

    def save(
        self, unit: str, value: int, guesses: list[int] | None, witness: Witness | None = None
    ) -> None:
        """Append one finished unit (a refuted opener's with its ``witness``, if any).

        Raises:
            SearchError: the file cannot be written.
        """
        record: dict[str, Any] = {"unit": unit, "value": value, "guesses": guesses}
        if witness is not None:
            record.update(witness.to_record())
        self.done[unit] = record
        if self.path is not None:
            try:
                with self.path.open("a") as handle:
                    handle.write(json.dumps(record) + "\n")
            except OSError as error:
                raise SearchError(f"checkpoint {self.path}: cannot write ({error})") from None
