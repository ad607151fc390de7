"""One JSON: ``guesswork ... --json`` prints what the HTTP edge answers for the same
request, the response message in the proto's JSON mapping (client.messages.json_text),
with only the keys the command line adds (the policy that answered, the listing's
own keys) beside it. Against a real server on real loopback ports, asked through
``--server`` (gRPC) and in process."""

from __future__ import annotations

import http.client
import json
from typing import Any

import pytest

from guesswork.__main__ import run
from guesswork.client.messages import json_object, json_text
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.service.server import GuessworkServer

SERVICE = "/guesswork.v1.Guesswork"
POLICY = "wordle-2309-normal-neg-entropy"


@pytest.fixture(scope="module")
def ports(http_server: GuessworkServer) -> tuple[int, int]:
    """The shared --http server's gRPC and HTTP ports."""
    assert http_server.http_port is not None
    return http_server.port, http_server.http_port


def http_body(port: int, method: str, request: dict[str, Any]) -> str:
    """POST ``request`` as JSON to ``method``; return the 200 answer's body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        body = json.dumps(request).encode()
        connection.request(
            "POST", f"{SERVICE}/{method}", body, {"Content-Type": "application/json"}
        )
        response = connection.getresponse()
        text = response.read().decode()
    finally:
        connection.close()
    assert response.status == 200, text
    return text


def cli_outputs(capsys: pytest.CaptureFixture[str], grpc_port: int, *args: str) -> list[str]:
    """Return the stdout of ``guesswork ARGS --json`` asked over gRPC and in process."""
    outputs = []
    for where in (["--server", f"127.0.0.1:{grpc_port}"], []):
        status = run([*args, *where, "--json"])
        out, err = capsys.readouterr()
        assert (status, err) == (0, ""), err
        outputs.append(out)
    return outputs


def turns(text: str) -> list[dict[str, str]]:
    """Return ``GUESS:REPLY,...`` as the request's history."""
    pairs = [item.split(":") for item in text.split(",") if item]
    return [{"guess": guess, "reply": reply} for guess, reply in pairs]


@pytest.mark.parametrize(
    "history",
    [
        "",  # stored
        "raise:.Y...,clout:G....",  # stored, with guaranteedWithin and expectedGuesses
        "salet:.Y..Y",  # live
        "raise:.G.Y.,tonal:GY.Y.",  # live over the guess list (TACOS)
        "raise:.Y...,clout:G....,chaff:GGGGG",  # solved
    ],
)
def test_suggest_json_is_the_http_answer_byte_for_byte(
    history: str, ports: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    grpc_port, http_port = ports
    request = {"policy": POLICY, "history": turns(history), "maxAlternatives": 5}
    body = http_body(http_port, "SuggestGuess", request)
    args = ("suggest", "--policy", POLICY, "--history", history)
    for out in cli_outputs(capsys, grpc_port, *args):
        # The HTTP body, then the policy that answered: the one key the CLI adds.
        assert out == body[:-1] + f', "policy": "{POLICY}"}}\n'
    answer = json.loads(body)
    assert {"guess", "remaining", "source"} <= set(answer)
    assert answer["source"].startswith("SOURCE_")


def test_suggest_boards_json_is_the_http_answer(
    ports: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    grpc_port, http_port = ports
    boards = ["raise:.GY..", "raise:....Y"]
    request = {
        "policy": POLICY,
        "boards": [{"history": turns(board)} for board in boards],
        "maxAlternatives": 2,
    }
    body = http_body(http_port, "SuggestBoards", request)
    args = ["suggest", "--policy", POLICY, "--alternatives", "2"]
    for board in boards:
        args += ["--board", board]
    for out in cli_outputs(capsys, grpc_port, *args):
        assert out == body[:-1] + f', "policy": "{POLICY}"}}\n'


def test_analyze_json_is_the_http_answer_with_the_policy_as_named(
    ports: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    grpc_port, http_port = ports
    history = "crane:.....,pilot:.YY.G"
    request = {"policy": POLICY, "history": turns(history), "answer": ""}
    answer = json.loads(http_body(http_port, "AnalyzeGame", request))
    assert answer["policy"] == f"policies/{POLICY}" and "weights" not in answer
    # The CLI's policy is the name --policy takes; its weights are there when empty.
    expected = {**answer, "policy": POLICY, "weights": ""}
    for out in cli_outputs(capsys, grpc_port, "analyze", "--policy", POLICY, "--history", history):
        printed = json.loads(out)
        assert (printed, list(printed)) == (expected, list(expected))


def test_policies_json_is_each_http_policy_with_the_listing_keys(
    ports: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    grpc_port, http_port = ports
    listed = json.loads(http_body(http_port, "ListPolicies", {}))["policies"]
    for out in cli_outputs(capsys, grpc_port, "policies"):
        rows = {row["name"]: row for row in json.loads(out)}
        assert len(rows) == len(listed)
        for policy in listed:
            name = policy["name"].removeprefix("policies/")
            row = rows[name]
            # The keys scripts rely on, as they were: the name --policy takes, the
            # lists' names, the weights on every row (null: alike), and the language.
            kept = {
                "name": name,
                "targets": policy["targetsList"],
                "guesses": policy["guessesList"],
                "weights": policy.get("weights"),
                "language": row["language"],
                "guarantee": row["guarantee"],
            }
            assert row == {**policy, **kept}
            assert {"mode", "worst"} <= set(row)


@pytest.mark.parametrize("command", ["top", "score", "hints"])
def test_bee_json_is_the_http_answer(
    command: str, ports: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    grpc_port, http_port = ports
    if command == "top":
        request = {"wordList": "enable1", "count": 3}
        body = http_body(http_port, "TopHoneycombs", request)
        args = ["bee", "top", "-n", "3"]
    else:
        request = {"letters": "AEGINRT", "center": "R", "wordList": "enable1"}
        body = http_body(http_port, "ScoreHoneycomb", request)
        args = ["bee", command, "--letters", "AEGINRT", "--center", "R"]
    answer = json.loads(body)
    if command == "hints":  # the response's hint tables alone
        answer = {key: answer[key] for key in ("grid", "twoLetterStarts")}
    for out in cli_outputs(capsys, grpc_port, *args):
        # Indented for reading; the same JSON, keys in the same order.
        assert json.dumps(json.loads(out)) == json.dumps(answer)
    if command != "hints":
        assert json.dumps(answer) == body  # the HTTP body was the whole response


def test_a_maps_entries_come_in_key_order() -> None:
    """The proto's JSON mapping leaves a map's order open (protobuf's string-keyed maps
    iterate in a new order in each process): json_object sorts them, so the same
    answer prints the same bytes every time, over HTTP and on the command line."""
    starts = {"ZA": 1, "AB": 2, "MO": 3, "BE": 4}
    response = pb.ScoreHoneycombResponse(two_letter_starts=starts)
    assert list(json_object(response)["twoLetterStarts"]) == ["AB", "BE", "MO", "ZA"]
    histogram = pb.Policy(histogram={10: 1, 2: 5, 7: 3})
    listed = json_object(pb.ListPoliciesResponse(policies=[histogram]))["policies"][0]
    assert list(listed["histogram"]) == ["2", "7", "10"]
    assert json_text(response) == ('{"twoLetterStarts": {"AB": 2, "BE": 4, "MO": 3, "ZA": 1}}')
