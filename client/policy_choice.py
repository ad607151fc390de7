"""Which policy a player's command follows when none is named: today's game, or the
catalog's best for a word length or a language.

``guesswork play`` and ``suggest`` choose with :func:`chosen_policy` from the
summaries of the policies a Guesswork answers from (client.core), so the
choice is the same in process and against a server, and no policy is read.
"""

from __future__ import annotations

from collections.abc import Sequence

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
    "wordle-3158-g14855-nyt-hard-optimal-cap6-first-salet",
    "wordle-3158-g14855-nyt-hard-neg-entropy",
)
#: The policy ``play`` followed before today's lists (the 2022 game): still
#: shipped, and chosen by name.
DEFAULT_PLAY_POLICY = TODAY_POLICIES[-1]


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


def chosen_policy(
    policies: Sequence[PolicyInfo],
    policy: str | None,
    length: int | None,
    language: str | None = None,
    hard: bool = False,
) -> str:
    """Return the policy a command follows: ``policy`` (``--policy``), else the one
    ``language`` (:func:`language_policy`) or ``length`` picks, else today's game
    (:func:`today_policy`).

    For ``length`` letters that is, of the Wordle ``policies`` of that length,
    the first of: today's policy (5 letters); ``wordle-K-enable1-normal-
    neg-entropy``, the shipped one; then the normal-mode ``neg_entropy`` ones, the
    other normal-mode ones and the rest, each by name. ``hard`` keeps only
    policies of a hard mode (NYT hard first) and is refused with ``policy``.

    Raises:
        UsageError: ``hard`` with ``policy``.
        PolicyNotFoundError: there is no such policy.
    """
    if policy is not None:
        if hard:
            raise UsageError("--hard picks a policy; a named policy (--policy) plays its own mode")
        return policy
    if language is not None:
        return language_policy(policies, language, length, hard)
    if length is None or length == 5:
        return today_policy(policies, hard)
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
    return min(fits, key=lambda info: (info.name != shipped, *_preference(info, hard))).name
