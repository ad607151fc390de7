"""``guesswork-build today``, ``backtest`` and ``priors --calendar``: the day's game
under the answer calendar (builder.today, builder.backtest, builder.calendar_prior).
"""

from __future__ import annotations

import datetime
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..client.catalog import Catalog, open_layered, open_store
from ..client.catalog_lookup import CatalogLookup
from ..client.errors import UsageError
from ..client.policy_choice import today_policy
from ..client.progress import Progress, say
from ..client.text import plural
from .backtest import CalendarPlayer, DayPlayed, backtest, by_year, lost, summary
from .calendar import AnswerCalendar, load_calendar
from .catalog_writes import check_publish, store_built
from .command_types import DayOptions, Naming, Outcome, PublishTarget
from .live import GreedyLiveSolver
from .policies import build_optimal_policy
from .today import (
    CALENDAR_BEAM,
    CALENDAR_OPENER,
    MODES,
    calendar_spec,
    day_prior,
    priors_home,
    todays_lists,
    write_prior,
)


def _history(history: str | None) -> Path | None:
    """Return the ``--history`` calendar file (None: the calendar as installed)."""
    return Path(history) if history else None


def missing_days(calendar: AnswerCalendar, date: datetime.date) -> int:
    """Return how many days before ``date`` the calendar lacks after its last day (their
    answers count as unused in ``date``'s prior)."""
    last = calendar.before(date).last
    return 0 if last is None else max(0, (date - last).days - 1)


def _stale_warning(calendar: AnswerCalendar, date: datetime.date) -> list[str]:
    """Return the line that says the calendar stops short of ``date`` (none if it does not)."""
    missing = missing_days(calendar, date)
    if not missing:
        return []
    return [
        f"note: the calendar ends {calendar.before(date).last}; the answers of the "
        f"{missing:,} days before {date.isoformat()} are unknown and count as unused "
        "(guesswork-build history add FILE... adds them)"
    ]


def calendar_priors(day: DayOptions, output: str | None) -> Outcome:
    """Write day ``--date``'s calendar prior over today's lists to ``output`` (None:
    standard output): ``guesswork-build priors --calendar``.

    Raises:
        UsageError: no ``--date``.
        CalendarError, PriorError: the calendar or the prior cannot be made.
    """
    if day.date is None:
        raise UsageError("priors --calendar needs --date D (the day whose answer it weighs)")
    date = day.date
    calendar = load_calendar(_history(day.history))
    prior = day_prior(date, calendar)
    text = prior.to_text()
    if output:
        Path(output).write_text(text, encoding="utf-8")
    info: dict[str, Any] = {
        "name": prior.name,
        "words": len(prior),
        "output": output,
        "sha256": prior.sha256,
        "total_weight": prior.total,
        "top": [{"word": word, "weight": weight} for word, weight in prior.ranked()[:10]],
        "params": prior.params,
        "missing_days": missing_days(calendar, date),
    }
    if not output:
        # The prior itself is the output: a report on stdout would corrupt it.
        return Outcome(info, [text.rstrip("\n")])
    rates = ", ".join(
        f"{key} {prior.params[key]}" for key in ("new_rate", "repeat_rate", "off_list_rate")
    )
    return Outcome(
        info,
        [
            f"wrote {prior.name} ({len(prior):,} words, from {prior.params['history_days']:,} "
            f"days before {date.isoformat()}) to {output}",
            f"{rates}; {prior.params['unused']:,} unused answers, {prior.params['used']:,} used",
            *_stale_warning(calendar, date),
        ],
    )


@dataclass(frozen=True)
class TodayOptions:
    """``today``'s options: the catalog written (None: the user's), the day (None:
    today) and its calendar, the one mode built (None: both), the searches'
    ``--workers``."""

    catalog: str | None
    day: DayOptions
    mode: str | None
    workers: int
    quiet: bool


def today(options: TodayOptions) -> Outcome:
    """Build day ``--date``'s policies (default: today) under its calendar prior into the
    user catalog (or ``--catalog``), one per mode.

    Raises:
        UsageError, CalendarError, PriorError, SearchError: as their messages say.
    """
    date: datetime.date = options.day.date or datetime.date.today()
    calendar = load_calendar(_history(options.day.history))
    prior = day_prior(date, calendar)
    path = write_prior(prior, priors_home())
    modes = MODES if options.mode is None else (options.mode,)
    built: list[dict[str, Any]] = []
    lines = [
        f"{prior.name}: {prior.params['history_days']:,} answers before {date.isoformat()} "
        f"({prior.params['unused']:,} of the list unused); prior written to {path}",
        *_stale_warning(calendar, date),
    ]
    for mode in modes:
        spec = calendar_spec(path, mode)
        name = spec.name()
        # Each day's policy replaces the one of the same name: a rerun updates it.
        publish = PublishTarget(
            catalog=options.catalog,
            publish=True,
            naming=Naming(name=None, replace=True),
            output=None,
        )
        location = check_publish(publish, name)
        progress = Progress(
            name, enabled=not options.quiet, unit="root branch", open_ended=True, estimate=False
        )
        started = time.perf_counter()
        try:
            policy, result = build_optimal_policy(spec, workers=options.workers, progress=progress)
        finally:
            progress.close()
        seconds = time.perf_counter() - started
        scores = policy.tree.target_scores
        info: dict[str, Any] = {
            "name": name,
            "mode": mode,
            "first_guess": CALENDAR_OPENER,
            "beam": CALENDAR_BEAM,
            "weighted_mean": policy.data.stats["mean"],
            "mean": float(scores.mean()),
            "worst": int(scores.max()),
            "value": result.certificate.value,
            "lower_bound": result.certificate.lower_bound,
            "seconds": round(seconds, 3),
        }
        report: list[str] = []
        store_built(publish, policy, location, info, report)
        built.append(info)
        lines.append(
            f"{name}: expected {info['weighted_mean']:.4f} guesses under {prior.name} "
            f"(every answer within {info['worst']}); {seconds:.1f} s; " + "; ".join(report)
        )
    return Outcome(
        {
            "date": date.isoformat(),
            "prior": str(path),
            "params": prior.params,
            "missing_days": missing_days(calendar, date),
            "policies": built,
        },
        lines,
    )


