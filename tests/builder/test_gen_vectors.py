"""The committed conformance vectors (tests/vectors) are exactly what the script generates."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests/vectors"


def _files(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != "README.md"
    }


def test_vectors_are_up_to_date(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("gen_vectors", ROOT / "scripts/gen_vectors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_vectors"] = module
    spec.loader.exec_module(module)
    module.generate(tmp_path)
    fresh, committed = _files(tmp_path), _files(VECTORS)
    assert sorted(fresh) == sorted(committed), "run `python scripts/gen_vectors.py` and commit"
    for name, data in fresh.items():
        assert data == committed[name], f"{name} is stale: run `python scripts/gen_vectors.py`"
