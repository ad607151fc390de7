"""Regenerate the policy-file conformance vectors in tests/vectors.

Run: python scripts/gen_vectors.py [OUTPUT]  (default: tests/vectors)

Writes ``policies/*.gwp`` (small policies of every kind the builder writes,
built with the builder's own API from slices of the shipped word lists and a
made-up weighted list), ``damaged/*.gwp`` (each refused with one error class
of guesswork.client.errors) and ``vectors.json`` (each policy's content hash
and expected walks, taken from the project's own probe, client.probe). The
output depends on nothing but the repository: a test regenerates it into a
temporary folder and compares it with the committed files byte for byte.
tests/vectors/README.md (written by hand) says how to use them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import msgpack
import numpy as np

from guesswork.builder.greedy import step_of
from guesswork.builder.greedy_tree import (
    build_greedy_tree,
    warm_up,
)
from guesswork.builder.guess_my_word import word_tree_policy
from guesswork.builder.optimal import SearchOptions, optimize
from guesswork.builder.policies import PolicySpec, policy_data
from guesswork.builder.publish import StoredPolicy
from guesswork.builder.weighted_lists import WeightedList
from guesswork.builder.wordlists import WordList, jotto_allowable, shipped_words
from guesswork.client.catalog import load_policy_bytes
from guesswork.client.errors import OffTreeError
from guesswork.client.games import make_game
from guesswork.client.policy_file import (
    FILE_MAGIC,
    HEADER,
    encode_file,
    encode_words,
)
from guesswork.client.policy_format import (
    PriorRef,
    content_hash,
)
from guesswork.client.probe import Policy
from guesswork.client.strategy import GreedyStrategy, OptimalStrategy

ROOT = Path(__file__).resolve().parents[1]
#: The schema of vectors.json (tests/vectors/README.md).
VECTORS_FORMAT = 1

ANSWERS = shipped_words("wordle-answers-2309")
ALLOWED = shipped_words("wordle-guesses-12972")
#: A made-up weighted list for Guess My Word (alphabetical words, counts).
WEIGHTED = {
    "acorn": 3,
    "amber": 9,
    "anchor": 2,
    "badge": 5,
    "basil": 12,
    "cabin": 7,
    "canyon": 4,
    "cedar": 6,
    "delta": 10,
    "ember": 3,
    "falcon": 8,
    "fern": 2,
    "garnet": 5,
    "harbor": 11,
    "iris": 4,
    "jasper": 6,
    "kestrel": 2,
    "lantern": 9,
    "maple": 13,
    "nectar": 3,
    "olive": 7,
    "quartz": 2,
    "raven": 8,
    "willow": 5,
}


def _list(name: str, words: tuple[str, ...] | list[str]) -> WordList:
    return WordList.from_words(name, words)


def _greedy(name: str, spec: PolicySpec, targets: WordList, guesses: WordList) -> StoredPolicy:
    """Build a greedy tree as builder.policies.build_policy does, over the given lists."""
    game = spec.check()
    strategy = spec.strategy(game)
    step = step_of(strategy, len(guesses), game, nyt_hard=spec.nyt_hard)
    warm_up(game)
    tree = build_greedy_tree(game, targets, guesses, step.options)
    data = policy_data(name, spec.mode, strategy, tree)
    return StoredPolicy.from_data(data, targets.words, guesses.words)


def _optimal(name: str, targets: WordList) -> StoredPolicy:
    """Build an exact minimum-total Wordle tree with its certificate."""
    game = make_game("wordle")
    warm_up(game)
    result = optimize(game, targets, targets, SearchOptions(objective="total"))
    strategy = OptimalStrategy(
        objective="total",
        fallback=GreedyStrategy(metric="neg_entropy", window=(4, 125), arithmetic="2022"),
    )
    data = policy_data(name, "normal", strategy, result.tree)
    data = dataclasses.replace(data, certificate=result.certificate.to_map())
    return StoredPolicy.from_data(data, targets.words, targets.words)


#: The made-up prior the weighted vector names (format 3's ``prior`` map).
_PRIOR = {"name": "vectors-prior", "sha256": "0" * 64, "params": {"scale": 23, "source": "made up"}}


def _prior_weighted(name: str, targets: WordList) -> StoredPolicy:
    """Build an exact tree of least expected guesses under a made-up prior (format 3:
    target weights, the prior's reference, weighted statistics and certificate)."""
    game = make_game("wordle")
    warm_up(game)
    weights = np.array([1 + (7 * i) % 23 for i in range(len(targets))], dtype=np.int64)
    prior = PriorRef(_PRIOR["name"], _PRIOR["sha256"], dict(_PRIOR["params"]))
    result = optimize(game, targets, targets, SearchOptions(objective="total"), weights=weights)
    strategy = OptimalStrategy(
        objective="total",
        fallback=GreedyStrategy(metric="neg_entropy", window=(4, 125), arithmetic="2022"),
    )
    data = policy_data(name, "normal", strategy, result.tree, (prior, weights))
    data = dataclasses.replace(data, certificate=result.certificate.to_map())
    return StoredPolicy.from_data(data, targets.words, targets.words)


def _weighted(name: str, variant: str) -> StoredPolicy:
    weights = WeightedList.from_counts(WEIGHTED)
    data = word_tree_policy(weights, "optimal", "live" if variant == "live" else "deduce")
    data = dataclasses.replace(data, name=name)
    return StoredPolicy.from_data(data, weights.words, weights.words)


def build_policies() -> dict[str, StoredPolicy]:
    """Return every shipped vector policy by file stem (a few dozen targets each)."""
    wordle_targets = _list("vectors-wordle-answers-a", ANSWERS[::60])
    hard_targets = _list("vectors-wordle-answers-b", ANSWERS[7::60])
    jotto_words = _list("vectors-jotto", jotto_allowable(ANSWERS[::40]))
    mastermind = PolicySpec("mastermind", length=3, colours=4, metric="neg_entropy")
    mm_game = mastermind.check()
    mm_targets, mm_guesses = mastermind.lists(mm_game)
    greek = _list("vectors-wordle-greek", shipped_words("el-5-top2000")[::50])
    return {
        "wordle-normal": _greedy(
            "vectors-wordle-normal",
            PolicySpec(),
            wordle_targets,
            _list("vectors-wordle-guesses-a", ALLOWED[::250]),
        ),
        "wordle-hard": _greedy(
            "vectors-wordle-hard",
            PolicySpec(mode="hard", metric="max"),
            hard_targets,
            hard_targets,
        ),
        "wordle-nyt-hard": _greedy(
            "vectors-wordle-nyt-hard",
            PolicySpec(mode="nyt-hard"),
            _list("vectors-wordle-answers-c", ANSWERS[13::60]),
            _list("vectors-wordle-guesses-c", ALLOWED[3::200]),
        ),
        "wordle-optimal": _optimal(
            "vectors-wordle-optimal", _list("vectors-wordle-answers-d", ANSWERS[21::60])
        ),
        "jotto": _greedy(
            "vectors-jotto-hard",
            PolicySpec("jotto", mode="hard", metric="expectation"),
            jotto_words,
            jotto_words,
        ),
        "antiwordle": _greedy(
            "vectors-antiwordle-hard",
            PolicySpec("antiwordle", mode="hard", metric="entropy"),
            _list("vectors-antiwordle", ANSWERS[29::60]),
            _list("vectors-antiwordle", ANSWERS[29::60]),
        ),
        "mastermind": _greedy("vectors-mastermind-4x3", mastermind, mm_targets, mm_guesses),
        # UTF-8 word lists: Greek words (two bytes a letter), a slice of a language list.
        "wordle-greek": _greedy("vectors-wordle-greek", PolicySpec(), greek, greek),
        # Format 3: targets weighted by a prior (an exact tree of least expected guesses).
        "wordle-weighted": _prior_weighted(
            "vectors-wordle-weighted", _list("vectors-wordle-answers-e", ANSWERS[33::60])
        ),
        "guess-my-word-deduce": _weighted("vectors-guess-my-word-deduce", "deduce"),
        "guess-my-word-live": _weighted("vectors-guess-my-word-live", "live"),
    }


def _words_of(stored: StoredPolicy) -> dict[str, bytes]:
    return {sha: encode_words(words) for sha, (_, words) in stored.words.items()}


def _file(core: bytes, words: dict[str, bytes], version: int = 2) -> bytes:
    return encode_file(core, words, version)


def _repack(core: bytes, change: Any) -> bytes:
    """Return ``core`` unpacked, changed by ``change(map)`` and packed again."""
    top = msgpack.unpackb(core, raw=False)
    change(top)
    packed: bytes = msgpack.packb(top, use_bin_type=True)
    return packed


def _seal(body: bytes, version: int = 2, reserved: int = 0, magic: bytes = FILE_MAGIC) -> bytes:
    """Return ``body`` behind a header whose length and checksum are right for it."""
    return HEADER.pack(magic, version, reserved, len(body), hashlib.sha256(body).digest()) + body


def _body(core: bytes, words: dict[str, bytes], **extra: Any) -> bytes:
    body = {
        "policy": core,
        "words": dict(sorted(words.items())),
        "content_hash": content_hash(core),
    }
    packed: bytes = msgpack.packb({**body, **extra}, use_bin_type=True)
    return packed


def legacy_and_extended(stored: dict[str, StoredPolicy]) -> dict[str, bytes]:
    """Return the files that test version handling and unknown keys: a version-1
    container, a format-1 core, and a policy with unknown keys in every map."""

    def renamed(name: str) -> Any:
        return lambda top: top.update(name=name)

    def format_1(top: dict[str, Any]) -> None:
        top.update(name="vectors-legacy-core-format-1", format=1)
        for key in ("alt_offsets", "alt_guess", "alt_value"):
            del top["tree"][key]

    def unknown_keys(top: dict[str, Any]) -> None:
        top.update(name="vectors-unknown-keys")
        top["x-note"] = "readers ignore keys they do not know"
        for key in ("game", "strategy", "targets", "guesses", "stats", "tree"):
            top[key]["x-note"] = [1, 2.5, None, b"\x00"]

    hard, jotto = stored["wordle-hard"], stored["jotto"]
    extended = _repack(hard.core, unknown_keys)
    return {
        "legacy-container-v1": _file(
            _repack(hard.core, renamed("vectors-legacy-container-v1")), _words_of(hard), 1
        ),
        "legacy-core-format-1": _file(_repack(jotto.core, format_1), _words_of(jotto)),
        "unknown-keys": _seal(_body(extended, _words_of(hard), **{"x-note": {"any": "value"}})),
    }


def damaged_files(stored: StoredPolicy) -> list[tuple[str, str, str, bytes]]:
    """Return (stem, error class, what was done, bytes) for each damaged file, all made
    from ``stored`` (a small Wordle hard-mode policy)."""
    core, words = stored.core, _words_of(stored)
    good = _file(core, words)
    body = good[HEADER.size :]
    a = stored.data.numpy_arrays()
    offsets = a["edge_offsets"]
    # A leaf that wins its target, another guess there; a root edge's reply moved to a
    # code none of the root's edges has; the children of the last edge made the root's.
    leaf = int(np.flatnonzero(np.diff(offsets) == 0)[0])
    root_replies = set(a["edge_reply"][offsets[0] : offsets[1]].tolist())
    win = stored.data.game.win_reply
    free = next(c for c in range(win) if c not in root_replies)

    def tree_change(name: str, index: int, value: int) -> Any:
        def change(top: dict[str, Any]) -> None:
            array = np.frombuffer(top["tree"][name], "<i4").copy()
            array[index] = value
            top["tree"][name] = array.astype("<i4").tobytes()

        return change

    def stats_change(top: dict[str, Any]) -> None:
        top["stats"]["mean"] += 0.25

    root_alternatives = int(a["alt_offsets"][1])

    def reversed_alternatives(top: dict[str, Any]) -> None:
        values = np.frombuffer(top["tree"]["alt_value"], "<f8").copy()
        values[:root_alternatives] = values[:root_alternatives][::-1]
        top["tree"]["alt_value"] = values.astype("<f8").tobytes()

    def resealed(change: Any) -> bytes:
        changed = _repack(core, change)
        return _seal(_body(changed, words))

    weights = np.ones(stored.data.targets.count, "<i8").tobytes()
    flipped = bytearray(good)
    flipped[-5] ^= 0x01
    guess = int(a["node_guess"][leaf])
    other_guess = (guess + 1) % stored.data.guesses.count
    swapped = a["target_order"].copy()
    swapped[[0, -1]] = swapped[[-1, 0]]
    changed_words = dict(words)
    target_sha = stored.data.targets.sha256
    changed_words[target_sha] = words[target_sha].replace(b"\n", b"\nA", 1)[:-1]
    wrong_hash = content_hash(core)[:-1] + ("0" if content_hash(core)[-1] != "0" else "1")
    without_hash = msgpack.packb({"policy": core, "words": dict(sorted(words.items()))})
    return [
        ("too-short", "NotAPolicyFileError", "only the first 20 bytes of a valid file", good[:20]),
        (
            "bad-magic",
            "NotAPolicyFileError",
            "magic GWPOLICZ instead of GWPOLICY",
            _seal(body, magic=b"GWPOLICZ"),
        ),
        (
            "core-bad-magic",
            "NotAPolicyFileError",
            "the core's magic is 'guesswork-other' (re-sealed, content_hash recomputed)",
            resealed(lambda top: top.update(magic="guesswork-other")),
        ),
        (
            "newer-container",
            "UnsupportedVersionError",
            "container version 3 (header otherwise valid)",
            _seal(body, version=3),
        ),
        (
            "newer-core-format",
            "UnsupportedVersionError",
            "core format 4 (re-sealed, content_hash recomputed)",
            resealed(lambda top: top.update(format=4)),
        ),
        (
            "prior-in-format-2",
            "MalformedPolicyError",
            "a prior (and target weights) in a format-2 core (re-sealed, content_hash recomputed)",
            resealed(lambda top: top.update(prior=_PRIOR, target_weights=weights)),
        ),
        (
            "weights-without-prior",
            "MalformedPolicyError",
            "target weights in a format-3 Wordle core with no prior (re-sealed, content_hash "
            "recomputed)",
            resealed(lambda top: top.update(format=3, target_weights=weights)),
        ),
        (
            "reserved-bytes",
            "CorruptFileError",
            "reserved header field 1 instead of 0",
            _seal(body, reserved=1),
        ),
        ("truncated", "CorruptFileError", "the last 100 bytes of the body cut off", good[:-100]),
        (
            "checksum-mismatch",
            "CorruptFileError",
            "one body byte changed, the header's SHA-256 not updated",
            bytes(flipped),
        ),
        (
            "malformed-body",
            "MalformedPolicyError",
            "a body that is not one msgpack value (a bin of 255 bytes with 3 given), re-sealed",
            _seal(b"\x81\xa6policy\xc4\xffabc"),
        ),
        (
            "missing-field",
            "MalformedPolicyError",
            "the core has no 'stats' (re-sealed, content_hash recomputed)",
            resealed(lambda top: top.pop("stats")),
        ),
        (
            "missing-content-hash",
            "MalformedPolicyError",
            "a version-2 body without content_hash (re-sealed)",
            _seal(without_hash),
        ),
        (
            "array-not-int32s",
            "MalformedPolicyError",
            "tree.node_size one byte short of whole int32s (re-sealed, content_hash recomputed)",
            resealed(lambda top: top["tree"].update(node_size=top["tree"]["node_size"][:-1])),
        ),
        (
            "child-before-parent",
            "MalformedPolicyError",
            "the last edge leads back to the root (re-sealed, content_hash recomputed)",
            resealed(tree_change("edge_child", len(a["edge_child"]) - 1, 0)),
        ),
        (
            "misranked-alternatives",
            "MalformedPolicyError",
            "the root's alternative values reversed, so they decrease (re-sealed, content_hash "
            "recomputed)",
            resealed(reversed_alternatives),
        ),
        (
            "own-guess-alternative",
            "MalformedPolicyError",
            "the root's first alternative made the root's own guess (re-sealed, content_hash "
            "recomputed)",
            resealed(tree_change("alt_guess", 0, int(a["node_guess"][0]))),
        ),
        (
            "content-hash-mismatch",
            "InconsistentPolicyError",
            "the body's content_hash differs from the core's SHA-256 in its last digit (re-sealed)",
            _seal(_body(core, words, content_hash=wrong_hash)),
        ),
        (
            "word-list-mismatch",
            "InconsistentPolicyError",
            "a target word changed so the list fails the SHA-256 its core names (re-sealed)",
            _seal(_body(core, changed_words)),
        ),
        (
            "tampered-guess",
            "InconsistentPolicyError",
            f"node {leaf}'s guess changed to another word (re-sealed, content_hash recomputed)",
            resealed(tree_change("node_guess", leaf, other_guess)),
        ),
        (
            "tampered-reply",
            "InconsistentPolicyError",
            f"a root edge's reply changed to {free}, which no root edge had (re-sealed, "
            "content_hash recomputed)",
            resealed(tree_change("edge_reply", int(offsets[0]), free)),
        ),
        (
            "tampered-mean",
            "InconsistentPolicyError",
            "the stored mean raised by 0.25 (re-sealed, content_hash recomputed)",
            resealed(stats_change),
        ),
        (
            "tampered-target-order",
            "InconsistentPolicyError",
            "the first and last targets of target_order swapped, so node slices are wrong "
            "(re-sealed, content_hash recomputed)",
            resealed(lambda top: top["tree"].update(target_order=swapped.astype("<i4").tobytes())),
        ),
    ]


def expected(policy: Policy, history: list[tuple[str, int]]) -> dict[str, Any]:
    """Return the walk of ``history`` as the probe gives it (the rule of
    docs/policy-format.rst): off the tree, solved, at a deduced leaf, or at a node."""
    walk: dict[str, Any] = {"history": [[word, code] for word, code in history]}
    try:
        position = policy.walk(history)
    except OffTreeError:
        return {**walk, "off_tree": True}
    if position.solved:
        return {**walk, "guess": history[-1][0], "remaining": 1, "solved": True}
    node = position.node
    guess, remaining = policy.guess(node), policy.remaining_count(node)
    return {**walk, "guess": guess, "remaining": remaining, "solved": policy.known(node)}


def _path(policy: Policy, target: str) -> list[tuple[str, int]]:
    """Return the turns the policy plays when the secret is ``target``."""
    return [(guess, policy.game.reply(guess, target)) for guess in policy.play(target)]


def _history_to(policy: Policy, node: int) -> list[tuple[str, int]]:
    """Return the turns that lead from the root to ``node``."""
    a = policy.data.numpy_arrays()
    parent = np.repeat(np.arange(policy.data.node_count), np.diff(a["edge_offsets"]))
    turns = []
    while node != policy.root:
        edge = int(np.flatnonzero(a["edge_child"] == node)[0])
        node = int(parent[edge])
        turns.append((policy.guess(node), int(a["edge_reply"][edge])))
    return turns[::-1]


def _off_tree_reply(policy: Policy) -> list[tuple[str, int]] | None:
    """Return a history whose last reply has no edge (at the first node that has such a
    reply), or None when every node has every possible reply (a deduced binary tree)."""
    a = policy.data.numpy_arrays()
    offsets, game = a["edge_offsets"], policy.game
    for node in range(policy.data.node_count):
        if policy.known(node):
            continue
        used = set(a["edge_reply"][offsets[node] : offsets[node + 1]].tolist())
        for code in range(game.reply_space):
            if code not in used and code != game.win_reply:
                return [*_history_to(policy, node), (policy.guess(node), code)]
    return None


def walks(policy: Policy) -> list[dict[str, Any]]:
    """Return the expected walks: the root, mid-games, the shortest and the longest
    game (solved, or for a deducing game ending at a deduced leaf), the two ways off
    the tree, and for a deducing game the winning code mid-tree."""
    root = policy.guess(policy.root)
    paths = sorted((_path(policy, t) for t in policy.targets), key=lambda p: (len(p), p))
    shortest, longest = paths[0], paths[-1]
    histories: list[list[tuple[str, int]]] = [
        [],
        longest[:1],
        longest[:2],
        shortest,
        longest,
        [(next(w for w in policy.vocabulary if w != root), 0)],
    ]
    off_reply = _off_tree_reply(policy)
    if off_reply is not None:
        histories.append(off_reply)
    if policy.game.deduces:
        histories.append([(root, policy.game.win_reply)])
    seen: set[tuple[tuple[str, int], ...]] = set()
    result = []
    for history in histories:
        if tuple(history) not in seen:
            seen.add(tuple(history))
            result.append(expected(policy, history))
    return result


def _describe(policy: Policy, file: str, container: int) -> dict[str, Any]:
    core_format = msgpack.unpackb(policy.core, raw=False)["format"]
    return {
        "file": file,
        "name": policy.name,
        "game": policy.game.id,
        "length": policy.game.length,
        "mode": policy.data.mode,
        "strategy": policy.data.strategy.kind,
        "container_version": container,
        "core_format": core_format,
        "content_hash": policy.content_hash,
        "targets": len(policy.targets),
        "win_code": policy.game.win_reply,
        "walks": walks(policy),
    }


def generate(output: Path) -> None:
    """Write policies/, damaged/ and vectors.json under ``output`` (replacing old files)."""
    stored = build_policies()
    files = {stem: _file(s.core, _words_of(s)) for stem, s in stored.items()}
    files.update(legacy_and_extended(stored))
    for folder in ("policies", "damaged"):
        (output / folder).mkdir(parents=True, exist_ok=True)
        for old in (output / folder).glob("*.gwp"):
            old.unlink()
    entries = []
    for stem, data in files.items():
        name = f"policies/{stem}.gwp"
        (output / name).write_bytes(data)
        policy = load_policy_bytes(data, name)
        entries.append(_describe(policy, name, int.from_bytes(data[8:10], "big")))
    damaged = []
    for stem, error, what, data in damaged_files(stored["wordle-hard"]):
        name = f"damaged/{stem}.gwp"
        (output / name).write_bytes(data)
        damaged.append({"file": name, "error": error, "what": what})
    (output / "vectors.json").write_text(vectors_text(entries, damaged))


def vectors_text(policies: list[dict[str, Any]], damaged: list[dict[str, Any]]) -> str:
    """Return vectors.json: indented JSON with each walk and damaged file on one line."""

    def one_line(value: Any) -> str:
        return json.dumps(value, separators=(", ", ": "))

    def policy_text(policy: dict[str, Any]) -> str:
        fields = [
            f'   "{key}": {one_line(value)}' for key, value in policy.items() if key != "walks"
        ]
        walks = ",\n".join(f"    {one_line(walk)}" for walk in policy["walks"])
        return "  {\n" + ",\n".join([*fields, f'   "walks": [\n{walks}\n   ]']) + "\n  }"

    listed = ",\n".join(policy_text(policy) for policy in policies)
    refused = ",\n".join(f"  {one_line(entry)}" for entry in damaged)
    return (
        f'{{\n "vectors_format": {VECTORS_FORMAT},\n "policies": [\n{listed}\n ],\n'
        f' "damaged": [\n{refused}\n ]\n}}\n'
    )


if __name__ == "__main__":
    generate(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "tests/vectors")
