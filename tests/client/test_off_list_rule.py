"""One rule for secrets off a policy's answer list, in the lookup core (issue #45, point 4).

Live answers take a policy's open words (its vocabulary widened by
CatalogLookup.wider_list) for the possible secrets once no target fits; game
analysis values such a game under CatalogLookup.off_list_policy, the policy
whose targets hold those same words. Both live in client.lookup: the service
had a second "find a wider list" rule of its own.
"""

from __future__ import annotations

import pytest

from guesswork.client.catalog import open_catalog
from guesswork.client.catalog_lookup import CatalogLookup
from guesswork.service.local import LocalGuesswork

WEIGHTED = "wordle-14855-weighted-wordfreq-{}-neg-entropy"


@pytest.fixture(scope="module")
def lookup() -> CatalogLookup:
    # The lookup core alone: no live solver, no service.
    return CatalogLookup(open_catalog())


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("wordle-2309-normal-neg-entropy", WEIGHTED.format("normal")),
        ("wordle-2315-g12972-nyt-hard-neg-entropy", WEIGHTED.format("nyt-hard")),
        # Its guess list is already every allowed word: no wider list, still a policy.
        ("wordle-3158-g14855-normal-neg-entropy", WEIGHTED.format("normal")),
        # No policy of the seeds' hard mode holds every allowed word.
        ("wordle-2309-hard-max", None),
        ("wordle-de-5-top2000-normal-neg-entropy", None),
    ],
)
def test_the_off_list_policy_holds_every_open_word(
    lookup: CatalogLookup, name: str, expected: str | None
) -> None:
    policy = lookup.policy(name)
    found = lookup.off_list_policy(policy)
    assert (found and found.name) == expected
    if found is not None:
        # The words live answers take for possible secrets are its targets.
        assert set(policy.open_words) <= set(found.policy.targets)
        assert found.game == policy.game and found.policy.data.mode == policy.policy.data.mode
        assert lookup.off_list_policy(policy) is found  # found once per policy


def test_the_service_answers_with_the_lookup_cores_rule() -> None:
    answers = LocalGuesswork(open_catalog())
    assert LocalGuesswork.off_list_policy is CatalogLookup.off_list_policy
    assert LocalGuesswork.wider_list is CatalogLookup.wider_list
    # An analysis whose answer left the list is valued under it (SNAFU: allowed,
    # not one of the 2,309 answers).
    history = [("crane", "⬛⬛🟩🟨⬛"), ("snafu", "🟩🟩🟩🟩🟩")]
    analysis = answers.analyze("wordle-2309-normal-neg-entropy", history)
    assert analysis.off_list_policy == "wordle-2309-normal-neg-entropy"
    assert analysis.policy == WEIGHTED.format("normal")