def uniform_policy(catalog: Catalog, mode: str) -> str:
    """Return the uniform optimum a backtest compares with in ``mode``: the policy of
    today's lists that ``play`` follows without a calendar policy (client.policy_choice).

    Raises:
        PolicyNotFoundError: the catalog has none.
    """
    return today_policy(catalog.list(), hard=mode == "nyt-hard")


@dataclass(frozen=True)
class BacktestOptions:
    """``backtest``'s options: the catalog read (None: the user's over the shipped
    one), the first and last day, the mode and the calendar (``--history``)."""

    catalog: str | None
    first: datetime.date
    last: datetime.date
    mode: str
    history: str | None
    quiet: bool


def run_backtest(options: BacktestOptions) -> Outcome:
    """Play every day from ``--from`` to ``--to`` with that day's calendar policy and
    with the uniform optimum of the same lists and mode (builder.backtest).

    Raises:
        UsageError: the days are out of order or not in the calendar.
        CalendarError, PolicyNotFoundError, SearchError: as their messages say.
    """
    first, last = options.first, options.last
    if last < first:
        raise UsageError(f"--to {last.isoformat()} is before --from {first.isoformat()}")
    calendar = load_calendar(_history(options.history))
    days = calendar.between(first, last)
    if not days:
        span = f"{calendar.first} to {calendar.last}" if len(calendar) else "no days"
        raise UsageError(
            f"the calendar ({calendar.source}: {span}) has no day from {first.isoformat()} "
            f"to {last.isoformat()}"
        )
    # A search per day (its calendar policy's first moves): seconds each.
    playing = f"backtest: playing {plural(len(days), 'day')}, each under its own calendar prior"
    say(playing, quiet=options.quiet)
    catalog = open_layered() if options.catalog is None else open_store(options.catalog)
    lookup = CatalogLookup(catalog, GreedyLiveSolver())
    uniform = uniform_policy(catalog, options.mode)
    lookup.policy(uniform)  # refused at once, not after the first day's search
    answers, guesses = todays_lists()
    player = CalendarPlayer(answers, guesses, options.mode, CALENDAR_OPENER, beam=CALENDAR_BEAM)
    progress = Progress(f"backtest {options.mode}", enabled=not options.quiet, unit="day")
    started = time.perf_counter()

    def report(done: int, _day: DayPlayed) -> None:
        progress.update(done, len(days), time.perf_counter() - started)

    try:
        results = backtest(days, calendar, player, lookup, uniform, report)
    finally:
        progress.close()
        catalog.close()
    seconds = time.perf_counter() - started
    whole = summary(results)
    data: dict[str, Any] = {
        "from": first.isoformat(),
        "to": last.isoformat(),
        "mode": options.mode,
        "policy": f"calendar prior of each day, lookahead {CALENDAR_BEAM}, cap 6, "
        f"first {CALENDAR_OPENER}",
        "uniform_policy": uniform,
        "history": calendar.source,
        "days": [result.to_json() for result in results],
        **{key: whole[key] for key in ("mean", "uniform_mean", "lost", "uniform_lost")},
        "years": by_year(results),
        "seconds": round(seconds, 1),
    }
    lines = [
        f"{'date':<10}  {'answer':<6}  calendar  uniform",
        *(
            f"{r.date.isoformat()}  {r.answer:<6}  {_shown(r.guesses):>8}  "
            f"{_shown(r.uniform_guesses):>7}"
            for r in results
        ),
        "",
        f"{'year':<6} {'days':>5} {'mean':>7} {'uniform':>8} {'lost':>5} {'uniform lost':>13}",
    ]
    for year, row in {**data["years"], "all": whole}.items():
        lines.append(
            f"{year:<6} {row['count']:>5} {row['mean']:>7.4f} {row['uniform_mean']:>8.4f} "
            f"{row['lost']:>5} {row['uniform_lost']:>13}"
        )
    lines.append(
        f"{options.mode}: calendar policy {whole['mean']:.4f} against {uniform} "
        f"{whole['uniform_mean']:.4f} on the same {len(results)} days; {seconds:.0f} s"
    )
    return Outcome(data, lines)


def _shown(guesses: int | None) -> str:
    """Return a day's guesses as the table shows them: ``X`` for unsolved, ``7 (lost)``."""
    if guesses is None:
        return "X"
    return f"{guesses} (lost)" if lost(guesses) else str(guesses)
