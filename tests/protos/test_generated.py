"""The committed gRPC code is exactly what the proto generates."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ["guesswork_pb2.py", "guesswork_pb2.pyi", "guesswork_pb2_grpc.py"]


def test_generated_code_is_up_to_date(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("gen_protos", ROOT / "scripts/gen_protos.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_protos"] = module
    spec.loader.exec_module(module)
    module.generate(tmp_path)
    for name in GENERATED:
        fresh = (tmp_path / "protos/guesswork/v1" / name).read_bytes()
        committed = (ROOT / "protos/guesswork/v1" / name).read_bytes()
        assert fresh == committed, f"{name} is stale: run `make protos` and commit it"


def test_every_rpc_has_its_own_messages_and_every_field_a_comment() -> None:
    text = (ROOT / "protos/guesswork/v1/guesswork.proto").read_text()
    lines = text.splitlines()
    requests, responses = set(), set()
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("rpc "):
            request = stripped.split("(")[1].split(")")[0]
            response = stripped.split("returns (")[1].split(")")[0]
            assert request.endswith("Request") and response.endswith("Response"), stripped
            requests.add(request)
            responses.add(response)
        is_field = (
            "=" in stripped
            and stripped.endswith(";")
            and not stripped.startswith(("option", "syntax"))
        )
        if is_field:
            assert lines[number - 1].strip().startswith("//"), f"line {number + 1} has no comment"
    assert len(requests) == len(responses) == 9
