"""Run the lookup service: ``python -m service``."""

from guesswork.service.cli import main

main()
