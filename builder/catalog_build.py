"""Build a whole catalog from its contents (builder.catalog_specs.CatalogContents):
what ``guesswork-build build-all`` (``make catalog``) runs, and the catalog test.

:func:`build_catalog` builds every policy of the contents in order (or takes a
slow one from a catalog file after checking it), then the honeycomb tables and
the Guess My Word trees, and publishes them as one new catalog. It prints
nothing: what it is doing goes to standard error through client.progress (a
status line before each policy), and each finished step is handed to the
caller's ``on_step`` (builder.commands.build_all prints them).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

from ..client.catalog import Catalog
from ..client.progress import Progress, say
from .any_spec import AnySpec, build_any, reuse_policy
from .catalog_specs import SHIPPED_CONTENTS, CatalogContents
from .guess_my_word import word_tree_policy
from .least_worst import with_least_worst
from .multiboard_openings import with_board_openings
from .policies import BuiltPolicy, OptimalSpec
from .publish import StoredBeeTable, StoredPolicy, publish_catalog
from .spelling_bee import build_bee_table
from .weighted_lists import shipped_weighted_list
from .word_trees import Variant


@dataclass(frozen=True)
class CatalogEntry:
    """One policy of a built catalog: its name, the seconds it took, and how it came:
    ``built``, ``reused`` or ``reused, tie-break added`` (None: a Guess My Word tree,
    always built)."""

    name: str
    seconds: float
    how: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the entry as ``build-all --json`` lists it (no ``how`` for a word tree)."""
        row: dict[str, Any] = {"name": self.name, "seconds": round(self.seconds, 4)}
        return row if self.how is None else {**row, "how": self.how}


@dataclass(frozen=True)
class PolicyDone:
    """Step: policy ``number`` of ``total`` is built or taken (``built``: the build, its
    tree included; None when taken from a catalog)."""

    number: int
    total: int
    entry: CatalogEntry
    built: BuiltPolicy | None


@dataclass(frozen=True)
class HoneycombTablesDone:
    """Step: the honeycomb tables are built (their keys)."""

    keys: tuple[str, ...]


@dataclass(frozen=True)
class WordTreesDone:
    """Step: the Guess My Word trees are built (how many)."""

    count: int


#: What :func:`build_catalog` hands its ``on_step`` as each step finishes.
CatalogStep: TypeAlias = PolicyDone | HoneycombTablesDone | WordTreesDone


@dataclass(frozen=True)
class CatalogBuild:
    """A published catalog: its file (or database URL), its policies (the word trees
    last) and how many honeycomb tables and Guess My Word trees it holds."""

    path: Path | str
    entries: tuple[CatalogEntry, ...]
    honeycomb_tables: int
    word_trees: int


def default_word_tree(strategy: str, variant: Variant) -> StoredPolicy:
    """Return a shipped Guess My Word tree as a policy with its words, ready to publish."""
    weights = shipped_weighted_list()
    data = word_tree_policy(weights, strategy, variant)
    return StoredPolicy.from_data(data, weights.words, weights.words)


def reused(
    sources: Sequence[Catalog],
    spec: AnySpec,
    workers: int = 1,
    checkpoints: Path | None = None,
    quiet: bool = True,
) -> tuple[StoredPolicy, str] | None:
    """Return ``spec``'s policy from the first of ``sources`` that has it (checked by
    :func:`~guesswork.builder.any_spec.reuse_policy`) and how it was taken
    ("reused", or "reused, tie-break added"), or None when none has it.

    A ``least_worst`` spec's plain least-total tree (stored before its spec asked
    for the tie-break) is reused with the tie-break proven and added
    (builder.least_worst: one capped search, on ``workers`` processes, its
    checkpoint in ``checkpoints`` if given, its progress on standard error unless
    ``quiet``), not searched again.

    Raises:
        SpecError: a catalog has the policy but it is not what the spec builds.
    """
    for catalog in sources:
        if spec.name() not in catalog.names():
            continue
        if isinstance(spec, OptimalSpec) and spec.least_worst:
            certificate = catalog.policy(spec.name()).data.certificate or {}
            if certificate.get("objective") == "total":
                plain = reuse_policy(catalog, dataclasses.replace(spec, least_worst=False))
                checkpoint = None if checkpoints is None else checkpoints / f"{spec.name()}.ckpt"
                progress = Progress(f"{spec.name()}: tie-break", enabled=not quiet)
                try:
                    proven = with_least_worst(
                        plain, spec, workers=workers, checkpoint=checkpoint, progress=progress
                    )
                finally:
                    progress.close()
                return proven, "reused, tie-break added"
        return reuse_policy(catalog, spec), "reused"
    return None


