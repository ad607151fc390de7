"""The probe bots embed: walking the shipped catalog's policies."""

from __future__ import annotations

import pytest

from guesswork.builder.catalog_specs import CATALOG_SPECS
from guesswork.builder.guess_my_word import DEFAULT_WORD_TREES
from guesswork.client.catalog import Catalog, open_catalog
from guesswork.client.errors import (
    GameOverError,
    InvalidReplyError,
    OffTreeError,
    PolicyError,
    PolicyNotFoundError,
)
from guesswork.client.games import GuessMyWord
from guesswork.client.probe import SOLVED, Policy


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return open_catalog()


@pytest.fixture(scope="module")
def evil_tree(catalog: Catalog) -> Policy:
    return catalog.policy("wordle-2309-normal-max")


def test_catalog_lists_every_policy(catalog: Catalog) -> None:
    infos = catalog.list()
    # Every spec of the shipped catalog (builder.catalog_specs) and the Guess My Word
    # trees (builder.guess_my_word), each listed once.
    expected = {spec.name() for spec in CATALOG_SPECS} | {
        f"guess-my-word-common-words-{strategy}-{variant}"
        for strategy, variant in DEFAULT_WORD_TREES
    }
    assert len(infos) == len(catalog) == len(expected)
    assert {info.name for info in infos} == expected
    assert [info.name for info in infos] == catalog.names() == sorted(catalog.names())
    by_name = {info.name: info for info in infos}
    jotto = by_name["jotto-2309-hard-max"]
    assert (jotto.game, jotto.mode, jotto.metric, jotto.count, jotto.worst) == (
        "jotto",
        "hard",
        "max",
        1391,
        16,
    )
    assert round(jotto.mean, 2) == 6.31


def test_next_guess_follows_the_evil_game_in_any_reply_notation(evil_tree: Policy) -> None:
    assert evil_tree.next_guess([]) == "ARISE"
    history = [("arise", "⬛⬛⬛⬛⬛"), ("Blond", "bbbbb"), ("DUMPY", "01110"), ("chump", ".GGGG")]
    assert evil_tree.next_guess(history[:2]) == "DUMPY"
    assert evil_tree.next_guess(history) == "THUMP"
    position = evil_tree.walk([*history, ("thump", "🟩🟩🟩🟩🟩")])
    assert position.solved and position.turns == 5


def test_step_is_the_same_walk(evil_tree: Policy) -> None:
    game = evil_tree.game
    node = evil_tree.root
    for guess, reply in [("ARISE", "....."), ("BLOND", "....."), ("DUMPY", ".YYY.")]:
        assert evil_tree.guess(node) == guess
        node = evil_tree.step(node, game.parse_reply(reply))
    assert evil_tree.remaining_targets(node) == ["CHUMP", "THUMP"]
    assert evil_tree.remaining_count(node) == 2
    assert evil_tree.step(node, game.win_reply) == SOLVED
    assert evil_tree.remaining_count(SOLVED) == 0 and evil_tree.remaining_targets(SOLVED) == []


def test_remaining_targets_are_the_consistent_ones(catalog: Catalog) -> None:
    policy = catalog.policy("wordle-2309-hard-neg-entropy")
    game = policy.game
    node = policy.step(policy.root, "....Y")
    expected = [t for t in policy.targets if game.reply("RAISE", t) == game.parse_reply("....Y")]
    assert policy.remaining_targets(node) == expected
    assert policy.remaining_count(node) == len(expected)


def test_leaving_the_tree_is_a_key_error(evil_tree: Policy) -> None:
    with pytest.raises(OffTreeError, match="it guesses ARISE, not CRANE"):
        evil_tree.next_guess([("crane", ".....")])
    with pytest.raises(KeyError):
        evil_tree.next_guess([("crane", ".....")])
    assert evil_tree.get_next_guess([("crane", ".....")]) is None
    assert evil_tree.get_next_guess([("crane", ".....")], default="SLATE") == "SLATE"
    # A reply no target of the list gives to the first guess.
    given = {evil_tree.game.reply("ARISE", target) for target in evil_tree.targets}
    impossible = next(code for code in range(evil_tree.game.reply_space) if code not in given)
    with pytest.raises(OffTreeError, match="no branch for reply"):
        evil_tree.step(evil_tree.root, impossible)
    with pytest.raises(OffTreeError, match="no node 999999"):
        evil_tree.step(999_999, 0)


def test_bad_and_finished_histories(evil_tree: Policy) -> None:
    with pytest.raises(InvalidReplyError, match="impossible reply"):
        evil_tree.next_guess([("arise", "GGGGY")])
    with pytest.raises(InvalidReplyError):
        evil_tree.next_guess([("arise", "QQQQQ")])
    with pytest.raises(GameOverError, match="no next guess"):
        evil_tree.next_guess([("arise", "GGGGG")])
    with pytest.raises(GameOverError, match="continues after the game was solved"):
        evil_tree.walk([("arise", "GGGGG"), ("blond", ".....")])
    assert issubclass(GameOverError, PolicyError)


