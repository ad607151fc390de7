"""Shared test set-up: an isolated reply-matrix cache for the whole session."""

from __future__ import annotations

import os
import tempfile

# Set before any builder module computes a matrix, so tests never write to
# the user's real cache and always exercise the disk cache from empty.
os.environ.setdefault("GUESSWORK_CACHE", tempfile.mkdtemp(prefix="guesswork-test-cache-"))
