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
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path

from ..client.games import Game
from .catalog_commands import replace_file
from .errors import WordListError
from .wordlists import SHIPPED, WordList, content_sha256, load_wordlist

#: What an official list is: the answers the game picks from, or the guesses it allows.
KINDS = ("answers", "guesses")
REGISTRY = "registry.json"
_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class RegisteredList:
    """A registered list: its name, kind, word count, SHA-256, as-of date and source."""

    name: str
    kind: str
    count: int
    sha256: str
    as_of: str
    source: str
    file: str


def lists_home() -> Path:
    """Return the user's list folder: ``$GUESSWORK_LISTS``, else
    ``$XDG_DATA_HOME/guesswork/lists`` (``~/.local/share`` when unset or relative)."""
    named = os.environ.get("GUESSWORK_LISTS")
    if named:
        return Path(named)
    data_home = os.environ.get("XDG_DATA_HOME", "")
    base = Path(data_home) if os.path.isabs(data_home) else Path.home() / ".local" / "share"
    return base / "guesswork" / "lists"


def registered_lists(home: Path | None = None) -> dict[str, RegisteredList]:
    """Return the registered lists by name (none when nothing was registered).

    Raises:
        WordListError: the registry exists but cannot be read or is malformed.
    """
    path = (home or lists_home()) / REGISTRY
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise WordListError(f"cannot read the list registry {path}: {error.strerror}") from None
    try:
        entries = json.loads(text)
        return {entry["name"]: RegisteredList(**entry) for entry in entries}
    except (ValueError, TypeError, KeyError):
        raise WordListError(
            f"the list registry {path} is damaged; remove it and register the lists again"
        ) from None


def registered_words(name: str, home: Path | None = None) -> tuple[str, ...] | None:
    """Return the words of the registered list ``name`` after checking its SHA-256 and
    count, or None if no list of that name is registered.

    Raises:
        WordListError: the registry is damaged, or the list's file is missing or
            no longer matches what was registered.
    """
    folder = home or lists_home()
    entry = registered_lists(folder).get(name)
    if entry is None:
        return None
    try:
        lines = (folder / entry.file).read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise WordListError(
            f"registered list {name!r} ({folder / entry.file}) cannot be read: {error.strerror}"
        ) from None
    words = tuple(w for line in lines for w in line.split("#", 1)[0].split())
    if len(words) != entry.count or content_sha256(words) != entry.sha256:
        raise WordListError(
            f"registered list {name!r} ({folder / entry.file}) no longer matches its "
            f"registered SHA-256 and count; register it again"
        )
    return words


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
