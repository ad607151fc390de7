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

The distribution is called ``guesswork-solver`` (:data:`DISTRIBUTION`): the
name ``guesswork`` on PyPI belongs to an unrelated project, so ``pip install
'guesswork[plots]'`` would install that. The import root and the commands keep
the name ``guesswork``: every program, bot and policy file that uses them keeps
working, and the root is the package's own folder, which PyPI's project does
not share with an installed guesswork-solver in practice (installing both into
one environment is the one conflict, and pip reports it).
"""

#: The package's version: the one place it is written (pyproject reads it from here).
__version__ = "0.1.0"
#: The distribution's name on PyPI (pip install guesswork-solver).
DISTRIBUTION = "guesswork-solver"


def install_hint(extra: str) -> str:
    """Return the pip command that installs the optional extra ``extra``."""
    return f"pip install '{DISTRIBUTION}[{extra}]'"
