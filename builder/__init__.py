"""The offline builder: word lists, reply matrices, tree search, evaluation, catalogs.

* ``wordlists``, ``weighted_lists``: the shipped lists and users' own;
* ``matrices``: reply matrices (compiled, cached on disk by ``matrix_cache``:
  bounded, least recently used out first);
* ``partitions``, ``greedy``: the greedy metrics and the one greedy step
  (``GreedyStep``), greedy trees and each node's stored alternatives;
* ``optimal``: exact and lookahead search with certificates;
* ``live``: the greedy step over a history's remaining targets (live answers);
* ``guess_my_word``, ``spelling_bee``: those games' trees and searches;
* ``policies``: what to build (``GameSpec``, ``PolicySpec``, ``OptimalSpec``)
  and building it; ``evaluate``, ``verify``: statistics and checks;
* ``store``: writing and publishing catalogs and policy files;
* ``commands``, ``cli``: ``guesswork-build``.
"""

from guesswork import __version__

__all__ = ["__version__"]
