"""The shipped policy catalog (``catalog.sqlite``), package data: no code."""
