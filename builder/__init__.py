"""The offline builder: word lists, reply matrices, tree search, evaluation, catalogs."""

__version__ = "0.1.0"
