"""Spelling Bee over the service, and `guesswork bee` from a server and a store."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import grpc
import pytest

from guesswork.__main__ import run
from guesswork.client.catalog import Catalog
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.bee import MAX_COUNT, BeeAnswers
from guesswork.service.server import GuessworkServer
from tests.service.test_server import failure


def test_top_honeycombs_from_the_stored_tables(stub: pb_grpc.GuessworkStub) -> None:
    top = stub.TopHoneycombs(pb.TopHoneycombsRequest(word_list="enable1", count=3))
    first = top.honeycombs[0]
    assert (first.letters, first.center, first.score, first.words, first.pangrams) == (
        "AEGINRT",
        "R",
        3898,
        537,
        50,
    )
    assert [h.score for h in top.honeycombs] == sorted(
        (h.score for h in top.honeycombs), reverse=True
    )
    assert (top.counts.valid_words, top.counts.pangram_words, top.counts.pangram_lettersets) == (
        44_585,
        14_741,
        7_986,
    )
    with_s = stub.TopHoneycombs(pb.TopHoneycombsRequest(allow_s=True, count=1)).honeycombs[0]
    assert (with_s.letters, with_s.center, with_s.score, with_s.words, with_s.pangrams) == (
        "AEINRST",
        "E",
        8681,
        1179,
        86,
    )


def test_more_than_stored_is_searched_live(stub: pb_grpc.GuessworkStub) -> None:
    stored = stub.TopHoneycombs(pb.TopHoneycombsRequest(count=50)).honeycombs
    live = stub.TopHoneycombs(pb.TopHoneycombsRequest(count=60)).honeycombs
    assert list(live[:50]) == list(stored) and len(live) == 60


@pytest.mark.reliability
def test_live_tables_of_any_count_are_one_search_and_score_like_the_word_by_word_count() -> None:
    """A table longer than the stored one is searched once per list: shorter counts are
    its first rows, equal to a search of that count; each row's words and pangrams,
    counted over letter subsets, equal a count word by word (issue #26: a count of
    1,000 cost 19-44 s of CPU scoring rows word by word, and each count searched anew)."""
    from guesswork.builder.spelling_bee import top_table
    from guesswork.client.catalog import open_catalog
    from guesswork.client.spelling_bee import Honeycomb, score_honeycomb, valid_words
    from guesswork.service.bee import BeeAnswers

    with open_catalog() as catalog:
        answers = BeeAnswers(catalog)
        words = list(catalog.words("enable1"))
        for allow_s in (False, True):
            longest = answers.top("enable1", allow_s, 1000)
            searched = answers._searched[("enable1", allow_s)]
            for count in (51, 137, 999):
                assert answers.top("enable1", allow_s, count).top == longest.top[:count]
                assert answers._searched[("enable1", allow_s)] is searched  # no new search
            assert top_table("enable1", "", words, 137, allow_s).top == longest.top[:137]
            valid = valid_words(words, allow_s)
            for row in longest.top[::97]:
                made = score_honeycomb(Honeycomb(row.letters, row.center), valid)
                assert (made.score, len(made.words), len(made.pangrams)) == (
                    row.score,
                    row.words,
                    row.pangrams,
                )


def test_score_any_honeycomb(stub: pb_grpc.GuessworkStub) -> None:
    result = stub.ScoreHoneycomb(pb.ScoreHoneycombRequest(letters="tniager", center="r"))
    assert (result.honeycomb.letters, result.honeycomb.center, result.honeycomb.score) == (
        "AEGINRT",
        "R",
        3898,
    )
    assert (
        len(result.words) == 537 and len(result.pangrams) == 50 and "RETAINING" in result.pangrams
    )
    ranks = {rank.name: rank.points for rank in result.ranks}
    assert (ranks["Genius"], ranks["Queen Bee"]) == (2729, 3898)
    assert sum(cell.count for cell in result.grid) == 537
    assert sum(result.two_letter_starts.values()) == 537


def _bee_errors() -> list[
    tuple[str, Callable[[pb_grpc.GuessworkStub], Any], grpc.StatusCode, str, str]
]:
    def score(letters: str, center: str, **extra: Any) -> Callable[[pb_grpc.GuessworkStub], Any]:
        return lambda stub: stub.ScoreHoneycomb(
            pb.ScoreHoneycombRequest(letters=letters, center=center, **extra)
        )

    invalid = grpc.StatusCode.INVALID_ARGUMENT
    return [
        ("repeated letters", score("AEGINRR", "R"), invalid, "INVALID_HONEYCOMB", "repeats R"),
        (
            "wrong letter count",
            score("AEGINR", "R"),
            invalid,
            "INVALID_HONEYCOMB",
            "7 letters, not 6",
        ),
        (
            "centre not among letters",
            score("AEGINRT", "Z"),
            invalid,
            "INVALID_HONEYCOMB",
            "must be one of the letters",
        ),
        ("S excluded", score("AEGINRS", "R"), invalid, "INVALID_HONEYCOMB", "S, which is excluded"),
        (
            "unknown list",
            score("AEGINRT", "R", word_list="klingon"),
            grpc.StatusCode.NOT_FOUND,
            "WORD_LIST_NOT_FOUND",
            "no word list 'klingon'",
        ),
        (
            "bad count",
            lambda stub: stub.TopHoneycombs(pb.TopHoneycombsRequest(count=5000)),
            invalid,
            "BAD_REQUEST",
            "between 1 and 1000",
        ),
    ]


@pytest.mark.parametrize("case", _bee_errors(), ids=lambda case: case[0])
def test_bad_honeycombs_have_their_status_and_reason(
    stub: pb_grpc.GuessworkStub, case: tuple
) -> None:
    _, call, code, reason, message = case
    got_code, got_reason, got_message = failure(lambda: call(stub))
    assert (got_code, got_reason) == (code, reason)
    assert message in got_message


def test_cli_bee_is_the_same_from_server_and_store(
    capsys: pytest.CaptureFixture[str], server: tuple[GuessworkServer, int]
) -> None:
    address = f"127.0.0.1:{server[1]}"
    outputs = []
    for where in (["--server", address], []):
        for args in (
            ["top", "--words", "enable1", "-n", "2"],
            ["top", "--allow-s", "-n", "1"],
            ["score", "--letters", "AEGINRT", "--center", "R", "--words", "enable1"],
        ):
            assert run(["bee", *args, *where, "--json"]) == 0
            outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[:3] == outputs[3:]
    top, top_s, score = outputs[:3]
    # The TopHoneycombs and ScoreHoneycomb responses' JSON, as HTTP answers them.
    assert top["honeycombs"][0] == {
        "letters": "AEGINRT",
        "center": "R",
        "score": 3898,
        "words": 537,
        "pangrams": 50,
    }
    assert top["counts"]["validWords"] == 44_585
    assert top_s["honeycombs"][0]["score"] == 8681
    comb, ranks = (
        score["honeycomb"],
        {rank["name"]: rank.get("points", 0) for rank in score["ranks"]},
    )
    assert (comb["score"], len(score["words"]), len(score["pangrams"]), ranks["Queen Bee"]) == (
        3898,
        537,
        50,
        3898,
    )


def test_cli_bee_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["bee", "score", "--letters", "AEGINRS", "--center", "R"]) == 1
    err = capsys.readouterr().err
    assert (
        err.startswith("guesswork: error:")
        and "S, which is excluded" in err
        and err.count("\n") == 1
    )


@pytest.mark.reliability
def test_counts_above_the_stored_table_are_answered_from_one_search(catalog: Catalog) -> None:
    """Each count above the largest searched so far searched again (60, then 200, then
    1,000: three searches, where the docs promise one per list)."""
    answers = BeeAnswers(catalog)
    tables = [answers.top("enable1", False, count) for count in (60, 200, 1000, 61)]
    searched = answers._searched[("enable1", False)]
    assert answers.searches == 1 and len(searched.top) == MAX_COUNT
    assert [len(table.top) for table in tables] == [60, 200, 1000, 61]
    assert all(table.top == searched.top[: len(table.top)] for table in tables)
