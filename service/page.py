"""The files of the page ``guesswork-serve --http`` serves at ``/`` (service.web).

They are plain HTML, CSS and JavaScript in ``service/page/`` (package data),
served as they are: no build step, nothing from a CDN, so the page works with
no internet. :func:`page_file` maps a path to one of them.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

#: The content type of each file kind served.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
}


def page_file(path: str) -> tuple[bytes, str] | None:
    """Return (contents, content type) of the page file at URL ``path`` ("/" is
    index.html), or None when there is no such file (only names in the folder are
    served: no subfolders, no other kinds)."""
    name = "index.html" if path in ("", "/") else path.removeprefix("/")
    suffix = name[name.rfind(".") :] if "." in name else ""
    if "/" in name or name.startswith(".") or suffix not in CONTENT_TYPES:
        return None
    if name not in _page_names():
        # Names are matched against the folder's list, never opened as asked: a name
        # of 300 characters made the file system refuse it (a 500, not a 404).
        return None
    return (resources.files("guesswork.service") / "page" / name).read_bytes(), CONTENT_TYPES[
        suffix
    ]


@cache
def _page_names() -> frozenset[str]:
    """Return the names of the page's files (read once: the folder ships with the package)."""
    folder = resources.files("guesswork.service") / "page"
    return frozenset(entry.name for entry in folder.iterdir() if entry.is_file())
