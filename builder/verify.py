"""Verifying stored policies by replaying every target through every tree.

Opening a catalog already checks checksums and tree structure; this goes
further and checks meaning with the one replay every policy-file reader runs
(client.replay): every target is reached and won, every node's target slice
holds exactly the targets that pass through it, and the stored statistics
equal the ones recomputed from the replay (client.stats; for Guess My Word,
weighted by the stored target weights). A deduced leaf ends a replay without
a guess (see client.policy_format). On top of it, the builder checks that a
Guess My Word policy's weighted list is one it could have built from, and
that an NYT hard-mode policy's guesses and stored alternatives meet the NYT
rule on their paths, that every stored alternative's value is its guess's
value at its node (builder.alternatives.alternative_faults), and that stored
multi-board openings are the joint step's rankings, computed again
(builder.multiboard_openings.openings_faults).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ..client.probe import Policy
from ..client.progress import Progress
from ..client.replay import consistency_faults
from ..client.rules import NYT_HARD
from ..client.strategy import ABSURDLE
from .absurdle_policy import absurdle_faults
from .alternatives import alternative_faults
from .errors import WeightedListError
from .matrices import letter_array
from .multiboard_openings import openings_faults
from .nyt_hard import NytRule, is_legal, node_states
from .optimal import (
    INFEASIBLE,
    OBJECTIVES,
    TIE_BREAK_OBJECTIVES,
    CodeSymmetry,
    Problem,
    Search,
    SearchOptions,
    make_problem,
    node_bounds_of,
    node_masses,
    optimize,
)
from .optimal.tie_break import same_total_within
from .optimal.witness import Witness
from .optimal.witness_check import (
    CHUNK,
    OpenerClaim,
    WitnessChecker,
    check_openers,
    check_openers_in_processes,
)
from .weighted_lists import WeightedList
from .wordlists import WordList


def verify_policy(policy: Policy) -> list[str]:
    """Return the faults found in ``policy`` (an empty list when it checks out)."""
    faults = consistency_faults(policy)
    if faults:
        return faults
    if policy.data.weights is not None and policy.game.weighted_list:
        try:
            WeightedList(policy.targets, tuple(policy.data.weights.tolist()))
        except WeightedListError as error:
            return [f"the weighted target list is not valid: {error}"]
    return nyt_hard_faults(policy) or alternative_faults(policy) or openings_faults(policy)


def _node_states(policy: Policy, letters: np.ndarray) -> np.ndarray:
    """Return each node's NYT constraint state (rows of builder.nyt_hard states)."""
    arrays = policy.data.numpy_arrays()
    return node_states(
        letters,
        arrays["node_guess"],
        arrays["edge_offsets"],
        arrays["edge_reply"],
        arrays["edge_child"],
    )


def nyt_hard_faults(policy: Policy) -> list[str]:
    """Return the guesses of an NYT hard-mode policy that break the NYT rule (empty if none).

    Every node's guess and stored alternatives must be legal after the
    replies on the node's path. Policies of other modes have no faults here.
    """
    if policy.data.mode != NYT_HARD:
        return []
    if not policy.game.coloured_replies:
        return [f"mode {NYT_HARD} applies to Wordle-like games, not {policy.game.id}"]
    letters = letter_array(policy.vocabulary, policy.game.length)
    arrays = policy.data.arrays
    alt_offsets, alt_guess = arrays["alt_offsets"], arrays["alt_guess"]
    for node, state in enumerate(_node_states(policy, letters)):
        start, stop = int(alt_offsets[node]), int(alt_offsets[node + 1])
        for guess in [int(arrays["node_guess"][node]), *alt_guess[start:stop].tolist()]:
            if not is_legal(letters[guess], state):
                return [
                    f"node {node}: {policy.vocabulary[guess]} breaks the NYT hard rule "
                    f"after the replies before it"
                ]
    return []


