"""The NYT's answer calendar: which word was Wordle's answer on which day.

The package ships every answer from the game's first day, 2021-06-19 (day
number 0, CIGAR), to 2025-12-31 (#1656, SIREN) in
``builder/data/calendar/nyt-answers.csv`` (header ``date,number,word``; one
row a day; ``number`` is the days since 2021-06-19). Newer days are added by
the user with ``guesswork-build history add FILE...`` (builder.calendar_commands)
from a CSV of the same shape or the NYT's own per-day JSON
(``/svc/wordle/v2/YYYY-MM-DD.json``); they are kept beside the user catalog in
``$XDG_DATA_HOME/guesswork/nyt-answers.csv`` (or ``$GUESSWORK_CALENDAR``), and
:func:`load_calendar` merges them over the shipped days.

A calendar is what a backtest replays and what a prior of past answers is made
from; :meth:`AnswerCalendar.before` is the calendar as it stood on a day.
"""

from __future__ import annotations

import bisect
import datetime
import hashlib
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache, cached_property
from importlib import resources
from pathlib import Path

from ..client.text import plural
from .errors import CalendarError

#: Wordle's first day: day number 0.
LAUNCH = datetime.date(2021, 6, 19)
#: The first line of every calendar CSV.
HEADER = "date,number,word"
#: The calendar's file name: the shipped one, and the user's added days by default.
FILE_NAME = "nyt-answers.csv"
_DATA_PACKAGE = "guesswork.builder.data.calendar"
#: What the shipped calendar must hold (checked on load, as the shipped lists and
#: priors are): its day count and the SHA-256 of its canonical CSV (to_csv()).
SHIPPED_DAYS = 1657
SHIPPED_SHA256 = "43cce6fda082e79a7f033a9cc9dcad568aa1eeca2d006512db76393b80eedcfe"
#: The longest piece of a bad value a message quotes: a line of garbage (a binary
#: file read as text) must not flood the terminal.
_SHOWN = 40
# ISO dates only as YYYY-MM-DD: date.fromisoformat alone also takes 20210619 and
# 2021-W25-6, which no calendar writes.
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_NUMBER = re.compile(r"\d{1,9}")
# Wordle's answers: five ASCII letters (str.isalpha would let accented letters in).
_WORD = re.compile(r"[A-Za-z]{5}")


def _shown(value: object) -> str:
    """Return ``value`` quoted for a message, cut to about 40 characters."""
    text = str(value)
    return repr(text[:_SHOWN]) + ("..." if len(text) > _SHOWN else "")


@dataclass(frozen=True)
class CalendarDay:
    """One day's answer: its date, its day number (days since :data:`LAUNCH`) and
    its word, upper case (as the project's words are: client.letters.upper_word).

    Raises:
        CalendarError: on construction, when ``number`` is not the date's day number.
    """

    date: datetime.date
    number: int
    word: str

    def __post_init__(self) -> None:
        # The number is redundant with the date; a day where they disagree would
        # make the calendar's CSV contradict itself.
        if self.number != (self.date - LAUNCH).days:
            raise CalendarError(
                f"{self.date.isoformat()} is day {(self.date - LAUNCH).days}, not {self.number}"
            )


