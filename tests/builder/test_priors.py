"""Answer likelihoods (builder.priors): wordfreq through a sigmoid, plurals and past
tenses down-weighted, prior files, and ``guesswork-build priors``. Real wordfreq."""

from __future__ import annotations

import json
import re
import sys
from dataclasses import replace
from importlib import metadata, resources
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder.cli import run
from guesswork.builder.errors import PriorError
from guesswork.builder.prior_making import (
    generate_prior,
    is_past_tense,
    is_plural,
    judge_inflections,
    sigmoid_likelihoods,
)
from guesswork.builder.priors import (
    HEADER,
    Prior,
    load_prior,
    open_word_weights,
    parse_prior,
    prior_label,
    resolve_prior,
    shipped_prior,
    weights_for,
)
from guesswork.builder.wordlists import shipped_words
from guesswork.client.errors import GuessworkError, reason_of

GUESSES = shipped_words("wordle-guesses-14855")
ANSWERS = shipped_words("wordle-answers-3158")
#: The prior of wordle-guesses-14855 with the defaults, under the pinned wordfreq.


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = run(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture(scope="module")
def guesses_prior() -> Prior:
    return generate_prior(GUESSES)


# ---------------------------------------------------------------- generating


def test_a_generated_prior_is_deterministic(guesses_prior: Prior) -> None:
    again = generate_prior(GUESSES)
    assert again == guesses_prior and again.to_text() == guesses_prior.to_text()
    assert guesses_prior.words == GUESSES  # the list's order is kept
    assert all(isinstance(w, int) and w >= 1 for w in guesses_prior.weights)
    params = guesses_prior.params
    assert params == {
        "source": "wordfreq",
        "wordfreq_version": metadata.version("wordfreq"),
        "language": "en",
        "width": 10.0,
        "n_common": 3000,
        "scale": 10_000,
        "plural_factor": 0.1,
        "past_factor": 0.1,
        "lexicon": "enable1",
        "stem_share": 0.25,
        "plurals": 2573,
        "past_tenses": 462,
    }
    if params["wordfreq_version"] == "3.1.1":  # the version the project pins
        # The shipped prior is this one, byte for byte (its file is made by the CLI).
        shipped = shipped_prior("wordfreq")
        assert (shipped.words, shipped.weights) == (guesses_prior.words, guesses_prior.weights)
        text = resources.files("guesswork.builder.data.priors").joinpath("wordfreq.txt")
        expected = replace(guesses_prior, name="wordfreq")
        header = {**expected.params, "words": "wordle-guesses-14855"}
        assert text.read_text(encoding="utf-8") == replace(expected, params=header).to_text()


def test_common_words_weigh_far_more_than_rare_ones(guesses_prior: Prior) -> None:
    rare = max(guesses_prior.weight_of(word) for word in ("AALII", "XYLYL"))
    for word in ("CRANE", "HOUSE", "world"):
        assert guesses_prior.weight_of(word) > 50 * rare
    assert [word for word, _ in guesses_prior.ranked()[:3]] == ["ABOUT", "THEIR", "THERE"]
    with pytest.raises(PriorError, match="has no weight for 'QQQQQ'"):
        guesses_prior.weight_of("qqqqq")


def test_the_sigmoid_is_3blue1browns() -> None:
    frequencies = [3e-6, 0.0, 1e-3, 0.0, 5e-5]
    likelihoods = sigmoid_likelihoods(frequencies, width=10.0, n_common=2)
    c = 10.0 * (-0.5 + 2 / 5)
    xs = np.linspace(c - 5, c + 5, 5)
    # Ascending frequency: the second zero (index 3) first, then index 1 (ties:
    # the word given earlier ranks as the more likely), 0, 4, 2.
    expected = {3: xs[0], 1: xs[1], 0: xs[2], 4: xs[3], 2: xs[4]}
    for i, x in expected.items():
        assert likelihoods[i] == pytest.approx(1 / (1 + np.exp(-x)), rel=1e-15)
    assert sigmoid_likelihoods([]) == []


def test_plurals_and_past_tenses_are_down_weighted_by_their_factors() -> None:
    words = [
        "CRANE",
        "CRANES",
        "BAKE",
        "BAKED",
        "ROLL",
        "ROLLED",
        "HOUSE",
        "WORLD",
        "BERRY",
        "BERRIES",
        "STOP",
        "STOPPED",
        "GLASS",
        "BONUS",
    ]
    plain = generate_prior(words, plural_factor=1.0, past_factor=1.0, lexicon=[])
    weighted = generate_prior(words, plural_factor=0.25, past_factor=0.5, lexicon=[])
    forms = judge_inflections(words, lexicon=[])
    assert forms.plurals == {"CRANES", "BERRIES"}
    assert forms.past_tenses == {"BAKED", "ROLLED", "STOPPED"}
    for word in words:
        factor = 0.25 if word in forms.plurals else 0.5 if word in forms.past_tenses else 1.0
        assert abs(weighted.weight_of(word) - plain.weight_of(word) * factor) <= 1, word
    assert weighted.weight_of("CRANES") < plain.weight_of("CRANES") / 3
    assert str(weighted.params["lexicon"]).startswith("custom-0-")


def test_a_five_letter_lists_stems_are_found_in_enable1(guesses_prior: Prior) -> None:
    """BAKES and BAKED have four-letter stems, which only the dictionary holds."""
    forms = judge_inflections(GUESSES)
    assert {"BAKES", "ROLLS", "BOXES"} <= forms.plurals
    assert {"BAKED", "TRIED", "AIMED"} <= forms.past_tenses
    assert not {"GLASS", "BONUS", "BASIS", "CRANE", "HOUSE"} & (forms.plurals | forms.past_tenses)
    plain = generate_prior(GUESSES, plural_factor=1.0, past_factor=1.0)
    for word in ("BAKES", "BAKED", "TRIED"):
        assert abs(guesses_prior.weight_of(word) - plain.weight_of(word) * 0.1) <= 1
    assert guesses_prior.weight_of("CRANE") == plain.weight_of("CRANE")
    # Only the list itself: no four-letter stems, nothing judged.
    assert judge_inflections(GUESSES, lexicon=[]).plurals == frozenset()


def test_the_inflection_rules() -> None:
    known = {"BOX", "BERRY", "TRY", "STOP", "BAKE", "ROLL", "GLAS", "BONU", "BASI"}
    assert is_plural("BOXES", known) and is_plural("BERRIES", known)
    assert not any(is_plural(word, known) for word in ("GLASS", "BONUS", "BASIS", "CRANES"))
    assert is_past_tense("TRIED", known) and is_past_tense("STOPPED", known)
    assert is_past_tense("BAKED", known) and is_past_tense("ROLLED", known)
    assert not is_past_tense("SPEED", known)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"width": 0.0}, "width 0.0 must be a finite number above 0"),
        ({"width": float("inf")}, "width inf"),
        ({"n_common": 0}, "n_common 0 must be a whole number of at least 1"),
        ({"scale": 2.5}, "scale 2.5"),
        ({"plural_factor": 0.0}, "plural_factor 0.0 must be more than 0 and at most 1"),
        ({"past_factor": 1.5}, "past_factor 1.5"),
        ({"language": "xx"}, "wordfreq has no word list for language 'xx'"),
        ({"scale": 2**53}, r"weights add up to 2\*\*53 or more"),
    ],
)
def test_bad_parameters_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(PriorError, match=message):
        generate_prior(["CRANE", "HOUSE"], **options)  # type: ignore[arg-type]