def subtree_values(policy: Policy, objective: str) -> np.ndarray:
    """Return each node's subtree value: total guesses of its targets counted from
    that node (``total``; each target counted by its weight in a weighted
    policy), or the guesses its worst target needs (``minimax``)."""
    arrays = policy.data.numpy_arrays()
    offsets, children = arrays["edge_offsets"], arrays["edge_child"]
    size = node_masses(
        arrays["node_size"],
        arrays["node_first"],
        arrays["target_order"],
        policy.data.numpy_weights(),
    )
    values = np.zeros(policy.data.node_count, dtype=np.int64)
    # Children always follow their parents, so one backward pass suffices.
    for node in range(policy.data.node_count - 1, -1, -1):
        below = values[children[offsets[node] : offsets[node + 1]]]
        if objective == "minimax":
            values[node] = 1 + (int(below.max()) if len(below) else 0)
        else:
            values[node] = int(size[node]) + int(below.sum())
    return values


def verify_certificate(
    policy: Policy, *, prove: bool = False, workers: int = 1, scheduler: str | None = None
) -> list[str]:
    """Return the faults of an optimised policy's certificate (empty when it checks out).

    Checks that the certificate's value is the tree's (total or worst case,
    recomputed from the tree), every node's stored value and static lower
    bound equal the recomputed ones, the lower bound does not exceed the
    value and equals it exactly when the tree is claimed proven, a fixed first
    guess is the root's, the worst case respects a cap, and every refuted
    first guess's bound is at least the value (an Absurdle line's certificate:
    builder.absurdle_policy.absurdle_faults). With ``prove``, the search is
    run again with the recorded parameters and must reach the same value and
    bound, on ``workers`` processes or the Dask cluster at ``scheduler`` (a
    global proof's rerun is minutes of work); a search over every opener with
    witnesses is proven opener by opener from them instead
    (builder.optimal.witness_check), in this process. Policies without a
    certificate have no faults here.
    """
    cert = policy.data.certificate
    if cert is None:
        return []
    objective = str(cert["objective"])
    if objective == ABSURDLE:
        return absurdle_faults(policy, cert, subtree_values(policy, "minimax"), prove)
    if objective not in OBJECTIVES:
        return [f"certificate objective {objective!r} is unknown"]
    faults: list[str] = []
    # From the tree's structure (decoding checked its sizes add up; verify_policy
    # checks the replay), not a second replay of every target. A tie-break
    # objective's tree is a (capped) total search's.
    tree_objective = "minimax" if objective == "minimax" else "total"
    values = subtree_values(policy, tree_objective)
    claimed = int(values[0])
    worst = claimed if objective == "minimax" else int(subtree_values(policy, "minimax")[0])
    if int(cert["value"]) != claimed:
        faults.append(f"certificate value {cert['value']} differs from the tree's {claimed}")
    stored_values = np.frombuffer(cert["node_values"], "<i4")
    if not np.array_equal(stored_values, values):
        bad = int(np.flatnonzero(stored_values != values)[0])
        faults.append(
            f"node {bad}: certificate value {stored_values[bad]} differs from its "
            f"subtree's {values[bad]}"
        )
    lower, proven = int(cert["lower_bound"]), bool(cert["proven"])
    if lower > claimed:
        faults.append(f"lower bound {lower} exceeds the tree's value {claimed}")
    if proven != (lower == claimed):
        faults.append(
            f"certificate says proven={proven} but its bound {lower} and value {claimed} "
            + ("differ" if proven else "are equal")
        )
    first = cert.get("first_guess")
    if first is not None and policy.guess(policy.root) != first:
        faults.append(f"the root guesses {policy.guess(policy.root)}, not the fixed {first}")
    cap = cert.get("max_guesses")
    if cap is not None and worst > int(cap):
        faults.append(f"a target takes {worst} guesses, over the cap of {cap}")
    for word, value, _exact in cert["roots"]:
        if word != policy.guess(policy.root) and int(value) < claimed:
            faults.append(f"first guess {word} is recorded at {value}, below the tree's {claimed}")
    faults += _check_tie_break(cert, objective, claimed, worst)
    faults += _check_node_bounds(policy, cert, values)
    if "settled_by" in cert and not faults:
        faults += _check_openers(policy, cert)
    elif "witnesses" in cert and not faults:
        faults.append("the certificate has witnesses but no search over every opener")
    if prove and not faults:
        faults += _reprove(policy, cert, claimed, workers, scheduler)
    return faults


