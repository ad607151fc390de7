"""Run the builder's command line: ``python -m builder``."""

from guesswork.builder.cli import main

main()
