"""Guesswork: precomputed guess trees for word-guessing games.

The one import root of the installed distribution. Its subpackages are the
repository's top-level folders (here they are symbolic links to them):

* ``guesswork.client``: game rules, reply parsing, the policy format and
  catalog reader, the probe bots embed, the remote gRPC client, the
  ``guesswork`` command line;
* ``guesswork.builder``: word lists, reply matrices, tree search, evaluation,
  writing catalogs; the ``guesswork-build`` command line;
* ``guesswork.service``: the gRPC lookup service; ``guesswork-serve``;
* ``guesswork.protos``: the protobuf contract and its generated code;
* ``guesswork/policies/catalog.sqlite``: the shipped catalog (data).

``python -m guesswork`` runs the player command line.
"""

__version__ = "0.1.0"