def _check_tie_break(cert: dict[str, Any], objective: str, claimed: int, worst: int) -> list[str]:
    """Check a tie-break objective's record: the tree's worst case, and a refuting bound
    for one guess fewer that proves it least (see builder/optimal/tie_break.py)."""
    record = cert.get("tie_break")
    if objective not in TIE_BREAK_OBJECTIVES:
        return [] if record is None else [f"a {objective} certificate has a tie-break record"]
    if not isinstance(record, dict) or not {"worst", "refuted"} <= record.keys():
        return [f"the {objective} certificate has no tie-break record (worst, refuted)"]
    faults = []
    if int(record["worst"]) != worst:
        faults.append(f"tie-break worst case {record['worst']} differs from the tree's {worst}")
    refuted = int(record["refuted"])
    if objective == "total-then-worst" and refuted <= claimed:
        faults.append(
            f"the least total within {worst - 1} guesses is recorded as {refuted}, not above "
            f"the tree's {claimed}: a tree of that total may have a smaller worst case"
        )
    if objective == "worst-then-total" and refuted < INFEASIBLE:
        faults.append(
            f"a tree within {worst - 1} guesses is recorded (total {refuted}): the worst "
            f"case {worst} is not the least"
        )
    return faults


def _problem_of(policy: Policy) -> tuple[Problem, WordList, WordList]:
    data = policy.data
    targets = WordList(data.targets.name, policy.targets, data.targets.sha256)
    guesses = WordList(data.guesses.name, policy.guesses, data.guesses.sha256)
    problem, _ = make_problem(policy.game, targets, guesses, policy.data.numpy_weights())
    return problem, targets, guesses


def _search_options(cert: dict[str, Any]) -> SearchOptions:
    return SearchOptions(
        objective=str(cert["objective"]),
        hard=bool(cert.get("hard")),
        nyt_hard=bool(cert.get("nyt_hard")),
        max_guesses=cert.get("max_guesses"),
        first_guess=cert.get("first_guess"),
        beam=cert.get("beam"),
        lead_opener=cert.get("lead_opener"),
    )


def _check_node_bounds(policy: Policy, cert: dict[str, Any], values: np.ndarray) -> list[str]:
    """Recompute each node's static lower bound from the reply matrix."""
    problem, _, _ = _problem_of(policy)
    arrays = policy.data.numpy_arrays()
    order, first, size = arrays["target_order"], arrays["node_first"], arrays["node_size"]
    depth_of = np.ones(policy.data.node_count, dtype=np.int64)
    offsets, children = arrays["edge_offsets"], arrays["edge_child"]
    for node in range(policy.data.node_count):
        depth_of[children[offsets[node] : offsets[node + 1]]] = depth_of[node] + 1
    cap = cert.get("max_guesses")
    node_targets = [
        np.sort(order[first[i] : first[i] + size[i]]).astype(np.int64)
        for i in range(policy.data.node_count)
    ]
    left = [(int(cap) - int(d) + 1) if cap is not None else 64 for d in depth_of]
    states = None
    if cert.get("nyt_hard"):
        if problem.letters is None:
            return ["the certificate is for NYT hard mode, which this game does not have"]
        rule = NytRule(problem.letters)
        states = [rule.key(row) for row in _node_states(policy, problem.letters)]
    bounds = node_bounds_of(problem, _search_options(cert), node_targets, left, None, states)
    stored = np.frombuffer(cert["node_bounds"], "<i4")
    if not np.array_equal(stored, bounds):
        bad = int(np.flatnonzero(stored != bounds)[0])
        return [
            f"node {bad}: certificate bound {stored[bad]} differs from the recomputed {bounds[bad]}"
        ]
    if (values < bounds).any():
        bad = int(np.flatnonzero(values < bounds)[0])
        return [f"node {bad}: subtree value {values[bad]} is below its lower bound {bounds[bad]}"]
    return []