def test_without_wordfreq_the_error_gives_the_pip_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "wordfreq", None)  # import wordfreq fails
    with pytest.raises(PriorError, match="pip install wordfreq") as caught:
        generate_prior(["CRANE"])
    assert isinstance(caught.value, GuessworkError) and isinstance(caught.value, ValueError)
    assert reason_of(caught.value) == "PRIOR"


# ---------------------------------------------------------------- files


def test_text_reads_back_as_the_same_prior(guesses_prior: Prior, tmp_path: Path) -> None:
    text = guesses_prior.to_text()
    lines = text.splitlines()
    assert lines[0].startswith(f"{HEADER} name=wordfreq-sigmoid source=wordfreq ")
    assert "width=10.0 n_common=3000 scale=10000 plural_factor=0.1" in lines[0]
    assert lines[1:3] == [f"{w} {guesses_prior.weight_of(w)}" for w in GUESSES[:2]]
    assert parse_prior(lines, "<lines>") == guesses_prior
    path = tmp_path / "mine.txt"
    path.write_text(text, encoding="utf-8")
    loaded = load_prior(path)
    assert (loaded.name, loaded.words, loaded.weights) == (
        guesses_prior.name,
        guesses_prior.words,
        guesses_prior.weights,
    )
    assert loaded.params == guesses_prior.params and loaded.sha256 == guesses_prior.sha256


def test_any_letters_and_awkward_parameters_round_trip() -> None:
    prior = Prior(
        "my prior",
        ("ÑANDÚ", "ΑΛΦΑΣ", "STRAẞE"),
        (3, 2, 1),
        {"source": "hand made", "version": "3", "ratio": 1e-05, "count": -4, "note": 'a "q"'},
    )
    again = parse_prior(prior.to_text().splitlines(), "x.txt")
    assert again == prior and again.params == prior.params
    assert type(again.params["version"]) is str and type(again.params["ratio"]) is float


