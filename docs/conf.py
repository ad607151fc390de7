"""Sphinx configuration of the Guesswork documentation (``make docs``).

The reference pages are written from the code at build time (docs/_ext):
the command lines from their argparse parsers, the gRPC contract from the
proto's comments. ``make docs`` builds with warnings as errors and nitpicky
references, so a dead internal link fails (tests/test_docs.py does the same).
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

from guesswork import __version__

project = "Guesswork"
author = "the Guesswork team"
copyright = "2026, the Guesswork team"
release = version = __version__
extensions = ["guesswork_docs"]
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_title = f"Guesswork {__version__}"
nitpicky = True
# Code blocks are shown as written: console transcripts, shell, Python, text.
highlight_language = "text"
