"""``guesswork`` and ``python -m guesswork``: the player and bot command line.

This is where the pieces meet: the command line lives in guesswork.client
(which imports neither builder nor service), and its in-process answers
(a client.core.Guesswork that answers off-tree histories live) come from
guesswork.service.local.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from guesswork.client import cli

if TYPE_CHECKING:
    from guesswork.client.core import Guesswork


def local_backend(path: str | None) -> Guesswork:
    """Return the in-process answers over ``path`` (imported only when used:
    ``--server`` calls never load the builder's compiled kernels)."""
    from guesswork.service.local import LocalGuesswork

    return LocalGuesswork.open(path)


def run(argv: Sequence[str] | None = None) -> int:
    """Run the ``guesswork`` command line; return its exit status (see client.cli.run)."""
    return cli.run(argv, local=local_backend)


def main() -> None:
    """Console-script entry point: the command line with the in-process backend."""
    cli.main(local=local_backend)


if __name__ == "__main__":
    main()