def test_a_file_without_header_is_named_after_its_stem(tmp_path: Path) -> None:
    path = tmp_path / "hand.txt"
    path.write_text("# my weights\n\ncrane 30  # common\nñandú 2\nHouse 7\n", encoding="utf-8")
    prior = load_prior(path)
    assert (prior.name, prior.params) == ("hand", {"source": "file"})
    assert prior.words == ("CRANE", "ÑANDÚ", "HOUSE") and prior.weights == (30, 2, 7)
    assert prior.sha256 == parse_prior(["CRANE 30", "ÑANDÚ 2", "HOUSE 7"], "y").sha256
    assert prior.mapping["HOUSE"] == 7 and prior.total == 39


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("CRANE\n", r"src line 1: expected 'WORD WEIGHT', got 'CRANE'"),
        ("# c\nCRANE 1 2\n", r"src line 2: expected 'WORD WEIGHT'"),
        (
            "CRANE 1.5\n",
            r"src line 1: weight '1.5' of 'CRANE' is not a positive integer; weights are positive integers",
        ),
        ("CRANE -3\n", r"src line 1: weight '-3' .*scale yours"),
        ("CRANE +3\n", r"src line 1: weight '\+3'"),
        ("CRANE 1\nHOUSE 0\n", r"src line 2: weight '0' of 'HOUSE'"),
        ("CRANE \uff13\n", "src line 1: weight '\uff13'"),
        ("CRANE 1e3\n", r"src line 1: weight '1e3'"),
        ("CAN'T 4\n", r"src line 1: word \"CAN'T\" not made only of letters"),
        ("CRANE 1\nHOUSE 2\n\ncrane 3\n", r"src line 4: 'CRANE' repeats line 1"),
        ("# guesswork prior: name\nCRANE 1\n", r"src line 1: the header is not 'key=value' pairs"),
        ("\n# guesswork prior: a=1 a=2\nCRANE 1\n", r"src line 2: the header gives 'a' twice"),
        (
            '# guesswork prior: note="\\q"\nCRANE 1\n',
            r"src line 1: the header's note is a bad string",
        ),
        ("# only a comment\n\n", r"src: no 'WORD WEIGHT' lines"),
        ("CRANE 9007199254740991\nHOUSE 1\n", r"src: weights add up to 2\*\*53 or more"),
    ],
)
def test_bad_lines_are_refused_naming_the_line(text: str, message: str) -> None:
    with pytest.raises(PriorError, match=message):
        parse_prior(text.splitlines(), "src")


def test_unreadable_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PriorError, match="does not exist"):
        load_prior(tmp_path / "missing.txt")
    path = tmp_path / "bad.txt"
    path.write_bytes(b"\xff\xfe 1\n")
    with pytest.raises(PriorError, match="not UTF-8"):
        load_prior(path)


@pytest.mark.parametrize(
    ("words", "weights", "params", "message"),
    [
        ((), (), {}, "at least one word"),
        (("CRANE",), (1, 2), {}, "1 word but 2 weights"),
        (("crane",), (1,), {}, "not written in upper case"),
        (("CRANE", "CRANE"), (1, 2), {}, "word 1 'CRANE' repeats word 0"),
        (("CRANE",), (0,), {}, "must be a positive integer, not 0"),
        (("CRANE",), (True,), {}, "not True"),
        (("CRANE",), (1.0,), {}, "not 1.0"),
        (("CRANE",), (1,), {"name": "x"}, "not 'name'"),
        (("CRANE",), (1,), {"a b": "x"}, "parameter name 'a b'"),
        (("CRANE",), (1,), {"flag": True}, "flag=True must be"),
    ],
)
def test_bad_priors_are_refused(
    words: tuple[str, ...], weights: tuple[int, ...], params: dict[str, object], message: str
) -> None:
    with pytest.raises(PriorError, match=message):
        Prior("x", words, weights, params)  # type: ignore[arg-type]


# ---------------------------------------------------------------- using


def test_weights_for_targets(guesses_prior: Prior) -> None:
    weights = weights_for(guesses_prior, ANSWERS, "wordle-answers-3158")
    assert weights.dtype == np.int64 and weights.shape == (len(ANSWERS),)
    assert [int(w) for w in weights[:3]] == [guesses_prior.weight_of(w) for w in ANSWERS[:3]]
    small = Prior("small", ("CRANE", "HOUSE"), (5, 7))
    assert weights_for(small, ["HOUSE", "CRANE"], "mine").tolist() == [7, 5]
    message = (
        "the prior 'small' has no weight for 6 of the 8 targets of mine: "
        "AAHED, ABACK, ABASE, ABBEY, ABBOT, ..."
    )
    targets = ["CRANE", "AAHED", "ABACK", "ABASE", "HOUSE", "ABBEY", "ABBOT", "ABHOR"]
    with pytest.raises(PriorError, match=re.escape(message)):
        weights_for(small, targets, "mine")


