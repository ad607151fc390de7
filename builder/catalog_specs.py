"""The shipped catalog's contents, as data: every spec ``build-all`` (``make catalog``)
builds, and :data:`SHIPPED_CONTENTS`, the whole catalog that
builder.catalog_build.build_catalog builds from them.

``CATALOG_SPECS`` is the shipped catalog's policies in build order: the policies
behind the seed tables of REFERENCE.md, the full-guess-list trees (normal and NYT
hard mode; today's lists and the 2022 game's), the weighted ones, every word
length over enable1, the languages, and the optimised trees. ``SLOW_SPECS``
are those the catalog test (and ``build-all --reuse``) take from a catalog
file after checking them instead of building them again
(builder.any_spec.reuse_policy). Besides the policies the catalog holds the
Guess My Word trees (builder.guess_my_word.DEFAULT_WORD_TREES) and the
honeycomb tables (builder.spelling_bee.DEFAULT_BEE_TABLES).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..client.rules import NYT_HARD
from .absurdle_policy import AbsurdleSpec
from .any_spec import AnySpec
from .guess_my_word import DEFAULT_WORD_TREES
from .policies import OptimalSpec, PolicySpec
from .spelling_bee import DEFAULT_BEE_TABLES
from .word_trees import Variant


def _seed_table_specs() -> list[PolicySpec]:
    specs = []
    for mode in ("hard", "normal"):
        for metric in ("max", "expectation", "neg_entropy"):
            specs.append(
                PolicySpec("wordle", targets="wordle-answers-2309", mode=mode, metric=metric)
            )
            specs.append(
                PolicySpec("jotto", targets="wordle-answers-2309", mode=mode, metric=metric)
            )
            specs.append(
                PolicySpec(
                    "jotto",
                    targets="sgb-words",
                    mode=mode,
                    metric=metric,
                    window=(4, None),
                    jotto_order="first-seen",
                )
            )
    return specs


#: Word lengths shipped over enable1: the Wordle-player seed's, 4 to 11 letters.
ENABLE1_LENGTHS = tuple(range(4, 12))
#: Every length out of the box (``guesswork play --length K``): greedy normal-mode
#: ``neg_entropy`` trees over enable1's words of each length, guessing from them.
ENABLE1_SPECS: tuple[PolicySpec, ...] = tuple(
    PolicySpec("wordle", length=length, targets="enable1") for length in ENABLE1_LENGTHS
)
#: The shipped policies the catalog test does not rebuild (enable1's 6 to 11
#: letters: minutes of building, reply matrices of 0.5 to 1.6 GB); it takes them
#: from the shipped file and replays every target instead (builder.verify).
LONG_WORD_SPECS: tuple[PolicySpec, ...] = tuple(s for s in ENABLE1_SPECS if s.length >= 6)

#: NYT hard mode's greedy trees: neg_entropy over the guesses the NYT rule allows,
#: inside normal mode's window (4 <= remaining <= 125; outside it the remaining
#: targets, which the rule always allows). The window measured best of 4:125, 4:
#: and 1: (means 3.619, 3.628 and 3.752 for the 2315 answers).
NYT_HARD_SPECS: tuple[PolicySpec, ...] = tuple(
    PolicySpec("wordle", targets=answers, guesses="wordle-guesses-12972", mode=NYT_HARD)
    for answers in ("wordle-answers-2309", "wordle-answers-2315")
)

#: Today's game: the NYT's answers as of 2023-07-01 (3158) and the guesses it has
#: allowed since 2022-08-30 (14855), greedy neg_entropy in normal and NYT hard mode.
TODAY_SPECS: tuple[PolicySpec, ...] = tuple(
    PolicySpec("wordle", targets="wordle-answers-3158", guesses="wordle-guesses-14855", mode=mode)
    for mode in ("normal", NYT_HARD)
)

#: Answer likelihoods (the shipped prior ``wordfreq``, builder.priors): today's
#: answers weighted as likely as the NYT's editors would pick them (fast: in the
#: catalog test), and every allowed word a possible secret, weighted (the policy
#: for a player who trusts no answer list, and what values a game whose secret
#: left a policy's answer list: client.catalog_lookup's off_list_policy), in normal and
#: NYT hard mode.
WEIGHTED_SPECS: tuple[PolicySpec, ...] = (
    PolicySpec(
        "wordle", targets="wordle-answers-3158", guesses="wordle-guesses-14855", weights="wordfreq"
    ),
)
EVERY_WORD_SPECS: tuple[PolicySpec, ...] = tuple(
    PolicySpec("wordle", targets="wordle-guesses-14855", weights="wordfreq", mode=mode)
    for mode in ("normal", NYT_HARD)
)

#: Wordle in other languages: greedy normal-mode neg_entropy trees over each shipped
#: language list (builder.language_lists), guessing from the same list.
LANGUAGE_SPECS: tuple[PolicySpec, ...] = tuple(
    PolicySpec("wordle", targets=f"{language}-5-top2000")
    for language in ("es", "de", "fr", "el", "ru")
)

#: The shipped catalog: the seed tables' policies, the full-guess-list trees
#: (normal and NYT hard mode), then every word length over enable1.
DEFAULT_SPECS: tuple[PolicySpec, ...] = (
    *_seed_table_specs(),
    PolicySpec("wordle", targets="wordle-answers-2309", mode="hard", metric="random"),
    PolicySpec(
        "jotto", targets="sgb-words", mode="hard", metric="random", jotto_order="first-seen"
    ),
    PolicySpec("antiwordle", targets="wordle-answers-2309", mode="hard", metric="entropy"),
    PolicySpec("wordle", targets="sgb-words", metric="neg_entropy", window=(4, None)),
    PolicySpec("wordle", targets="wordle-answers-2309", guesses="wordle-guesses-12972"),
    PolicySpec("wordle", targets="wordle-answers-2315", guesses="wordle-guesses-12972"),
    *NYT_HARD_SPECS,
    *TODAY_SPECS,
    *WEIGHTED_SPECS,
    *EVERY_WORD_SPECS,
    *ENABLE1_SPECS,
    *LANGUAGE_SPECS,
)


#: Optimised trees in the shipped catalog: the best found for Wordle (both
#: answer lists; the 12972-word guess list in normal mode, while hard mode
#: guesses only remaining targets) and Jotto. First guesses are fixed so that
#: `make catalog` (and the test that rebuilds it) stays quick; each was chosen
#: by a search over every first guess: for Wordle hard mode an exact one
#: (SLATE is optimal for both lists), for Jotto the lookahead's own, and
#: SALET is the best known Wordle opener with the full guess list. NYT hard
#: mode's trees are capped at six guesses, as the game is (uncapped, SALET's
#: optimum is 6 guesses less in total but leaves targets to a seventh): 8122
#: and 8099 in total, Alex Selby's published optima for SALET.
DEFAULT_OPTIMAL_SPECS: tuple[OptimalSpec, ...] = (
    OptimalSpec(
        "wordle", targets="wordle-answers-2309", guesses="wordle-guesses-12972", first_guess="SALET"
    ),
    OptimalSpec(
        "wordle", targets="wordle-answers-2315", guesses="wordle-guesses-12972", first_guess="SALET"
    ),
    OptimalSpec("wordle", targets="wordle-answers-2309", mode="hard", first_guess="SLATE"),
    OptimalSpec("wordle", targets="wordle-answers-2315", mode="hard", first_guess="SLATE"),
    OptimalSpec("jotto", targets="wordle-answers-2309", mode="hard", beam=4, first_guess="DEBAR"),
    OptimalSpec("jotto", targets="wordle-answers-2309", mode="normal", beam=4, first_guess="DEBAR"),
    *(
        OptimalSpec(
            "wordle",
            targets=answers,
            guesses="wordle-guesses-12972",
            mode=NYT_HARD,
            max_guesses=6,
            first_guess="SALET",
        )
        for answers in ("wordle-answers-2309", "wordle-answers-2315")
    ),
)


#: The global Wordle optima: no fixed first guess, every opener settled, each
#: certificate recording what settled every opener; those marked ``least_worst``
#: with their worst case proven least among the trees of their total too (a capped
#: search below the total + 1 finds no tree within one guess fewer; see
#: builder.least_worst, which added it to the trees proven before). With the 12972
#: guesses of 2022 SALET is best (7920 on the 2315 answers, 7897 on the 2309;
#: about 11 minutes each on one core); with the 14855 allowed since, TARSE (7883
#: on the 2309 answers, 16 minutes). `make catalog` builds them but the catalog
#: test does not (see SLOW_SPECS).
GLOBAL_OPTIMAL_SPECS: tuple[OptimalSpec, ...] = (
    *(
        OptimalSpec("wordle", targets=answers, guesses="wordle-guesses-12972", least_worst=True)
        for answers in ("wordle-answers-2309", "wordle-answers-2315")
    ),
    OptimalSpec(
        "wordle", targets="wordle-answers-2309", guesses="wordle-guesses-14855", least_worst=True
    ),
    # Today's game, every one of the 14855 openers settled: TARSE, 11219 (mean
    # 3.5526, worst 6). Run led by SALET (the certificate records the lead); about
    # 2 h on one core in all, through policies/proofs' checkpoint. Worst 6, the least
    # at that total (none within five below 11220: 29 min on two workers, resumed).
    OptimalSpec(
        "wordle",
        targets="wordle-answers-3158",
        guesses="wordle-guesses-14855",
        lead_opener="SALET",
        least_worst=True,
    ),
    # NYT hard mode within six guesses, every opener settled: SALET, 8122 (2315 x 12972);
    # worst 6, the least at that total (none within five below 8123: 6 min on two workers).
    OptimalSpec(
        "wordle",
        targets="wordle-answers-2315",
        guesses="wordle-guesses-12972",
        mode=NYT_HARD,
        max_guesses=6,
        least_worst=True,
    ),
    # The same on the 2309 answers with today's guesses: SALET, 8097 (mean 3.5067);
    # 21 min on one core, led by SALET. Worst 6, the least at that total (none within
    # five below 8098: 17 min on two workers).
    OptimalSpec(
        "wordle",
        targets="wordle-answers-2309",
        guesses="wordle-guesses-14855",
        mode=NYT_HARD,
        max_guesses=6,
        lead_opener="SALET",
        least_worst=True,
    ),
    # Today's game in NYT hard mode within six guesses, every one of the 14855 openers
    # settled: TARSE, 11627 (mean 3.6818, worst 6), the value of the TARSE-given tree
    # below. Run led by TARSE from an empty checkpoint on this 2-core machine with two
    # workers (issue #46): 5.81 core-hours in three runs, a refutation witness for every
    # opener the search settled (docs/benchmarks.rst, bench-todays-proofs). Worst 6,
    # the least at that total (none within five below 11628: about 1 h 18 min on two
    # workers in four runs, resumed through policies/proofs).
    OptimalSpec(
        "wordle",
        targets="wordle-answers-3158",
        guesses="wordle-guesses-14855",
        mode=NYT_HARD,
        max_guesses=6,
        lead_opener="TARSE",
        least_worst=True,
    ),
)

#: Today's game optimised given SALET (the best opener of the 2022 lists): 11235 in
#: total (mean 3.5576, worst 6) over the 3158 answers; about a minute to prove. And
#: the same weighted by the prior, within six guesses as the game is: the least
#: expected guesses given SALET when the answer is drawn by it and no answer takes
#: a seventh (uncapped, the weighted optimum left 6 answers to a seventh guess).
TODAY_OPTIMAL_SPECS: tuple[OptimalSpec, ...] = tuple(
    OptimalSpec(
        "wordle",
        targets="wordle-answers-3158",
        guesses="wordle-guesses-14855",
        first_guess="SALET",
        weights=weights,
        max_guesses=cap,
    )
    for weights, cap in ((None, None), ("wordfreq", 6))
)

#: Today's game in NYT hard mode within six guesses, given TARSE: 11627 in total
#: (mean 3.6818, worst 6), proven for that opener (132 s on one core, 350 MB), the
#: value the peer solver publishes for TARSE. ``play --hard`` followed it until the
#: global NYT-hard optimum on these lists (GLOBAL_OPTIMAL_SPECS) was proven; a
#: catalog without the global one still has it.
TODAY_HARD_OPTIMAL_SPECS: tuple[OptimalSpec, ...] = (
    OptimalSpec(
        "wordle",
        targets="wordle-answers-3158",
        guesses="wordle-guesses-14855",
        mode=NYT_HARD,
        max_guesses=6,
        first_guess="TARSE",
    ),
)

#: Absurdle's best lines (builder.absurdle_policy), proven: four guesses beat its
#: adversary on the 2315 answers with the 12972 guesses of 2022, as qntm says, in
#: normal mode and in its hard mode (the NYT rule); seconds to build.
ABSURDLE_SPECS: tuple[AbsurdleSpec, ...] = tuple(
    AbsurdleSpec(targets="wordle-answers-2315", guesses="wordle-guesses-12972", mode=mode)
    for mode in ("normal", NYT_HARD)
)

#: Policies that also store multi-board openings (builder.multiboard_openings: the
#: first guess of 2, 4 and 8 boards, Dordle's second after every pair of replies):
#: today's game's, which ``play --boards`` uses by default. About 1.3 MB and 4 s.
BOARD_OPENING_POLICIES = ("wordle-3158-g14855-normal-optimal",)

#: Every policy of the shipped catalog, in catalog-build order.
CATALOG_SPECS: tuple[AnySpec, ...] = (
    *DEFAULT_SPECS,
    *DEFAULT_OPTIMAL_SPECS,
    *TODAY_OPTIMAL_SPECS,
    *TODAY_HARD_OPTIMAL_SPECS,
    *GLOBAL_OPTIMAL_SPECS,
    *ABSURDLE_SPECS,
)

#: Shipped policies that take minutes to build (or reply matrices of hundreds of
#: MB): the catalog test (and ``build-all --reuse``) takes them from a catalog file
#: after checking them (:func:`~guesswork.builder.any_spec.reuse_policy`) instead of
#: building them again.
SLOW_SPECS: tuple[AnySpec, ...] = (
    *LONG_WORD_SPECS,
    *EVERY_WORD_SPECS,
    *TODAY_OPTIMAL_SPECS,
    *TODAY_HARD_OPTIMAL_SPECS,
    *GLOBAL_OPTIMAL_SPECS,
)


@dataclass(frozen=True)
class CatalogContents:
    """Everything a built catalog holds, in build order (what
    builder.catalog_build.build_catalog builds)."""

    #: Its policies' specs, in build order.
    policies: tuple[AnySpec, ...]
    #: The specs (of ``policies``) a build may take from a catalog file after checking
    #: them (``build-all --reuse``) instead of building them again.
    reusable: tuple[AnySpec, ...]
    #: The policies (by name) that also store multi-board openings.
    board_openings: tuple[str, ...]
    #: The honeycomb tables: (word list, whether S is allowed), built after the policies.
    honeycomb_tables: tuple[tuple[str, bool], ...]
    #: The Guess My Word trees over the shipped list: (strategy, variant), built last.
    word_trees: tuple[tuple[str, Variant], ...]


#: The shipped catalog (policies/catalog.sqlite): ``build-all`` builds it.
SHIPPED_CONTENTS = CatalogContents(
    policies=CATALOG_SPECS,
    reusable=SLOW_SPECS,
    board_openings=BOARD_OPENING_POLICIES,
    honeycomb_tables=DEFAULT_BEE_TABLES,
    word_trees=DEFAULT_WORD_TREES,
)
