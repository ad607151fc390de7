"""The calendar prior: how likely each allowed word is to be day D's answer, from the
answers of the days before D alone.

Every daily player knows that the NYT's answers come from its answer list
without repeats so far, so the words already used are (nearly) out. From
2026-02-02 old answers may come back, and a few answers were never on the
list (LORIS and KEFIR in 2025). The prior for day D splits the probability
between three kinds of word, with rates learned from the answers of the
``window`` days before D (the history: every day before D; nothing on or after
D is read, so a backtest has no look-ahead):

* ``repeat_rate = (r + 1) / (n + 2)``: r of the window's n days had an answer
  used on an earlier day (Laplace's rule of succession: never zero, so a
  repeat is always possible, and it rises as soon as repeats are seen);
* ``off_list_rate = (o + 1) / (n + 2)``: o of the window's days had an answer
  outside the answer list;
* ``new_rate = 1 - repeat_rate - off_list_rate``.

Then each word's probability is its kind's rate shared out within the kind:

* an **unused** word of the answer list: ``new_rate / U`` (U such words;
  the list is the editors' own, so they are alike);
* a **used** word (an answer of any day before D, on the list or not):
  ``repeat_rate / R`` (R such words);
* any **other** allowed word: ``off_list_rate`` shared in proportion to its
  weight in the shipped word-frequency prior (builder.priors ``wordfreq``; a
  word it lacks gets its least weight), so SNAFU counts for more than AALII.

A kind with no word gives its rate to the unused words (or, when none is
left, to the used ones). Weights are the probabilities times ``total``
(10**8 by default: each target's weight and the sum fit the exact search's
int32 values), rounded, and at least 1. The prior records every figure above
in its parameters, with the history's SHA-256, so a policy built with it says
how it was made.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from ..client.policy_choice import calendar_prior as prior_name
from .calendar import LAUNCH, AnswerCalendar
from .errors import PriorError
from .priors import Prior, shipped_prior
from .wordlists import WordList

#: Days of history the rates are learned from (a year: long enough to see rare
#: events, short enough to follow a change of the NYT's rules within months).
DEFAULT_WINDOW_DAYS = 365
#: The weights' scale: a probability p is weighted round(p * total), at least 1.
DEFAULT_TOTAL = 100_000_000
#: The shipped prior that shares out the off-list probability.
BASE_PRIOR = "wordfreq"


@dataclass(frozen=True)
class CalendarRates:
    """What the history before a day says: the window's counts and the three rates."""

    window_days: int
    repeats: int
    off_list: int
    repeat_rate: float
    off_list_rate: float
    new_rate: float


def calendar_rates(
    date: datetime.date,
    history: AnswerCalendar,
    answers: frozenset[str],
    window: int = DEFAULT_WINDOW_DAYS,
) -> CalendarRates:
    """Return the rates that ``history`` (the days before ``date``) teaches over the
    ``window`` days before ``date``: a repeat is an answer some earlier day of the
    whole history had; off the list, one not in ``answers``.

    Raises:
        PriorError: ``window`` is below 1.
    """
    if window < 1:
        raise PriorError(f"the calendar window must be at least 1 day, not {window}")
    seen: set[str] = set()
    repeats = off_list = counted = 0
    for day in history.days:
        if day.date < date and (date - day.date).days <= window:
            counted += 1
            repeats += day.word in seen
            off_list += day.word not in answers
        seen.add(day.word)
    repeat_rate = (repeats + 1) / (counted + 2)
    off_list_rate = (off_list + 1) / (counted + 2)
    return CalendarRates(
        counted, repeats, off_list, repeat_rate, off_list_rate, 1 - repeat_rate - off_list_rate
    )


def calendar_prior(
    date: datetime.date,
    calendar: AnswerCalendar,
    answers: WordList,
    allowed: WordList,
    *,
    window: int = DEFAULT_WINDOW_DAYS,
    total: int = DEFAULT_TOTAL,
    base: Prior | None = None,
) -> Prior:
    """Return day ``date``'s calendar prior (see the module docstring) over the
    ``allowed`` words (in their order), the ``answers`` and every earlier answer.

    Only ``calendar.before(date)`` is read. ``base`` shares out the off-list
    probability (default: the shipped :data:`BASE_PRIOR`).

    Raises:
        PriorError: a bad window or total, or no word of any kind to weigh.
    """
    if date < LAUNCH:
        raise PriorError(
            f"Wordle's first answer was on {LAUNCH.isoformat()}: a calendar prior is for "
            f"that day or later, not {date.isoformat()}"
        )
    if total < 1000:
        raise PriorError(f"the calendar prior's total must be at least 1000, not {total}")
    history = calendar.before(date)
    answer_set = frozenset(answers.words)
    rates = calendar_rates(date, history, answer_set, window)
    used = {day.word for day in history.days}
    position = allowed.index()
    words = list(allowed.words) + sorted(
        (answer_set | used) - position.keys(), key=lambda word: word
    )
    unused = [word for word in words if word in answer_set and word not in used]
    used_words = [word for word in words if word in used]
    others = [word for word in words if word not in answer_set and word not in used]
    base = base if base is not None else shipped_prior(BASE_PRIOR)
    base_map = base.mapping
    least = min(base.weights)
    other_base = [base_map.get(word, least) for word in others]
    shares = _shares(rates, len(unused), len(used_words), len(others))
    weight: dict[str, int] = {}
    for word in unused:
        weight[word] = _scaled(shares[0] / len(unused), total)
    for word in used_words:
        weight[word] = _scaled(shares[1] / len(used_words), total)
    other_total = sum(other_base)
    for word, base_weight in zip(others, other_base, strict=True):
        weight[word] = _scaled(shares[2] * base_weight / other_total, total)
    params: dict[str, str | int | float] = {
        "source": "calendar",
        "date": date.isoformat(),
        "history_days": len(history),
        "history_last": history.days[-1].date.isoformat() if history.days else "none",
        "history_sha256": history.sha256,
        "window_days": window,
        "window_counted": rates.window_days,
        "repeats": rates.repeats,
        "off_list": rates.off_list,
        "repeat_rate": round(rates.repeat_rate, 9),
        "off_list_rate": round(rates.off_list_rate, 9),
        "new_rate": round(rates.new_rate, 9),
        "unused": len(unused),
        "used": len(used_words),
        "others": len(others),
        "answers": answers.name,
        "answers_sha256": answers.sha256,
        "words": allowed.name,
        "base": base.name,
        "base_sha256": base.sha256,
        "total": total,
    }
    return Prior(prior_name(date), tuple(words), tuple(weight[word] for word in words), params)


def _shares(rates: CalendarRates, unused: int, used: int, others: int) -> tuple[float, ...]:
    """Return the probability of each kind (unused, used, others), an empty kind's
    going to the unused words, or to the used ones when no unused word is left.

    Raises:
        PriorError: no word at all.
    """
    new, repeat, off = rates.new_rate, rates.repeat_rate, rates.off_list_rate
    if not others:
        new, off = new + off, 0.0
    if not used:
        new, repeat = new + repeat, 0.0
    if not unused:
        if not used:
            raise PriorError("the calendar prior has no answer-list word to weigh")
        new, repeat = 0.0, repeat + new
    return (new, repeat, off)


def _scaled(probability: float, total: int) -> int:
    """Return ``probability`` as an integer weight out of ``total``, at least 1."""
    return max(1, round(probability * total))
