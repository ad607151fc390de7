"""The committed gRPC code is exactly what the proto generates."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2
from grpc_tools import protoc

from guesswork.protos.guesswork.v1 import guesswork_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ["guesswork_pb2.py", "guesswork_pb2.pyi", "guesswork_pb2_grpc.py"]


def test_generated_code_is_up_to_date(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("gen_protos", ROOT / "scripts/gen_protos.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_protos"] = module
    spec.loader.exec_module(module)
    module.generate(tmp_path)
    for name in [f"guesswork/v1/{name}" for name in GENERATED] + list(module.VENDORED):
        fresh = (tmp_path / "protos" / name).read_bytes()
        committed = (ROOT / "protos" / name).read_bytes()
        assert fresh == committed, f"{name} is stale: run `make protos` and commit it"


def test_the_vendored_health_proto_is_the_one_the_server_runs(tmp_path: Path) -> None:
    """protos/grpc/health/v1/health.proto compiles to grpcio-health-checking's messages
    and service, so a client built from it speaks to the server's health service."""
    out = tmp_path / "health.pb"
    include = Path(protoc.__file__).parent / "_proto"
    status = protoc.main(
        [
            "protoc",
            f"-I{ROOT / 'protos'}",
            f"-I{include}",
            f"--descriptor_set_out={out}",
            str(ROOT / "protos/grpc/health/v1/health.proto"),
        ]
    )
    assert status == 0
    (vendored,) = descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes()).file
    for message in [*vendored.message_type, *vendored.message_type[-1].nested_type]:
        for field in message.field:
            field.ClearField("json_name")  # protoc adds it; generated code leaves it out
    served = descriptor_pb2.FileDescriptorProto()
    health_pb2.DESCRIPTOR.CopyToProto(served)
    assert vendored.package == served.package
    assert list(vendored.message_type) == list(served.message_type)
    assert list(vendored.service) == list(served.service)


def test_the_proto_is_registered_under_its_package_path() -> None:
    assert pb.DESCRIPTOR.name == "guesswork/v1/guesswork.proto"
    assert pb.DESCRIPTOR.package == "guesswork.v1"


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
    assert len(requests) == len(responses) == 11
