"""The calendar prior (builder.calendar_prior): day D's weights come from the answers
before D only, follow the documented formula, and never rule a word out."""

from __future__ import annotations

import dataclasses
import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from guesswork.builder.calendar import LAUNCH, AnswerCalendar, CalendarDay, shipped_calendar
from guesswork.builder.calendar_prior import calendar_prior, calendar_rates
from guesswork.builder.errors import PriorError
from guesswork.builder.priors import load_prior, shipped_prior
from guesswork.builder.wordlists import load_wordlist
from guesswork.client.games import Wordle

WORDLE = Wordle()
ANSWERS = load_wordlist("wordle-answers-3158", WORDLE)
ALLOWED = load_wordlist("wordle-guesses-14855", WORDLE)
DAY = datetime.date(2025, 3, 4)


def day(date: datetime.date, word: str) -> CalendarDay:
    return CalendarDay(date, (date - LAUNCH).days, word)


def with_days(calendar: AnswerCalendar, *added: CalendarDay) -> AnswerCalendar:
    kept = {d.date: d for d in calendar.days}
    kept.update({d.date: d for d in added})
    return AnswerCalendar(tuple(kept[date] for date in sorted(kept)), "test")


def test_the_prior_for_a_day_reads_only_the_days_before_it() -> None:
    calendar = shipped_calendar()
    prior = calendar_prior(DAY, calendar, ANSWERS, ALLOWED)
    # Everything on or after DAY rewritten (other answers, repeats, off-list words):
    # the prior is the same, byte for byte.
    later = tuple(
        day(d.date, "CIGAR" if i % 2 else "AALII")
        for i, d in enumerate(calendar.days)
        if d.date >= DAY
    )
    changed = with_days(calendar.before(DAY), *later)
    assert changed.on(DAY) is not None and changed.on(DAY).word != calendar.on(DAY).word
    again = calendar_prior(DAY, changed, ANSWERS, ALLOWED)
    assert again.to_text() == prior.to_text()
    # ... and a calendar that ends the day before gives it too.
    assert calendar_prior(DAY, calendar.before(DAY), ANSWERS, ALLOWED).to_text() == prior.to_text()
    # Whereas the day before DAY matters: its answer is used, then.
    eve = DAY - datetime.timedelta(days=1)
    moved = with_days(calendar.before(DAY), day(eve, "CIGAR"))
    assert calendar_prior(DAY, moved, ANSWERS, ALLOWED).to_text() != prior.to_text()


def test_the_weights_follow_the_documented_formula() -> None:
    calendar = shipped_calendar()
    prior = calendar_prior(DAY, calendar, ANSWERS, ALLOWED)
    history = calendar.before(DAY)
    used = {d.word for d in history.days}
    answers = set(ANSWERS.words)
    window = [d for d in history.days if (DAY - d.date).days <= 365]
    seen: set[str] = set()
    repeats = 0
    for d in history.days:
        if d in window and d.word in seen:
            repeats += 1
        seen.add(d.word)
    off_list = sum(d.word not in answers for d in window)
    repeat_rate = (repeats + 1) / (len(window) + 2)
    off_rate = (off_list + 1) / (len(window) + 2)
    unused = [w for w in ANSWERS.words if w not in used]
    others = [w for w in ALLOWED.words if w not in answers and w not in used]
    total = prior.params["total"]
    assert isinstance(total, int)
    weight = prior.mapping
    assert weight[unused[0]] == round((1 - repeat_rate - off_rate) / len(unused) * total)
    assert weight[history.days[0].word] == max(1, round(repeat_rate / len(used) * total))
    base = shipped_prior("wordfreq").mapping
    base_total = sum(base.get(w, min(base.values())) for w in others)
    common = max(others, key=lambda w: base.get(w, 0))
    for word in (common, "AALII"):
        assert word in others
        expected = max(1, round(off_rate * base[word] / base_total * total))
        assert weight[word] == expected
    assert weight[common] > weight["AALII"]
    assert prior.params["repeat_rate"] == pytest.approx(repeat_rate)
    assert prior.params["off_list_rate"] == pytest.approx(off_rate)
    assert (prior.params["unused"], prior.params["used"]) == (len(unused), len(used))
    assert prior.params["history_sha256"] == history.sha256
    # Every allowed word and every earlier answer has a weight, none zero.
    assert set(ALLOWED.words) | used <= set(prior.words)
    assert min(prior.weights) >= 1


def test_repeats_seen_raise_the_repeat_rate_and_none_seen_is_not_zero() -> None:
    calendar = shipped_calendar().before(datetime.date(2026, 1, 1))
    answers = frozenset(ANSWERS.words)
    quiet = calendar_rates(datetime.date(2026, 1, 1), calendar, answers)
    assert quiet.repeats == 0 and quiet.repeat_rate > 0
    first = calendar.days[0].word
    repeated = with_days(calendar, day(datetime.date(2026, 1, 1), first))
    after = calendar_rates(datetime.date(2026, 1, 2), repeated, answers)
    assert after.repeats == 1 and after.repeat_rate > quiet.repeat_rate
    # 2025 had two answers off the list (LORIS, KEFIR): the window sees them.
    assert quiet.off_list == 2
    with pytest.raises(PriorError, match="window"):
        calendar_rates(DAY, calendar, answers, window=0)


def test_priors_calendar_writes_a_file_that_reads_back(tmp_path: Path) -> None:
    output = tmp_path / "day.txt"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "guesswork.builder",
            "priors",
            "--calendar",
            "--date",
            DAY.isoformat(),
            "--output",
            str(output),
        ],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    written = load_prior(output)
    expected = calendar_prior(DAY, shipped_calendar(), ANSWERS, ALLOWED)
    assert dataclasses.replace(written, name=expected.name) == expected
    assert written.params["source"] == "calendar" and written.params["date"] == DAY.isoformat()
    refused = subprocess.run(
        [sys.executable, "-m", "guesswork.builder", "priors", "--date", DAY.isoformat()],
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2 and "--calendar" in refused.stderr
    assert refused.stderr.count("\n") == 1


def test_a_day_past_the_calendar_says_which_days_are_missing(tmp_path: Path) -> None:
    """A prior for a day long after the calendar's last treats the missing days'
    answers as unused, and says so; a day before Wordle began is refused."""
    late = subprocess.run(
        [sys.executable, "-m", "guesswork.builder", "priors", "--calendar", "--date",
         "2026-03-01", "--output", str(tmp_path / "late.txt"), "--json"],
        capture_output=True, text=True, env={**os.environ, "XDG_DATA_HOME": str(tmp_path)},
    )  # fmt: skip
    assert late.returncode == 0, late.stderr
    report = json.loads(late.stdout)
    assert (
        report["missing_days"] == (datetime.date(2026, 3, 1) - datetime.date(2025, 12, 31)).days - 1
    )
    with pytest.raises(PriorError, match="2021-06-19"):
        calendar_prior(datetime.date(2021, 6, 18), shipped_calendar(), ANSWERS, ALLOWED)
    first = calendar_prior(LAUNCH, shipped_calendar(), ANSWERS, ALLOWED)
    assert first.params["history_days"] == 0 and first.params["used"] == 0