def build_catalog(
    location: str,
    contents: CatalogContents = SHIPPED_CONTENTS,
    *,
    reuse: Sequence[Catalog] = (),
    workers: int = 1,
    checkpoints: Path | None = None,
    quiet: bool = False,
    on_step: Callable[[CatalogStep], None] | None = None,
) -> CatalogBuild:
    """Build everything ``contents`` holds into a new catalog and publish it at
    ``location`` (replacing the file there); return what was published.

    Each policy is built (a search on ``workers`` processes), or, if it is one of
    ``contents.reusable``, taken from the first of ``reuse`` that has it
    (:func:`reused`; a tie-break's checkpoint in ``checkpoints``). Status lines go
    to standard error through client.progress unless ``quiet``; each finished step
    goes to ``on_step``. The same contents give the same catalog, byte for byte.

    Raises:
        SpecError: a ``reuse`` catalog holds a policy that is not what its spec builds.
        GuessworkError: a spec cannot be built (its lists, its options), or the
            catalog cannot be written (CatalogWriteError).
    """
    tell = on_step if on_step is not None else (lambda step: None)
    stored_policies: list[StoredPolicy] = []
    entries: list[CatalogEntry] = []
    total = len(contents.policies)
    for number, spec in enumerate(contents.policies, start=1):
        # Minutes each for a search; a reused policy is checked, seconds.
        say(f"build-all: [{number}/{total}] {spec.name()}", quiet=quiet)
        started = time.perf_counter()
        taken = None
        if spec in contents.reusable:
            taken = reused(reuse, spec, workers, checkpoints, quiet)
        built: BuiltPolicy | None = None
        if taken is None:
            built, how = build_any(spec, workers=workers), "built"
            tree = built.tree
            stored = StoredPolicy.from_data(built.data, tree.targets.words, tree.guesses.words)
        else:
            stored, how = taken
        # A reused policy's openings were recomputed and compared by reuse_policy's verify.
        if stored.data.name in contents.board_openings and stored.data.openings is None:
            stored = with_board_openings(stored)
        entry = CatalogEntry(stored.data.name, time.perf_counter() - started, how)
        stored_policies.append(stored)
        entries.append(entry)
        tell(PolicyDone(number, total, entry, built))
    say("build-all: the honeycomb tables", quiet=quiet)
    bees = [
        StoredBeeTable(*build_bee_table(name, allow_s))
        for name, allow_s in contents.honeycomb_tables
    ]
    tell(HoneycombTablesDone(tuple(bee.table.key for bee in bees)))
    say("build-all: the Guess My Word trees", quiet=quiet)
    for strategy, variant in contents.word_trees:
        started = time.perf_counter()
        stored = default_word_tree(strategy, variant)
        stored_policies.append(stored)
        entries.append(CatalogEntry(stored.data.name, time.perf_counter() - started))
    tell(WordTreesDone(len(contents.word_trees)))
    say(f"build-all: publishing {location}", quiet=quiet)
    path = publish_catalog(location, stored_policies, bees)
    return CatalogBuild(path, tuple(entries), len(bees), len(contents.word_trees))
