"""The NYT's answer calendar (builder.calendar): the shipped days, parsing calendar CSVs
and the NYT's per-day JSON, merging, and ``guesswork-build history show|add``."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from guesswork.builder.calendar import (
    LAUNCH,
    SHIPPED_DAYS,
    AnswerCalendar,
    CalendarDay,
    load_calendar,
    merged,
    parse_calendar_csv,
    parse_nyt_day,
    read_history_file,
    shipped_calendar,
    user_calendar_path,
)
from guesswork.builder.cli import run
from guesswork.builder.errors import CalendarError
from guesswork.client.errors import GuessworkError, reason_of

SHARED_CSV = Path("/work/shared/wordlists/nyt-answers-2021-2025.csv")
PACKAGED_CSV = Path(__file__).resolve().parents[2] / "builder/data/calendar/nyt-answers.csv"
HEADER = "date,number,word\n"


def _day(iso: str, word: str) -> CalendarDay:
    when = date.fromisoformat(iso)
    return CalendarDay(when, (when - LAUNCH).days, word)


def _nyt(iso: str, word: str, number: int | None = None) -> str:
    """An NYT per-day JSON as the endpoint sends it (extra fields included)."""
    when = date.fromisoformat(iso)
    return json.dumps(
        {
            "id": 2100,
            "solution": word,
            "print_date": iso,
            "days_since_launch": (when - LAUNCH).days if number is None else number,
            "editor": "Tracy Bennett",
        }
    )


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A scratch XDG data home: the user's calendar goes there, never to the real home."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("GUESSWORK_CALENDAR", raising=False)
    return tmp_path


def _user_file(home: Path) -> Path:
    return home / "data" / "guesswork" / "nyt-answers.csv"


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert run([*argv, "--json"]) == 0, capsys.readouterr().err
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


def _error(capsys: pytest.CaptureFixture[str], *argv: str, status: int = 1) -> str:
    """Run the CLI, expecting failure: return its one stderr line (no traceback)."""
    assert run(list(argv)) == status
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("guesswork-build: error: "), captured.err
    assert "Traceback" not in captured.err
    return lines[0]


# The shipped calendar.


def test_the_shipped_calendar_has_every_day_from_cigar_to_siren() -> None:
    calendar = shipped_calendar()
    assert len(calendar) == SHIPPED_DAYS == 1657
    first, last = calendar.days[0], calendar.days[-1]
    assert (first.date, first.number, first.word) == (date(2021, 6, 19), 0, "CIGAR")
    assert (last.date, last.number, last.word) == (date(2025, 12, 31), 1656, "SIREN")
    assert (calendar.first, calendar.last) == (first.date, last.date)
    assert calendar.gaps() == []
    assert calendar.on(date(2025, 7, 18)) == CalendarDay(date(2025, 7, 18), 1490, "LORIS")
    assert calendar.on(date(2025, 8, 13)).word == "KEFIR"  # type: ignore[union-attr]
    assert calendar.on(date(2026, 1, 1)) is None and calendar.on(date(2021, 6, 18)) is None
    assert all(day.number == (day.date - LAUNCH).days for day in calendar.days)
    assert all(day.word.isupper() and len(day.word) == 5 for day in calendar.days)
    # No answer repeated up to 2025-12-31 (the shared README's fact).
    assert len({day.word for day in calendar.days}) == len(calendar)
    assert shipped_calendar() is calendar  # read once


def test_the_packaged_csv_is_the_shared_one_and_its_canonical_form_is_the_same_days() -> None:
    if SHARED_CSV.exists():  # a clone elsewhere has no /work/shared
        assert PACKAGED_CSV.read_bytes() == SHARED_CSV.read_bytes()
    calendar = shipped_calendar()
    canonical = calendar.to_csv()
    assert canonical.startswith(HEADER + "2021-06-19,0,cigar\n")
    assert canonical.endswith("2025-12-31,1656,siren\n") and "\r" not in canonical
    # The packaged file has CRLF line ends; the digest is of the days, not the bytes.
    assert canonical == PACKAGED_CSV.read_text(encoding="utf-8").replace("\r\n", "\n")
    assert parse_calendar_csv(canonical, "again").sha256 == calendar.sha256


def test_before_and_between_cut_the_calendar_by_date() -> None:
    calendar = shipped_calendar()
    known = calendar.before(date(2025, 7, 18))
    assert isinstance(known, AnswerCalendar) and len(known) == 1490
    assert known.last == date(2025, 7, 17) and known.on(date(2025, 7, 18)) is None
    assert known.source == calendar.source
    assert len(calendar.before(LAUNCH)) == 0 and calendar.before(LAUNCH).first is None
    assert len(calendar.before(date(2030, 1, 1))) == len(calendar)
    week = calendar.between(date(2021, 6, 19), date(2021, 6, 25))
    assert [day.word for day in week][:4] == ["CIGAR", "REBUT", "SISSY", "HUMPH"]
    assert len(week) == 7
    assert calendar.between(date(2025, 12, 31), date(2026, 3, 1)) == (calendar.days[-1],)
    assert calendar.between(date(2022, 1, 2), date(2022, 1, 1)) == ()


def test_gaps_are_inclusive_missing_ranges() -> None:
    calendar = AnswerCalendar(
        (
            _day("2026-01-01", "CRANE"),
            _day("2026-01-03", "SLATE"),
            _day("2026-01-08", "TRACE"),
            _day("2026-01-09", "PLUMB"),
        ),
        "test",
    )
    assert calendar.gaps() == [
        (date(2026, 1, 2), date(2026, 1, 2)),
        (date(2026, 1, 4), date(2026, 1, 7)),
    ]
    assert AnswerCalendar((), "empty").gaps() == []


def test_a_calendar_refuses_days_out_of_order_and_a_day_its_wrong_number() -> None:
    with pytest.raises(CalendarError, match="out of order or repeated at 2026-01-01"):
        AnswerCalendar((_day("2026-01-02", "CRANE"), _day("2026-01-01", "SLATE")), "test")
    with pytest.raises(CalendarError, match="is day 1657, not 7"):
        CalendarDay(date(2026, 1, 1), 7, "CRANE")


# Parsing.


def test_a_csv_in_any_order_is_sorted_and_upper_cased() -> None:
    text = "date,number,word\r\n2026-01-02,1658,Slate\r\n\r\n2026-01-01,1657,crane\r\n"
    calendar = parse_calendar_csv(text, "mine.csv")
    assert calendar.days == (_day("2026-01-01", "CRANE"), _day("2026-01-02", "SLATE"))
    assert calendar.source == "mine.csv"
    assert calendar.to_csv() == HEADER + "2026-01-01,1657,crane\n2026-01-02,1658,slate\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"mine\.csv: empty"),
        ("\n\n", r"mine\.csv: empty"),
        (HEADER, r"mine\.csv: no days after the header"),
        (
            "day,number,word\n2026-01-01,1657,crane\n",
            r"mine\.csv: line 1: header 'day,number,word' is not",
        ),
        (
            "2026-01-01,1657,crane\n",
            r"line 1: header '2026-01-01,1657,crane' is not 'date,number,word'",
        ),
        (HEADER + "2026-01-01,1657\n", r"line 2: '2026-01-01,1657' has 2 fields, not 3"),
        (HEADER + "2026-01-01,1657,crane,x\n", r"line 2: .* has 4 fields, not 3"),
        (HEADER + "01/01/2026,1657,crane\n", r"line 2: date '01/01/2026' is not YYYY-MM-DD"),
        (HEADER + "20260101,1657,crane\n", r"line 2: date '20260101' is not YYYY-MM-DD"),
        (HEADER + "2026-02-30,1717,crane\n", r"line 2: 2026-02-30 is not a real date"),
        (
            HEADER + "2021-06-18,0,crane\n",
            r"line 2: 2021-06-18 is before Wordle's first day, 2021-06-19",
        ),
        (HEADER + "2026-01-01,-1,crane\n", r"line 2: number '-1' is not a day number"),
        (HEADER + "2026-01-01,one,crane\n", r"line 2: number 'one' is not a day number"),
        (
            HEADER + "2026-01-01,1656,crane\n",
            r"line 2: 2026-01-01 is day 1657 since 2021-06-19, not 1656",
        ),
        (HEADER + "2026-01-01,1657,cranes\n", r"line 2: word 'cranes' is not five letters A-Z"),
        (HEADER + "2026-01-01,1657,cr4ne\n", r"line 2: word 'cr4ne' is not five letters A-Z"),
        (HEADER + "2026-01-01,1657,crâne\n", r"line 2: word 'crâne' is not five letters A-Z"),
        (HEADER + "2026-01-01,1657,\n", r"line 2: word '' is not five letters"),
        (
            HEADER + "2026-01-01,1657,crane\n2026-01-02,1658,slate\n2026-01-01,1657,crane\n",
            r"line 4: 2026-01-01 is also on line 2",
        ),
    ],
)
def test_a_bad_csv_is_refused_naming_the_file_the_line_and_the_fault(
    text: str, message: str
) -> None:
    with pytest.raises(CalendarError, match=message) as raised:
        parse_calendar_csv(text, "mine.csv")
    assert str(raised.value).startswith("mine.csv: ")
    assert isinstance(raised.value, GuessworkError) and isinstance(raised.value, ValueError)
    assert reason_of(raised.value) == "CALENDAR"


def test_a_long_bad_value_is_not_echoed_whole() -> None:
    junk = "x" * 5000
    for text in (junk, HEADER + f"{junk},1,crane\n", HEADER + f"2026-01-01,1657,{junk}\n"):
        with pytest.raises(CalendarError) as raised:
            parse_calendar_csv(text, "junk.csv")
        assert "x" * 41 not in str(raised.value) and len(str(raised.value)) < 200


def test_an_nyt_day_is_read_from_its_json() -> None:
    assert parse_nyt_day(_nyt("2026-01-01", "crane"), "day.json") == _day("2026-01-01", "CRANE")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", r"day\.json: not JSON"),
        ("[1, 2]", r"day\.json: not a JSON object"),
        ('{"print_date": "2026-01-01", "days_since_launch": 1657}', r"day\.json: no solution"),
        ('{"solution": "crane"}', r"day\.json: no print_date, days_since_launch"),
        (
            _nyt("2026-01-01", "crane", number=1600),
            r"days_since_launch: 2026-01-01 is day 1657 since 2021-06-19, not 1600",
        ),
        (
            _nyt("2026-01-01", "crane").replace("1657", '"1657"'),
            r"days_since_launch '1657' is not a whole number",
        ),
        (
            _nyt("2026-01-01", "crane").replace("1657", "true"),
            r"days_since_launch 'True' is not a whole number",
        ),
        (
            _nyt("2026-01-01", "crane").replace('"2026-01-01"', "20260101"),
            r"print_date '20260101' is not a string",
        ),
        (
            _nyt("2026-01-01", "crane").replace("2026-01-01", "Jan 1 2026"),
            r"date 'Jan 1 2026' is not YYYY-MM-DD",
        ),
        (_nyt("2026-01-01", "cranes"), r"word 'cranes' is not five letters"),
        (_nyt("2026-01-01", "crane").replace('"crane"', "5"), r"solution '5' is not a string"),
    ],
)
def test_a_bad_nyt_day_is_refused(text: str, message: str) -> None:
    with pytest.raises(CalendarError, match=message):
        parse_nyt_day(text, "day.json")


def test_history_files_are_read_by_kind_and_unreadable_ones_refused(tmp_path: Path) -> None:
    day = tmp_path / "2026-01-01.json"
    day.write_text(_nyt("2026-01-01", "crane"))
    assert read_history_file(day).days == (_day("2026-01-01", "CRANE"),)
    saved = tmp_path / "download"  # JSON saved under another name
    saved.write_text(_nyt("2026-01-02", "slate"))
    assert read_history_file(saved).days == (_day("2026-01-02", "SLATE"),)
    table = tmp_path / "days.csv"
    table.write_text(HEADER + "2026-01-03,1659,trace\n")
    calendar = read_history_file(table)
    assert calendar.days == (_day("2026-01-03", "TRACE"),) and calendar.source == str(table)
    with pytest.raises(
        CalendarError, match=r"cannot read .*missing\.csv: No such file or directory"
    ):
        read_history_file(tmp_path / "missing.csv")
    with pytest.raises(CalendarError, match=r"cannot read .*: Is a directory"):
        read_history_file(tmp_path)
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(CalendarError, match=r"binary\.csv: not UTF-8 text"):
        read_history_file(binary)


# Merging and loading.


def test_merging_skips_known_days_adds_new_ones_and_refuses_a_conflict() -> None:
    shipped = shipped_calendar()
    added = [_day("2026-01-02", "SLATE"), _day("2025-12-31", "SIREN"), _day("2026-01-01", "CRANE")]
    calendar, new = merged(shipped, added)
    assert new == [_day("2026-01-01", "CRANE"), _day("2026-01-02", "SLATE")]
    assert len(calendar) == 1659 and calendar.last == date(2026, 1, 2)
    assert calendar.source == shipped.source and calendar.gaps() == []
    again, none = merged(calendar, added)
    assert none == [] and again == calendar
    with pytest.raises(CalendarError, match=r"2025-07-18: LORIS \(shipped calendar.*\) and LORIX"):
        merged(shipped, [_day("2026-01-01", "CRANE"), _day("2025-07-18", "LORIX")])
    with pytest.raises(CalendarError, match=r"2026-01-01: CRANE \(added earlier\) and SLATE"):
        merged(shipped, [_day("2026-01-01", "CRANE"), _day("2026-01-01", "SLATE")])


def test_the_user_calendar_lives_beside_the_user_catalog(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GUESSWORK_CALENDAR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert user_calendar_path() == tmp_path / "guesswork" / "nyt-answers.csv"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    assert user_calendar_path() == Path.home() / ".local/share/guesswork/nyt-answers.csv"
    monkeypatch.setenv("GUESSWORK_CALENDAR", str(tmp_path / "mine.csv"))
    assert user_calendar_path() == tmp_path / "mine.csv"


def test_a_history_file_replaces_the_shipped_calendar(home: Path) -> None:
    backtest = home / "2022.csv"
    backtest.write_text(HEADER + "2022-01-02,197,frame\n2022-01-01,196,rebus\n")
    calendar = load_calendar(backtest)
    assert [day.word for day in calendar.days] == ["REBUS", "FRAME"]
    assert calendar.source == str(backtest)
    # Without one: the shipped calendar, the user's days (none yet) merged over it.
    assert load_calendar() is shipped_calendar()


def test_the_users_days_are_merged_over_the_shipped_ones(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    mine = home / "elsewhere" / "mine.csv"
    mine.parent.mkdir()
    mine.write_text(HEADER + "2026-01-01,1657,crane\n2025-12-31,1656,siren\n")
    monkeypatch.setenv("GUESSWORK_CALENDAR", str(mine))
    calendar = load_calendar()
    assert len(calendar) == 1658 and calendar.on(date(2026, 1, 1)).word == "CRANE"  # type: ignore[union-attr]
    assert str(mine) in calendar.source and "shipped" in calendar.source
    mine.write_text(HEADER + "2025-12-31,1656,crane\n")
    with pytest.raises(
        CalendarError, match=r"mine\.csv: conflicting answers for 2025-12-31: SIREN"
    ):
        load_calendar()


# guesswork-build history.


def test_history_show_describes_the_shipped_calendar(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["history"]) == 0
    out = capsys.readouterr().out
    assert "shipped: 1,657 days, 2021-06-19 (#0 CIGAR) to 2025-12-31 (#1656 SIREN)" in out
    assert (
        f"added: none (guesswork-build history add FILE... keeps them in {_user_file(home)})" in out
    )
    assert "gaps: none" in out
    data = _json(capsys, "history", "show")
    assert (data["first"], data["last"], data["days"], data["gaps"]) == (
        "2021-06-19",
        "2025-12-31",
        1657,
        [],
    )
    assert data["sha256"] == shipped_calendar().sha256
    assert data["sources"] == [
        {
            "source": "shipped",
            "file": "nyt-answers.csv",
            "days": 1657,
            "first": "2021-06-19",
            "last": "2025-12-31",
        }
    ]


def test_an_nyt_day_is_added_once_and_shown(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    day = home / "2026-01-01.json"
    day.write_text(_nyt("2026-01-01", "crane"))
    assert run(["history", "add", str(day)]) == 0
    out = capsys.readouterr().out
    target = _user_file(home)
    assert f"added 1 day to {target}" in out
    assert "calendar: 1,658 days, 2021-06-19 (#0 CIGAR) to 2026-01-01 (#1657 CRANE)" in out
    assert "gap" not in out
    assert target.read_text() == HEADER + "2026-01-01,1657,crane\n"
    assert load_calendar().on(date(2026, 1, 1)) == _day("2026-01-01", "CRANE")
    # Again: nothing new, the file untouched.
    before = target.stat().st_mtime_ns
    data = _json(capsys, "history", "add", str(day))
    assert data == {
        "added": 0,
        "file": str(target),
        "first": "2021-06-19",
        "last": "2026-01-01",
        "days": 1658,
        "gaps": [],
    }
    assert target.stat().st_mtime_ns == before
    assert target.read_text() == HEADER + "2026-01-01,1657,crane\n"
    assert [p.name for p in target.parent.iterdir()] == ["nyt-answers.csv"]  # no temp file left
    shown = _json(capsys, "history")
    assert shown["days"] == 1658 and len(shown["sources"]) == 2  # type: ignore[arg-type]
    assert shown["sources"][1] == {  # type: ignore[index]
        "source": "added",
        "file": str(target),
        "days": 1,
        "first": "2026-01-01",
        "last": "2026-01-01",
    }


def test_a_gap_is_reported_but_allowed(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    later = home / "later.csv"
    later.write_text(HEADER + "2026-01-06,1662,slate\n2026-01-05,1661,trace\n")
    data = _json(capsys, "history", "add", str(later))
    assert data["added"] == 2 and data["last"] == "2026-01-06" and data["days"] == 1659
    assert data["gaps"] == [["2026-01-01", "2026-01-04"]]
    assert run(["history", "add", str(later)]) == 0
    assert "gap: 2026-01-01 to 2026-01-04 missing (4 days)" in capsys.readouterr().out
    assert run(["history"]) == 0
    out = capsys.readouterr().out
    assert "gap: 2026-01-01 to 2026-01-04 missing (4 days)" in out and "gaps: none" not in out
    # Filling part of it: the gap shrinks, and the file keeps the added days in order.
    day = home / "day.json"
    day.write_text(_nyt("2026-01-02", "crane"))
    data = _json(capsys, "history", "add", str(day))
    assert data["gaps"] == [["2026-01-01", "2026-01-01"], ["2026-01-03", "2026-01-04"]]
    assert _user_file(home).read_text() == (
        HEADER + "2026-01-02,1658,crane\n2026-01-05,1661,trace\n2026-01-06,1662,slate\n"
    )


def test_a_conflicting_date_refuses_the_whole_run(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = home / "good.csv"
    good.write_text(HEADER + "2026-01-01,1657,crane\n")
    shipped_clash = home / "clash.json"
    shipped_clash.write_text(_nyt("2025-07-18", "lorix"))
    line = _error(capsys, "history", "add", str(good), str(shipped_clash))
    assert "2025-07-18 is LORIX, but the shipped calendar has LORIS" in line
    assert "nothing was added" in line
    assert not _user_file(home).exists()
    # Two files disagreeing with each other: the earlier is named.
    other = home / "other.csv"
    other.write_text(HEADER + "2026-01-01,1657,slate\n")
    line = _error(capsys, "history", "add", str(good), str(other))
    assert f"{other}: 2026-01-01 is SLATE, but {good} has CRANE" in line
    assert not _user_file(home).exists()
    # Against a day added before: the user's file is named, and left as it was.
    assert run(["history", "add", str(good)]) == 0
    capsys.readouterr()
    line = _error(capsys, "history", "add", str(other))
    assert f"but your calendar {_user_file(home)} has CRANE" in line
    assert _user_file(home).read_text() == HEADER + "2026-01-01,1657,crane\n"


def test_bad_files_give_one_line_and_no_traceback(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "No such file or directory" in _error(capsys, "history", "add", str(home / "none.csv"))
    assert "Is a directory" in _error(capsys, "history", "add", str(home))
    bad = home / "bad.csv"
    bad.write_text(HEADER + "2026-01-01,1657,crane\n2026-01-02,1657,slate\n")
    line = _error(capsys, "history", "add", str(bad))
    assert f"{bad}: line 3: 2026-01-02 is day 1658 since 2021-06-19, not 1657" in line
    assert "history add needs FILE" in _error(capsys, "history", "add", status=2)
    assert "history show takes no FILE" in _error(capsys, "history", "show", str(bad), status=2)
    assert not _user_file(home).exists()
    # Under --json, the error is a JSON object with the reason.
    assert run(["history", "add", str(bad), "--json"]) == 1
    error = json.loads(capsys.readouterr().err)
    assert error["reason"] == "CALENDAR" and "line 3" in error["error"]


def test_a_user_calendar_that_cannot_be_read_or_written_is_reported(
    home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = home / "a-folder"
    folder.mkdir()
    monkeypatch.setenv("GUESSWORK_CALENDAR", str(folder))
    assert "Is a directory" in _error(capsys, "history")
    blocker = home / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("GUESSWORK_CALENDAR", str(blocker / "nyt-answers.csv"))
    day = home / "day.json"
    day.write_text(_nyt("2026-01-01", "crane"))
    line = _error(capsys, "history", "add", str(day))
    assert line.startswith(f"guesswork-build: error: cannot write {blocker / 'nyt-answers.csv'}")