@dataclass(frozen=True)
class AnswerCalendar:
    """Answers by date: ``days`` sorted by date, each date once; ``source`` says where
    they came from (a file, the shipped calendar), for messages.

    Raises:
        CalendarError: on construction, when ``days`` are not in strictly increasing
            date order.
    """

    days: tuple[CalendarDay, ...]
    source: str

    def __post_init__(self) -> None:
        # before/between/on bisect the dates: they rely on the order.
        for previous, day in zip(self.days, self.days[1:], strict=False):
            if day.date <= previous.date:
                raise CalendarError(
                    f"{self.source}: days out of order or repeated at {day.date.isoformat()}"
                )

    def __len__(self) -> int:
        return len(self.days)

    @cached_property
    def _dates(self) -> tuple[datetime.date, ...]:
        return tuple(day.date for day in self.days)

    @property
    def first(self) -> datetime.date | None:
        """The first day's date, or None for an empty calendar."""
        return self.days[0].date if self.days else None

    @property
    def last(self) -> datetime.date | None:
        """The last day's date, or None for an empty calendar."""
        return self.days[-1].date if self.days else None

    def before(self, date: datetime.date) -> AnswerCalendar:
        """Return the calendar of the days strictly before ``date`` (what was known
        on the morning of ``date``), from the same source."""
        return AnswerCalendar(self.days[: bisect.bisect_left(self._dates, date)], self.source)

    def between(self, first: datetime.date, last: datetime.date) -> tuple[CalendarDay, ...]:
        """Return the days from ``first`` to ``last``, both included (none if
        ``last`` is before ``first``)."""
        start = bisect.bisect_left(self._dates, first)
        return self.days[start : max(start, bisect.bisect_right(self._dates, last))]

    def on(self, date: datetime.date) -> CalendarDay | None:
        """Return the day of ``date``, or None if the calendar has no answer for it."""
        index = bisect.bisect_left(self._dates, date)
        if index < len(self.days) and self.days[index].date == date:
            return self.days[index]
        return None

    def gaps(self) -> list[tuple[datetime.date, datetime.date]]:
        """Return the missing dates between the first and last day, as inclusive
        ``(first missing, last missing)`` ranges in date order (none when complete)."""
        one = datetime.timedelta(days=1)
        return [
            (previous.date + one, day.date - one)
            for previous, day in zip(self.days, self.days[1:], strict=False)
            if day.date - previous.date > one
        ]

    def to_csv(self) -> str:
        """Return the calendar as its canonical CSV: the header ``date,number,word``,
        one row a day in date order, lower-case words, ``\\n`` line ends."""
        return self._csv

    @cached_property
    def _csv(self) -> str:
        rows = (f"{d.date.isoformat()},{d.number},{d.word.lower()}\n" for d in self.days)
        return HEADER + "\n" + "".join(rows)

    @property
    def sha256(self) -> str:
        """The SHA-256 (hex) of :meth:`to_csv`'s UTF-8 bytes: the same days give the
        same digest whatever file they were read from."""
        return hashlib.sha256(self.to_csv().encode("utf-8")).hexdigest()


def _parse_date(text: str, where: str) -> datetime.date:
    """Return the date ``text`` (YYYY-MM-DD) names.

    Raises:
        CalendarError: it is not a real date in that form, or is before :data:`LAUNCH`.
    """
    if not _DATE.fullmatch(text):
        raise CalendarError(f"{where}: date {_shown(text)} is not YYYY-MM-DD")
    try:
        date = datetime.date.fromisoformat(text)
    except ValueError:
        raise CalendarError(f"{where}: {text} is not a real date") from None
    if date < LAUNCH:
        raise CalendarError(f"{where}: {text} is before Wordle's first day, {LAUNCH}")
    return date


def _parse_word(text: str, where: str) -> str:
    """Return ``text`` upper case.

    Raises:
        CalendarError: it is not five letters A-Z (either case).
    """
    if not _WORD.fullmatch(text):
        raise CalendarError(f"{where}: word {_shown(text)} is not five letters A-Z")
    return text.upper()


def _check_number(number: int, date: datetime.date, where: str) -> None:
    """Raises CalendarError: ``number`` is not ``date``'s day number."""
    expected = (date - LAUNCH).days
    if number != expected:
        raise CalendarError(
            f"{where}: {date.isoformat()} is day {expected} since {LAUNCH}, not {number}"
        )