def test_a_policy_names_its_prior_by_file(tmp_path: Path) -> None:
    path = tmp_path / "My_Prior.txt"
    path.write_text("crane 3\nhouse 1\n", encoding="utf-8")
    assert resolve_prior(str(path)) == load_prior(path)
    assert prior_label(str(path)) == "my-prior"
    with pytest.raises(PriorError, match=r"'none\.txt' is neither a shipped prior"):
        resolve_prior("none.txt")
    with pytest.raises(PriorError, match="neither a shipped prior"):
        resolve_prior("wordfreq-typo")


# ---------------------------------------------------------------- the command line


def test_the_command_writes_a_prior_load_prior_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    words = tmp_path / "words.txt"
    words.write_text("crane\nbakes\nbaked\nhouse\nworld\naalii\nxylyl\n")
    output = tmp_path / "out.txt"
    status, out, err = run_cli(
        capsys, "priors", "--words", str(words), "--output", str(output), "--common", "3", "--json"
    )
    assert (status, err) == (0, "")
    info = json.loads(out)
    prior = load_prior(output)
    assert prior.name == "out" and prior.words == (
        "CRANE",
        "BAKES",
        "BAKED",
        "HOUSE",
        "WORLD",
        "AALII",
        "XYLYL",
    )
    assert prior.params["words"] == str(words) and prior.params["n_common"] == 3
    assert info["sha256"] == prior.sha256 and info["words"] == 7
    assert info["total_weight"] == prior.total and info["output"] == str(output)
    assert (info["plurals"], info["past_tenses"]) == (1, 1)
    assert {row["word"] for row in info["top"][:2]} == {"HOUSE", "WORLD"}
    lines = output.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith(f"{HEADER} name=out source=wordfreq")
    assert all(re.fullmatch(r"[A-Z]+ [1-9][0-9]*", line) for line in lines[1:])
    status, out, _ = run_cli(capsys, "priors", "--words", str(words), "--output", str(output))
    assert status == 0 and out.startswith(f"wrote {output}: 7 words")


def test_the_command_prints_the_prior_without_output(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(
        capsys, "priors", "--words", "wordle-answers-3158", "--plural-factor", "0.5"
    )
    assert (status, err) == (0, "")
    prior = parse_prior(out.splitlines(), "<stdout>")
    assert prior.words == ANSWERS and prior.name == "wordfreq-sigmoid"
    assert prior.params["plural_factor"] == 0.5 and prior.params["words"] == "wordle-answers-3158"


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (["--width", "0"], 2, "--width '0' must be above 0"),
        (["--width", "wide"], 2, "--width 'wide' is not a number"),
        (["--width", "inf"], 2, "--width 'inf' must be above 0"),
        (["--common", "2.5"], 2, "--common '2.5' is not a whole number"),
        (["--common", "0"], 2, "--common '0' must be at least 1"),
        (["--plural-factor", "1.5"], 2, "--plural-factor '1.5' must be more than 0 and at most 1"),
        (["--past-factor", "nan"], 2, "--past-factor 'nan' must be more than 0 and at most 1"),
        (["--scale", "-1"], 2, "--scale '-1' must be at least 1"),
        (["--language", "xx"], 1, "wordfreq has no word list for language 'xx'"),
        (["--words", "no-such-list"], 1, "'no-such-list' is neither a shipped list"),
    ],
)
def test_bad_options_are_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], status: int, message: str
) -> None:
    got, out, err = run_cli(capsys, "priors", "--words", "wordle-answers-3158", *args)
    assert (got, out) == (status, "")
    assert err.count("\n") == 1 and message in err, err


def test_off_list_words_are_weighed_by_the_shipped_prior_only_where_it_knows_them() -> None:
    """English lists get the prior's weights (a word it lacks, its least weight); a
    list it mostly does not know (Spanish) is counted alike rather than favouring
    its few words that are English too."""
    prior = shipped_prior("wordfreq")
    words = ("CRANE", "AALII", "QQQQQ")
    weights = open_word_weights(None, words)
    assert weights is not None
    assert weights.tolist() == [
        prior.weight_of("CRANE"),
        prior.weight_of("AALII"),
        min(prior.weights),
    ]
    assert open_word_weights(None, shipped_words("es-5-top2000")) is None
    assert open_word_weights(None, ("QQQQQ", "ZZZZZ", "CRANE")) is None
