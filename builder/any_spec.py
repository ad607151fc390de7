"""Any policy spec a catalog build takes, built or taken from a catalog.

A catalog holds greedy, optimised and Absurdle policies (builder.policies,
builder.absurdle_policy); :func:`build_any` builds any of them, and
:func:`reuse_policy` takes one from an existing catalog after checking it is
what a build would give (``build-all --reuse``). It sits above the builders it
dispatches to and the verification it runs (builder.verify), which themselves
build on builder.policies' specs.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np

from ..client.catalog import Catalog
from .absurdle_policy import AbsurdleSpec, build_absurdle_policy
from .errors import SpecError
from .policies import (
    BuiltPolicy,
    OptimalSpec,
    PolicySpec,
    build_optimal_policy,
    build_policy,
)
from .publish import StoredPolicy
from .verify import verify_certificate, verify_policy

#: Any spec a catalog build takes: greedy, optimised, or Absurdle's line.
AnySpec: TypeAlias = PolicySpec | OptimalSpec | AbsurdleSpec


def build_any(spec: AnySpec, *, workers: int = 1) -> BuiltPolicy:
    """Build a greedy, an optimised or an Absurdle policy (no checkpoint; ``workers``
    for a search).

    Raises:
        as build_policy, build_optimal_policy and build_absurdle_policy.
    """
    if isinstance(spec, AbsurdleSpec):
        return build_absurdle_policy(spec)
    if isinstance(spec, OptimalSpec):
        return build_optimal_policy(spec, workers=workers)[0]
    return build_policy(spec)


def reuse_policy(catalog: Catalog, spec: AnySpec) -> StoredPolicy:
    """Return ``spec``'s policy from ``catalog``, checked to be what a build would give.

    Checks the name, the word lists, the weights and the strategy against the spec, replays
    every target (:func:`verify_policy`) and checks the certificate of an
    optimised tree (:func:`verify_certificate`, without rerunning its search).

    Raises:
        PolicyNotFoundError: the catalog has no policy of that name.
        SpecError: the stored policy is not what the spec builds, or fails a check.
    """
    policy = catalog.policy(spec.name())
    game = spec.check()
    targets, guesses = spec.lists(game)
    where = f"{catalog.location}: {spec.name()}"
    if policy.data.strategy != spec.strategy(game):
        raise SpecError(f"{where} was built with another strategy; build it again")
    if (policy.targets, policy.guesses) != (targets.words, guesses.words):
        raise SpecError(f"{where} was built from other word lists; build it again")
    prior = spec.prior(targets)
    stored_weights = policy.data.weights
    if (None if prior is None else prior[0]) != policy.data.prior or (
        prior is not None
        and (stored_weights is None or not np.array_equal(prior[1], stored_weights))
    ):
        raise SpecError(f"{where} was built with other target weights; build it again")
    if isinstance(spec, OptimalSpec):
        lead = (policy.data.certificate or {}).get("lead_opener")
        if lead != (spec.lead_opener.upper() if spec.lead_opener else None):
            raise SpecError(f"{where} was searched with another lead opener; build it again")
    faults = verify_policy(policy) + verify_certificate(policy)
    if faults:
        raise SpecError(f"{where} fails verification: {faults[0]}")
    return StoredPolicy.from_policy(policy)
