"""The exact search on a real Dask cluster (builder.optimal.cluster, .dask_engine, .memo).

A cluster of two worker processes on loopback runs fixed-first-guess and
global searches through ``optimize --scheduler``; each must give the
in-process search's policy file byte for byte (tree, value and certificate).
One test kills a worker while it runs a unit; another resumes a checkpoint
on a different cluster. No mocks, and no wall-clock assertions.
"""

from __future__ import annotations

import dataclasses
import io
import json
import logging
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder.cli import run
from guesswork.builder.errors import NoTreeBelowCeilingError
from guesswork.builder.optimal import SearchOptions, SearchStats, optimize
from guesswork.builder.optimal.memo import ENTRY_BYTES, Memo, MemoAccount
from guesswork.builder.optimal.problem import make_problem
from guesswork.builder.optimal.search import Search
from guesswork.builder.publish import StoredPolicy, publish_catalog
from guesswork.builder.verify import verify_certificate, verify_policy
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.catalog import open_policy_file
from guesswork.client.games import Wordle
from guesswork.client.probe import Policy
from guesswork.client.progress import Progress

distributed = pytest.importorskip("distributed")

#: The SALET proof (2315 answers, 12972 guesses): about 1.5 s in one process.
SALET = [
    "optimize",
    "--targets",
    "wordle-answers-2315",
    "--guesses",
    "wordle-guesses-12972",
    "--first-guess",
    "SALET",
    "--quiet",
]


@pytest.fixture(scope="module")
def cluster() -> Iterator[distributed.Client]:
    """A real cluster: a scheduler and two single-threaded worker processes on loopback."""
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        ) as local,
        distributed.Client(local, set_as_default=False) as client,
    ):
        yield client


