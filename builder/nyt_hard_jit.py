"""NYT hard mode's rule as the greedy tree builder once imported it (for numba code).

The greedy tree grower is C now (builder/_partitions.c) and calls the rule's
one implementation (builder/_nyt_rule.h) directly, so nothing here is
compiled any more: these names are :mod:`.nyt_hard`'s checked wrappers, kept
so that imports of this module go on working.
"""

from __future__ import annotations

from .nyt_hard import advance_state, is_legal

__all__ = ["advance_state", "is_legal"]
