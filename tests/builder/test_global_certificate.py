"""A search over every opener: its certificate settles every opener, and it resumes.

The shipped global Wordle proofs (`...-normal-optimal`, no fixed first guess)
rest on this: the certificate lists every guess that splits the targets with
the value or refuting bound that settled it, `verify` checks the cheap part
(every opener present, every static bound recomputed) and the first pass's
bounds are kept in the checkpoint so a stopped run does not redo them.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import json
from pathlib import Path

import numpy as np
import pytest

from guesswork.builder.any_spec import reuse_policy
from guesswork.builder.catalog_build import reused
from guesswork.builder.catalog_specs import GLOBAL_OPTIMAL_SPECS
from guesswork.builder.cli import run
from guesswork.builder.errors import SearchError, SpecError
from guesswork.builder.optimal import SearchOptions, optimize
from guesswork.builder.policies import (
    BuiltPolicy,
    OptimalSpec,
    build_optimal_policy,
)
from guesswork.builder.publish import StoredPolicy, publish_catalog
from guesswork.builder.verify import verify_certificate, verify_policy
from guesswork.builder.wordlists import WordList, load_wordlist
from guesswork.client.catalog import open_catalog
from guesswork.client.games import Wordle
from guesswork.client.policy_format import MalformedPolicyError

from .stored import as_policy

WORDLE = Wordle()


@functools.cache
def lists() -> tuple[WordList, WordList]:
    """27 rhyming answers and 244 guesses: openers settled all three ways."""
    answers = load_wordlist("wordle-answers-2315", WORDLE).words
    rhymes = tuple(w for w in answers if w.endswith(("IGHT", "OUND", "ILL")))
    every = load_wordlist("wordle-guesses-12972", WORDLE).words
    guesses = tuple(sorted(set(rhymes) | set(every[::60])))
    return WordList.from_words("rhymes", rhymes), WordList.from_words("some", guesses)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuiltPolicy:
    """The search over every opener, built as `optimize --store` would (no first guess)."""
    folder = tmp_path_factory.mktemp("lists")
    targets, guesses = lists()
    (folder / "rhymes.txt").write_text("\n".join(targets.words) + "\n")
    (folder / "some.txt").write_text("\n".join(guesses.words) + "\n")
    spec = OptimalSpec(
        "wordle", targets=str(folder / "rhymes.txt"), guesses=str(folder / "some.txt")
    )
    return build_optimal_policy(spec)[0]


def test_every_opener_is_recorded_with_what_settled_it(built: BuiltPolicy) -> None:
    cert = built.data.certificate
    assert cert is not None
    assert len(cert["roots"]) == len(cert["settled_by"])
    words = [word for word, _, _ in cert["roots"]]
    assert len(set(words)) == len(words)
    # Every guess that splits the 27 targets is an opener (all of them do here but
    # those whose letters miss every target).
    assert len(words) > 200
    assert set(cert["settled_by"]) == {"search", "static", "one-level"}
    root_word = cert["roots"][0][0]
    for (word, value, exact), how in zip(cert["roots"], cert["settled_by"], strict=True):
        if word != root_word and not exact:
            assert value >= cert["value"], (word, value, how)
    policy = as_policy(built)
    assert verify_policy(policy) == []
    assert verify_certificate(policy) == []


def test_verify_refuses_a_missing_opener_or_a_wrong_static_bound(built: BuiltPolicy) -> None:
    cert = built.data.certificate
    assert cert is not None
    roots = [list(root) for root in cert["roots"]]
    settled = list(cert["settled_by"])
    static = settled.index("static")
    dropped = {
        "roots": roots[:static] + roots[static + 1 :],
        "settled_by": settled[:static] + settled[static + 1 :],
    }
    faults = verify_certificate(as_policy(built, dropped))
    assert faults and "missing" in faults[0]
    raised = [list(root) for root in roots]
    raised[static][1] += 1
    faults = verify_certificate(as_policy(built, {"roots": raised}))
    assert faults and "static bound" in faults[0]
    with pytest.raises(MalformedPolicyError, match="settled_by"):
        as_policy(built, {"settled_by": settled[:-1]})
    with pytest.raises(MalformedPolicyError, match="settled_by"):
        as_policy(built, {"settled_by": ["guessed", *settled[1:]]})


def test_a_stopped_search_resumes_without_redoing_its_first_pass(
    tmp_path: Path, built: BuiltPolicy
) -> None:
    targets, guesses = lists()
    path = tmp_path / "run.jsonl"
    first = optimize(WORDLE, targets, guesses, SearchOptions(), checkpoint=path)
    lines = path.read_text().splitlines()
    levels = [line for line in lines if '"level:' in line]
    # One per opener the first pass bounded: all but the first searched and the static ones.
    kinds = collections.Counter(first.certificate.settled_by)
    assert len(levels) == kinds["one-level"] + kinds["search"] - 1
    # Forget every searched unit: only the first pass's bounds are left to reuse.
    path.write_text("\n".join([lines[0], *levels]) + "\n")
    again = optimize(WORDLE, targets, guesses, SearchOptions(), checkpoint=path)
    assert again.certificate.value == first.certificate.value
    assert first.certificate.value == (built.data.certificate or {})["value"]
    assert again.certificate.roots == first.certificate.roots
    assert np.array_equal(again.tree.node_guess, first.tree.node_guess)


def test_build_all_reuses_a_slow_policy_only_if_it_is_what_its_spec_builds(
    tmp_path: Path, built: BuiltPolicy
) -> None:
    """`build-all --reuse` (and the catalog test) take the global optima from a file
    only after checking them: here a small tree stored under the 2315 name is refused."""
    spec = GLOBAL_OPTIMAL_SPECS[1]
    assert spec.name() == "wordle-2315-g12972-normal-optimal"
    impostor = dataclasses.replace(built.data, name=spec.name())
    path = tmp_path / "catalog.sqlite"
    publish_catalog(str(path), [StoredPolicy.from_data(impostor, *lists_words())], [])
    with (
        open_catalog(path) as catalog,
        pytest.raises(SpecError, match=r"another strategy|other word lists"),
    ):
        reuse_policy(catalog, spec)
    # The small tree itself, checked against its own spec, is reused.
    same = tmp_path / "same.sqlite"
    publish_catalog(str(same), [StoredPolicy.from_data(built.data, *lists_words())], [])
    with open_catalog(same) as catalog:
        kept = reuse_policy(catalog, built.spec)
    assert kept.content_hash == StoredPolicy.from_data(built.data, *lists_words()).content_hash


def lists_words() -> tuple[tuple[str, ...], tuple[str, ...]]:
    targets, guesses = lists()
    return targets.words, guesses.words


@pytest.mark.parametrize("lead", ["NIGHT", "ZZZZZ"])
def test_a_lead_opener_changes_nothing_but_the_order(
    built: BuiltPolicy, tmp_path: Path, lead: str
) -> None:
    """`--lead-opener` searches one opener first for a value to beat: the tree, its
    value and proof are the same as without one (NIGHT, a target, ranks far from
    first statically); the certificate still settles every opener, and records the
    lead (the bounds that refuted the others depend on it)."""
    targets, guesses = lists()
    (tmp_path / "rhymes.txt").write_text("\n".join(targets.words) + "\n")
    (tmp_path / "some.txt").write_text("\n".join(guesses.words) + "\n")
    spec = OptimalSpec(
        "wordle",
        targets=str(tmp_path / "rhymes.txt"),
        guesses=str(tmp_path / "some.txt"),
        lead_opener=lead,
    )
    if lead not in guesses.words:
        with pytest.raises(SearchError, match="not in the guess list"):
            build_optimal_policy(spec)
        return
    again = build_optimal_policy(spec)[0]
    assert spec.name() == again.data.name == built.data.name
    for name in ("node_guess", "node_size", "edge_child", "edge_reply", "target_order"):
        assert np.array_equal(again.data.numpy_arrays()[name], built.data.numpy_arrays()[name])
    cert, plain = again.data.certificate or {}, built.data.certificate or {}
    assert [cert[key] for key in ("value", "lower_bound", "proven")] == [
        plain[key] for key in ("value", "lower_bound", "proven")
    ]
    assert cert["lead_opener"] == lead and "lead_opener" not in plain
    assert cert["roots"][0][0] == lead != plain["roots"][0][0]
    assert sorted(r[0] for r in cert["roots"]) == sorted(r[0] for r in plain["roots"])
    policy = as_policy(again)
    assert verify_policy(policy) == [] and verify_certificate(policy) == []


def test_build_all_adds_the_tie_break_to_a_reused_global_optimum(
    tmp_path: Path,
    built: BuiltPolicy,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The shipped global optima were proven before their specs asked for the least
    worst case: `build-all --reuse` adds the tie-break (one capped search, its
    checkpoint under --checkpoints) instead of searching every opener again, and
    gives what the whole build gives; once added, the policy is reused as it is."""
    spec = dataclasses.replace(built.spec, least_worst=True)
    assert isinstance(spec, OptimalSpec) and spec.name() == built.data.name
    plain = tmp_path / "plain.sqlite"
    publish_catalog(str(plain), [StoredPolicy.from_data(built.data, *lists_words())], [])
    proofs = tmp_path / "proofs"
    proofs.mkdir()
    with open_catalog(plain) as catalog:
        taken = reused([catalog], spec, 1, proofs)
    assert taken is not None and taken[1] == "reused, tie-break added"
    upgraded = taken[0]
    cert = upgraded.data.certificate or {}
    value, worst = cert["value"], built.tree.target_scores.max()
    assert cert["objective"] == "total-then-worst" and cert["proven"]
    assert cert["tie_break"] == {"worst": worst, "refuted": value + 1}
    assert [p.name for p in proofs.iterdir()] == [
        f"{spec.name()}.ckpt.total-cap{worst - 1}-below{value + 1}"
    ]
    whole = build_optimal_policy(spec)[0]
    assert StoredPolicy.from_data(whole.data, *lists_words()).content_hash == upgraded.content_hash
    again = tmp_path / "again.sqlite"
    publish_catalog(str(again), [upgraded], [])
    with open_catalog(again) as catalog:
        kept = reused([catalog], spec, 1, None)
    assert kept is not None and kept[1] == "reused"
    assert kept[0].content_hash == upgraded.content_hash
    # `verify` checks the record and says what it proves.
    capsys.readouterr()
    assert run(["verify", "--catalog", str(again), "--policy", spec.name()]) == 0
    claim = f"worst case {worst}, the least of any tree of its total"
    assert f"ok    {spec.name()} ({claim})" in capsys.readouterr().out.splitlines()
    assert run(["verify", "--catalog", str(again), "--policy", spec.name(), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report == [{"name": spec.name(), "faults": [], "least_worst": claim}]
