"""Today's policy: the day's game under the day's calendar prior, within six guesses.

``guesswork-build today --date D`` writes D's calendar prior
(builder.calendar_prior: learned from the answers before D only) and builds,
into the user catalog, one policy per mode (normal and NYT hard) over today's
lists (the NYT's 3158 answers, 14855 allowed guesses):

* every answer within six guesses (client.policy_info.WORDLE_GUESS_LIMIT; a
  capped search: a tree that would need a seventh guess anywhere is never chosen);
* the least expected guesses under D's prior that a **lookahead** search finds
  given the opener :data:`CALENDAR_OPENER` (TARSE, the opener of the uniform
  optima in both modes): each node searches exactly over its
  :data:`CALENDAR_BEAM` best guesses by the weighted greedy ranking, and over
  every guess where none of those can finish within the cap (builder.optimal.
  search, "widening"). Why not the exact optimum: over this prior the exact
  weighted search's bounds are weak (two weight levels, used and unused words)
  and it took 92 s for the normal tree of 2025-03-04 and a minute per class of
  200 answers on a game's path, which a backtest of a year could not afford;
  the lookahead tree took 5 s, and its expected guesses were 0.016 above the
  exact optimum's (3.4307 against 3.4149). The certificate records the beam
  and the proven lower bound, so the gap is stated, not hidden.

Each policy is named after its prior (``...-weighted-calendar-D-...``), which is
how ``play`` and ``suggest`` find today's (client.policy_choice).
"""

from __future__ import annotations

import datetime
from pathlib import Path

from ..client.games import Wordle
from ..client.policy_info import WORDLE_GUESS_LIMIT
from .calendar import AnswerCalendar, user_calendar_path
from .calendar_prior import calendar_prior
from .files import replace_file
from .policies import OptimalSpec
from .priors import Prior
from .wordlists import WordList, load_wordlist

#: Today's lists: the NYT's answers as of 2023-07-01 and its allowed guesses.
TODAY_ANSWERS = "wordle-answers-3158"
TODAY_GUESSES = "wordle-guesses-14855"
#: The fixed opener of today's policies (the uniform optima's, normal and NYT hard).
CALENDAR_OPENER = "TARSE"
#: Guesses each node of today's policies searches exactly (see the module docstring).
CALENDAR_BEAM = 30
#: The modes today's policies are built in.
MODES = ("normal", "nyt-hard")


def todays_lists() -> tuple[WordList, WordList]:
    """Return today's answer and guess lists.

    Raises:
        WordListError: a shipped list is damaged.
    """
    game = Wordle()
    return load_wordlist(TODAY_ANSWERS, game), load_wordlist(TODAY_GUESSES, game)


def priors_home() -> Path:
    """Return where ``today`` keeps the calendar priors it writes: ``priors/`` beside
    the user's calendar (the user's data directory)."""
    return user_calendar_path().parent / "priors"


def day_prior(date: datetime.date, calendar: AnswerCalendar) -> Prior:
    """Return day ``date``'s calendar prior over today's lists (the answers before it only).

    Raises:
        PriorError, WordListError: the prior cannot be made.
    """
    answers, guesses = todays_lists()
    return calendar_prior(date, calendar, answers, guesses)


def write_prior(prior: Prior, folder: Path) -> Path:
    """Write ``prior`` as ``folder/NAME.txt`` (atomically) and return the path; the
    file's stem is the prior's name, which names the policies built with it.

    Raises:
        OSError: the folder or file cannot be written.
    """
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{prior.name}.txt"
    replace_file(path, prior.to_text().encode("utf-8"))
    return path


def calendar_spec(prior_file: Path, mode: str, beam: int | None = CALENDAR_BEAM) -> OptimalSpec:
    """Return the spec of today's policy in ``mode`` weighted by the prior in ``prior_file``
    (a file written by :func:`write_prior`)."""
    return OptimalSpec(
        "wordle",
        targets=TODAY_ANSWERS,
        guesses=TODAY_GUESSES,
        mode=mode,
        max_guesses=WORDLE_GUESS_LIMIT,
        first_guess=CALENDAR_OPENER,
        beam=beam,
        weights=str(prior_file),
    )