def _check_openers(policy: Policy, cert: dict[str, Any]) -> list[str]:
    """Check a search over every opener covers every opener, with static bounds as claimed.

    Every guess that splits the targets must be recorded once; each opener
    settled by its static bound must carry exactly the bound the root's scan
    gives it (one scan: cheap). One-level bounds cost a first pass over the
    openers (minutes) and searched openers a search: ``verify --prove`` reruns
    those; here they are only checked to be at least the tree's value (above).
    """
    problem, targets, _ = _problem_of(policy)
    options = _search_options(cert)
    scan = Search(problem, options).scan(
        np.arange(problem.n_targets, dtype=np.int64), options.root_depth, ()
    )
    words = policy.guesses
    pairs = zip(scan.guesses.tolist(), scan.bounds.tolist(), strict=True)
    expected = {words[guess]: int(bound) for guess, bound in pairs}
    game, colours = policy.game, policy.game.interchangeable_colours
    if colours is not None:  # the search tries one opener per symmetry orbit
        kept = CodeSymmetry(letter_array(targets.words, game.length), colours)(())
        if kept is not None:
            orbits = {targets.words[int(row)] for row in kept.tolist()}
            expected = {word: bound for word, bound in expected.items() if word in orbits}
    recorded = [str(word) for word, _, _ in cert["roots"]]
    if len(set(recorded)) != len(recorded):
        return ["the certificate records an opener twice"]
    if set(recorded) != set(expected):
        missing = sorted(set(expected) - set(recorded))
        extra = sorted(set(recorded) - set(expected))
        return [
            f"the certificate's openers differ from the guesses that split the targets "
            f"({len(missing)} missing, e.g. {missing[:3]}; {len(extra)} extra, e.g. {extra[:3]})"
        ]
    for (word, value, _), how in zip(cert["roots"], cert["settled_by"], strict=True):
        if how == "static" and int(value) != expected[str(word)]:
            return [
                f"opener {word}: recorded static bound {value}, but the root's scan gives "
                f"{expected[str(word)]}"
            ]
    return _check_witness_shapes(policy, cert)


def _check_witness_shapes(policy: Policy, cert: dict[str, Any]) -> list[str]:
    """Check that each witness belongs to an opener settled by search (not the tree's
    own) and names each reply class once; what the witnesses prove is ``--prove``'s."""
    how = {
        str(word): settled
        for (word, _, _), settled in zip(cert["roots"], cert["settled_by"], strict=True)
    }
    root = policy.guess(policy.root)
    for word, pairs in cert.get("witnesses", {}).items():
        if how.get(word) != "search" or word == root:
            return [f"the certificate has a witness for {word}, which no search of it settled"]
        try:
            Witness.from_list(pairs)
        except ValueError as error:
            return [f"opener {word}: {error}"]
    return []


def _reprove(
    policy: Policy, cert: dict[str, Any], claimed: int, workers: int, scheduler: str | None
) -> list[str]:
    """Run the recorded search again; its value and bound must match the certificate
    (a certificate with witnesses: prove its openers from them, see
    :func:`_prove_by_witnesses`)."""
    if "witnesses" in cert:
        return _prove_by_witnesses(policy, cert, claimed, workers, scheduler)
    _, targets, guesses = _problem_of(policy)
    symmetry = None
    game, colours = policy.game, policy.game.interchangeable_colours
    if colours is not None:
        symmetry = CodeSymmetry(letter_array(targets.words, game.length), colours)
    options = dataclasses.replace(_search_options(cert), workers=workers, scheduler=scheduler)
    # Hours for a global proof without witnesses: it reports as the build did.
    progress = Progress(f"prove {policy.data.name}")
    progress.say("running its search again (the certificate keeps no witnesses)")
    try:
        result = optimize(
            game, targets, guesses, options, symmetry=symmetry, progress=progress,
            weights=policy.data.numpy_weights(),
        )  # fmt: skip
    finally:
        progress.close()
    found, bound = result.outcome.value, result.outcome.lower_bound
    faults = []
    if found != claimed:
        faults.append(f"the search, run again, finds {found}, not the certificate's {claimed}")
    if bound != int(cert["lower_bound"]):
        faults.append(
            f"the search, run again, proves a bound of {bound}, not the certificate's "
            f"{cert['lower_bound']}"
        )
    again = result.certificate.tie_break
    if again is not None and again != cert.get("tie_break"):
        faults.append(
            f"the tie-break, run again, records {again}, not the certificate's "
            f"{cert.get('tie_break')}"
        )
    return faults


def _symmetry_of(policy: Policy, targets: WordList) -> CodeSymmetry | None:
    """Return the game's symmetry hook (Mastermind's colours), as the search had it."""
    colours = policy.game.interchangeable_colours
    if colours is None:
        return None
    return CodeSymmetry(letter_array(targets.words, policy.game.length), colours)


