"""The files of the page ``guesswork-serve --http`` serves at ``/`` (service.web).

They are plain HTML, CSS and JavaScript in ``service/page/`` (package data),
served as they are: no build step, nothing from a CDN, so the page works with
no internet. :func:`page_file` maps a path to one of them.
"""

from __future__ import annotations

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
    folder = resources.files("guesswork.service") / "page"
    found = folder / name
    if not found.is_file():
        return None
    return found.read_bytes(), CONTENT_TYPES[suffix]
