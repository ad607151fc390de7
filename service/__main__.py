"""Run the lookup service: ``python -m service``."""

from service.cli import main

main()
