"""The server tunes glibc's malloc at start unless its environment does (issue #26,
point 10: a soak's resident memory crept and swung with the default arenas and
mapping threshold; benchmarks/bench_soak.py)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.reliability

_TUNE = "from guesswork.service.allocator import tune_allocator; print(tune_allocator())"


def _tuned(**environment: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    done = subprocess.run(
        [sys.executable, "-c", _TUNE],
        env={**env, **environment},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


@pytest.mark.skipif(
    platform.libc_ver()[0] != "glibc", reason="mallopt's settings are glibc's (tested there)"
)
def test_glibc_malloc_is_tuned_unless_the_environment_chose() -> None:
    assert _tuned() == "True"
    assert _tuned(MALLOC_ARENA_MAX="4") == "False"
    assert _tuned(MALLOC_MMAP_THRESHOLD_="65536") == "False"
