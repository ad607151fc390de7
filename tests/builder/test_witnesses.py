"""Refutation witnesses: a search over every opener proven opener by opener (issue #46).

A global proof's certificate records, for each opener its search settled, the
reply classes whose proven bounds its value rests on (builder.optimal.witness);
``verify --prove`` proves each opener from them (builder.optimal.witness_check)
instead of running the whole search again. Here: small NYT hard (cap 6, and cap
5 through the uncapped search) and normal-mode proofs over every opener write
witnesses that prove; tampered ones fail with the fault that names them; a
resumed run gives the same witnesses; and every witnessed bound of every opener
of small trap lists is at most the class's value by brute force.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack
import numpy as np
import pytest

from guesswork.builder.errors import SearchError
from guesswork.builder.optimal import (
    INFEASIBLE,
    RootSearch,
    Search,
    SearchOptions,
    make_problem,
    optimize,
    refute,
)
from guesswork.builder.optimal.checkpoint import Checkpoint
from guesswork.builder.optimal.witness import Witness
from guesswork.builder.optimal.witness_check import (
    OpenerClaim,
    WitnessChecker,
    check_openers,
    check_openers_in_processes,
)
from guesswork.builder.policies import BuiltPolicy, OptimalSpec, build_optimal_policy
from guesswork.builder.verify import verify_certificate, verify_policy
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.games import Wordle
from guesswork.client.policy_format import MalformedPolicyError
from guesswork.client.progress import Progress
from guesswork.client.rules import NYT_HARD

from .stored import as_policy, stored_policy
from .test_nyt_refute import nyt_least_total, trap_lists
from .test_tie_break import small_lists

WORDLE = Wordle()
NYT_CAP6 = SearchOptions(nyt_hard=True, max_guesses=6)


@functools.cache
def lists(every: int, more: int) -> tuple[WordList, WordList]:
    """Every ``every``-th of the 2315 answers; guessed from them and every ``more``-th
    of the 12972 guesses."""
    answers = load_wordlist("wordle-answers-2315", WORDLE).words[::every]
    allowed = load_wordlist("wordle-guesses-12972", WORDLE).words[::more]
    guesses = tuple(sorted(set(answers) | set(allowed)))
    return WordList.from_words(f"a{every}", answers), WordList.from_words(f"g{more}", guesses)


def build(folder: Path, every: int, more: int, **spec: Any) -> BuiltPolicy:
    """Return the search over every opener of :func:`lists`, built as `optimize --store`."""
    targets, guesses = lists(every, more)
    (folder / "t.txt").write_text("\n".join(targets.words) + "\n")
    (folder / "g.txt").write_text("\n".join(guesses.words) + "\n")
    return build_optimal_policy(
        OptimalSpec("wordle", targets=str(folder / "t.txt"), guesses=str(folder / "g.txt"), **spec)
    )[0]


@pytest.fixture(scope="module")
def nyt(tmp_path_factory: pytest.TempPathFactory) -> BuiltPolicy:
    """NYT hard mode within six guesses: 772 answers, 1,795 openers (about 2 s)."""
    return build(tmp_path_factory.mktemp("nyt"), 3, 12, mode=NYT_HARD, max_guesses=6)


@pytest.fixture(scope="module")
def normal(tmp_path_factory: pytest.TempPathFactory) -> BuiltPolicy:
    """Normal mode, no cap: 579 answers, 1,201 openers (about 1 s)."""
    return build(tmp_path_factory.mktemp("normal"), 4, 20)


def cert_of(built: BuiltPolicy) -> dict[str, Any]:
    cert = built.data.certificate
    assert cert is not None
    return cert


def claims_of(
    built: BuiltPolicy, options: SearchOptions
) -> tuple[WitnessChecker, list[OpenerClaim]]:
    """Return a checker of the built proof and its openers' claims (the root's left out)."""
    cert = cert_of(built)
    problem, vocabulary = make_problem(WORDLE, built.tree.targets, built.tree.guesses)
    row, root = vocabulary.index(), built.tree.first_guess
    uncapped = set(cert.get("witnesses_uncapped", []))
    claims = [
        OpenerClaim(
            row[word],
            word,
            value,
            how,
            Witness.from_list(cert["witnesses"][word], word in uncapped)
            if word in cert["witnesses"]
            else None,
        )
        for (word, value, _), how in zip(cert["roots"], cert["settled_by"], strict=True)
        if word != root
    ]
    return WitnessChecker(problem, options), claims


def witness_bytes(cert: dict[str, Any]) -> int:
    """Return what the witnesses add to the msgpack certificate, in bytes."""
    return len(msgpack.packb(cert)) - len(
        msgpack.packb({k: v for k, v in cert.items() if not k.startswith("witnesses")})
    )


@pytest.mark.parametrize(("proof", "options"), [("nyt", NYT_CAP6), ("normal", SearchOptions())])
def test_every_opener_the_search_settled_has_a_witness_that_proves_it(
    proof: str, options: SearchOptions, request: pytest.FixtureRequest
) -> None:
    built: BuiltPolicy = request.getfixturevalue(proof)
    cert = cert_of(built)
    searched = {
        w
        for (w, _, _), how in zip(cert["roots"], cert["settled_by"], strict=True)
        if how == "search"
    }
    assert set(cert["witnesses"]) == searched - {built.tree.first_guess}
    assert len(cert["witnesses"]) >= 4
    assert any(cert["witnesses"].values())  # some openers need classes of their own
    policy = as_policy(built)
    assert verify_policy(policy) == [] and verify_certificate(policy) == []
    assert verify_certificate(policy, prove=True) == []
    # Every searched opener is proven by its witness: none is searched again whole.
    checker, claims = claims_of(built, options)
    counts = check_openers(checker, claims, cert["value"])
    assert counts.faults == []
    assert counts.by_witness == len(cert["witnesses"]) and counts.by_search == 0
    assert counts.by_static + counts.by_first_pass + counts.by_witness == len(claims)
    entries = sum(len(pairs) for pairs in cert["witnesses"].values())
    assert counts.classes_searched + counts.classes_skipped == entries
    # NYT hard mode's refutations rest on classes searched; normal mode's here do not
    # (their classes' own scans reach what the memo had proven).
    assert (counts.classes_searched > 0) == (proof == "nyt")
    print(f"{proof}: {len(cert['witnesses'])} witnesses, {witness_bytes(cert)} bytes")


def exact_entries(
    built: BuiltPolicy, options: SearchOptions
) -> Iterator[tuple[str, int, int, int]]:
    """Yield (opener, reply code, bound, the class's exact value) for each witnessed
    class of fewer than 40 targets, the exact value from a fresh search."""
    cert = cert_of(built)
    problem, vocabulary = make_problem(WORDLE, built.tree.targets, built.tree.guesses)
    search = Search(problem, options)
    everything = np.arange(problem.n_targets, dtype=np.int64)
    for word, pairs in cert["witnesses"].items():
        guess = vocabulary.index()[word]
        classes, states = search.values.split_states(guess, everything, b"")
        by_code = {
            int(problem.matrix[guess, int(c[0])]): (c, s)
            for c, s in zip(classes, states, strict=True)
        }
        for code, bound in pairs:
            part, state = by_code[code]
            if len(part) < 40:
                below = options.root_depth - 1
                yield word, code, bound, search.solve(part, INFEASIBLE, below, (guess,), state)


@pytest.mark.parametrize(("proof", "options"), [("nyt", NYT_CAP6), ("normal", SearchOptions())])
def test_each_witnessed_bound_is_at_most_the_class_exact_value(
    proof: str, options: SearchOptions, request: pytest.FixtureRequest
) -> None:
    entries = list(exact_entries(request.getfixturevalue(proof), options))
    assert len(entries) > 10
    for word, code, bound, value in entries:
        assert bound <= value, (word, code)


def test_tampered_witnesses_fail_with_the_fault_that_names_them(nyt: BuiltPolicy) -> None:
    cert = cert_of(nyt)
    value = cert["value"]
    recorded = {w: v for w, v, _ in cert["roots"]}
    # A class proven exactly, of an opener refuted at the tree's value (no slack):
    # one more than its value is false, and the total needs it.
    word, code, bound, exact = next(
        e for e in exact_entries(nyt, NYT_CAP6) if e[2] == e[3] and recorded[e[0]] == value
    )
    raised = {**cert["witnesses"], word: [[c, b + (c == code)] for c, b in cert["witnesses"][word]]}
    policy = as_policy(nyt, {"witnesses": raised})
    assert verify_certificate(policy) == []  # the arithmetic holds: only a search sees it
    reply = WORDLE.format_reply(code)
    faults = verify_certificate(policy, prove=True)
    assert len(faults) == 1 and faults[0].startswith(f"opener {word}, reply {reply} (")
    assert faults[0].endswith(f"witness bound {bound + 1}, but a search finds {exact}")
    # Its witness dropped, the opener's classes fall short of its recorded value.
    dropped = {**cert["witnesses"], word: []}
    faults = verify_certificate(as_policy(nyt, {"witnesses": dropped}), prove=True)
    assert len(faults) == 1
    assert faults[0].startswith(f"opener {word}: its witness and its other classes' bounds total ")
    assert faults[0].endswith(f", short of its recorded {recorded[word]}")
    # A recorded value raised past what its witness shows; one lowered below the tree's.
    for change, fault in (
        (1000, "short of its recorded"),
        (value - recorded[word] - 1, "below the tree's"),
    ):
        roots = [[w, v + change if w == word else v, e] for w, v, e in cert["roots"]]
        faults = verify_certificate(as_policy(nyt, {"roots": roots}), prove=True)
        assert len(faults) == 1 and word in faults[0] and fault in faults[0], faults
    # A witness naming a reply that leaves no class of three or more targets.
    odd = {**cert["witnesses"], word: [*cert["witnesses"][word], [WORDLE.win_reply, 5]]}
    faults = verify_certificate(as_policy(nyt, {"witnesses": odd}), prove=True)
    assert faults == [
        f"opener {word}: its witness names the reply {WORDLE.format_reply(WORDLE.win_reply)}, "
        "which leaves no class of three or more targets"
    ]
    # Witnesses only for openers a search settled; each class once; a valid shape.
    static = next(
        w
        for (w, _, _), how in zip(cert["roots"], cert["settled_by"], strict=True)
        if how == "static"
    )
    for extra, fault in (
        ({static: []}, f"witness for {static}"),
        ({nyt.tree.first_guess: []}, f"witness for {nyt.tree.first_guess}"),
        ({word: [[code, 1], [code, 2]]}, "names a reply class twice"),
    ):
        faults = verify_certificate(as_policy(nyt, {"witnesses": {**cert["witnesses"], **extra}}))
        assert len(faults) == 1 and fault in faults[0], faults
    for bad in ({word: [[code]]}, {word: "x"}, {word: [[code, -1]]}):
        with pytest.raises(MalformedPolicyError, match="witnesses"):
            as_policy(nyt, {"witnesses": {**cert["witnesses"], **bad}})
    with pytest.raises(MalformedPolicyError, match="witnesses_uncapped"):
        as_policy(nyt, {"witnesses_uncapped": ["ZZZZZ"]})


def test_openers_without_a_witness_are_searched_again(nyt: BuiltPolicy) -> None:
    """An opener settled by search without a witness (an older checkpoint's record) is
    refuted again by a search of its own; a certificate without any is proven by the
    whole search run again, as before witnesses."""
    cert = cert_of(nyt)
    word = next(w for w, pairs in cert["witnesses"].items() if pairs)
    fewer = {w: pairs for w, pairs in cert["witnesses"].items() if w != word}
    assert verify_certificate(as_policy(nyt, {"witnesses": fewer}), prove=True) == []
    checker, claims = claims_of(nyt, NYT_CAP6)
    claims = [
        c if c.word != word else OpenerClaim(c.guess, c.word, c.value, c.settled_by) for c in claims
    ]
    counts = check_openers(checker, claims, cert["value"])
    assert counts.faults == [] and counts.by_search == 1
    bare = {k: v for k, v in cert.items() if not k.startswith("witnesses")}
    data = dataclasses.replace(nyt.data, certificate=bare)
    policy = stored_policy(data, nyt.tree.targets.words, nyt.tree.guesses.words)
    assert verify_certificate(policy, prove=True) == []


def test_a_resumed_run_gives_the_same_witnesses(tmp_path: Path) -> None:
    """A refuted opener is recorded whole with its witness, so a run resumed from the
    whole checkpoint gives the same witnesses (and refuting bounds); one stopped part
    way gives witnesses that prove as well; older records without one still load."""
    targets, guesses = lists(3, 12)
    path = tmp_path / "run.ckpt"
    first = optimize(WORDLE, targets, guesses, NYT_CAP6, checkpoint=path)
    lines = path.read_text().splitlines()
    assert sum('"witness"' in line for line in lines) >= len(first.certificate.witnesses) - 2
    again = optimize(WORDLE, targets, guesses, NYT_CAP6, checkpoint=path)
    assert path.read_text().splitlines() == lines  # nothing searched again
    assert again.certificate.witnesses == first.certificate.witnesses
    assert again.certificate.roots == first.certificate.roots
    # Stopped half way through the survivors (after the first pass), a line cut short.
    recorded = [n for n, line in enumerate(lines) if '"witness"' in line]
    cut = recorded[len(recorded) // 2] + 1
    path.write_text("\n".join(lines[:cut]) + "\n" + lines[cut][:20])
    resumed = optimize(WORDLE, targets, guesses, NYT_CAP6, checkpoint=path)
    assert resumed.certificate.value == first.certificate.value
    assert set(resumed.certificate.witnesses) == set(first.certificate.witnesses)
    kept = [line for line in lines[:cut] if '"witness"' in line]
    assert kept
    for line in kept:  # what was recorded is what the resumed run used
        unit = json.loads(line)["unit"]
        word = guesses.words[int(unit.split(":")[0])]
        assert resumed.certificate.witnesses[word] == first.certificate.witnesses[word]
    # Records written before witnesses (no key) load; their openers have none.
    old = [
        json.dumps({k: v for k, v in json.loads(line).items() if k != "witness"}) for line in lines
    ]
    path.write_text("\n".join(old) + "\n")
    checkpoint = Checkpoint(path, json.loads(lines[0])["fingerprint"])
    assert all(checkpoint.witness(unit) is None for unit in checkpoint.done)
    older = optimize(WORDLE, targets, guesses, NYT_CAP6, checkpoint=path)
    refuted = {w for w, _, exact in older.certificate.roots if not exact}
    assert not refuted & set(older.certificate.witnesses)
    damaged = json.dumps({**json.loads(kept[0]), "witness": [[1]]})
    path.write_text("\n".join([lines[0], damaged, lines[1]]) + "\n")
    with pytest.raises(SearchError, match="line 2 is damaged"):
        Checkpoint(path, json.loads(lines[0])["fingerprint"])


def test_witnesses_of_the_uncapped_search_prove_without_the_cap(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With no capped probe, survivors are refuted by the uncapped search: their
    witnesses are marked so, and proven by it (cap 5 on the NYT fixture's lists)."""
    monkeypatch.setattr(refute, "PROBE_EXPANSIONS", 0)
    built = build(tmp_path, 3, 12, mode=NYT_HARD, max_guesses=5)
    cert = cert_of(built)
    assert len(cert["witnesses_uncapped"]) >= 3
    assert verify_certificate(as_policy(built), prove=True) == []
    checker, claims = claims_of(built, SearchOptions(nyt_hard=True, max_guesses=5))
    counts = check_openers(checker, claims, cert["value"])
    assert counts.faults == [] and counts.by_search == 0
    print(f"uncapped: {len(cert['witnesses'])} witnesses, {witness_bytes(cert)} bytes")


def brute_force_class(
    targets: tuple[str, ...], guesses: tuple[str, ...], opener: str, code: int, left: int
) -> int:
    """Return the least NYT-hard total of ``opener``'s class ``code`` of ``targets`` within
    ``left`` more guesses (INFEASIBLE: none), by test_nyt_refute's brute force."""
    part = tuple(t for t in targets if WORDLE.reply(opener, t) == code)
    return nyt_least_total(guesses)(part, ((opener, code),), left)


@pytest.mark.parametrize("probe", [0, refute.PROBE_EXPANSIONS])
@pytest.mark.parametrize(("seed", "cap"), [(0, 4), (3, 5)])
def test_every_witnessed_bound_of_every_opener_is_at_most_brute_force(
    seed: int, cap: int, probe: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each opener of small trap lists refuted (or searched) against a ceiling, as a
    survivor is: every class its witness names is worth at least the witnessed bound
    by brute force, and the witness proves the opener against that ceiling."""
    monkeypatch.setattr(refute, "PROBE_EXPANSIONS", probe)
    targets, guesses = trap_lists(seed)
    lists_ = WordList.from_words("t", targets), WordList.from_words("g", guesses)
    problem, vocabulary = make_problem(WORDLE, *lists_)
    options = SearchOptions(nyt_hard=True, max_guesses=cap)
    everything = np.arange(problem.n_targets, dtype=np.int64)
    checked = 0
    for ceiling in (30, 34, 40):
        for word in guesses:
            guess = vocabulary.index()[word]
            root = RootSearch(problem, options)
            value, _ = root.evaluate_root(guess, everything, ceiling, cap)
            witness = root.witnesses[guess]
            for code, bound in witness.classes:
                left = INFEASIBLE if witness.uncapped else cap - 1
                truth = brute_force_class(targets, guesses, word, code, min(left, len(targets)))
                assert bound <= truth, (word, code, ceiling)
                checked += 1
            checker = WitnessChecker(problem, options)
            claim = OpenerClaim(guess, word, value, "search", witness)
            assert checker.check(claim, min(value, ceiling)) is None, (word, ceiling)
    assert checked > 5


def test_a_tie_break_tree_from_a_capped_search_keeps_no_witnesses(tmp_path: Path) -> None:
    """``total-then-worst`` whose tree came from the capped search (a tree of the same
    total in fewer guesses): that search's witnesses prove the least total within
    its cap only, not the lower bound of every tree, so none are kept and
    `verify --prove` runs the searches again; from the first search, they are kept."""
    for seed, capped in ((4, True), (0, False)):
        targets, guesses = small_lists(seed)
        (tmp_path / "t.txt").write_text("\n".join(targets) + "\n")
        (tmp_path / "g.txt").write_text("\n".join(guesses) + "\n")
        spec = {"targets": str(tmp_path / "t.txt"), "guesses": str(tmp_path / "g.txt")}
        built = build_optimal_policy(OptimalSpec("jotto", objective="total-then-worst", **spec))[0]
        cert = cert_of(built)
        assert (cert["max_guesses"] is not None) == capped
        assert ("witnesses" in cert) != capped
        assert verify_certificate(as_policy(built), prove=True) == []


def test_workers_prove_the_openers_in_processes_and_report_a_fault_found_there(
    nyt: BuiltPolicy,
) -> None:
    """``verify --prove --workers 2`` spreads the openers over two spawned processes:
    the same counts as one process, and a tampered witness is found there and named."""
    checker, claims = claims_of(nyt, NYT_CAP6)
    value = cert_of(nyt)["value"]
    alone = check_openers(checker, claims, value)
    problem = checker.problem
    spread = check_openers_in_processes(
        problem, NYT_CAP6, None, WORDLE.format_reply, claims, value, 2
    )
    assert spread.faults == alone.faults == []
    for name in ("by_static", "by_first_pass", "by_witness", "by_search"):
        assert getattr(spread, name) == getattr(alone, name), name
    assert spread.by_witness > 0
    # The last opener with a witness class, its bound raised past any tree of that class.
    word, pairs = [(w, p) for w, p in cert_of(nyt)["witnesses"].items() if p][-1]
    raised = {**cert_of(nyt)["witnesses"], word: [[c, INFEASIBLE] for c, _ in pairs]}
    faults = verify_certificate(as_policy(nyt, {"witnesses": raised}), prove=True, workers=2)
    assert len(faults) == 1 and faults[0].startswith(f"opener {word}"), faults


@pytest.mark.progress
@pytest.mark.parametrize("workers", [1, 2])
def test_the_openers_settled_by_bounds_are_reported_apart_from_the_searched(
    nyt: BuiltPolicy, workers: int
) -> None:
    """Bounds settle thousands of openers a minute and witnesses a few a second (the
    NYT-hard proof: 6,298 then 8,556), so each kind is its own phase: the estimate of
    the time left for the second does not come from the rate of the first."""
    checker, claims = claims_of(nyt, NYT_CAP6)
    value = cert_of(nyt)["value"]
    stream = io.StringIO()
    progress = Progress("prove", delay=0, interval=0, stream=stream)
    if workers == 1:
        counts = check_openers(checker, claims, value, progress)
    else:
        counts = check_openers_in_processes(
            checker.problem, NYT_CAP6, None, WORDLE.format_reply, claims, value, 2, progress
        )
    assert counts.faults == []
    searched = sum(1 for claim in claims if claim.settled_by == "search")
    assert 0 < searched < len(claims)
    last: dict[str, tuple[int, int]] = {}
    for line in stream.getvalue().splitlines():
        label, tally = line.split("; ", 1)[0].rsplit(": ", 1)
        done, total = (int(part.split()[0].replace(",", "")) for part in tally.split(" of "))
        assert label not in last or last[label][0] <= done, line  # never goes back
        last[label] = (done, total)
    assert list(last) == [
        "proving the openers settled by bounds",
        "proving the openers settled by search",
    ]
    assert list(last.values()) == [
        (len(claims) - searched, len(claims) - searched),
        (searched, searched),
    ]
