"""Word lists: shipped lists are checked, users' lists are normalised and reported."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from guesswork.builder import wordlists
from guesswork.builder.errors import WordListError
from guesswork.builder.wordlists import (
    SHIPPED,
    ShippedList,
    WordList,
    content_sha256,
    jotto_allowable,
    load_wordlist,
    parse_words,
    shipped_words,
)
from guesswork.client.games import Jotto, Wordle

WORDLE = Wordle()


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_lists_match_their_registration(name: str) -> None:
    words = shipped_words(name)
    assert len(words) == SHIPPED[name].count
    assert content_sha256(words) == SHIPPED[name].sha256
    assert all(word.isupper() for word in words[:100])


def test_a_damaged_shipped_list_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = SHIPPED["sgb-words"]
    monkeypatch.setitem(SHIPPED, "sgb-words", ShippedList(entry.file, "0" * 64, entry.count))
    with pytest.raises(WordListError, match="does not match its registered SHA-256"):
        shipped_words("sgb-words")


def test_seed_lists_keep_their_order() -> None:
    answers = load_wordlist("wordle-answers-2309", WORDLE)
    assert answers.words[:3] == ("ABACK", "ABASE", "ABATE")
    assert list(answers.words) == sorted(answers.words)
    sgb = load_wordlist("sgb-words", WORDLE)
    assert sgb.words[:3] == ("WHICH", "THERE", "THEIR")  # frequency order, not sorted


def test_enable1_contributes_words_of_the_game_length() -> None:
    six = load_wordlist("enable1", Wordle(6))
    assert len(six) == len({w for w in shipped_words("enable1") if len(w) == 6})
    assert all(len(word) == 6 for word in six.words)


def test_users_list_is_normalised(tmp_path: Path) -> None:
    path = tmp_path / "mine.txt"
    path.write_text("crane  Slate\n# a comment\n\nTRACE # trailing comment\ncrane\n")
    words = load_wordlist(str(path), WORDLE)
    assert words.words == ("CRANE", "SLATE", "TRACE")  # duplicate dropped, order kept
    assert words.name == str(path)
    assert words.sha256 == content_sha256(["CRANE", "SLATE", "TRACE"])


def test_users_list_from_stdin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("irate\nraise\n"))
    assert load_wordlist("-", WORDLE).words == ("IRATE", "RAISE")


def test_invalid_entries_are_reported_not_dropped(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("crane\nslates\nab3de\ntrace\nbo\n")
    with pytest.raises(WordListError) as caught:
        load_wordlist(str(path), WORDLE)
    message = str(caught.value)
    assert "3 invalid entries" in message
    assert "line 2: 'slates' has 6 letters, not 5" in message
    assert "line 3: 'ab3de' not made only of letters ('3' is not a letter)" in message
    assert "\n" not in message


def test_parse_words_reports_everything_it_dropped() -> None:
    report = parse_words("crane\nCRANE\nx\n", WORDLE, "text")
    assert report.kept == ["CRANE"]
    assert report.duplicates == [(2, "CRANE")]
    assert report.invalid == [(3, "x", "has 1 letter, not 5")]


def test_missing_empty_and_unknown_lists(tmp_path: Path) -> None:
    with pytest.raises(WordListError, match=r"neither a shipped list .* nor an existing file"):
        load_wordlist(str(tmp_path / "nope.txt"), WORDLE)
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    with pytest.raises(WordListError, match="has no wordle words"):
        load_wordlist(str(empty), WORDLE)
    with pytest.raises(WordListError, match="unknown word list 'nope'"):
        shipped_words("nope")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(WordListError, match="not UTF-8"):
        load_wordlist(str(binary), WORDLE)


def test_jotto_allowable_as_the_seeds_build_it() -> None:
    answers = shipped_words("wordle-answers-2309")
    jotto = jotto_allowable(answers)
    assert len(jotto) == 1391
    assert jotto == sorted(jotto)
    assert all(Jotto().word_problem(word) is None for word in jotto)
    assert len({frozenset(word) for word in jotto}) == len(jotto)  # anagram-free
    sgb = [word for word in shipped_words("sgb-words")]
    assert len(sgb) == 5756
    assert len(jotto_allowable(sgb, order="first-seen")) == 2845


def test_jotto_keeps_the_last_anagram_at_the_first_ones_place() -> None:
    words = ["SPARE", "CRANE", "PARSE", "SPEAR"]
    assert jotto_allowable(words, order="first-seen") == ["SPEAR", "CRANE"]
    assert jotto_allowable(words, order="sorted") == ["CRANE", "SPEAR"]
    with pytest.raises(ValueError, match="unknown Jotto order"):
        jotto_allowable(words, order="random")


def test_wordlist_identity() -> None:
    listed = WordList.from_words("x", ["AB", "CD"])
    assert listed.sha256 == content_sha256(("AB", "CD"))
    assert listed.index() == {"AB": 0, "CD": 1}
    assert len(listed) == 2
    assert wordlists.content_sha256([]) != wordlists.content_sha256([""])