@pytest.fixture(scope="module")
def alone(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The SALET policy file made by the in-process search."""
    path = tmp_path_factory.mktemp("alone") / "salet.gwp"
    assert run([*SALET, "--workers", "1", "--output", str(path)]) == 0
    return path.read_bytes()


def _policy(path: Path) -> Policy:
    """Return the one policy of a policy file."""
    with open_policy_file(path) as single:
        (policy,) = list(single)
    return policy


def _address(client: distributed.Client) -> str:
    """Return the scheduler's address (tcp://127.0.0.1:PORT)."""
    address: str = client.scheduler_info()["address"]
    return address


def _optimize(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    """Run ``optimize`` with --json; return its report."""
    capsys.readouterr()
    assert run([*argv, "--json"]) == 0
    report: dict[str, object] = json.loads(capsys.readouterr().out)
    return report


def test_scheduler_gives_the_in_process_tree(
    cluster: distributed.Client, alone: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "salet.gwp"
    address = _address(cluster)
    report = _optimize([*SALET, "--scheduler", address, "--output", str(path)], capsys)
    assert (report["engine"], report["workers"], report["value"]) == ("dask", 2, 7920)
    assert report["proven"] is True
    assert path.read_bytes() == alone  # the tree, its values and certificate, byte for byte


def test_global_search_on_the_cluster_matches_in_process(
    cluster: distributed.Client, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every opener: the first opener's branches, then the first pass and the
    # survivors (14 of them) on the cluster; hard mode, every fifth answer.
    answers = load_wordlist("wordle-answers-2315", Wordle()).words[::5]
    targets = tmp_path / "answers.txt"
    targets.write_text("\n".join(answers) + "\n")
    argv = ["optimize", "--targets", str(targets), "--mode", "hard", "--quiet"]
    paths = {}
    for label, extra in {
        "alone": ["--workers", "1"],
        "cluster": ["--scheduler", _address(cluster)],
    }.items():
        paths[label] = tmp_path / f"{label}.gwp"
        report = _optimize([*argv, *extra, "--output", str(paths[label])], capsys)
        assert report["openers_surviving"] > 1  # type: ignore[operator]
    mine, theirs = (_policy(paths[k]) for k in ("cluster", "alone"))
    assert mine.data.numpy_arrays().keys() == theirs.data.numpy_arrays().keys()
    for name, array in theirs.data.numpy_arrays().items():  # the tree: the same guess at every node
        assert np.array_equal(mine.data.numpy_arrays()[name], array), name
    assert mine.data.certificate is not None and theirs.data.certificate is not None
    assert mine.data.certificate["value"] == theirs.data.certificate["value"]
    assert verify_policy(mine) == [] and verify_certificate(mine) == []
    # `verify --prove` reruns the global search on the cluster: the certificate
    # holds; one with a weakened (still self-consistent) bound does not.
    catalog = tmp_path / "catalog.sqlite"
    assert run(["import", str(paths["cluster"]), "--catalog", str(catalog)]) == 0
    prove = [
        "verify",
        "--catalog",
        str(catalog),
        "--prove",
        "--policy",
        mine.name,
        "--scheduler",
        _address(cluster),
    ]
    assert run(prove) == 0
    assert f"ok    {mine.name}" in capsys.readouterr().out
    cert = {
        **mine.data.certificate,
        "lower_bound": mine.data.certificate["value"] - 1,
        "proven": False,
    }
    weakened = dataclasses.replace(mine.data, certificate=cert)
    publish_catalog(
        str(catalog), [StoredPolicy.from_data(weakened, mine.targets, mine.guesses)], []
    )
    assert run(["verify", "--catalog", str(catalog), "--policy", mine.name]) == 0
    capsys.readouterr()
    assert run(prove) == 1
    assert "proves a bound of" in capsys.readouterr().out


def test_a_global_proof_on_the_cluster_records_witnesses_that_prove(
    cluster: distributed.Client, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The survivors' searches run on the workers (dask_engine.evaluate_opener), which
    send each opener's witness back: NYT hard within six, every fifth answer, a
    resume on a new run from the cluster's checkpoint gives the same witnesses, and
    `verify --prove` proves the certificate from them."""
    answers = load_wordlist("wordle-answers-2315", Wordle()).words[::5]
    others = load_wordlist("wordle-guesses-12972", Wordle()).words[::40]
    (tmp_path / "t.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(sorted({*answers, *others})) + "\n")
    argv = ["optimize", "--targets", str(tmp_path / "t.txt"), "--guesses", str(tmp_path / "g.txt")]
    argv += ["--mode", "nyt-hard", "--max-guesses", "6", "--quiet"]
    argv += ["--checkpoint", str(tmp_path / "run.ckpt")]
    path = tmp_path / "cluster.gwp"
    report = _optimize([*argv, "--scheduler", _address(cluster), "--output", str(path)], capsys)
    assert report["openers_surviving"] > 1  # type: ignore[operator]
    policy = _policy(path)
    cert = policy.data.certificate
    assert cert is not None
    searched = {
        w for (w, _, _), h in zip(cert["roots"], cert["settled_by"], strict=True) if h == "search"
    }
    assert set(cert["witnesses"]) == searched - {policy.guess(policy.root)}
    assert any(cert["witnesses"].values())
    assert verify_certificate(policy, prove=True) == []
    again = tmp_path / "again.gwp"
    _optimize([*argv, "--workers", "1", "--output", str(again)], capsys)
    assert (_policy(again).data.certificate or {})["witnesses"] == cert["witnesses"]


def test_an_opener_before_the_lead_gets_the_tie_budget_on_the_cluster(
    cluster: distributed.Client, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An opener before the best in static order wins a tie with it, so the root
    searches it with a budget one higher; the survivors sent to the cluster must get
    that budget too. Sent with the bare best, such an opener was refuted at the best's
    value and its recorded bound was one more than its witness proved, which
    `verify --prove` caught on the shipped NYT-hard proof (led by TARSE, 69th in
    static order). NYT hard within six, every fifth answer from the third, every 40th
    other guess, led by the optimum, which is not first in static order."""
    game = Wordle()
    answers = load_wordlist("wordle-answers-2315", game).words[2::5]
    others = load_wordlist("wordle-guesses-12972", game).words[::40]
    words = sorted({*answers, *others})
    (tmp_path / "t.txt").write_text("\n".join(answers) + "\n")
    (tmp_path / "g.txt").write_text("\n".join(words) + "\n")
    argv = ["optimize", "--targets", str(tmp_path / "t.txt"), "--guesses", str(tmp_path / "g.txt")]
    argv += ["--mode", "nyt-hard", "--max-guesses", "6", "--quiet"]
    best = _optimize([*argv, "--workers", "1"], capsys)["first_guess"]
    options = SearchOptions(nyt_hard=True, max_guesses=6)
    targets, guesses = WordList.from_words("t", answers), WordList.from_words("g", words)
    problem, _ = make_problem(game, targets, guesses, None)
    everything = np.arange(problem.n_targets, dtype=np.int64)
    order = [words[g] for g in Search(problem, options).scan(everything, 6, ()).guesses]
    path = tmp_path / "led.gwp"
    led = [*argv, "--lead-opener", str(best), "--output", str(path)]
    _optimize([*led, "--scheduler", _address(cluster)], capsys)
    policy = _policy(path)
    cert = policy.data.certificate
    assert cert is not None
    searched_before = [
        word
        for (word, _, _), how in zip(cert["roots"], cert["settled_by"], strict=True)
        if how == "search" and order.index(word) < order.index(str(best))
    ]
    assert searched_before  # the case: a survivor before the lead, on the cluster
    assert verify_certificate(policy, prove=True) == []


@pytest.mark.progress
def test_a_ceiling_holds_on_the_cluster(cluster: distributed.Client) -> None:
    # The tie-break's question, every opener on the cluster: below the optimum + 1
    # the optimum is found; below the optimum nothing, a proven bound.
    answers = WordList.from_words(
        "fifth", load_wordlist("wordle-answers-2315", Wordle()).words[::5]
    )
    alone = optimize(Wordle(), answers, answers, SearchOptions(hard=True))
    value = alone.certificate.value
    there = SearchOptions(hard=True, scheduler=_address(cluster))
    below = optimize(Wordle(), answers, answers, dataclasses.replace(there, ceiling=value + 1))
    assert (below.certificate.value, below.certificate.proven) == (value, True)
    assert below.tree.first_guess == alone.tree.first_guess
    # Every line reported, the counts within a phase never go back (the cluster
    # reports its first pass as it runs; the root then walks the openers again).
    stream = io.StringIO()
    progress = Progress("ceiling", delay=0, interval=0, stream=stream)
    with pytest.raises(NoTreeBelowCeilingError):
        optimize(
            Wordle(),
            answers,
            answers,
            dataclasses.replace(there, ceiling=value),
            progress=progress,
        )
    counts: dict[str, list[int]] = {}
    for line in stream.getvalue().splitlines():
        head, _ = line.split(" of ", 1)
        phase, done = head.rsplit(": ", 1)
        counts.setdefault(phase, []).append(int(done.replace(",", "")))
    assert counts["first pass: one-level bounds"][-1] > 1
    for phase, seen in counts.items():
        assert seen == sorted(seen), phase
    assert "none below the ceiling" in stream.getvalue()


def test_a_clusters_checkpoint_refutes_openers_in_process(
    cluster: distributed.Client, tmp_path: Path
) -> None:
    # A cluster records a refuted opener whole (not its branches): a run in one
    # process resumes from that record instead of searching the opener again, so
    # it finds everything it needs in the checkpoint and adds nothing to it.
    answers = WordList.from_words(
        "fifth", load_wordlist("wordle-answers-2315", Wordle()).words[::5]
    )
    value = optimize(Wordle(), answers, answers, SearchOptions(hard=True)).certificate.value
    below = SearchOptions(hard=True, ceiling=value)
    checkpoint = tmp_path / "ceiling.ckpt"
    there = dataclasses.replace(below, scheduler=_address(cluster))
    with pytest.raises(NoTreeBelowCeilingError):
        optimize(Wordle(), answers, answers, there, checkpoint=checkpoint)
    recorded = checkpoint.read_bytes()
    assert recorded.count(b"\n") > 100
    with pytest.raises(NoTreeBelowCeilingError):
        optimize(Wordle(), answers, answers, below, checkpoint=checkpoint)
    assert checkpoint.read_bytes() == recorded


@pytest.mark.slow  # two searches and a cluster started for the second: about 30 s
def test_checkpoint_resumes_on_another_cluster(
    cluster: distributed.Client, alone: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    checkpoint = tmp_path / "run.jsonl"
    first = tmp_path / "first.gwp"
    address = _address(cluster)
    _optimize(
        [*SALET, "--scheduler", address, "--checkpoint", str(checkpoint), "--output", str(first)],
        capsys,
    )
    lines = checkpoint.read_text().splitlines()
    assert len(lines) > 20
    # What a run stopped part way leaves: the fingerprint and the units finished
    # so far (the last cut short). A new local cluster takes it from there.
    kept = lines[: len(lines) // 3]
    checkpoint.write_text("\n".join(kept) + "\n" + lines[len(kept)][:25])
    resumed = tmp_path / "resumed.gwp"
    report = _optimize(
        [*SALET, "--workers", "2", "--checkpoint", str(checkpoint), "--output", str(resumed)],
        capsys,
    )
    assert report["engine"] == "dask-local"
    assert first.read_bytes() == resumed.read_bytes() == alone
    assert len(checkpoint.read_text().splitlines()) >= len(lines)


def test_a_bounded_memo_evicts_and_gives_the_same_tree(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "optimize",
        "--targets",
        "wordle-answers-2315",
        "--mode",
        "hard",
        "--first-guess",
        "SLATE",
        "--quiet",
        "--workers",
        "1",
        "--output",
    ]
    free = _optimize([*argv, str(tmp_path / "free.gwp"), "--memo-limit", "none"], capsys)
    tight = _optimize([*argv, str(tmp_path / "tight.gwp"), "--memo-limit", "64K"], capsys)
    assert free["memo_evictions"] == 0 and free["memo_limit"] is None
    assert tight["memo_evictions"] > 0 and tight["memo_limit"] == 64 << 10  # type: ignore[operator]
    # Past the limit by one entry at most (a key holds 4 bytes a target), until evicted.
    assert tight["memo_peak_bytes"] <= (64 << 10) + 4 * 2315 + ENTRY_BYTES  # type: ignore[operator]
    assert tight["value"] == free["value"]
    assert (tmp_path / "free.gwp").read_bytes() == (tmp_path / "tight.gwp").read_bytes()


def test_memo_accounting_and_eviction_order() -> None:
    stats = SearchStats()
    account = MemoAccount(10 * (ENTRY_BYTES + 4), stats)
    exact: Memo[int] = Memo(account)
    lower: Memo[int] = Memo(account)
    for i in range(8):
        exact[i.to_bytes(4, "little")] = i
    lower[b"\xff" * 4] = 1
    exact[(0).to_bytes(4, "little")] = 10  # rewritten: now the newest
    assert stats.memo_evictions == 0 and account.entries == 9
    for i in range(8, 12):
        exact[i.to_bytes(4, "little")] = i
    assert stats.memo_evictions > 0
    assert account.bytes <= account.limit  # type: ignore[operator]
    assert (11).to_bytes(4, "little") in exact  # the entry just written stays
    assert (1).to_bytes(4, "little") not in exact  # the oldest written went first
    assert (0).to_bytes(4, "little") in exact  # rewritten after 1..7: kept longer
    assert stats.memo_peak_entries == 11 and account.entries == len(exact) + len(lower)
    with pytest.raises(ValueError, match="at least 1 byte"):
        MemoAccount(0, stats)


def test_a_dead_scheduler_is_a_one_line_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from guesswork.builder.optimal import dask_engine

    monkeypatch.setattr(dask_engine, "CONNECT_TIMEOUT", 2.0)
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    started = time.monotonic()
    code = run([*SALET, "--scheduler", f"tcp://127.0.0.1:{port}"])
    err = capsys.readouterr().err
    assert code == 1 and time.monotonic() - started < 60  # an error, not a hang
    assert "cannot reach the Dask scheduler" in err and len(err.strip().splitlines()) == 1


def test_without_dask_workers_use_a_process_pool(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from guesswork.builder.optimal import cluster as engines

    monkeypatch.setattr(engines, "dask_installed", lambda: False)  # as if not installed
    argv = [
        "optimize",
        "--targets",
        "wordle-answers-2315",
        "--mode",
        "hard",
        "--first-guess",
        "SLATE",
        "--quiet",
        "--output",
    ]
    pool = _optimize([*argv, str(tmp_path / "pool.gwp"), "--workers", "2"], capsys)
    alone = _optimize([*argv, str(tmp_path / "alone.gwp"), "--workers", "1"], capsys)
    assert (pool["engine"], pool["workers"], alone["engine"]) == ("processes", 2, "in-process")
    assert (tmp_path / "pool.gwp").read_bytes() == (tmp_path / "alone.gwp").read_bytes()
    assert run([*SALET, "--scheduler", "tcp://127.0.0.1:8786"]) == 1
    err = capsys.readouterr().err
    assert "pip install 'guesswork-solver[cluster]'" in err and len(err.strip().splitlines()) == 1
    # Without Dask a search over every opener stays in one process by default:
    # the pool shares no first pass, so it would be slower than one process.
    answers = load_wordlist("wordle-answers-2315", Wordle()).words[::25]
    (tmp_path / "few.txt").write_text("\n".join(answers) + "\n")
    everyone = _optimize(
        ["optimize", "--targets", str(tmp_path / "few.txt"), "--mode", "hard", "--quiet"], capsys
    )
    assert (everyone["engine"], everyone["workers"]) == ("in-process", 1)


def test_a_worker_killed_mid_run_changes_nothing(
    cluster: distributed.Client, alone: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Last in the file: the cluster it leaves has a restarted worker.
    path = tmp_path / "salet.gwp"
    argv = [*SALET, "--scheduler", _address(cluster), "--output", str(path)]
    codes: list[int] = []
    search = threading.Thread(target=lambda: codes.append(run(argv)))
    search.start()
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and search.is_alive() and time.monotonic() < deadline:
        # A worker running one of the search's units (a branch, or part of one).
        busy = [
            w
            for w, keys in cluster.processing().items()
            if any(
                name in str(key) for key in keys for name in ("solve_branch", "evaluate_guesses")
            )
        ]
        if busy:
            pids = cluster.run(os.getpid, workers=busy[:1])
            killed = pids[busy[0]]
            os.kill(killed, signal.SIGKILL)
        time.sleep(0.01)
    search.join(timeout=300)
    assert killed is not None, "the search finished before a worker could be killed"
    assert not search.is_alive() and codes == [0]
    assert path.read_bytes() == alone
    assert killed not in cluster.run(os.getpid).values()
