"""Run the builder's command line: ``python -m builder``."""

from .cli import main

main()
