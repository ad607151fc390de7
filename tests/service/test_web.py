"""guesswork-serve --http: the same API as HTTP/JSON (Connect's unary protocol), tested
against a real server on real ports: answers equal gRPC's, every error reason with its
documented status, bad input refused without holding anyone up."""

from __future__ import annotations

import base64
import gc
import gzip
import http.client
import json
import logging
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import error_details_pb2

from guesswork.client.catalog import Catalog
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.server import GuessworkServer, ServerOptions, create_server, start_server
from guesswork.service.web import HTTP_STATUS, connect_code

from .test_contract import UNREACHABLE, _cases
from .test_error_table import _proto_rows
from .test_lifecycle import ENV, free_port

SERVICE = "/guesswork.v1.Guesswork"


class HttpCallError(Exception):
    """A Connect call that failed: its HTTP status and JSON error body."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(f"{status} {body}")
        self.status, self.body = status, body


def post(
    port: int, path: str, body: bytes, headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    """POST ``body`` to ``path``; return (status, response body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        sent = {"Content-Type": "application/json", **(headers or {})}
        connection.request("POST", path, body=body, headers=sent)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def get(port: int, path: str) -> tuple[int, bytes, str]:
    """GET ``path``; return (status, body, content type)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read(), response.getheader("content-type") or ""
    finally:
        connection.close()


class HttpStub:
    """Calls guesswork.v1.Guesswork over HTTP/JSON as a gRPC stub would: a method per RPC,
    taking the request message; a failure raises HttpCallError."""

    def __init__(self, port: int) -> None:
        self.port = port

    def __getattr__(self, method: str) -> Callable[..., Message]:
        response_type = getattr(pb, f"{method}Response")

        def call(request: Message, timeout: float | None = None) -> Message:
            status, body = post(
                self.port, f"{SERVICE}/{method}", json_format.MessageToJson(request).encode()
            )
            if status != 200:
                raise HttpCallError(status, json.loads(body))
            return json_format.Parse(body, response_type())

        return call


class _RawCallsAreGrpcOnly:
    """Stands in for the gRPC channel of test_contract's cases: the ones that send raw
    protobuf bytes have no HTTP form (HTTP's own bad bodies are tested below)."""

    def unary_unary(self, path: str) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError("raw protobuf bytes: gRPC only")

        return call


@pytest.fixture(scope="module")
def web(http_server: GuessworkServer) -> tuple[GuessworkServer, int, int]:
    """The shared --http server, its gRPC port and its HTTP port."""
    assert http_server.http_port is not None
    return http_server, http_server.port, http_server.http_port


def info_of(body: dict[str, Any]) -> error_details_pb2.ErrorInfo:
    """Return the ErrorInfo of a Connect error body (its one detail), checked."""
    (detail,) = body["details"]
    assert detail["type"] == "google.rpc.ErrorInfo"
    value = detail["value"]
    info = error_details_pb2.ErrorInfo.FromString(base64.b64decode(value + "=" * (-len(value) % 4)))
    assert info.domain == "guesswork.v1" and detail["debug"]["reason"] == info.reason
    return info


def _histories(catalog: Catalog, name: str) -> list[list[tuple[str, str]]]:
    """Return every history the policy's tree reaches (each target played to its win)."""
    policy = catalog.policy(name)
    game = policy.game
    seen: dict[tuple[tuple[str, str], ...], None] = {(): None}
    for target in policy.targets:
        history: list[tuple[str, str]] = []
        while True:
            guess = policy.next_guess(history)
            code = game.reply(guess, target)
            history.append((guess, game.format_reply(code)))
            seen.setdefault(tuple(history), None)
            if code == game.win_reply:
                break
    return [list(history) for history in seen]


@pytest.mark.parametrize("name", ["wordle-2309-normal-neg-entropy", "jotto-2309-hard-max"])
def test_every_answer_over_http_equals_the_grpc_one(
    name: str, catalog: Catalog, web: tuple[GuessworkServer, int, int]
) -> None:
    _, grpc_port, http_port = web
    histories = _histories(catalog, name)
    assert len(histories) > len(catalog.policy(name).targets)  # every target, and their way
    with grpc.insecure_channel(f"127.0.0.1:{grpc_port}") as channel:
        stub = pb_grpc.GuessworkStub(channel)
        for history in histories:
            request = pb.SuggestGuessRequest(
                policy=name, history=[pb.Turn(guess=g, reply=r) for g, r in history]
            )
            expected = json_format.MessageToDict(stub.SuggestGuess(request, timeout=30))
            status, body = post(
                http_port, f"{SERVICE}/SuggestGuess", json_format.MessageToJson(request).encode()
            )
            assert (status, json.loads(body)) == (200, expected), history


def test_every_error_reason_has_its_documented_status_over_http(
    web: tuple[GuessworkServer, int, int],
) -> None:
    rows = _proto_rows()
    covered = set()
    for case, call, reason, expected in _cases(HttpStub(web[2]), _RawCallsAreGrpcOnly()):  # type: ignore[arg-type]
        try:
            call()
        except NotImplementedError:
            continue
        except HttpCallError as error:
            info = info_of(error.body)
            code = grpc.StatusCode[rows[info.reason][0]]
            assert error.body["code"] == connect_code(code), case
            assert error.status == HTTP_STATUS[connect_code(code)], case
            assert info.reason == reason, (case, info.reason)
            assert expected.items() <= dict(info.metadata).items(), (case, info.metadata)
            covered.add(info.reason)
            continue
        raise AssertionError(f"{case}: answered instead of refused")
    # The rest have HTTP tests of their own below (MALFORMED_REQUEST: bad bodies).
    rest = {"TOO_MANY_CALLS", "UNAVAILABLE", "MALFORMED_REQUEST"}
    assert set(rows) - covered - set(UNREACHABLE) == rest


def test_too_many_calls_and_unavailable_over_http(catalog: Catalog) -> None:
    options = ServerOptions(address="127.0.0.1:0", http_address="127.0.0.1:0", max_concurrent=1)
    server = create_server(options, catalog)
    assert server.web is not None and server.http_port is not None
    server.web.start()  # serving HTTP, the catalog not loaded yet
    try:
        status, body = post(server.http_port, f"{SERVICE}/ListPolicies", b"{}")
        assert (status, info_of(json.loads(body)).reason) == (503, "UNAVAILABLE")
        assert server.servicer.slots.acquire(blocking=False)  # the one place is taken
        status, body = post(server.http_port, f"{SERVICE}/ListPolicies", b"{}")
        assert (status, info_of(json.loads(body)).reason) == (429, "TOO_MANY_CALLS")
        server.servicer.slots.release()
    finally:
        server.web.stop(0)
        server.grpc_server.stop(0)


@pytest.mark.reliability
def test_unfinished_bodies_hold_no_call_slot(catalog: Catalog) -> None:
    """Issue #42, 2: connections that send a POST's headers and one byte of a
    10-byte body each held a --max-concurrent place while their bodies waited, so
    every other call, gRPC's too, was refused (TOO_MANY_CALLS, 429). Bodies now
    arrive before a call takes its place."""
    options = ServerOptions(address="127.0.0.1:0", http_address="127.0.0.1:0", max_concurrent=4)
    server, _ = start_server(options, catalog)
    assert server.http_port is not None
    stalled: list[socket.socket] = []
    try:
        for _ in range(3 * options.max_concurrent):
            client = socket.create_connection(("127.0.0.1", server.http_port), timeout=30)
            client.sendall(
                f"POST {SERVICE}/SuggestGuess HTTP/1.1\r\nHost: x\r\n"
                "Content-Type: application/json\r\nContent-Length: 10\r\n\r\n{".encode()
            )
            stalled.append(client)
        time.sleep(0.5)  # every stalled body has reached the server
        body = b'{"policy": "wordle-2309-normal-neg-entropy", "history": []}'
        status, answer = post(server.http_port, f"{SERVICE}/SuggestGuess", body)
        assert status == 200 and json.loads(answer)["guess"] == "RAISE"
        with grpc.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            stub = pb_grpc.GuessworkStub(channel)
            reply = stub.SuggestGuess(
                pb.SuggestGuessRequest(policy="wordle-2309-normal-neg-entropy"), timeout=30
            )
        assert reply.guess == "RAISE"
    finally:
        for client in stalled:
            client.close()
        server.stop(0, drain=0)


def test_get_makes_a_suggestion_a_link(web: tuple[GuessworkServer, int, int]) -> None:
    message = json.dumps(
        {
            "policy": "wordle-2309-normal-neg-entropy",
            "history": [{"guess": "raise", "reply": ".Y..."}],
        }
    )
    plain = f"{SERVICE}/SuggestGuess?connect=v1&encoding=json&message={urllib.parse.quote(message)}"
    status, body, kind = get(web[2], plain)
    assert (status, kind) == (200, "application/json") and json.loads(body)["guess"] == "CLOUT"
    packed = base64.urlsafe_b64encode(message.encode()).decode().rstrip("=")
    status, again, _ = get(
        web[2], f"{SERVICE}/SuggestGuess?encoding=json&base64=1&message={packed}"
    )
    assert (status, again) == (200, body)


def test_candidates_and_guaranteed_within_in_json(web: tuple[GuessworkServer, int, int]) -> None:
    """maxCandidates asks for the words left; guaranteedWithin and expectedGuesses are
    there when the tree answers and left out (absent) when the answer is live."""
    request = {
        "policy": "wordle-2309-normal-neg-entropy",
        "history": [{"guess": "raise", "reply": ".Y..."}],
        "maxCandidates": 4,
    }
    status, body = post(web[2], f"{SERVICE}/SuggestGuess", json.dumps(request).encode())
    answer = json.loads(body)
    assert status == 200 and len(answer["candidates"]) == 4 and "candidateWeights" not in answer
    assert answer["candidates"] == sorted(answer["candidates"]) and answer["guaranteedWithin"] > 1
    assert 1 < answer["expectedGuesses"] <= answer["guaranteedWithin"]
    request["history"] = [{"guess": "slate", "reply": ".Y..."}]
    status, body = post(web[2], f"{SERVICE}/SuggestGuess", json.dumps(request).encode())
    live = json.loads(body)
    assert status == 200 and "guaranteedWithin" not in live and "expectedGuesses" not in live


@pytest.mark.parametrize(
    ("body", "headers", "status", "reason", "words"),
    [
        (b"{not json", {}, 400, "MALFORMED_REQUEST", "is not JSON of guesswork.v1.PingRequest"),
        (b"\xff\xfe{}", {}, 400, "MALFORMED_REQUEST", "is not UTF-8"),
        (b'{"polcy": "x"}', {}, 400, "MALFORMED_REQUEST", 'no field named "polcy"'),
        (b"[]", {}, 400, "MALFORMED_REQUEST", "is not JSON of"),
        (b"{}", {"Content-Type": "text/plain"}, 415, "", "Content-Type: application/json"),
        (b"{}", {"Connect-Protocol-Version": "2"}, 400, "", "Connect-Protocol-Version must be 1"),
    ],
)
def test_bad_bodies_get_the_documented_error(
    body: bytes,
    headers: dict[str, str],
    status: int,
    reason: str,
    words: str,
    web: tuple[GuessworkServer, int, int],
) -> None:
    method = "Ping" if b"polcy" not in body else "SuggestGuess"
    got, answer = post(web[2], f"{SERVICE}/{method}", body, headers)
    error = json.loads(answer)
    assert got == status and words in error["message"], error
    assert "Traceback" not in error["message"] and "\n" not in error["message"]
    if reason:
        assert info_of(error).reason == reason


def _read_answer(client: socket.socket) -> str:
    """Return one HTTP answer read from ``client``: its head and Content-Length bytes."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += client.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        body += client.recv(65536)
    return (head + b"\r\n\r\n" + body).decode()


def test_a_huge_body_is_refused_before_it_is_read(web: tuple[GuessworkServer, int, int]) -> None:
    with socket.create_connection(("127.0.0.1", web[2]), timeout=30) as client:
        client.sendall(
            f"POST {SERVICE}/Ping HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            f"Content-Length: {100 << 20}\r\n\r\n".encode()
        )
        answer = _read_answer(client)
    assert answer.startswith("HTTP/1.1 429") and "REQUEST_TOO_LARGE" in answer


def test_paths_methods_health_and_an_oversized_url(web: tuple[GuessworkServer, int, int]) -> None:
    port = web[2]
    status, body, _ = get(port, "/nothing-here")
    assert status == 404 and json.loads(body)["code"] == "not_found"
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("PUT", f"{SERVICE}/Ping", body=b"{}")
    response = connection.getresponse()
    assert response.status == 405 and response.getheader("allow") == "GET, POST"
    connection.close()
    status, body = post(port, "/grpc.health.v1.Health/Check", b"{}")
    assert (status, json.loads(body)) == (200, {"status": "SERVING"})
    # A request line over HEAD_LIMIT: 400 and the connection closed (h11), possibly
    # before the client has finished sending, which then sees a reset.
    with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
        try:
            client.sendall(f"GET {SERVICE}/Ping?message={'x' * 200_000} HTTP/1.1\r\n".encode())
            answer = client.recv(65536)
        except ConnectionResetError:
            answer = b""
    assert answer == b"" or answer.startswith(b"HTTP/1.1 400")
    assert post(port, f"{SERVICE}/Ping", b"{}") == (200, b"{}")  # still serving


@pytest.mark.reliability
def test_a_page_name_too_long_for_the_file_system_is_not_found(
    web: tuple[GuessworkServer, int, int],
) -> None:
    """Issue #42, 9: GET / + 300 characters + .css was a 500 (ENAMETOOLONG)."""
    port = web[2]
    for path in (f"/{'a' * 300}.css", f"/{'b' * 5000}.js"):
        status, body, _ = get(port, path)
        assert status == 404 and json.loads(body)["code"] == "not_found"
    status, _, kind = get(port, "/")
    assert status == 200 and kind.startswith("text/html")


@pytest.mark.reliability
def test_a_lone_surrogate_in_a_json_string_is_a_malformed_request(
    web: tuple[GuessworkServer, int, int],
) -> None:
    """Issue #42, 9: CheckGuess with {"rule": "\\ud800"} was a 500 (a SystemError
    inside protobuf's parser), logged with a traceback each time."""
    body = b'{"policy": "wordle-2309-normal-neg-entropy", "guess": "raise", "rule": "\\ud800"}'
    status, answer = post(web[2], f"{SERVICE}/CheckGuess", body)
    assert status == 400
    assert info_of(json.loads(answer)).reason == "MALFORMED_REQUEST"


@pytest.mark.reliability
def test_a_websocket_upgrade_is_an_ordinary_request(web: tuple[GuessworkServer, int, int]) -> None:
    """Issue #42, 9: an Upgrade: websocket request was a 500 (uvicorn handed the app a
    WebSocket it does not serve); now it is answered as plain HTTP."""
    for path, status in (("/", 200), ("/nothing-here", 404)):
        connection = http.client.HTTPConnection("127.0.0.1", web[2], timeout=30)
        connection.request(
            "GET",
            path,
            headers={
                "Upgrade": "websocket",
                "Connection": "Upgrade",
                "Sec-WebSocket-Version": "13",
                "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            },
        )
        response = connection.getresponse()
        response.read()
        connection.close()
        assert response.status == status


@pytest.mark.reliability
def test_a_get_message_that_is_not_base64url_is_refused(
    web: tuple[GuessworkServer, int, int],
) -> None:
    """Issue #42, 10: ?base64=1&message=!!!! decoded as an empty request (200)."""
    for message in ("!!!!", "e30*", "e3%200"):
        status, body, _ = get(web[2], f"{SERVICE}/Ping?encoding=json&base64=1&message={message}")
        assert status == 400, message
        assert info_of(json.loads(body)).reason == "MALFORMED_REQUEST"
    status, body, _ = get(web[2], f"{SERVICE}/Ping?encoding=json&base64=1&message=e30")
    assert (status, json.loads(body)) == (200, {})  # "{}", base64url without padding


@pytest.mark.reliability
def test_a_call_past_its_connect_timeout_logs_no_traceback(
    web: tuple[GuessworkServer, int, int], caplog: pytest.LogCaptureFixture
) -> None:
    """Issue #42, 9: an expired Connect-Timeout-Ms: 0 on a live answer was a 504 and an
    ERROR with a traceback in the log ("Future exception was never retrieved") each
    time. The call is still a 504; its abandoned work is read, not logged.

    A timeout of 0 is expired on arrival: refused before any work, however quick
    the answer (it used to race a cached answer). A timeout of 1 ms abandons live
    work: each call a history off the stored tree with hundreds of words left,
    none asked before (no cached answer), so none is answered within 1 ms."""

    def body(opener: str) -> bytes:
        history = [{"guess": opener, "reply": "....."}]
        return json.dumps({"policy": "wordle-2309-normal-neg-entropy", "history": history}).encode()

    with caplog.at_level(logging.ERROR):
        for timeout, opener in (("0", "salet"), ("0", "salet"), ("1", "pious"), ("1", "mound")):
            status, answer = post(
                web[2], f"{SERVICE}/SuggestGuess", body(opener), {"Connect-Timeout-Ms": timeout}
            )
            assert status == 504 and json.loads(answer)["code"] == "deadline_exceeded"
        time.sleep(2)  # the abandoned work ends; a future never read is logged when collected
        gc.collect()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text


@pytest.mark.reliability
def test_headers_over_the_documented_limit_are_refused_even_sent_at_once(
    web: tuple[GuessworkServer, int, int],
) -> None:
    """Issue #42, 10: a 70-100 KB header sent in one piece was served (200), though
    the docs say a request line and headers over 64 KiB get 400, the connection
    closed."""
    port = web[2]
    for size, expected in ((40_000, b"HTTP/1.1 200"), (80_000, b"HTTP/1.1 400")):
        with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
            client.sendall(
                f"POST {SERVICE}/Ping HTTP/1.1\r\nHost: x\r\nX-Filler: {'a' * size}\r\n"
                "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".encode()
            )
            answer = _read_answer(client)
            assert answer.encode().startswith(expected), answer[:80]
            if expected.endswith(b"400"):
                assert "connection: close" in answer.lower()
                assert client.recv(1) == b""  # closed by the server


@pytest.mark.reliability
def test_content_length_with_chunked_is_refused_and_the_connection_closed(
    web: tuple[GuessworkServer, int, int],
) -> None:
    """Issue #42, 10: Content-Length with Transfer-Encoding: chunked was parsed as
    chunked with the connection kept open (RFC 9112 6.1: close it)."""
    with socket.create_connection(("127.0.0.1", web[2]), timeout=30) as client:
        client.sendall(
            f"POST {SERVICE}/Ping HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n".encode()
        )
        answer = _read_answer(client)
        assert answer.startswith("HTTP/1.1 400") and "connection: close" in answer.lower()
        assert client.recv(1) == b""
    assert post(web[2], f"{SERVICE}/Ping", b"{}") == (200, b"{}")


@pytest.mark.reliability
def test_a_gzip_body_cut_short_or_followed_by_junk_is_malformed(
    web: tuple[GuessworkServer, int, int],
) -> None:
    """Issue #42, 10: a gzip body with no trailer, or with bytes after it, was 200."""
    whole = gzip.compress(b"{}")
    for body in (whole[:-8], whole + b"junk"):
        status, answer = post(web[2], f"{SERVICE}/Ping", body, {"Content-Encoding": "gzip"})
        assert status == 400 and info_of(json.loads(answer)).reason == "MALFORMED_REQUEST"
    assert post(web[2], f"{SERVICE}/Ping", whole, {"Content-Encoding": "gzip"}) == (200, b"{}")


def test_slow_clients_hold_no_one_up(web: tuple[GuessworkServer, int, int]) -> None:
    """Clients that send half a request and wait: the others are answered meanwhile."""
    port = web[2]
    stalled = []
    for _ in range(50):
        client = socket.create_connection(("127.0.0.1", port), timeout=30)
        client.sendall(
            f"POST {SERVICE}/Ping HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n{".encode()
        )
        stalled.append(client)
    try:
        answers = []

        def ask() -> None:
            answers.append(post(port, f"{SERVICE}/ListPolicies", b"{}")[0])

        threads = [threading.Thread(target=ask) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert answers == [200] * 8
    finally:
        for client in stalled:
            client.close()


def test_the_analysis_picture_is_the_one_analyze_plot_draws(
    web: tuple[GuessworkServer, int, int],
) -> None:
    pytest.importorskip("matplotlib")
    history = [{"guess": "raise", "reply": ".Y..."}, {"guess": "clout", "reply": "G...."}]
    message = json.dumps({"policy": "wordle-2309-normal-neg-entropy", "history": history})
    status, body, kind = get(
        web[2], f"/picture/analysis.svg?encoding=json&message={urllib.parse.quote(message)}"
    )
    assert (status, kind) == (200, "image/svg+xml") and body.startswith(b"<?xml")
    assert b"<svg" in body and b"CLOUT" in body  # the moves are drawn and labelled
    bad = json.dumps({"policy": "chess", "history": history})
    status, body, _ = get(web[2], f"/picture/analysis.svg?message={urllib.parse.quote(bad)}")
    assert status == 404 and info_of(json.loads(body)).reason == "POLICY_NOT_FOUND"


@pytest.mark.parametrize("processes", ["1", "2"])
def test_sigterm_drains_http_too_with_any_number_of_processes(processes: str) -> None:
    """guesswork-serve --http [--processes 2]: both processes answer HTTP behind one
    port, and SIGTERM stops every one of them, exit status 0, the port closed."""
    port, address = free_port(), f"127.0.0.1:{free_port()}"
    command = ["--address", address, "--http", f"127.0.0.1:{port}", "--processes", processes]
    process = subprocess.Popen(
        [sys.executable, "-m", "guesswork.service", *command],
        env=ENV,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    # Said once every process serves (a process still warming would answer NOT_SERVING).
    assert process.stderr.readline().startswith("guesswork-serve: serving ")
    try:
        for _ in range(20):  # connections the kernel spreads over the processes
            assert post(port, "/grpc.health.v1.Health/Check", b"{}") == (
                200,
                b'{"status": "SERVING"}',
            )
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()


def test_gzip_bodies_and_binary_protobuf(web: tuple[GuessworkServer, int, int]) -> None:
    """Connect clients compress requests (gzip) and may send binary protobuf: both are
    served; a body that inflates past the limit is refused, another compression too."""
    port = web[2]
    request = pb.SuggestGuessRequest(policy="wordle-2309-normal-neg-entropy")
    packed = gzip.compress(json_format.MessageToJson(request).encode())
    status, body = post(port, f"{SERVICE}/SuggestGuess", packed, {"Content-Encoding": "gzip"})
    assert status == 200 and json.loads(body)["guess"] == "RAISE"
    binary = {"Content-Type": "application/proto"}
    status, body = post(port, f"{SERVICE}/SuggestGuess", request.SerializeToString(), binary)
    assert status == 200 and pb.SuggestGuessResponse.FromString(body).guess == "RAISE"
    bomb = gzip.compress(b" " * (64 << 20))  # 64 MiB of spaces in about 64 KiB
    status, body = post(port, f"{SERVICE}/Ping", bomb, {"Content-Encoding": "gzip"})
    assert status == 429 and info_of(json.loads(body)).reason == "REQUEST_TOO_LARGE"
    status, body = post(port, f"{SERVICE}/Ping", b"{}", {"Content-Encoding": "br"})
    assert status == 501 and "gzip or identity" in json.loads(body)["message"]
    status, body = post(port, f"{SERVICE}/Ping", b"{}", {"Content-Encoding": "gzip"})
    assert status == 400 and info_of(json.loads(body)).reason == "MALFORMED_REQUEST"
    status, body = post(port, f"{SERVICE}/Ping", b"\xff\x00", binary)
    assert status == 400 and info_of(json.loads(body)).reason == "MALFORMED_REQUEST"


@pytest.mark.reliability
def test_a_body_unfinished_at_sigterm_is_unavailable_without_a_traceback() -> None:
    """Issue #42, 9: a request body still arriving when guesswork-serve got SIGTERM was
    cut by uvicorn at the end of the grace: a 500 and an ERROR traceback. It is now
    answered 503 unavailable (retry elsewhere), its connection closed."""
    port, address = free_port(), f"127.0.0.1:{free_port()}"
    command = ["--address", address, "--http", f"127.0.0.1:{port}", "--grace", "1"]
    process = subprocess.Popen(
        [sys.executable, "-m", "guesswork.service", *command],
        env=ENV,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stderr is not None
    assert process.stderr.readline().startswith("guesswork-serve: serving ")
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=60) as client:
            client.sendall(
                f"POST {SERVICE}/Ping HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                "Content-Length: 10\r\n\r\n{".encode()
            )
            time.sleep(0.5)  # the headers and the first byte have reached the server
            process.send_signal(signal.SIGTERM)
            data = b""
            while chunk := client.recv(65536):  # to the end: the connection is closed
                data += chunk
        answer = data.decode()
        assert answer.startswith("HTTP/1.1 503"), answer[:200]
        assert "connection: close" in answer.lower()
        body = json.loads(answer.partition("\r\n\r\n")[2])
        assert (body["code"], info_of(body).reason) == ("unavailable", "UNAVAILABLE")
    finally:
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate(timeout=60)
    assert process.returncode == 0
    assert "Traceback" not in errors and "Exception in ASGI" not in errors, errors


@pytest.mark.reliability
@pytest.mark.parametrize(
    ("request_bytes", "line"),
    [
        (b"NOT HTTP AT ALL\r\n\r\n", "Invalid HTTP request received."),
        (
            b"GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\n\r\n",
            "Unsupported upgrade request.",
        ),
    ],
)
def test_what_a_client_makes_uvicorn_log_goes_through_the_log_limiter(
    web: tuple[GuessworkServer, int, int],
    caplog: pytest.LogCaptureFixture,
    request_bytes: bytes,
    line: str,
) -> None:
    """Issue #42, 9: uvicorn logged each malformed request and each Upgrade header (two
    lines), untrottled: a flood of them was a flood of log lines. They now go
    through the server's LogLimiter, as our own errors' lines do."""
    server, _, port = web
    server.log_limiter.reset()
    sent = 200
    with caplog.at_level(logging.INFO, logger="uvicorn.error"):
        for _ in range(sent):
            with socket.create_connection(("127.0.0.1", port), timeout=30) as client:
                client.sendall(request_bytes)
                while client.recv(65536):  # read to the end: the server has answered
                    pass
    logged = [r for r in caplog.records if r.name == "uvicorn.error"]
    assert any(r.getMessage().startswith(line) for r in logged)
    assert len(logged) < sent // 2, f"{len(logged)} lines for {sent} requests"
    assert not [r for r in logged if "WebSocket library" in r.getMessage()]
