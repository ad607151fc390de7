"""Layout rules a newcomer relies on: modules small enough to read."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 600


def test_no_module_in_builder_client_service_is_over_600_lines() -> None:
    modules = [
        path
        for package in ("builder", "client", "service")
        for path in (ROOT / package).rglob("*.py")
        if "__pycache__" not in path.parts
    ]
    assert len(modules) > 40  # the glob found the real packages
    sizes = {
        str(p.relative_to(ROOT)): len(p.read_text(encoding="utf-8").splitlines()) for p in modules
    }
    too_long = {name: lines for name, lines in sizes.items() if lines > MAX_LINES}
    assert not too_long, f"split these by concern: {too_long}"
