"""Run the player/bot command line: ``python -m client``."""

from client.cli import main

main()
