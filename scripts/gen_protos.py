"""Regenerate the Python code for protos/guesswork/v1/guesswork.proto, and the vendored protos.

Run: python scripts/gen_protos.py [OUTPUT_ROOT]  (default: the repository)
A test regenerates into a temporary folder and compares with the committed files.

The proto is compiled with ``-I protos`` so that its name in the descriptor
pool, and so in server reflection, is its package path
``guesswork/v1/guesswork.proto``. google/rpc/status.proto and
error_details.proto are copied from the installed googleapis-common-protos
(the package the server decodes them with), for clients in other languages.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import google.rpc
from grpc_tools import protoc

ROOT = Path(__file__).resolve().parents[1]
PROTO = "guesswork/v1/guesswork.proto"
#: Protos vendored from googleapis-common-protos, by path under protos/.
VENDORED = ("google/rpc/status.proto", "google/rpc/error_details.proto")


def generate(output: Path) -> None:
    """Write guesswork_pb2.py, guesswork_pb2.pyi and guesswork_pb2_grpc.py under
    ``output``/protos/guesswork/v1, and the vendored protos under ``output``/protos."""
    include = Path(protoc.__file__).parent / "_proto"
    target = output / "protos"
    target.mkdir(parents=True, exist_ok=True)
    status = protoc.main(
        [
            "protoc",
            f"-I{ROOT / 'protos'}",
            f"-I{include}",
            f"--python_out={target}",
            f"--pyi_out={target}",
            f"--grpc_python_out={target}",
            str(ROOT / "protos" / PROTO),
        ]
    )
    if status != 0:
        raise SystemExit(f"protoc failed with status {status}")
    # protoc names the generated module by its folder (guesswork.v1); a relative
    # import finds it beside this file in the checkout and in the installed package.
    grpc_module = target / "guesswork/v1/guesswork_pb2_grpc.py"
    text = grpc_module.read_text()
    grpc_module.write_text(text.replace("from guesswork.v1 import", "from . import"))
    source = Path(next(iter(google.rpc.__path__)))
    for path in VENDORED:
        destination = target / path
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / Path(path).name, destination)


if __name__ == "__main__":
    generate(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
