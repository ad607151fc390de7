"""The README's two commands: `make serve` takes its addresses from make, and both say
what they install before installing it (the venv; Chromium for the browser test)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="no make here")


def dry_run(*args: str) -> list[str]:
    """Return the commands ``make -n`` would run (nothing is run)."""
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()


@needs_make
def test_serve_takes_its_addresses_from_make() -> None:
    serve = [line for line in dry_run("serve") if "guesswork-serve" in line]
    assert serve == [".venv/bin/guesswork-serve --address 127.0.0.1:50051 --http 127.0.0.1:8080"]
    serve = [
        line
        for line in dry_run("serve", "GRPC=0.0.0.0:7000", "HTTP=[::1]:9000")
        if "guesswork-serve" in line
    ]
    assert serve == [".venv/bin/guesswork-serve --address 0.0.0.0:7000 --http [::1]:9000"]


@needs_make
@pytest.mark.parametrize("target", ["serve", "test", "run"])
def test_the_venv_is_announced_before_it_is_made(target: str) -> None:
    # -W: as if pyproject.toml had changed, so the install would run.
    lines = dry_run("-W", "pyproject.toml", target)
    said = next(i for i, line in enumerate(lines) if "installing into .venv" in line)
    made = next(i for i, line in enumerate(lines) if " -m venv " in line)
    assert said < made
    assert "guesswork-solver" in lines[said] and "dependencies" in lines[said]


@needs_make
def test_the_makefile_header_names_real_targets() -> None:
    header = []
    for line in (ROOT / "Makefile").read_text().splitlines():
        if not line.startswith("#"):
            break
        header.append(line)
    named = {word.split("`")[0].split()[0] for word in " ".join(header).split("`make ")[1:]}
    assert {"serve", "test"} <= named
    targets = {line.split(":")[0] for line in (ROOT / "Makefile").read_text().splitlines()}
    assert named <= targets


def executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def test_ensure_browser_says_what_it_installs_first(tmp_path: Path) -> None:
    """The real script, on a PATH where Chromium is missing and apt-get is a stand-in
    that records its call and puts the programs in place (nothing is installed)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    chmod = shutil.which("chmod")
    assert chmod is not None
    log = tmp_path / "apt.log"
    executable(
        bin_dir / "apt-get",
        "#!/bin/sh\n"
        f'echo "apt-get $*" >> {log}\n'
        'echo "apt-get ran"\n'
        f'case "$1" in install) for p in chromium chromedriver; do '
        f'printf "#!/bin/sh\\n" > {bin_dir}/$p; {chmod} +x {bin_dir}/$p; done;; esac\n',
    )
    # Where the tests do not run as root, the script goes through sudo -n.
    executable(bin_dir / "sudo", '#!/bin/sh\n[ "$1" = -n ] && shift\nexec "$@"\n')
    env = {**os.environ, "PATH": str(bin_dir)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "ensure_browser.py")],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    lines = done.stdout.splitlines()
    assert lines[0].startswith("ensure_browser: chromium, chromedriver not found: installing")
    assert "chromium and chromium-driver with apt-get" in lines[0]
    assert "about 505 MB" in lines[0] and "browser test" in lines[0]
    assert lines[1:] == ["apt-get ran", "apt-get ran"]
    assert log.read_text().splitlines() == [
        "apt-get update -q",
        "apt-get install -y -q chromium chromium-driver",
    ]

    # Present now: nothing is said, nothing installed.
    again = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "ensure_browser.py")],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert (again.returncode, again.stdout, again.stderr) == (0, "", "")
    assert len(log.read_text().splitlines()) == 2
