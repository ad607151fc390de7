"""Run the builder's command line: ``python -m builder``."""

from builder.cli import main

main()