def test_missing_policy_is_a_key_error(catalog: Catalog) -> None:
    with pytest.raises(PolicyNotFoundError, match="no policy 'chess'"):
        catalog.policy("chess")
    with pytest.raises(KeyError):
        catalog.policy("chess")
    assert catalog.get_policy("chess") is None


def test_jotto_policy_takes_counts(catalog: Catalog) -> None:
    policy = catalog.policy("jotto-2309-hard-max")
    first = policy.next_guess()
    assert first == "DRAPE"
    second = policy.next_guess([(first, "2")])
    assert second == policy.guess(policy.step(policy.root, 2))
    with pytest.raises(InvalidReplyError, match="impossible"):
        policy.next_guess([(first, "7")])


def test_every_target_is_solved_as_the_stored_statistics_say(catalog: Catalog) -> None:
    policy = catalog.policy("antiwordle-2309-hard-entropy")
    scores = [len(policy.play(target)) for target in policy.targets]
    assert max(scores) == policy.stats["worst"] == 11
    assert sum(scores) / len(scores) == pytest.approx(policy.stats["mean"])
    assert policy.play("FUZZY") == ["FUZZY"]


def test_every_policys_root_promises_its_stored_worst_and_mean(catalog: Catalog) -> None:
    """Before any turn, the tree's worst case and expected guesses (what SuggestGuess
    says as guaranteed_within and expected_guesses) are the policy's stored worst and
    mean, exactly, weighted or not, in every game of the shipped catalog."""
    for info in catalog.list():
        policy = catalog.policy(info.name)
        assert policy.outlook(policy.root, 0) == (info.worst, info.mean), info.name
        assert policy.expected_from(policy.root) == policy.stats["mean"], info.name


@pytest.mark.parametrize(
    "name",
    [
        "wordle-2309-normal-neg-entropy",
        "wordle-14855-weighted-wordfreq-normal-neg-entropy",  # a prior weighs the targets
        "guess-my-word-common-words-optimal-deduce",  # weighted, and known leaves cost none
        "jotto-2309-hard-max",
    ],
)
def test_expected_from_a_node_is_the_mean_of_playing_its_targets(
    catalog: Catalog, name: str
) -> None:
    """After one turn: the turn played plus the mean (weighted as the policy weighs its
    targets) of the guesses each target still possible takes through the tree, each
    played out; the turns played once solved."""
    policy = catalog.policy(name)
    weights = policy.data.weights
    opener = policy.guess(policy.root)
    largest = max(
        (policy.game.reply(opener, target) for target in policy.targets[::97]),
        key=lambda reply: policy.remaining_count(policy.step(policy.root, reply)),
    )
    node = policy.step(policy.root, largest)
    left = policy.remaining_indices(node)
    weight = [1 if weights is None else int(weights[int(i)]) for i in left]
    guesses = [len(policy.play(policy.targets[int(i)])) for i in left]
    mean = sum(w * g for w, g in zip(weight, guesses, strict=True)) / sum(weight)
    assert policy.expected_from(node, 1) == mean and mean > 1
    assert policy.outlook(node, 1) == (max(guesses), mean)
    assert policy.expected_from(SOLVED, 3) == 3.0


def test_context_manager_closes(catalog: Catalog) -> None:
    with open_catalog() as opened:
        assert len(opened) == len(catalog)
    assert len(opened) == 0


def test_guess_my_word_trees_are_policies(catalog: Catalog) -> None:
    live = catalog.policy("guess-my-word-common-words-optimal-live")
    assert isinstance(live.game, GuessMyWord) and live.game.variant == "live"
    info = live.info
    assert (info.game, info.length, info.mode, info.metric, info.targets, info.count) == (
        "guess-my-word",
        0,
        "live",
        "optimal",
        "common-words",
        4788,
    )
    assert round(info.mean, 3) == 7.898
    assert live.next_guess([]) == "not"
    assert live.walk([("NOT", "correct")]).solved
    # Deduce: a leaf's word is known once the replies leave it alone, and costs no guess.
    deduce = catalog.policy("guess-my-word-common-words-optimal-deduce")
    game = deduce.game
    for target in deduce.targets[::500]:
        guesses = deduce.play(target)
        history = [(guess, game.format_reply(game.reply(guess, target))) for guess in guesses]
        position = deduce.walk(history)
        assert deduce.known(position.node) and not position.solved
        assert deduce.next_guess(history) == target and deduce.remaining_count(position.node) == 1
        with pytest.raises(GameOverError, match="already known"):
            deduce.walk([*history, (target, "after")])
        assert "correct" not in {reply for _, reply in history}
