"""One error table: the reasons in code, the status table, the proto and the docs agree.

And anything the table does not list (any other exception, a bare
GuessworkError) goes out as INTERNAL with reason INTERNAL, logged at ERROR,
without taking the server down.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any, NoReturn

import grpc
import pytest
from google.rpc import error_details_pb2
from grpc_status import rpc_status

import guesswork.builder.cli
import guesswork.service.server
from guesswork.builder.errors import SearchError, WordListError
from guesswork.client import errors
from guesswork.client.errors import (
    GuessworkError,
    InvalidReplyError,
    PolicyError,
    PolicyFormatError,
    error_for_reason,
)
from guesswork.client.remote import error_from_rpc
from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb
from guesswork.protos.guesswork.v1 import guesswork_pb2_grpc as pb_grpc
from guesswork.service.bee import BeeAnswers
from guesswork.service.errors import INTERNAL_REASON, STATUS_TABLE, LogLimiter, status_for
from guesswork.service.server import GuessworkServer

ROOT = Path(__file__).resolve().parents[2]
PROTO = ROOT / "protos/guesswork/v1/guesswork.proto"
DOCS_PAGE = ROOT / "docs" / "asking.rst"
GENERIC_MESSAGE = "internal error; the server log has the details"
#: Importing these imports every module that defines an error class.
DEFINING_MODULES = (guesswork.builder.cli, guesswork.service.server)

#: Log levels each status may have: the caller's mistakes at INFO, load at
#: WARNING, the server's own failures at ERROR.
LEVELS = {
    grpc.StatusCode.NOT_FOUND: {logging.INFO},
    grpc.StatusCode.INVALID_ARGUMENT: {logging.INFO},
    grpc.StatusCode.FAILED_PRECONDITION: {logging.INFO},
    grpc.StatusCode.RESOURCE_EXHAUSTED: {logging.WARNING},
    grpc.StatusCode.UNAVAILABLE: {logging.WARNING},
    grpc.StatusCode.UNIMPLEMENTED: {logging.ERROR},
    grpc.StatusCode.INTERNAL: {logging.ERROR},
}


def _all_error_classes() -> list[type[GuessworkError]]:
    """Return GuessworkError and every subclass of it defined so far, walked from the root."""
    found: list[type[GuessworkError]] = []
    pending: list[type[GuessworkError]] = [GuessworkError]
    while pending:
        cls = pending.pop()
        if cls not in found:
            found.append(cls)
            pending.extend(cls.__subclasses__())
    return found


def _client_error_classes() -> list[type[GuessworkError]]:
    return [cls for cls in _all_error_classes() if cls.__module__ == errors.__name__]


def _code_reasons() -> dict[str, str]:
    """Return {reason: class name} for every reason a class of client.errors defines."""
    return {
        cls.__dict__["reason"]: cls.__name__
        for cls in _client_error_classes()
        if "reason" in cls.__dict__
    }


def _table() -> dict[str, str]:
    """Return {reason: status name} from the status table, INTERNAL included."""
    table = {cls.reason: code.name for cls, (code, _) in STATUS_TABLE.items()}
    table[INTERNAL_REASON] = grpc.StatusCode.INTERNAL.name
    return table


def _proto_rows() -> dict[str, tuple[str, set[str]]]:
    """Return {reason: (status name, metadata keys promised)} from the table in the
    proto's header comment (continuation lines of a row's meaning are skipped)."""
    lines = PROTO.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"//\s+reason\s+status", line))
    rows: dict[str, tuple[str, set[str]]] = {}
    for line in lines[start + 1 :]:
        if re.fullmatch(r"//\s{20,}\S.*", line):
            continue
        row = re.match(r"//\s+([A-Z][A-Z_]*)\s+([A-Z][A-Z_]*)\s+(\S+)(\s|$)", line)
        if row is None:
            break
        assert row.group(1) not in rows, f"the proto lists {row.group(1)} twice"
        keys = set() if row.group(3) == "-" else set(row.group(3).split(","))
        rows[row.group(1)] = (row.group(2), keys)
    return rows


def _proto_table() -> dict[str, str]:
    """Return {reason: status name} from the list in the proto's header comment."""
    return {reason: status for reason, (status, _) in _proto_rows().items()}


def promised_keys(reason: str) -> set[str]:
    """Return the ErrorInfo metadata keys the proto promises for ``reason``."""
    return _proto_rows()[reason][1]


def _docs_table() -> dict[str, str]:
    """Return {reason: status name} from the error table of docs/asking.rst (a list-table
    whose rows are a reasons cell, a status cell and a log level cell)."""
    lines = DOCS_PAGE.read_text().splitlines()
    start = lines.index("   * - reason")
    table: dict[str, str] = {}
    rows = lines[start + 3 :]
    for index in range(0, len(rows), 3):
        if not rows[index].startswith("   * - "):
            break
        reasons, status = rows[index], rows[index + 1].removeprefix("     - ").strip()
        for reason in re.findall(r"``([A-Z_]+)``", reasons):
            table[reason] = status
    return table


def test_reasons_in_code_equal_the_table_equal_the_proto() -> None:
    code = set(_code_reasons())
    table = _table()
    assert code == set(table), "every reason of client.errors needs a row (and only those)"
    assert _proto_table() == table, "update the reason list at the top of guesswork.proto"
    assert _docs_table() == table, "update the error table in docs/asking.rst"


