"""Guesswork: precomputed guess trees for word-guessing games.

The one import root of the installed distribution. Its subpackages are the
repository's top-level folders, mapped by pyproject's
``[tool.setuptools.package-dir]`` (``guesswork.client`` is ``client/``); there
are no links, and inside those folders imports are relative, so a reader
follows ``from ..client.games import ...`` by path:

* ``guesswork.client``: game rules, reply parsing, the policy format and
  catalog reader, the probe bots embed, the remote gRPC client, the
  ``guesswork`` command line;
* ``guesswork.builder``: word lists, reply matrices, tree search, evaluation,
  writing catalogs; the ``guesswork-build`` command line;
* ``guesswork.service``: the gRPC lookup service; ``guesswork-serve``;
* ``guesswork.protos``: the protobuf contract and its generated code;
* ``guesswork.policies``: the shipped catalog, ``catalog.sqlite`` (data).

``python -m guesswork`` runs the player command line.
"""

__version__ = "0.1.0"
