"""The user catalog: builds go there, never to the shipped file; lookups see both layered."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from guesswork.builder.cli import run
from guesswork.builder.publish import StoredPolicy, export_bytes, publish_catalog
from guesswork.client.catalog import (
    SHIPPED_CATALOG,
    catalog_files,
    open_catalog,
    open_layered,
    open_store,
    user_catalog,
)
from guesswork.client.errors import PolicyFormatError

ROOT = Path(__file__).resolve().parents[2]
FIRST = "crane slate trace roast piano doubt might lousy bails fails\n"
SECOND = "wails tails sails rails pails nails hails mound sound round\n"


@pytest.fixture
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh per-user data folder: the user catalog is data_home/guesswork/catalog.sqlite."""
    home = tmp_path / "data"
    monkeypatch.delenv("GUESSWORK_CATALOG", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _git_status() -> str | None:
    """Return `git status --porcelain` of the repository, or None where git is unavailable."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        return None
    result = subprocess.run(
        ["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    return result.stdout if result.returncode == 0 else None


def test_user_catalog_location(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("GUESSWORK_CATALOG", str(tmp_path / "mine.sqlite"))
    assert user_catalog() == tmp_path / "mine.sqlite"
    monkeypatch.delenv("GUESSWORK_CATALOG")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert user_catalog() == tmp_path / "guesswork/catalog.sqlite"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the XDG rule
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert user_catalog() == tmp_path / "home/.local/share/guesswork/catalog.sqlite"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert catalog_files() == [SHIPPED_CATALOG, user_catalog()]
    assert catalog_files(tmp_path / "x.sqlite") == [tmp_path / "x.sqlite"]


def test_a_build_from_a_fresh_checkout_leaves_the_repository_clean(tmp_path: Path) -> None:
    """The acceptance run: build, list, remove, as a new user would, in fresh processes."""
    data_home = tmp_path / "data"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "XDG_DATA_HOME": str(data_home),
        "HOME": str(tmp_path / "home"),
    }
    env.pop("GUESSWORK_CATALOG", None)
    (tmp_path / "my.txt").write_text(FIRST)
    shipped, status = _digest(SHIPPED_CATALOG), _git_status()

    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", *args],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    built = command("guesswork.builder", "build", "--targets", "my.txt", "--quiet")
    assert built.returncode == 0, built.stderr
    assert (data_home / "guesswork/catalog.sqlite").is_file()
    assert _digest(SHIPPED_CATALOG) == shipped
    assert _git_status() == status
    listed = command("guesswork", "policies", "--json")
    assert listed.returncode == 0, listed.stderr
    rows = {row["name"]: row for row in json.loads(listed.stdout)}
    assert rows["wordle-my-normal-neg-entropy"]["catalog"] == "user"
    assert rows["wordle-2309-normal-neg-entropy"]["catalog"] == "shipped"
    text = command("guesswork", "policies").stdout.splitlines()
    assert any(
        line.startswith("wordle-my-normal-neg-entropy") and line.endswith("user") for line in text
    )
    removed = command("guesswork.builder", "remove", "wordle-my-normal-neg-entropy")
    assert removed.returncode == 0, removed.stderr
    names = [row["name"] for row in json.loads(command("guesswork", "policies", "--json").stdout)]
    assert "wordle-my-normal-neg-entropy" not in names and "wordle-2309-normal-neg-entropy" in names
    assert _digest(SHIPPED_CATALOG) == shipped
    assert _git_status() == status


def test_same_stem_and_stdin_builds_never_replace_silently(
    data_home: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a/words.txt").write_text(FIRST)
    (tmp_path / "b/words.txt").write_text(SECOND)
    assert run(["build", "--targets", str(tmp_path / "a/words.txt"), "--quiet"]) == 0
    capsys.readouterr()
    assert run(["build", "--targets", str(tmp_path / "b/words.txt"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "'wordle-words-normal-neg-entropy' is already in" in err and "--name" in err
    assert err.count("\n") == 1
    assert (
        run(
            [
                "build",
                "--targets",
                str(tmp_path / "b/words.txt"),
                "--quiet",
                "--name",
                "second-words",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["name"] == "second-words"
    monkeypatch.setattr(sys, "stdin", open(tmp_path / "a/words.txt"))  # noqa: SIM115
    assert run(["build", "--targets", "-", "--quiet"]) == 0
    monkeypatch.setattr(sys, "stdin", open(tmp_path / "b/words.txt"))  # noqa: SIM115
    assert run(["build", "--targets", "-", "--quiet"]) == 2
    assert "'wordle-stdin-normal-neg-entropy' is already in" in capsys.readouterr().err
    with open_catalog(user_catalog()) as mine:
        first = mine.policy("wordle-words-normal-neg-entropy")
        assert sorted(first.targets) == sorted(FIRST.upper().split())
        assert sorted(mine.policy("second-words").targets) == sorted(SECOND.upper().split())
    # --replace overwrites on purpose.
    assert run(["build", "--targets", str(tmp_path / "b/words.txt"), "--quiet", "--replace"]) == 0
    with open_catalog(user_catalog()) as mine:
        replaced = mine.policy("wordle-words-normal-neg-entropy")
        assert sorted(replaced.targets) == sorted(SECOND.upper().split())
    assert run(["build", "--name", "Bad Name", "--quiet"]) == 2
    assert "--name 'Bad Name'" in capsys.readouterr().err


def test_name_on_import_and_optimize(
    data_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "few.txt").write_text(FIRST)
    assert (
        run(
            [
                "optimize",
                "--targets",
                str(tmp_path / "few.txt"),
                "--publish",
                "--quiet",
                "--name",
                "few-best",
                "--output",
                str(tmp_path / "few.gwp"),
                "--workers",
                "1",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)["name"] == "few-best"
    assert run(["import", str(tmp_path / "few.gwp")]) == 2  # the same name again
    assert "'few-best' is already in" in capsys.readouterr().err
    assert run(["import", str(tmp_path / "few.gwp"), "--name", "few-again"]) == 0
    # A renamed core re-verifies, certificate included.
    assert run(["verify", "--catalog", str(user_catalog())]) == 0
    capsys.readouterr()
    with open_catalog(user_catalog()) as mine:
        assert mine.names() == ["few-again", "few-best"]
        again, best = mine.policy("few-again"), mine.policy("few-best")
        assert again.data.certificate == best.data.certificate
        assert [again.play(t) for t in again.targets] == [best.play(t) for t in best.targets]


def test_the_users_policy_wins_a_name_clash_and_remove_restores_the_shipped_one(
    data_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "wordle-2309-hard-max"
    (tmp_path / "few.txt").write_text(FIRST)
    build = ["build", "--targets", str(tmp_path / "few.txt"), "--name", name, "--quiet"]
    # Issue #23: a shipped policy's name is refused unless --replace says so.
    assert run(build) == 2
    err = capsys.readouterr().err
    assert f"policy '{name}' is a shipped policy's name" in err and "--replace" in err
    assert err.count("\n") == 1
    with open_layered() as both:
        assert both.origin(name) == "shipped"  # nothing was written
    assert run([*build, "--replace"]) == 0
    capsys.readouterr()
    with open_layered() as both, open_catalog(SHIPPED_CATALOG) as shipped:
        assert both.policy(name).targets != shipped.policy(name).targets
        assert len(both) == len(shipped)
        rows = {info.name: info for info in both.list()}
        assert rows[name].catalog == "user"
        assert {info.catalog for n, info in rows.items() if n != name} == {"shipped"}
    with open_store() as default:  # what `guesswork --store` opens by default
        assert default.origin(name) == "user"
    assert run(["list", "--json"]) == 0
    rows = {row["name"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows[name]["catalog"] == "user" and rows[name]["hides"] == "shipped"
    assert rows["jotto-2309-hard-max"]["catalog"] == "shipped"
    assert "hides" not in rows["jotto-2309-hard-max"]
    assert run(["list"]) == 0
    (line,) = [row for row in capsys.readouterr().out.splitlines() if row.startswith(name)]
    assert line.endswith("user (answers in place of the shipped one)")
    assert run(["remove", name]) == 0
    capsys.readouterr()
    assert run(["remove", name]) == 1  # now only shipped: remove never touches it
    err = capsys.readouterr().err
    assert "is a shipped policy" in err and err.count("\n") == 1
    assert run(["remove", "no-such-policy"]) == 1
    assert "no policy 'no-such-policy'" in capsys.readouterr().err
    with open_layered() as both:
        assert both.origin(name) == "shipped"


def test_the_shipped_catalog_is_written_only_when_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    shipped = _digest(SHIPPED_CATALOG)
    monkeypatch.setenv("GUESSWORK_CATALOG", str(SHIPPED_CATALOG))
    for args in (["build", "--quiet"], ["remove", "wordle-2309-hard-max"]):
        assert run(args) == 2
        assert "written only when named with --catalog" in capsys.readouterr().err
    monkeypatch.setenv("GUESSWORK_CATALOG", str(tmp_path / "mine.sqlite"))
    assert run(["build-all", "--quiet"]) == 2
    assert "--catalog" in capsys.readouterr().err
    assert _digest(SHIPPED_CATALOG) == shipped


def test_a_catalog_that_is_a_directory_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["list", "--catalog", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "is a directory" in err and "no such" not in err
    with pytest.raises(PolicyFormatError, match="is a directory"):
        open_store(tmp_path)
    assert run(["build", "--catalog", str(tmp_path), "--quiet"]) == 1
    assert "is a directory" in capsys.readouterr().err


def test_a_broken_user_catalog_is_reported_not_ignored(data_home: Path) -> None:
    path = user_catalog()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"junk")
    with pytest.raises(PolicyFormatError, match=str(path)):
        open_layered()


def test_publish_removes_what_killed_publishes_left_journals_included(tmp_path: Path) -> None:
    with open_catalog(SHIPPED_CATALOG) as shipped:
        policy = StoredPolicy.from_policy(shipped.policy("wordle-2309-hard-max"))
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # its pid is free: what a killed publish leaves behind
    alive = os.getppid()  # a publish still running elsewhere keeps its files
    sides = ["", "-journal", "-wal", "-shm"]
    strays = [tmp_path / f".catalog.sqlite.{dead.pid}.tmp{side}" for side in sides]
    kept = [tmp_path / f".catalog.sqlite.{alive}.tmp{side}" for side in sides]
    unrelated = tmp_path / ".catalog.sqlite.notes"
    for path in [*strays, *kept, unrelated]:
        path.write_bytes(b"partial")
    publish_catalog(str(tmp_path / "catalog.sqlite"), [policy])
    assert not [path for path in strays if path.exists()]
    assert all(path.exists() for path in [*kept, unrelated])
    with open_catalog(tmp_path / "catalog.sqlite") as published:
        assert published.names() == ["wordle-2309-hard-max"]
        assert export_bytes(published.policy("wordle-2309-hard-max"))


@pytest.mark.reliability
def test_read_commands_take_a_policy_file_for_catalog(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """list, verify and export read a standalone policy file given as --catalog (a
    policy file was once taken for a damaged catalog, "truncated?")."""
    policy_file = tmp_path / "max.gwp"
    assert run(["export", "wordle-2309-normal-max", "--output", str(policy_file)]) == 0
    capsys.readouterr()
    assert run(["verify", "--catalog", str(policy_file)]) == 0
    assert "1 of 1 policies verified" in capsys.readouterr().out
    assert run(["list", "--catalog", str(policy_file)]) == 0
    assert capsys.readouterr().out.startswith("wordle-2309-normal-max ")
    again = tmp_path / "again.gwp"
    assert (
        run(
            [
                "export",
                "wordle-2309-normal-max",
                "--catalog",
                str(policy_file),
                "--output",
                str(again),
            ]
        )
        == 0
    )
    assert again.read_bytes() == policy_file.read_bytes()
