"""guesswork-serve --http against the Connect protocol's unary rules, case by case
(connectrpc.com/docs/protocol), on a real server on real ports.

The Connect project's conformance suite (connectconformance) is not run: its
runner is a Go program (no Go toolchain here, and neither PyPI nor npm ships
it), and it drives a server that implements its own ConformanceService, not
ours. Instead each unary rule our service can meet is a case below: content
types, the protocol version header, the error JSON and its status, the GET
form, compression both ways, timeouts, unknown procedures, and the same
metadata on every transport.
"""

from __future__ import annotations

import base64
import gzip
import http.client
import json
import urllib.parse
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2
from grpc_status import rpc_status

from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.service.server import GuessworkServer

from .test_web import info_of

SERVICE = "/guesswork.v1.Guesswork"
POLICY = "wordle-2309-normal-neg-entropy"


def call(
    server: GuessworkServer,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
    verb: str = "",
) -> tuple[int, bytes, http.client.HTTPResponse]:
    """Send one request (POST with a body, else GET); return (status, raw body, response)."""
    assert server.http_port is not None
    connection = http.client.HTTPConnection("127.0.0.1", server.http_port, timeout=60)
    try:
        sent = dict(headers or {})
        if body is not None:
            sent.setdefault("Content-Type", "application/json")
            sent["Content-Length"] = str(len(body))
        # Only the headers given: http.client would add Accept-Encoding: identity.
        connection.putrequest(
            verb or ("GET" if body is None else "POST"), path, skip_accept_encoding=True
        )
        for name, value in sent.items():
            connection.putheader(name, value)
        connection.endheaders(body)
        response = connection.getresponse()
        return response.status, response.read(), response
    finally:
        connection.close()


def error_of(status: int, raw: bytes, response: http.client.HTTPResponse) -> dict[str, Any]:
    """Return a Connect error body, checked against the protocol's shape."""
    assert status != 200 and response.getheader("content-type") == "application/json"
    body = json.loads(raw)
    assert isinstance(body["code"], str) and isinstance(body.get("message", ""), str)
    for detail in body.get("details", []):
        assert set(detail) >= {"type", "value"} and "=" not in detail["value"]  # unpadded
    return body


# Content types and the protocol version header.


@pytest.mark.parametrize(
    ("content_type", "body", "answer_type"),
    [
        ("application/json", b"{}", "application/json"),
        ("application/json; charset=utf-8", b"{}", "application/json"),
        ("application/proto", b"", "application/proto"),
    ],
)
def test_each_codec_is_answered_in_kind(
    http_server: GuessworkServer, content_type: str, body: bytes, answer_type: str
) -> None:
    status, _, response = call(http_server, f"{SERVICE}/Ping", body, {"Content-Type": content_type})
    assert (status, response.getheader("content-type")) == (200, answer_type)


def test_another_codec_is_415_and_another_version_400(http_server: GuessworkServer) -> None:
    status, raw, response = call(
        http_server, f"{SERVICE}/Ping", b"{}", {"Content-Type": "application/xml"}
    )
    assert (status, error_of(status, raw, response)["code"]) == (415, "unimplemented")
    status, _, _ = call(http_server, f"{SERVICE}/Ping", b"{}", {"Connect-Protocol-Version": "1"})
    assert status == 200
    status, raw, response = call(
        http_server, f"{SERVICE}/Ping", b"{}", {"Connect-Protocol-Version": "2"}
    )
    assert (status, error_of(status, raw, response)["code"]) == (400, "invalid_argument")


# Errors: the JSON shape, the status of the code.


def test_an_error_is_connects_json_with_the_status_of_its_code(
    http_server: GuessworkServer,
) -> None:
    status, raw, response = call(http_server, f"{SERVICE}/SuggestGuess", b'{"policy": "chess"}')
    body = error_of(status, raw, response)
    assert (status, body["code"]) == (404, "not_found")
    (detail,) = body["details"]
    assert (
        detail["type"] == "google.rpc.ErrorInfo" and detail["debug"]["reason"] == "POLICY_NOT_FOUND"
    )
    assert info_of(body).metadata["policy"] == "chess"


@pytest.mark.reliability
@pytest.mark.parametrize(
    "path",
    [
        f"{SERVICE}/NoSuchMethod",
        "/grpc.health.v1.Health/Watch",
        "/grpc.health.v1.Health/Nope",
        "/acme.v1.Elsewhere/Method",
    ],
)
def test_an_unknown_procedure_is_unimplemented_on_both_transports(
    http_server: GuessworkServer, path: str
) -> None:
    """Issue #42, 11: an unknown method was 404 not_found over HTTP but UNIMPLEMENTED
    over gRPC. Now 404 (as Connect's servers answer an unknown procedure) with code
    unimplemented (what Connect clients infer from a 404, and gRPC's code)."""
    for verb in ("POST", "GET"):
        status, raw, response = call(http_server, path, b"{}" if verb == "POST" else None)
        assert (status, error_of(status, raw, response)["code"]) == (404, "unimplemented")
    if path.endswith("Watch"):
        return  # served over gRPC (a stream: no Connect unary form)
    with (
        grpc.insecure_channel(f"127.0.0.1:{http_server.port}") as channel,
        pytest.raises(grpc.RpcError) as caught,
    ):
        channel.unary_unary(path)(b"", timeout=10)
    assert caught.value.code() == grpc.StatusCode.UNIMPLEMENTED