def test_the_walk_finds_every_class_of_client_errors() -> None:
    defined = {
        value
        for value in vars(errors).values()
        if isinstance(value, type) and issubclass(value, GuessworkError)
    }
    assert set(_client_error_classes()) == defined


def test_the_table_lists_concrete_classes_each_with_its_own_reason() -> None:
    assert GuessworkError not in STATUS_TABLE and PolicyError not in STATUS_TABLE
    reasons = [cls.__dict__.get("reason") for cls in STATUS_TABLE]
    assert None not in reasons, "a row's class must define its reason, not inherit one"
    assert len(set(reasons)) == len(reasons)
    assert INTERNAL_REASON not in reasons
    for cls in STATUS_TABLE:
        assert cls.__module__ == errors.__name__, f"{cls.__name__} belongs in client.errors"
        assert error_for_reason(cls.reason) is cls, "the remote client must get the class back"
    assert error_for_reason(INTERNAL_REASON) is GuessworkError


def test_only_client_errors_define_reasons() -> None:
    """A reason defined elsewhere (builder, service) would be sent by no row."""
    elsewhere = [
        f"{cls.__module__}.{cls.__name__}"
        for cls in _all_error_classes()
        if "reason" in cls.__dict__ and cls.__module__ != errors.__name__
    ]
    assert elsewhere == []


@pytest.mark.parametrize("cls", list(STATUS_TABLE), ids=lambda cls: cls.__name__)
def test_each_row_has_a_level_that_fits_its_status(cls: type[GuessworkError]) -> None:
    code, reason, level = status_for(cls("message"))
    assert (code, reason) == (STATUS_TABLE[cls][0], cls.reason)
    assert level in LEVELS[code], f"{cls.__name__}: {code.name} at {logging.getLevelName(level)}"


class _OddReplyError(InvalidReplyError):
    """A subclass no row lists (and that defines no reason) gets its base's row."""


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (RuntimeError("bug"), (grpc.StatusCode.INTERNAL, INTERNAL_REASON, logging.ERROR)),
        (KeyError("bug"), (grpc.StatusCode.INTERNAL, INTERNAL_REASON, logging.ERROR)),
        (ValueError("bug"), (grpc.StatusCode.INTERNAL, INTERNAL_REASON, logging.ERROR)),
        (GuessworkError("bare"), (grpc.StatusCode.INTERNAL, INTERNAL_REASON, logging.ERROR)),
        (PolicyError("bare"), (grpc.StatusCode.INTERNAL, INTERNAL_REASON, logging.ERROR)),
        (WordListError("build"), (grpc.StatusCode.INTERNAL, INTERNAL_REASON, logging.ERROR)),
        (SearchError("build"), (grpc.StatusCode.INTERNAL, INTERNAL_REASON, logging.ERROR)),
        (
            PolicyFormatError("damaged"),
            (grpc.StatusCode.INTERNAL, "BAD_POLICY_DATA", logging.ERROR),
        ),
        (
            _OddReplyError("odd"),
            (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_REPLY", logging.INFO),
        ),
    ],
    ids=lambda value: type(value).__name__ if isinstance(value, BaseException) else None,
)
def test_anything_not_in_the_table_is_internal(
    error: BaseException, expected: tuple[grpc.StatusCode, str, int]
) -> None:
    assert status_for(error) == expected


def _status(error: grpc.RpcError) -> tuple[grpc.StatusCode, str, str, str]:
    status = rpc_status.from_call(error)
    info = error_details_pb2.ErrorInfo()
    assert status is not None and status.details[0].Unpack(info)
    return error.code(), info.reason, info.domain, error.details()


@pytest.mark.parametrize(
    "raised", [RuntimeError("secret detail"), GuessworkError("secret detail")], ids=repr
)
def test_an_unexpected_error_in_a_handler_is_internal_and_the_server_goes_on(
    server: tuple[GuessworkServer, int],
    stub: pb_grpc.GuessworkStub,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    raised: BaseException,
) -> None:
    def broken(*args: Any, **kwargs: Any) -> NoReturn:
        raise type(raised)(*raised.args)

    assert server[0].log_limiter is not None
    server[0].log_limiter.reset()
    monkeypatch.setattr(BeeAnswers, "top", broken)
    # A list no other test asks for, so no cached response answers instead.
    request = pb.TopHoneycombsRequest(word_list="error-table-test", count=1)
    # More failing calls than the concurrency limit (64): none may keep its slot.
    with caplog.at_level(logging.INFO, logger="guesswork.service"):
        for _ in range(70):
            with pytest.raises(grpc.RpcError) as caught:
                stub.TopHoneycombs(request)
            assert _status(caught.value) == (
                grpc.StatusCode.INTERNAL,
                INTERNAL_REASON,
                "guesswork.v1",
                GENERIC_MESSAGE,
            )
    assert type(error_from_rpc(caught.value)) is GuessworkError
    logged = [r for r in caplog.records if r.name == "guesswork.service"]
    # A flood is logged a few lines a second (LogLimiter), the rest counted.
    assert LogLimiter().burst <= len(logged) < 70
    assert all(r.levelno == logging.ERROR for r in logged)
    assert all(r.exc_info is not None and type(r.exc_info[1]) is type(raised) for r in logged)
    assert "TopHoneycombs -> INTERNAL INTERNAL: secret detail" in logged[0].getMessage()

    monkeypatch.undo()
    stub.Ping(pb.PingRequest())
    assert len(stub.TopHoneycombs(pb.TopHoneycombsRequest(count=2)).honeycombs) == 2
