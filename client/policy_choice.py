"""Which policy a player's command follows when none is named: today's game, or the
catalog's best for a word length or a language.

``guesswork play`` and ``suggest`` choose with :func:`choose_policy` from the
summaries of the policies a Guesswork answers from (client.core), so the
choice is the same in process and against a server, and no policy is read.

Today's game is, first, today's policy: a 5-letter Wordle policy weighted by a
day's answer calendar (its prior named ``calendar-YYYY-MM-DD``, as
``guesswork-build today`` builds it), for today's date or ``--date``; else
the best policy of today's lists (:data:`TODAY_POLICIES`). The choice says
which and why (:class:`Choice`).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import PolicyNotFoundError, UsageError
from .letters import LANGUAGES
from .policy_info import PolicyInfo
from .rules import HARD, NORMAL, NYT_HARD

#: Today's game, which ``play`` and ``suggest`` follow when given no policy: the
#: NYT's answer list as of 2023-07-01 (3158 words) and the guesses it has allowed
#: since 2022-08-30 (14855 words). Each tuple is best first: the first policy a
#: catalog holds is followed (a proven optimum where one is shipped or built).
TODAY = "the NYT's lists: 3158 answers as of 2023-07-01, 14855 guesses allowed since 2022-08-30"
TODAY_POLICIES = (
    "wordle-3158-g14855-normal-optimal",
    "wordle-3158-g14855-normal-optimal-first-salet",
    "wordle-3158-g14855-normal-neg-entropy",
)
#: The same in NYT hard mode (``--hard``): greens stay, yellows are used again.
TODAY_HARD_POLICIES = (
    "wordle-3158-g14855-nyt-hard-optimal-cap6",
    "wordle-3158-g14855-nyt-hard-optimal-cap6-first-tarse",
    "wordle-3158-g14855-nyt-hard-optimal-cap6-first-salet",
    "wordle-3158-g14855-nyt-hard-neg-entropy",
)
#: What each of today's policies is, as a choice's reason says it.
TODAY_DESCRIPTIONS = {
    "wordle-3158-g14855-normal-optimal": "today's lists' proven optimum",
    "wordle-3158-g14855-normal-optimal-first-salet": "today's lists' optimum given SALET",
    "wordle-3158-g14855-normal-neg-entropy": "today's lists' greedy neg_entropy tree",
    "wordle-3158-g14855-nyt-hard-optimal-cap6": "today's lists' NYT-hard optimum within 6",
    "wordle-3158-g14855-nyt-hard-optimal-cap6-first-tarse": (
        "today's lists' NYT-hard optimum within 6 given TARSE"
    ),
    "wordle-3158-g14855-nyt-hard-optimal-cap6-first-salet": (
        "today's lists' NYT-hard optimum within 6 given SALET"
    ),
    "wordle-3158-g14855-nyt-hard-neg-entropy": "today's lists' greedy NYT-hard neg_entropy tree",
}
#: The policy ``play`` followed before today's lists (the 2022 game): still
#: shipped, and chosen by name.
DEFAULT_PLAY_POLICY = TODAY_POLICIES[-1]
#: The builder command that makes a day's policies (the lead's ``guesswork-build today``).
BUILD_TODAY = "guesswork-build today"


@dataclass(frozen=True)
class Choice:
    """The policy a command follows, and why.

    Attributes:
        name: the policy's name.
        reason: why it was chosen when the player named none, e.g. "today's
            policy, built for 2026-11-27 under that day's answer calendar";
            None for a policy named with ``--policy``.
    """

    name: str
    reason: str | None = None


def calendar_prior(day: datetime.date) -> str:
    """Return the name of ``day``'s calendar prior, e.g. ``calendar-2026-11-27``: what
    weighs the policies ``guesswork-build today`` builds for that day."""
    return f"calendar-{day.isoformat()}"


def calendar_policy(
    policies: Sequence[PolicyInfo], day: datetime.date, hard: bool = False
) -> str | None:
    """Return today's policy for ``day`` among ``policies``, or None: of the 5-letter
    Wordle policies weighted by ``day``'s calendar prior (:func:`calendar_prior`) in
    normal mode (``hard``: NYT hard), those named ``optimal`` first, then by name."""
    prior = calendar_prior(day)
    mode = NYT_HARD if hard else NORMAL
    fits = [
        info.name
        for info in policies
        if info.game == "wordle"
        and info.length == 5
        and info.weights == prior
        and info.mode == mode
    ]
    return min(fits, key=lambda name: ("optimal" not in name, name), default=None)


def _preference(info: PolicyInfo, hard: bool) -> tuple[bool, bool, str]:
    """Return the sort key of the rest of a choice: the wanted mode (NYT hard under
    ``hard``, else normal) first, then ``neg_entropy``, then by name."""
    return (info.mode != (NYT_HARD if hard else NORMAL), info.metric != "neg_entropy", info.name)


def _fits_mode(info: PolicyInfo, hard: bool) -> bool:
    return not hard or info.mode in (NYT_HARD, HARD)


def language_policy(
    policies: Sequence[PolicyInfo], language: str, length: int | None, hard: bool = False
) -> str:
    """Return the Wordle policy ``--language`` picks: of the Wordle ``policies`` whose
    target list is of that language (client.letters.list_language) and of
    ``length`` letters (None: 5 first), normal mode first (``hard``: only hard
    modes, NYT hard first), then ``neg_entropy``, then by name.

    Raises:
        PolicyNotFoundError: there is none.
    """
    fits = [
        info
        for info in policies
        if info.game == "wordle"
        and info.language == language
        and (length is None or info.length == length)
        and _fits_mode(info, hard)
    ]
    if not fits:
        letters = "" if length is None else f" of {length}-letter words"
        listed = f"{language}-{length or 5}-top2000.txt"
        if hard:
            letters += " in a hard mode"
        raise PolicyNotFoundError(
            f"no Wordle policy for {LANGUAGES[language].name} ({language}){letters} in the "
            f"catalog; make a list and build it: `guesswork-build wordlist --language "
            f"{language} --length {length or 5} --top 2000 --output {listed}`, then "
            f"`guesswork-build build --targets {listed} --language {language}"
            f"{' --mode nyt-hard' if hard else ''}`"
        )
    return min(fits, key=lambda info: (info.length != 5, *_preference(info, hard))).name


def today_policy(policies: Sequence[PolicyInfo], hard: bool = False) -> str:
    """Return the policy of today's game (:data:`TODAY`) among ``policies``: the first of
    :data:`TODAY_POLICIES` (``hard``: :data:`TODAY_HARD_POLICIES`) there.

    Raises:
        PolicyNotFoundError: none of them is there.
    """
    preferred = TODAY_HARD_POLICIES if hard else TODAY_POLICIES
    held = {info.name for info in policies}
    for name in preferred:
        if name in held:
            return name
    raise PolicyNotFoundError(
        f"no policy of today's game ({TODAY}) in the catalog; build one with `guesswork-build "
        f"build --targets wordle-answers-3158 --guesses wordle-guesses-14855"
        f"{' --mode nyt-hard' if hard else ''}` or name one with --policy"
    )


def todays_choice(
    policies: Sequence[PolicyInfo],
    hard: bool = False,
    day: datetime.date | None = None,
    calendar: bool = True,
) -> Choice:
    """Return today's game's policy and why: today's policy for ``day`` (None: today's
    local date) where ``policies`` hold one (:func:`calendar_policy`), else today's
    lists' (:func:`today_policy`). ``calendar=False`` skips today's policy (a
    multi-board game, whose secrets are not one day's answer).

    Raises:
        PolicyNotFoundError: neither is there.
    """
    if not calendar:
        name = today_policy(policies, hard)
        return Choice(name, _described(name))
    today = datetime.date.today()
    when = today if day is None else day
    dated = calendar_policy(policies, when, hard)
    if dated is not None:
        which = "today's policy" if when == today else "the policy"
        return Choice(dated, f"{which}, built for {when} under that day's answer calendar")
    name = today_policy(policies, hard)
    build = BUILD_TODAY if day is None else f"{BUILD_TODAY} --date {when}"
    return Choice(name, f"no policy built for {when} (`{build}` builds one); {_described(name)}")


def _described(name: str) -> str:
    """Return what today's lists' policy ``name`` is, as a reason says it."""
    return TODAY_DESCRIPTIONS.get(name, "today's lists' policy")


def choose_policy(
    policies: Sequence[PolicyInfo],
    policy: str | None,
    length: int | None,
    language: str | None = None,
    hard: bool = False,
    day: datetime.date | None = None,
    calendar: bool = True,
) -> Choice:
    """Return the policy a command follows and why: ``policy`` (``--policy``; no
    reason), else the one ``language`` (:func:`language_policy`) or ``length``
    picks, else today's game (:func:`todays_choice`, for ``day``, ``--date``; None:
    today).

    For ``length`` letters that is, of the Wordle ``policies`` of that length,
    the first of: today's game (5 letters); ``wordle-K-enable1-normal-
    neg-entropy``, the shipped one; then the normal-mode ``neg_entropy`` ones, the
    other normal-mode ones and the rest, each by name. ``hard`` keeps only
    policies of a hard mode (NYT hard first) and is refused with ``policy``.
    ``day`` is refused with ``policy``, ``language``, a ``length`` other than
    5 and ``calendar=False``: today's policy is 5-letter English Wordle's.

    Raises:
        UsageError: ``hard`` with ``policy``; ``day`` where it picks nothing.
        PolicyNotFoundError: there is no such policy.
    """
    if day is not None:
        if policy is not None:
            raise UsageError("--date picks a policy; a named policy (--policy) is followed as is")
        if language is not None or length not in (None, 5) or not calendar:
            raise UsageError(
                "--date picks today's policy, of 5-letter Wordle on one board: drop "
                "--length, --language and --boards (--board)"
            )
    if policy is not None:
        if hard:
            raise UsageError("--hard picks a policy; a named policy (--policy) plays its own mode")
        return Choice(policy)
    if language is not None:
        name = language_policy(policies, language, length, hard)
        shown = f"{LANGUAGES[language].name} ({language})"
        return Choice(name, f"the catalog's Wordle policy for {shown}")
    if length is None or length == 5:
        return todays_choice(policies, hard, day, calendar)
    shipped = f"wordle-{length}-enable1-normal-neg-entropy"
    fits = [
        info
        for info in policies
        if info.game == "wordle" and info.length == length and _fits_mode(info, hard)
    ]
    if not fits:
        mode = " --mode nyt-hard" if hard else ""
        raise PolicyNotFoundError(
            f"no {'hard-mode ' if hard else ''}Wordle policy for {length}-letter words in the "
            f"catalog; build one with `guesswork-build build --length {length} --targets enable1"
            f"{mode}`"
        )
    name = min(fits, key=lambda info: (info.name != shipped, *_preference(info, hard))).name
    return Choice(name, f"the catalog's Wordle policy for {length}-letter words")


def chosen_policy(
    policies: Sequence[PolicyInfo],
    policy: str | None,
    length: int | None,
    language: str | None = None,
    hard: bool = False,
    day: datetime.date | None = None,
) -> str:
    """Return the name of the policy a command follows (:func:`choose_policy`'s).

    Raises:
        UsageError: ``hard`` or ``day`` with ``policy``; ``day`` with
            ``language`` or a length other than 5.
        PolicyNotFoundError: there is no such policy.
    """
    return choose_policy(policies, policy, length, language, hard, day).name