def parse_calendar_csv(text: str, source: str) -> AnswerCalendar:
    """Return the calendar the CSV ``text`` holds (``source`` names it in messages).

    The first line is the header ``date,number,word``; then one row a day, in any
    order (the calendar is sorted by date). Lines may end in ``\\n`` or ``\\r\\n``;
    blank lines are skipped. Words may be either case; the calendar's are upper case.

    Raises:
        CalendarError: the text is empty or has only the header; the header is
            another; a row has not three fields, a date not YYYY-MM-DD or not real
            or before 2021-06-19, a number other than the date's day number, or a
            word not five letters A-Z; or a date is on two rows. The message names
            ``source``, the line and what is wrong.
    """
    # A spreadsheet's UTF-8 export may start with a byte-order mark.
    lines = text.removeprefix("\ufeff").splitlines()
    numbered = [(n, line.strip()) for n, line in enumerate(lines, 1) if line.strip()]
    if not numbered:
        raise CalendarError(f"{source}: empty; expected the header {HEADER!r} and a row a day")
    header_line, header = numbered[0]
    if header != HEADER:
        raise CalendarError(
            f"{source}: line {header_line}: header {_shown(header)} is not {HEADER!r}"
        )
    if len(numbered) == 1:
        raise CalendarError(f"{source}: no days after the header")
    seen: dict[datetime.date, int] = {}
    days: list[CalendarDay] = []
    for n, line in numbered[1:]:
        where = f"{source}: line {n}"
        fields = [field.strip() for field in line.split(",")]
        if len(fields) != 3:
            raise CalendarError(
                f"{where}: {_shown(line)} has {len(fields)} fields, not 3 (date,number,word)"
            )
        date = _parse_date(fields[0], where)
        if not _NUMBER.fullmatch(fields[1]):
            raise CalendarError(f"{where}: number {_shown(fields[1])} is not a day number")
        number = int(fields[1])
        _check_number(number, date, where)
        word = _parse_word(fields[2], where)
        if date in seen:
            raise CalendarError(f"{where}: {date.isoformat()} is also on line {seen[date]}")
        seen[date] = n
        days.append(CalendarDay(date, number, word))
    days.sort(key=lambda day: day.date)
    return AnswerCalendar(tuple(days), source)


def parse_nyt_day(text: str, source: str) -> CalendarDay:
    """Return the day the NYT's per-day JSON ``text`` (``/svc/wordle/v2/YYYY-MM-DD.json``)
    gives: its fields ``print_date``, ``days_since_launch`` and ``solution`` (the
    others, ``id`` and ``editor``, are ignored). ``source`` names it in messages.

    Raises:
        CalendarError: the text is not JSON or not an object, a field is missing
            or of the wrong type, ``print_date`` is not a real YYYY-MM-DD date,
            ``days_since_launch`` is not its day number, or ``solution`` is not
            five letters A-Z.
    """
    try:
        value = json.loads(text)
    except ValueError as error:
        # json's message is short and says where (line, column); its text is not echoed.
        raise CalendarError(f"{source}: not JSON ({error})") from None
    if not isinstance(value, dict):
        raise CalendarError(f"{source}: not a JSON object (the NYT's day has one)")
    missing = [f for f in ("print_date", "days_since_launch", "solution") if f not in value]
    if missing:
        raise CalendarError(f"{source}: no {', '.join(missing)} (not an NYT Wordle day?)")
    print_date, number, solution = (
        value["print_date"],
        value["days_since_launch"],
        value["solution"],
    )
    if not isinstance(print_date, str):
        raise CalendarError(f"{source}: print_date {_shown(print_date)} is not a string")
    # bool is an int in Python; true is no day number.
    if not isinstance(number, int) or isinstance(number, bool):
        raise CalendarError(f"{source}: days_since_launch {_shown(number)} is not a whole number")
    if not isinstance(solution, str):
        raise CalendarError(f"{source}: solution {_shown(solution)} is not a string")
    date = _parse_date(print_date, source)
    _check_number(number, date, f"{source}: days_since_launch")
    return CalendarDay(date, number, _parse_word(solution, source))


def _read_text(path: Path) -> str:
    """Return the text of ``path``.

    Raises:
        CalendarError: it cannot be read (the OS's reason) or is not UTF-8.
    """
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CalendarError(f"{path}: not UTF-8 text (a calendar CSV or NYT JSON day)") from None
    except OSError as error:
        raise CalendarError(f"cannot read {path}: {error.strerror or error}") from None


def read_history_file(path: Path) -> AnswerCalendar:
    """Return the calendar in the file ``path``: one NYT per-day JSON (a ``.json``
    name, or text starting with ``{``, as a download saved under another name is)
    gives a calendar of that day; anything else is read as a calendar CSV.

    Raises:
        CalendarError: the file is missing, a folder or unreadable (with the OS's
            reason), or its content is bad (:func:`parse_nyt_day`,
            :func:`parse_calendar_csv`).
    """
    text = _read_text(path)
    source = str(path)
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        return AnswerCalendar((parse_nyt_day(text, source),), source)
    return parse_calendar_csv(text, source)


