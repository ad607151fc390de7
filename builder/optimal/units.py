"""What the coordinator (.cluster) and the Dask workers (.dask_engine) agree on about
a unit of work: the budget that stops it, and how a split node's best is coded.

A leaf of builder.optimal: .cluster runs without Dask installed, so .dask_engine
(which imports Dask) is loaded only when a cluster runs, and neither may need the
other for these.
"""

from __future__ import annotations

#: A unit's budget that means "no longer needed: stop".
CANCELLED = -1
#: A split node's best so far as one number, ordered as (value, position) pairs:
#: value * SCALE + position (search order has fewer than SCALE guesses).
SCALE = 1 << 24
