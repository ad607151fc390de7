"""What players and bots embed: game rules, the policy reader and walk, the lookup core.

The embedding API, re-exported here::

    from . import open_catalog

    with open_catalog() as catalog:              # shipped + the user's, verified
        policy = catalog.policy("wordle-2309-normal-neg-entropy")
        policy.next_guess([("raise", ".Y..."), ("clout", "G....")])   # 'CHAFF'

* :func:`open_catalog`, :func:`open_policy_file`, :func:`open_store` open a
  catalog or a ``.gwp`` policy file (:mod:`~guesswork.client.catalog`);
* :class:`Policy` walks one stored tree in constant time per turn
  (:mod:`~guesswork.client.probe`);
* :class:`CatalogLookup` / :class:`PolicyLookup` answer suggestions, scores,
  hard-mode checks and the Evil replier from the stored data, a catalog's
  policies each (:mod:`~guesswork.client.catalog_lookup`, with the rule for
  secrets off the answer list) or one (:mod:`~guesswork.client.lookup`);
* :class:`Guesswork` is the application core's interface, and its typed
  results (:mod:`~guesswork.client.core`): :class:`~guesswork.client.remote.RemoteClient` answers it
  over gRPC (client.remote), :class:`guesswork.service.local.LocalGuesswork`
  in process with live answers; :class:`PolicyInfo` is a policy's summary;
* game rules, Guess My Word's included (client.games), reply text
  (client.replies), the policy format (client.policy_format), stored
  strategies (client.strategy), Spelling Bee rules (client.spelling_bee), and
  every error a user can see (:mod:`~guesswork.client.errors`).

Nothing here imports guesswork.service or guesswork.builder. A policy from
outside this installation is proven on first use by the prover the opener
hands in (``prover=``); by default the builder's proof, which the
distribution names in its metadata and which is loaded then (client.trust).
"""

from .catalog import Catalog, open_catalog, open_policy_file, open_store
from .catalog_lookup import CatalogLookup
from .core import EvilAnswer, GuessCheck, GuessScore, Guesswork, HoneycombReport
from .errors import (
    GameOverError,
    GuessworkError,
    InvalidReplyError,
    LiveAnswerUnavailableError,
    OffTreeError,
    PolicyFormatError,
    PolicyNotFoundError,
)
from .lookup import PolicyLookup
from .policy_info import PolicyInfo
from .probe import Policy
from .suggestion import Suggestion

__all__ = [
    "Catalog",
    "CatalogLookup",
    "EvilAnswer",
    "GameOverError",
    "GuessCheck",
    "GuessScore",
    "Guesswork",
    "GuessworkError",
    "HoneycombReport",
    "InvalidReplyError",
    "LiveAnswerUnavailableError",
    "OffTreeError",
    "Policy",
    "PolicyFormatError",
    "PolicyInfo",
    "PolicyLookup",
    "PolicyNotFoundError",
    "Suggestion",
    "open_catalog",
    "open_policy_file",
    "open_store",
]
