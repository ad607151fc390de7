"""Sphinx configuration of the Guesswork documentation (``make docs``).

The reference pages are written from the code at build time: the command
lines from their argparse parsers and the gRPC contract from the proto's
comments (docs/_ext), the API reference from the docstrings (autodoc).
``make docs`` builds with warnings as errors and nitpicky references, so a dead
internal link, or a docstring naming what no longer exists, fails
(tests/test_docs.py does the same).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

from guesswork import __version__

project = "Guesswork"
author = "the Guesswork team"
copyright = "2026, the Guesswork team"
release = version = __version__
extensions = ["sphinx.ext.autodoc", "guesswork_docs"]
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_title = f"Guesswork {__version__}"
nitpicky = True
# Code blocks are shown as written: console transcripts, shell, Python, text.
highlight_language = "text"
# The API reference lists members in the order the code has them, and shows a
# default as written (DEFAULT_ALTERNATIVES, not 5).
autodoc_member_order = "bysource"
autodoc_preserve_defaults = True
#: Types from outside the project, named in signatures: no intersphinx (the build
#: must not need the network), so they are shown unlinked. Every name of ours
#: (guesswork.*, a bare name) must resolve, or the nitpicky build fails.
EXTERNAL_MODULES = ("builtins", "collections.abc", "np", "numpy", "pathlib")
nitpick_ignore_regex = [("py:.*", rf"({'|'.join(map(re.escape, EXTERNAL_MODULES))})\..*")]