def _prove_by_witnesses(
    policy: Policy, cert: dict[str, Any], claimed: int, workers: int, scheduler: str | None
) -> list[str]:
    """Prove a search over every opener from its certificate: every opener but the
    tree's is worth at least the tree's value (builder.optimal.witness_check), so the
    value is the optimum and must be the recorded lower bound; a tie-break record is
    proven by its own search again (on ``workers`` or at ``scheduler``)."""
    data = policy.data
    targets = WordList(data.targets.name, policy.targets, data.targets.sha256)
    guesses = WordList(data.guesses.name, policy.guesses, data.guesses.sha256)
    problem, vocabulary = make_problem(policy.game, targets, guesses, data.numpy_weights())
    row = vocabulary.index()
    witnesses, uncapped = cert["witnesses"], set(cert.get("witnesses_uncapped", []))
    root = policy.guess(policy.root)
    claims = [
        OpenerClaim(
            row[str(word)],
            str(word),
            int(value),
            str(how),
            Witness.from_list(witnesses[word], word in uncapped) if word in witnesses else None,
        )
        for (word, value, _), how in zip(cert["roots"], cert["settled_by"], strict=True)
        if word != root
    ]
    options = _search_options(cert)
    symmetry = _symmetry_of(policy, targets)
    # Minutes to hours for a large global proof: say how far it is (standard error).
    progress = Progress(f"prove {policy.data.name}", unit="opener")
    try:
        if workers > 1 and len(claims) > CHUNK:
            counts = check_openers_in_processes(
                problem, options, symmetry, policy.game.format_reply, claims, claimed,
                workers, progress,
            )  # fmt: skip
        else:
            checker = WitnessChecker(problem, options, symmetry, policy.game.format_reply)
            counts = check_openers(checker, claims, claimed, progress)
    finally:
        progress.close()
    if counts.faults:
        return counts.faults
    if int(cert["lower_bound"]) != claimed:
        return [
            f"every opener checked, the tree proves a bound of {claimed}, not the "
            f"certificate's {cert['lower_bound']}"
        ]
    record = cert.get("tie_break")
    if record is None:
        return []
    return _reprove_tie_break(
        policy, targets, guesses, options, claimed, record, workers, scheduler
    )


def _reprove_tie_break(
    policy: Policy,
    targets: WordList,
    guesses: WordList,
    options: SearchOptions,
    claimed: int,
    record: dict[str, int],
    workers: int,
    scheduler: str | None,
) -> list[str]:
    """Prove a tie-break record again by its own search, as the tie-break made it
    (builder/optimal/tie_break.py): ``total-then-worst``, no tree within one guess
    fewer than its worst case totals the tree's value (so ``refuted`` is that value
    + 1); ``worst-then-total``, the minimax optimum is its worst case (``refuted``:
    no tree within one guess fewer at all)."""
    worst = int(record["worst"])
    symmetry = _symmetry_of(policy, targets)
    options = dataclasses.replace(options, workers=workers, scheduler=scheduler)
    # The capped search keeps no witnesses, so it runs whole again: a long search on a
    # large global proof, which must say what it is doing (on standard error).
    progress = Progress(f"prove {policy.data.name}: tie-break")
    try:
        if options.objective == "total-then-worst":
            progress.say(f"searching for a tree within {worst - 1} guesses of total {claimed}")
            total = dataclasses.replace(options, objective="total")
            weights = policy.data.numpy_weights()
            found = same_total_within(
                optimize, policy.game, targets, guesses, total, claimed, worst - 1,
                symmetry=symmetry, progress=progress, weights=weights,
            )  # fmt: skip
            if found is not None:
                return [
                    f"a tree within {worst - 1} guesses totals {claimed}: the worst case "
                    f"{worst} is not the least of its total"
                ]
            again = {"worst": worst, "refuted": claimed + 1}
        else:
            # The worst case needs no weights (minimax ignores how likely each target is).
            minimax = dataclasses.replace(options, objective="minimax", max_guesses=None)
            progress.say("searching for the least worst case")
            least = optimize(
                policy.game, targets, guesses, minimax, symmetry=symmetry, progress=progress
            )
            again = {"worst": least.certificate.value, "refuted": INFEASIBLE}
    finally:
        progress.close()
    if again != {key: int(value) for key, value in record.items()}:
        return [f"the tie-break, run again, records {again}, not the certificate's {record}"]
    return []
