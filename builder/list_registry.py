"""Keeping lists current: newer official word lists registered by a user, by name.

The NYT changes its lists now and then (the answers in July 2023, the allowed
guesses in August 2022). ``guesswork-build lists update FILE... --kind
answers|guesses --as-of DATE`` registers each file as a named list,
``wordle-answers-N`` or ``wordle-guesses-N`` (N its word count) unless
``--name`` says otherwise, in the user's list folder
(``$XDG_DATA_HOME/guesswork/lists``, next to the user catalog; or
``$GUESSWORK_LISTS``): the words (upper case, one a line, after a header
comment saying where and as of when) and an entry in ``registry.json`` with
the list's SHA-256 and count. From then on every command that takes a list
(``--targets``, ``--guesses``, ``priors --words``) takes that name, checked
against its SHA-256 and count on every load as shipped lists are
(builder.wordlists); ``lists show`` lists the shipped and registered lists.

A registered name never shadows a shipped list: registering under a shipped
name is refused unless the words are exactly the shipped ones (then there is
nothing to do).

This module writes the registry; reading it (``registered_lists``,
``registered_words``) is builder.wordlists', through which every list is loaded.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from datetime import date
from pathlib import Path

from ..client.games import Game
from .errors import WordListError
from .files import replace_file
from .wordlists import (
    REGISTRY,
    SHIPPED,
    RegisteredList,
    WordList,
    content_sha256,
    lists_home,
    load_wordlist,
    registered_lists,
)

#: What an official list is: the answers the game picks from, or the guesses it allows.
KINDS = ("answers", "guesses")
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def _check_date(text: str) -> str:
    try:
        return date.fromisoformat(text).isoformat()
    except ValueError:
        raise WordListError(f"--as-of {text!r} is not a date (YYYY-MM-DD)") from None


def register(
    path: str,
    kind: str,
    as_of: str,
    game: Game,
    name: str | None = None,
    home: Path | None = None,
) -> tuple[RegisteredList, bool]:
    """Register the list in the file ``path``; return it and whether it was new.

    Raises:
        WordListError: the file is unreadable or holds invalid words, the kind,
            date or name is bad, or the name is a shipped list's with other words.
    """
    if kind not in KINDS:
        raise WordListError(f"--kind {kind!r} must be one of {', '.join(KINDS)}")
    checked_date = _check_date(as_of)
    loaded: WordList = load_wordlist(path, game)
    chosen = name or f"{game.name}-{kind}-{len(loaded)}"
    if not _NAME.fullmatch(chosen):
        raise WordListError(f"list name {chosen!r} must be lower-case letters, digits and '-'")
    sha256 = content_sha256(loaded.words)
    if chosen in SHIPPED:
        if SHIPPED[chosen].sha256 == sha256:
            return _shipped_entry(chosen, kind, sha256, len(loaded)), False
        raise WordListError(
            f"{chosen!r} is a shipped list with other words; name this one with --name"
        )
    folder = home or lists_home()
    entries = registered_lists(folder)
    held = entries.get(chosen)
    if held is not None and held.sha256 == sha256:
        return held, False
    entry = RegisteredList(
        chosen, kind, len(loaded), sha256, checked_date, str(Path(path).resolve()), f"{chosen}.txt"
    )
    folder.mkdir(parents=True, exist_ok=True)
    header = f"# {chosen}: {kind} as of {checked_date}, registered from {entry.source}\n"
    _replace(folder / entry.file, header + "".join(f"{w}\n" for w in loaded.words))
    entries[chosen] = entry
    rows = [asdict(entries[key]) for key in sorted(entries)]
    _replace(folder / REGISTRY, json.dumps(rows, indent=2) + "\n")
    return entry, True


def _shipped_entry(name: str, kind: str, sha256: str, count: int) -> RegisteredList:
    return RegisteredList(name, kind, count, sha256, "", "shipped", SHIPPED[name].file)


def _replace(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (a reader sees the old file or the new).

    Raises:
        WordListError: the file cannot be written.
    """
    try:
        replace_file(path, text.encode("utf-8"))
    except OSError as error:
        raise WordListError(f"cannot write {path}: {error.strerror}") from None
