"""guesswork-serve's refusals, each pinned (issue #23's list): one line naming the
option or variable that is wrong, exit status 2, before anything is served."""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import pytest

from guesswork.service.cli import run
from guesswork.service.tls import tls_problem

from .test_lifecycle import self_signed_pair, start_server

PROG = "guesswork-serve: error: "


def refusal(
    argv: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    status: int = 2,
    **env: str,
) -> str:
    """Run guesswork-serve with ``argv`` and ``env``; return its one error line (the exit
    ``status`` asserted: 2 for an option, 1 for an address that cannot be bound)."""
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert run(argv) == status
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(PROG), captured.err
    assert captured.out == ""
    return lines[0].removeprefix(PROG)


@pytest.mark.reliability
@pytest.mark.parametrize("value", ["600000000", str(2**31)])
def test_a_request_limit_past_the_transports_is_refused_in_one_line(
    value: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #42, 12: --max-request-bytes 600000000 printed a 26-line OverflowError
    traceback from gRPC (its message limit, four times this, is a C int)."""
    line = refusal(["--max-request-bytes", value, "--address", "127.0.0.1:0"], capsys, monkeypatch)
    assert line == (
        f"argument --max-request-bytes: must be a whole number from 1 to 536870911, not {value!r}"
    )


@pytest.mark.parametrize(
    ("argv", "env", "expected"),
    [
        (
            [],
            {"GUESSWORK_PROCESSES": "abc"},
            "$GUESSWORK_PROCESSES: must be a whole number of at least 1, not 'abc'",
        ),
        (
            [],
            {"GUESSWORK_GRACE": "-1"},
            "$GUESSWORK_GRACE: must be a number of seconds, 0 or more, not '-1'",
        ),
        (
            [],
            {"GUESSWORK_LOG_LEVEL": "chatty"},
            "$GUESSWORK_LOG_LEVEL: must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, "
            "not 'chatty'",
        ),
        (
            [],
            {"GUESSWORK_REUSE_PORT": "maybe"},
            "$GUESSWORK_REUSE_PORT: must be 1/true/yes or 0/false/no, not 'maybe'",
        ),
        (
            ["--processes", "0"],
            {},
            "argument --processes: must be a whole number of at least 1, not '0'",
        ),
        (
            ["--max-concurrent", "-1"],
            {},
            "argument --max-concurrent: must be a whole number of at least 1, not '-1'",
        ),
        (
            ["--cache-entries", "1.5"],
            {},
            "argument --cache-entries: must be a whole number of at least 0, not '1.5'",
        ),
        (
            ["--grace", "abc"],
            {},
            "argument --grace: must be a number of seconds, 0 or more, not 'abc'",
        ),
        (
            ["--reload-interval", "inf"],
            {},
            "argument --reload-interval: must be a number of seconds, 0 or more, not 'inf'",
        ),
        (
            ["--log-level", "LOUD"],
            {},
            "argument --log-level: must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, "
            "not 'LOUD'",
        ),
        (
            ["--tls-key", "key.pem"],
            {},
            "--tls-key needs --tls-cert too: TLS takes a certificate and its private key",
        ),
    ],
)
def test_a_bad_option_or_variable_is_named_in_one_line(
    argv: list[str],
    env: dict[str, str],
    expected: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert refusal(argv, capsys, monkeypatch, **env) == expected


def test_a_value_from_the_environment_is_named_as_its_variable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    line = refusal([], capsys, monkeypatch, 1, GUESSWORK_ADDRESS="localhost")
    assert line == "$GUESSWORK_ADDRESS 'localhost' is not HOST:PORT (e.g. 127.0.0.1:50051)"
    missing = tmp_path / "none.pem"
    line = refusal(
        ["--tls-key", str(missing)], capsys, monkeypatch, GUESSWORK_TLS_CERT=str(missing)
    )
    assert line == f"$GUESSWORK_TLS_CERT '{missing}': no such file"


def test_a_flag_wins_over_a_malformed_variable(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The variable is never read when the flag is given, so it cannot stop start-up.
    monkeypatch.setenv("GUESSWORK_PROCESSES", "abc")
    assert refusal(["--processes", "0"], capsys, monkeypatch).startswith("argument --processes")


def test_help_shows_every_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        run(["--help"])
    assert ended.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    text = text[text.index("options:") :]  # past the usage lines
    for option, default in (
        ("--max-concurrent", "default: 64"),
        ("--grace", "default: 5.0"),
        ("--cache-entries", "default: 20000"),
        ("--reload-interval", "default: 2.0"),
        ("--processes", "default: 1"),
        ("--log-level", "default: INFO"),
        ("--address", "default: 127.0.0.1:50051"),
    ):
        said = text[text.index(f"{option} ") :]
        end = said.find(" --", 2)
        assert default in (said[:end] if end > 0 else said), option
    assert "default: None" not in text


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl makes the test certificates")
def test_bad_tls_files_are_named_before_grpc_sees_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    cert, key = self_signed_pair(tmp_path, "one")
    other_cert, other_key = self_signed_pair(tmp_path, "two")
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    missing = tmp_path / "nokey.pem"
    assert tls_problem(str(cert), str(key)) is None
    cases = [
        (
            (junk, key),
            f"--tls-cert '{junk}': not a PEM file with a certificate "
            "(no '-----BEGIN CERTIFICATE-----' line)",
        ),
        ((cert, missing), f"--tls-key '{missing}': no such file"),
        ((cert, tmp_path), f"--tls-key '{tmp_path}': is a folder, not a PEM file"),
        (
            (cert, cert),
            f"--tls-key '{cert}': not a PEM file with a private key (no 'PRIVATE KEY-----' line)",
        ),
        (
            (cert, other_key),
            f"--tls-key '{other_key}' is not the private key of --tls-cert '{cert}'",
        ),
    ]
    for (certificate, private), expected in cases:
        argv = [
            "--address",
            "127.0.0.1:0",
            "--tls-cert",
            str(certificate),
            "--tls-key",
            str(private),
        ]
        assert refusal(argv, capsys, monkeypatch) == expected
    assert other_cert.exists()


def test_the_serving_line_is_printed_once() -> None:
    process, address = start_server("--log-level", "INFO")
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 0
    serving = [line for line in stderr.splitlines() if "serving" in line]
    assert len(serving) == 1, stderr
    assert serving[0].startswith("guesswork-serve: serving ") and serving[0].endswith(address)
