"""Optimal, capped, minimax and lookahead guess trees by branch and bound.

:func:`optimize` searches for the best tree and returns it with a
:class:`Certificate`. The package's modules, one concern each:

* :mod:`.problem`: options, errors and the reply matrix a search works on;
* :mod:`.bounds`: bound tables and the compiled scan that applies them;
* :mod:`.symmetry`: Mastermind's colour and peg symmetries;
* :mod:`.set_values`: what a target set is worth without search (values,
  floors, memo keys, constraint states);
* :mod:`.search`: the branch and bound over target sets, its memo and look-ahead;
* :mod:`.root`: the root's guesses and branches, :mod:`.workers` the
  processes that share them, :mod:`.checkpoint` the file that keeps them;
* :mod:`.certificate`: certificates and the per-node figures they hold;
  :mod:`.witness` the refutation witnesses a search over every opener keeps
  for each opener it searched, :mod:`.witness_check` the check of every
  opener from them (``verify --prove``);
* :mod:`.build`: the entry point, laying the result out with
  :func:`guesswork.builder.tree.lay_out_tree`.
"""

from ..errors import SearchError
from .bounds import (
    INFEASIBLE,
    capacity,
    depth_bound_table,
    total_bound_table,
)
from .build import build_tree, optimize
from .certificate import (
    Certificate,
    Optimized,
    node_bounds_of,
    node_masses,
    node_values,
)
from .checkpoint import Checkpoint, fingerprint
from .problem import (
    MAX_MATRIX_CELLS,
    OBJECTIVES,
    TIE_BREAK_OBJECTIVES,
    Problem,
    SearchOptions,
    make_problem,
)
from .root import Outcome, RootResult, RootSearch
from .search import Search
from .stats import SearchStats
from .symmetry import CodeSymmetry, SymmetryHook
from .workers import DASK_MIN_CELLS, default_workers, search_workers

__all__ = [
    "DASK_MIN_CELLS",
    "INFEASIBLE",
    "MAX_MATRIX_CELLS",
    "OBJECTIVES",
    "TIE_BREAK_OBJECTIVES",
    "Certificate",
    "Checkpoint",
    "CodeSymmetry",
    "Optimized",
    "Outcome",
    "Problem",
    "RootResult",
    "RootSearch",
    "Search",
    "SearchError",
    "SearchOptions",
    "SearchStats",
    "SymmetryHook",
    "build_tree",
    "capacity",
    "default_workers",
    "depth_bound_table",
    "fingerprint",
    "make_problem",
    "node_bounds_of",
    "node_masses",
    "node_values",
    "optimize",
    "search_workers",
    "total_bound_table",
]
