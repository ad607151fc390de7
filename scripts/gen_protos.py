"""Regenerate the Python code for protos/guesswork/v1/guesswork.proto.

Run: python scripts/gen_protos.py [OUTPUT_ROOT]  (default: the repository)
A test regenerates into a temporary folder and compares with the committed files.
"""

from __future__ import annotations

import sys
from pathlib import Path

from grpc_tools import protoc

ROOT = Path(__file__).resolve().parents[1]
PROTO = "protos/guesswork/v1/guesswork.proto"


def generate(output: Path) -> None:
    """Write guesswork_pb2.py, guesswork_pb2.pyi and guesswork_pb2_grpc.py under ``output``."""
    include = Path(protoc.__file__).parent / "_proto"
    status = protoc.main(
        [
            "protoc",
            f"-I{ROOT}",
            f"-I{include}",
            f"--python_out={output}",
            f"--pyi_out={output}",
            f"--grpc_python_out={output}",
            str(ROOT / PROTO),
        ]
    )
    if status != 0:
        raise SystemExit(f"protoc failed with status {status}")
    # protoc names the generated module by its folder (protos.guesswork.v1); the
    # installed distribution has one import root, so the import goes through it.
    grpc_module = output / "protos/guesswork/v1/guesswork_pb2_grpc.py"
    text = grpc_module.read_text()
    grpc_module.write_text(
        text.replace("from protos.guesswork.v1 import", "from guesswork.protos.guesswork.v1 import")
    )


if __name__ == "__main__":
    generate(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