def merged(
    calendar: AnswerCalendar, added: Iterable[CalendarDay]
) -> tuple[AnswerCalendar, list[CalendarDay]]:
    """Return ``calendar`` with the days ``added``, and the days that were new to it
    (in date order). A day already there with the same word is skipped; the result
    keeps ``calendar``'s source.

    Raises:
        CalendarError: a date of ``added`` has another word in ``calendar`` or
            earlier in ``added``; the message names the date and both words.
    """
    by_date = {day.date: day for day in calendar.days}
    new: dict[datetime.date, CalendarDay] = {}
    for day in added:
        known = by_date.get(day.date)
        if known is None:
            by_date[day.date] = new[day.date] = day
        elif known.word != day.word:
            where = "added earlier" if day.date in new else calendar.source
            raise CalendarError(
                f"conflicting answers for {day.date.isoformat()}: {known.word} ({where}) "
                f"and {day.word}"
            )
    if not new:
        return calendar, []
    days = tuple(sorted(by_date.values(), key=lambda day: day.date))
    return AnswerCalendar(days, calendar.source), sorted(new.values(), key=lambda d: d.date)


@cache
def shipped_calendar() -> AnswerCalendar:
    """Return the shipped calendar (the package's ``nyt-answers.csv``), after checking
    its day count and SHA-256; read once per process.

    Raises:
        CalendarError: the file is missing from the installation or damaged.
    """
    try:
        text = resources.files(_DATA_PACKAGE).joinpath(FILE_NAME).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CalendarError(
            f"the shipped calendar {FILE_NAME} cannot be read ({error}); reinstall the package"
        ) from None
    calendar = parse_calendar_csv(text, f"shipped calendar {FILE_NAME}")
    if len(calendar) != SHIPPED_DAYS or calendar.sha256 != SHIPPED_SHA256:
        raise CalendarError(
            f"the shipped calendar {FILE_NAME} does not match its registered size and "
            f"SHA-256 ({plural(len(calendar), 'day', grouped=True)}, {calendar.sha256}); "
            f"reinstall the package"
        )
    return calendar


def user_calendar_path() -> Path:
    """Return the file of the user's added days (it may not exist yet):
    ``$GUESSWORK_CALENDAR`` if set, else ``$XDG_DATA_HOME/guesswork/nyt-answers.csv``
    beside the user catalog (``$XDG_DATA_HOME`` is ``~/.local/share`` when unset or
    relative, as for client.catalog.user_catalog)."""
    named = os.environ.get("GUESSWORK_CALENDAR")
    if named:
        return Path(named)
    data_home = os.environ.get("XDG_DATA_HOME", "")
    # The XDG rule: a relative $XDG_DATA_HOME is invalid and is ignored.
    base = Path(data_home) if os.path.isabs(data_home) else Path.home() / ".local" / "share"
    return base / "guesswork" / FILE_NAME


def user_days() -> AnswerCalendar | None:
    """Return the user's added days (:func:`user_calendar_path`), or None if that file
    does not exist.

    Raises:
        CalendarError: the file exists but cannot be read or is not a calendar CSV.
    """
    path = user_calendar_path()
    if not path.exists():
        return None
    return parse_calendar_csv(_read_text(path), str(path))


def load_calendar(history: Path | None = None) -> AnswerCalendar:
    """Return the answer calendar a command uses.

    With ``history`` (a backtest's ``--history FILE``), the days of that file
    alone (:func:`read_history_file`): it replaces the shipped calendar for
    this run. Without, the shipped calendar and the user's added days
    (:func:`user_calendar_path`, when it exists) merged; its source names both.

    Raises:
        CalendarError: the file cannot be read or is bad, or the user's days give
            another word for a shipped date (a correction the package now has).
    """
    if history is not None:
        return read_history_file(history)
    shipped = shipped_calendar()
    user = user_days()
    if user is None:
        return shipped
    try:
        calendar, _ = merged(shipped, user.days)
    except CalendarError as error:
        raise CalendarError(f"{user.source}: {error}; correct or remove that day") from None
    return replace(calendar, source=f"{shipped.source} + {user.source}")
