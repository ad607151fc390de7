"""The distribution as a stranger gets it: no links, a complete package list, and
the CLI run from a wheel and from an sdist in fresh virtualenvs, elsewhere.

``guesswork.builder`` is the folder ``builder/`` by pyproject's package-dir
mapping. What could go wrong: a package folder missing from the list (its
modules silently absent from the wheel), a symbolic link creeping back, data
(the catalog, word lists) left out of the sdist, or the installed copy quietly
importing the checkout instead of itself.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest

from .runnable_docs import examples, run_examples

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SETUPTOOLS = CONFIG["tool"]["setuptools"]
POLICY = "wordle-2309-normal-neg-entropy"


def _folder(package: str) -> Path:
    """The checkout folder of ``package``, by the package-dir mapping."""
    mapping: dict[str, str] = SETUPTOOLS["package-dir"]
    parts = package.split(".")
    for cut in range(len(parts), 0, -1):
        head = ".".join(parts[:cut])
        if head in mapping:
            return ROOT / mapping[head] / Path(*parts[cut:])
    raise AssertionError(f"{package} is under no mapped folder")


def _tracked_files() -> list[str]:
    """Files a clone has: tracked, plus new ones git does not ignore."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    return [name for name in listed.decode().split("\0") if name]


def test_no_symbolic_links_are_tracked() -> None:
    modes = subprocess.run(
        ["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert len(modes) > 100  # git listed the real tree
    links = [line.split("\t")[1] for line in modes if line.startswith("120000")]
    assert links == []


def test_every_package_folder_is_listed_and_every_listed_one_exists() -> None:
    listed = set(SETUPTOOLS["packages"])
    for package in listed:
        assert _folder(package).is_dir(), package
    for package, folder in SETUPTOOLS["package-dir"].items():
        for init in (ROOT / folder).rglob("__init__.py"):
            inner = init.parent.relative_to(ROOT / folder).parts
            assert ".".join([package, *inner]) in listed, f"{init} is not in pyproject's packages"
    # Data-only folders (vendored protos) are packages too, or the wheel lacks them.
    for proto in (ROOT / "protos").rglob("*.proto"):
        inner = proto.parent.relative_to(ROOT / "protos").parts
        assert ".".join(["guesswork.protos", *inner]) in listed, proto


def _clean_checkout(destination: Path) -> Path:
    for name in _tracked_files():
        source = ROOT / name
        if source.is_file():  # a tracked file deleted in the working tree is skipped
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    return destination


def _build(source: Path, outdir: Path, *kinds: str) -> None:
    """Build with the PyPA frontend and this environment's setuptools (no index needed)."""
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--no-isolation",
            *kinds,
            "--outdir",
            str(outdir),
            str(source),
        ],
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]


def _fresh_venv(where: Path) -> Path:
    """A new virtualenv that sees this one's third-party packages but not its guesswork.

    The dependencies (numpy, numba, grpcio...) come from this environment through
    a .pth line, so no index is needed; a .pth line in a plain folder processes no
    further .pth files, so the checkout's editable-install hook stays out.
    """
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return python


def _install(python: Path, artifact: Path, cwd: Path) -> None:
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            str(artifact),
        ],
        capture_output=True,
        text=True,
        cwd=cwd,
    )
    assert installed.returncode == 0, installed.stderr[-3000:]


def _use(python: Path, cwd: Path) -> None:
    """Run the installed commands from ``cwd`` (not the checkout) and check they
    answered from the installed files."""
    bin_dir = python.parent
    env = {**os.environ, "XDG_DATA_HOME": str(cwd / "data"), "PYTHONPATH": ""}
    found = subprocess.run(
        [
            str(python),
            "-c",
            "import guesswork.client.catalog as c, guesswork.builder.cli as b;"
            "from guesswork.client.trust import installed_prover as p;"
            "print(c.__file__); print(b.__file__); print(c.SHIPPED_CATALOG.is_file());"
            "print(p().__module__)",
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    assert found.returncode == 0, found.stderr[-3000:]
    where = found.stdout.split()
    assert all(not path.startswith(str(ROOT)) for path in where[:2]), where
    assert where[2] == "True"
    # The metadata names the builder's proof as the embedding API's prover (client.trust).
    assert where[3] == "guesswork.builder.proof"
    suggestion = subprocess.run(
        [str(bin_dir / "guesswork"), "suggest", "--policy", POLICY, "--history", "", "--json"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    assert suggestion.returncode == 0, suggestion.stderr
    assert json.loads(suggestion.stdout)["guess"] == "RAISE"
    # An off-tree history: the builder's live solver, from the installed copy.
    live = subprocess.run(
        [
            str(bin_dir / "guesswork"),
            "suggest",
            "--policy",
            POLICY,
            "--history",
            "crane:⬛🟨⬛⬛⬛",
            "--json",
        ],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
    )
    assert live.returncode == 0, live.stderr
    assert json.loads(live.stdout)["guess"].isalpha()
    for command in ("guesswork-build", "guesswork-serve"):
        version = subprocess.run(
            [str(bin_dir / command), "--version"], cwd=cwd, env=env, capture_output=True, text=True
        )
        assert version.returncode == 0 and "0.1.0" in version.stdout, version


@pytest.mark.slow
def test_the_wheel_and_the_sdist_install_and_run_elsewhere(tmp_path: Path) -> None:
    checkout = _clean_checkout(tmp_path / "checkout")
    dist = tmp_path / "dist"
    _build(checkout, dist, "--sdist", "--wheel")  # the wheel is built from the sdist
    _build(checkout, tmp_path / "direct", "--wheel")
    (sdist,) = dist.glob("*.tar.gz")
    (wheel_from_sdist,) = dist.glob("*.whl")
    (wheel,) = (tmp_path / "direct").glob("*.whl")
    # The distribution's own name (PyPI's "guesswork" is another project's), and the
    # version written once, in guesswork/__init__.py.
    from guesswork import DISTRIBUTION, __version__

    assert DISTRIBUTION == "guesswork-solver"
    assert wheel.name.startswith(f"guesswork_solver-{__version__}-")
    assert sdist.name == f"guesswork_solver-{__version__}.tar.gz"

    def wheel_files(path: Path) -> set[str]:
        with zipfile.ZipFile(path) as archive:
            return {name for name in archive.namelist() if ".dist-info/" not in name}

    # One wheel whichever way it is built; only the guesswork root, with its data.
    files = wheel_files(wheel)
    assert files == wheel_files(wheel_from_sdist)
    assert {name.split("/")[0] for name in files} == {"guesswork"}
    for data in (
        "guesswork/policies/catalog.sqlite",
        "guesswork/builder/data/wordlists/wordle-answers-2309.txt",
        "guesswork/protos/guesswork/v1/guesswork.proto",
        "guesswork/client/py.typed",
    ):
        assert data in files
    with tarfile.open(sdist) as archive:
        members = archive.getmembers()
    assert any(member.name.endswith("/client/catalog.py") for member in members)
    assert not any(member.issym() or member.islnk() for member in members)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.rmtree(checkout)  # nothing may lean on the checkout the sdist came from
    for label, artifact in (("wheel", wheel), ("sdist", sdist)):
        python = _fresh_venv(tmp_path / f"venv-{label}")
        _install(python, artifact, elsewhere)
        _use(python, elsewhere)
        if label == "wheel":
            # The README's quick starts, verbatim, with this environment's commands
            # first on PATH (as after activating it), from a folder of their own.
            readme = tmp_path / "readme-run"
            readme.mkdir()
            assert run_examples(examples(ROOT / "README.md"), python.parent, readme) == []