def test_other_paths_are_not_found_and_other_verbs_405(http_server: GuessworkServer) -> None:
    status, raw, response = call(http_server, "/no/such/page")
    assert (status, error_of(status, raw, response)["code"]) == (404, "not_found")
    status, raw, response = call(http_server, f"{SERVICE}/Ping", b"{}", verb="DELETE")
    assert status == 405 and response.getheader("allow") == "GET, POST"
    assert error_of(status, raw, response)["code"] == "unimplemented"


# The GET form.


def _get_path(method: str, message: bytes, **params: str) -> str:
    return f"{SERVICE}/{method}?" + urllib.parse.urlencode({**params, "message": message})


def test_get_parameters_in_any_order_with_unknown_ones_and_padding(
    http_server: GuessworkServer,
) -> None:
    message = json.dumps({"policy": POLICY}).encode()
    packed = base64.urlsafe_b64encode(message).decode()  # padded: percent-encoded by urlencode
    path = f"{SERVICE}/SuggestGuess?message={urllib.parse.quote(packed)}&x=1&base64=1&encoding=json&connect=v1"
    status, raw, _ = call(http_server, path)
    assert status == 200 and json.loads(raw)["guess"] == "RAISE"
    request = pb.SuggestGuessRequest(policy=POLICY).SerializeToString()
    path = _get_path(
        "SuggestGuess", base64.urlsafe_b64encode(request), encoding="proto", base64="1"
    )
    status, raw, response = call(http_server, path)
    assert (status, response.getheader("content-type")) == (200, "application/proto")
    assert pb.SuggestGuessResponse.FromString(raw).guess == "RAISE"


@pytest.mark.reliability
def test_a_gzip_get_message_is_served(http_server: GuessworkServer) -> None:
    """Issue #42, 11: GET with compression=gzip was refused; Connect-ES sends it for a
    message past 1 KiB (base64url of the gzip bytes)."""
    history = [{"guess": "raise", "reply": ".Y..."}, {"guess": "clout", "reply": "G...."}]
    message = json.dumps({"policy": POLICY, "history": history}).encode()
    packed = base64.urlsafe_b64encode(gzip.compress(message)).rstrip(b"=")
    path = _get_path(
        "SuggestGuess", packed, connect="v1", base64="1", compression="gzip", encoding="json"
    )
    status, raw, _ = call(http_server, path)
    assert (status, raw) == call(http_server, f"{SERVICE}/SuggestGuess", message)[:2]
    assert json.loads(raw)["remaining"] == 2


@pytest.mark.parametrize(
    ("params", "status", "code"),
    [
        ({"encoding": "xml"}, 415, "unimplemented"),
        ({"encoding": "json", "base64": "1", "compression": "br"}, 501, "unimplemented"),
        ({"encoding": "json", "connect": "v2"}, 400, "invalid_argument"),
        ({"encoding": "proto"}, 400, "invalid_argument"),  # binary needs base64=1
    ],
)
def test_get_parameters_the_server_does_not_serve(
    http_server: GuessworkServer, params: dict[str, str], status: int, code: str
) -> None:
    got, raw, response = call(http_server, _get_path("Ping", b"e30", **params))
    body = error_of(got, raw, response)
    assert (got, body["code"]) == (status, code)
    if params.get("compression") == "br":
        assert "gzip" in body["message"]  # the supported ones listed


# Compression.


def test_a_request_compression_not_served_lists_the_ones_that_are(
    http_server: GuessworkServer,
) -> None:
    status, raw, response = call(
        http_server, f"{SERVICE}/Ping", b"{}", {"Content-Encoding": "zstd"}
    )
    body = error_of(status, raw, response)
    assert (status, body["code"]) == (501, "unimplemented") and "gzip" in body["message"]


def test_an_empty_compressed_body_is_not_decompressed(http_server: GuessworkServer) -> None:
    """The protocol: servers must not decompress zero-length request content."""
    status, raw, _ = call(http_server, f"{SERVICE}/Ping", b"", {"Content-Encoding": "gzip"})
    assert (status, raw) == (200, b"{}")


