"""Run the lookup service: ``python -m service``."""

from .cli import main

main()
