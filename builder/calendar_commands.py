"""``guesswork-build history``: show the answer calendar, or add newer days to it.

``history show`` (the default) says what the calendar holds: the shipped days,
the user's added days and where they are kept, the first and last date, the
day count and any gap. ``history add FILE...`` reads each FILE (a calendar CSV,
``date,number,word``, or one NYT per-day JSON), merges it into the calendar
and writes the user's added days (those the shipped calendar lacks) to
builder.calendar.user_calendar_path(). A date whose answer differs from the
calendar's refuses the whole run and writes nothing; a gap is allowed (a day
may be added later) and reported.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..client.errors import UsageError
from ..client.text import plural
from .calendar import (
    FILE_NAME,
    AnswerCalendar,
    CalendarDay,
    load_calendar,
    merged,
    read_history_file,
    shipped_calendar,
    user_calendar_path,
    user_days,
)
from .command_types import Outcome
from .errors import CalendarError
from .files import replace_file


@dataclass(frozen=True)
class HistoryOptions:
    """``history``'s options: ``show`` or ``add`` (``action``) and add's files."""

    action: str
    files: tuple[str, ...]


def history(options: HistoryOptions) -> Outcome:
    """Run ``history show`` or ``history add FILE...`` (``options.action``, ``options.files``).

    Raises:
        UsageError: ``add`` without a FILE, or ``show`` with one.
        CalendarError: a file or the user's calendar is missing, unreadable or bad,
            a date conflicts, or the user's calendar cannot be written.
    """
    if options.action == "add":
        if not options.files:
            raise UsageError("history add needs FILE... (calendar CSVs or NYT per-day JSON)")
        return _add([Path(name) for name in options.files])
    if options.files:
        raise UsageError("history show takes no FILE (see history add FILE...)")
    return _show()


def _iso(date: datetime.date | None) -> str | None:
    return None if date is None else date.isoformat()


def _gaps(calendar: AnswerCalendar) -> tuple[list[list[str]], list[str]]:
    """Return the calendar's gaps as JSON (``[[first, last], ...]``) and as text lines."""
    gaps = calendar.gaps()
    lines = [
        f"gap: {first} to {last} missing ({plural((last - first).days + 1, 'day')})"
        if first != last
        else f"gap: {first} missing (1 day)"
        for first, last in gaps
    ]
    return [[first.isoformat(), last.isoformat()] for first, last in gaps], lines


def _span(days: tuple[CalendarDay, ...]) -> str:
    """Return ``days``' first and last day as ``DATE (#N WORD) to DATE (#N WORD)``."""
    first, last = days[0], days[-1]
    return (
        f"{first.date} (#{first.number} {first.word}) to {last.date} (#{last.number} {last.word})"
    )


def _conflict(
    calendar: AnswerCalendar,
    read: AnswerCalendar,
    shipped: AnswerCalendar,
    added_from: dict[datetime.date, str],
) -> None:
    """Refuse a day of ``read`` whose date has another word in ``calendar``.

    Raises:
        CalendarError: naming the file, the date, both words and where the other
            came from (the shipped calendar, the user's, or an earlier FILE).
    """
    for day in read.days:
        known = calendar.on(day.date)
        if known is not None and known.word != day.word:
            origin = added_from.get(day.date) or (
                "the shipped calendar"
                if shipped.on(day.date) is not None
                else f"your calendar {user_calendar_path()}"
            )
            raise CalendarError(
                f"{read.source}: {day.date} is {day.word}, but {origin} has {known.word} "
                f"for it; nothing was added"
            )


def _add(files: list[Path]) -> Outcome:
    """Merge ``files`` into the calendar and keep the new days in the user's calendar.

    Raises:
        CalendarError: see :func:`history`.
    """
    shipped = shipped_calendar()
    calendar = load_calendar()
    # Which file each day new in this run came from: a later file contradicting
    # an earlier one is named with it.
    added_from: dict[datetime.date, str] = {}
    for path in files:
        read = read_history_file(path)
        _conflict(calendar, read, shipped, added_from)
        calendar, new = merged(calendar, read.days)
        added_from.update((day.date, read.source) for day in new)
    target = user_calendar_path()
    if added_from:
        kept = tuple(day for day in calendar.days if shipped.on(day.date) is None)
        _write(target, AnswerCalendar(kept, str(target)).to_csv())
    gaps, gap_lines = _gaps(calendar)
    count = len(added_from)
    lines = [
        f"added {plural(count, 'day')} to {target}"
        if count
        else f"nothing new: every day given is in the calendar already ({target} unchanged)",
        f"calendar: {plural(len(calendar), 'day', grouped=True)}, {_span(calendar.days)}",
        *gap_lines,
    ]
    data = {
        "added": count,
        "file": str(target),
        "first": _iso(calendar.first),
        "last": _iso(calendar.last),
        "days": len(calendar),
        "gaps": gaps,
    }
    return Outcome(data, lines)


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all, making its folder.

    Raises:
        CalendarError: the folder or file cannot be written (with the OS's reason).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, text.encode("utf-8"))
    except OSError as error:
        raise CalendarError(f"cannot write {path}: {error.strerror or error}") from None


def _show() -> Outcome:
    """Describe the calendar: its sources, first and last date, day count and gaps.

    Raises:
        CalendarError: the user's calendar is unreadable, bad or conflicts.
    """
    shipped = shipped_calendar()
    user = user_days()
    calendar = load_calendar()
    target = user_calendar_path()
    sources: list[dict[str, Any]] = [
        {
            "source": "shipped",
            "file": FILE_NAME,
            "days": len(shipped),
            "first": _iso(shipped.first),
            "last": _iso(shipped.last),
        }
    ]
    lines = [f"shipped: {plural(len(shipped), 'day', grouped=True)}, {_span(shipped.days)}"]
    if user is not None and len(user):
        sources.append(
            {
                "source": "added",
                "file": str(target),
                "days": len(user),
                "first": _iso(user.first),
                "last": _iso(user.last),
            }
        )
        lines.append(
            f"added: {plural(len(user), 'day', grouped=True)}, {_span(user.days)}, in {target}"
        )
    else:
        lines.append(f"added: none (guesswork-build history add FILE... keeps them in {target})")
    gaps, gap_lines = _gaps(calendar)
    lines += [
        f"calendar: {plural(len(calendar), 'day', grouped=True)}, "
        f"{calendar.first} to {calendar.last}",
        *(gap_lines or ["gaps: none"]),
    ]
    data = {
        "sources": sources,
        "file": str(target),
        "first": _iso(calendar.first),
        "last": _iso(calendar.last),
        "days": len(calendar),
        "gaps": gaps,
        "sha256": calendar.sha256,
    }
    return Outcome(data, lines)