@pytest.mark.reliability
def test_a_large_answer_is_gzip_compressed_for_a_client_that_accepts_it(
    http_server: GuessworkServer,
) -> None:
    """Issue #42, 11: Accept-Encoding: gzip was never honoured (ListPolicies is 51 KB)."""
    path = f"{SERVICE}/ListPolicies"
    status, plain, response = call(http_server, path, b"{}")
    assert status == 200 and response.getheader("content-encoding") in (None, "identity")
    assert len(plain) > 20_000
    for headers in ({"Accept-Encoding": "gzip"}, {"Accept-Encoding": "br, gzip"}):
        status, packed, response = call(http_server, path, b"{}", headers)
        assert status == 200 and response.getheader("content-encoding") == "gzip"
        assert response.getheader("vary") == "Accept-Encoding"
        assert gzip.decompress(packed) == plain and len(packed) < len(plain) // 3
    # A client that compressed its request and named no Accept-Encoding accepts gzip.
    status, packed, response = call(
        http_server, path, gzip.compress(b"{}"), {"Content-Encoding": "gzip"}
    )
    assert response.getheader("content-encoding") == "gzip" and gzip.decompress(packed) == plain
    # A client that refuses gzip by quality gets the answer as it is (Starlette's own
    # middleware compressed whatever mentioned "gzip").
    for refusing in ("gzip;q=0", "identity, gzip; q=0"):
        status, raw, response = call(http_server, path, b"{}", {"Accept-Encoding": refusing})
        assert (status, response.getheader("content-encoding"), raw) == (200, None, plain)
    # A small answer is sent as it is; the compressions a request may use are said.
    status, raw, response = call(http_server, f"{SERVICE}/Ping", b"{}", {"Accept-Encoding": "gzip"})
    assert (status, raw, response.getheader("content-encoding")) == (200, b"{}", None)
    assert response.getheader("accept-encoding") == "gzip"


# Timeouts.


@pytest.mark.reliability
@pytest.mark.parametrize("value", ["abc", "-5", "12345678901", "1.5", "1e3", " "])
def test_a_bad_connect_timeout_is_refused(http_server: GuessworkServer, value: str) -> None:
    """Issue #42, 11: a Connect-Timeout-Ms that is not 1 to 10 digits was silently
    ignored (the call ran without the limit its client meant)."""
    status, raw, response = call(
        http_server, f"{SERVICE}/Ping", b"{}", {"Connect-Timeout-Ms": value}
    )
    body = error_of(status, raw, response)
    assert (status, body["code"]) == (400, "invalid_argument")
    assert "Connect-Timeout-Ms" in body["message"] and info_of(body).reason == "BAD_REQUEST"


def test_a_good_connect_timeout_is_kept(http_server: GuessworkServer) -> None:
    for value in ("5000", "9999999999"):
        status, raw, _ = call(http_server, f"{SERVICE}/Ping", b"{}", {"Connect-Timeout-Ms": value})
        assert (status, raw) == (200, b"{}")


# The same metadata on every transport.


@pytest.mark.reliability
def test_malformed_request_names_the_method_on_every_transport(
    http_server: GuessworkServer,
) -> None:
    """Issue #42, 11: MALFORMED_REQUEST's method metadata was the method over gRPC, the
    message type over HTTP binary and absent over HTTP JSON. A malformed health
    check over HTTP was a 500."""
    full_name = f"{SERVICE}/SuggestGuess"
    with (
        grpc.insecure_channel(f"127.0.0.1:{http_server.port}") as channel,
        pytest.raises(grpc.RpcError) as caught,
    ):
        channel.unary_unary(full_name)(b"\xff\xff\xff", timeout=10)
    status = rpc_status.from_call(caught.value)  # type: ignore[arg-type]
    assert status is not None
    grpc_info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(grpc_info)
    assert (grpc_info.reason, grpc_info.metadata["method"]) == ("MALFORMED_REQUEST", full_name)
    for body, content_type in ((b"\xff\xff\xff", "application/proto"), (b"{x", "application/json")):
        got, raw, response = call(http_server, full_name, body, {"Content-Type": content_type})
        info = info_of(error_of(got, raw, response))
        assert (got, info.reason, info.metadata["method"]) == (400, "MALFORMED_REQUEST", full_name)
    got, raw, response = call(http_server, "/grpc.health.v1.Health/Check", b"{x")
    info = info_of(error_of(got, raw, response))
    assert (got, info.reason) == (400, "MALFORMED_REQUEST")
    assert info.metadata["method"] == "/grpc.health.v1.Health/Check"


def test_health_check_and_list(http_server: GuessworkServer) -> None:
    status, raw, _ = call(
        http_server, "/grpc.health.v1.Health/Check", b'{"service": "guesswork.v1.Guesswork"}'
    )
    assert (status, json.loads(raw)) == (200, {"status": "SERVING"})
    status, raw, _ = call(http_server, "/grpc.health.v1.Health/List", b"{}")
    statuses = json.loads(raw)["statuses"]
    assert status == 200 and statuses[""] == {"status": "SERVING"}
    request = health_pb2.HealthCheckRequest(service="nothing").SerializeToString()
    status, raw, response = call(
        http_server, "/grpc.health.v1.Health/Check", request, {"Content-Type": "application/proto"}
    )
    assert (status, error_of(status, raw, response)["code"]) == (404, "not_found")
