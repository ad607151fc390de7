"""The policy format read from untrusted bytes: limits, versions, crafted trees."""

from __future__ import annotations

import hashlib
import tracemalloc
from dataclasses import replace
from pathlib import Path

import msgpack
import numpy as np
import pytest

from guesswork.client.catalog import load_policy_bytes, open_catalog
from guesswork.client.errors import (
    CorruptFileError,
    InconsistentPolicyError,
    MalformedPolicyError,
    NotAPolicyFileError,
    PolicyFormatError,
    UnsupportedVersionError,
)
from guesswork.client.policy_file import (
    FILE_MAGIC,
    HEADER,
    encode_file,
    encode_words,
)
from guesswork.client.policy_format import (
    decode_core,
    encode_core,
    need,
    unpack_untrusted,
)
from guesswork.client.probe import Policy


@pytest.fixture(scope="module")
def policy() -> Policy:
    with open_catalog() as catalog:
        return catalog.policy("jotto-2309-hard-max")


def file_of(policy: Policy, core: bytes | None = None) -> bytes:
    words = {
        policy.data.targets.sha256: encode_words(policy.targets),
        policy.data.guesses.sha256: encode_words(policy.guesses),
    }
    return encode_file(core if core is not None else policy.core, words)


def with_body(body: bytes, version: int = 1, magic: bytes = FILE_MAGIC) -> bytes:
    """A file whose header is valid for ``body``: what a crafter would make."""
    return HEADER.pack(magic, version, 0, len(body), hashlib.sha256(body).digest()) + body


def test_a_file_round_trips(policy: Policy) -> None:
    loaded = load_policy_bytes(file_of(policy), "file")
    assert loaded.content_hash == policy.content_hash
    assert [loaded.play(t) for t in policy.targets[:50]] == [
        policy.play(t) for t in policy.targets[:50]
    ]


def test_encoding_is_deterministic(policy: Policy) -> None:
    assert encode_core(policy.data) == policy.core
    assert file_of(policy) == file_of(policy)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            b"\x82\xa6policy\xc6\x7f\xff\xff\xff",
            "malformed msgpack",
        ),  # bin of 2 GiB, 11 bytes given
        (b"\xdd\xff\xff\xff\xff", "malformed msgpack"),  # array of 4 billion items
        (b"\xdf\xff\xff\xff\xff", "malformed msgpack"),  # map of 4 billion pairs
        (b"\xdb\x7f\xff\xff\xff" + b"a" * 64, "malformed msgpack"),  # str of 2 GiB
        (b"\x91" * 200_000 + b"\xc0", "malformed msgpack"),  # nested 200,000 deep
        (b"\x81\xa6policy\xd4\x01\x00", "malformed msgpack"),  # an extension type
        (b"\xc0", "file body is missing or of the wrong type"),
        (msgpack.packb({"policy": 5, "words": {}}), "policy is missing or of the wrong type"),
        (msgpack.packb({"policy": b"\xc0", "words": []}), "words is missing"),
        (msgpack.packb({"policy": b"", "words": {}}) + b"\x00", "malformed msgpack"),
    ],
)
def test_crafted_bodies_are_refused_with_bounded_memory(body: bytes, message: str) -> None:
    tracemalloc.start()
    try:
        with pytest.raises(PolicyFormatError, match=message):
            load_policy_bytes(with_body(body), "crafted.gwp")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 << 20  # far below what the header lengths claim


def test_a_map_as_large_as_a_guess_list_is_read() -> None:
    """A certificate's witnesses hold one entry per opener settled by search: 8,556 in
    the NYT-hard proof of 3158 x 14855, once refused as over a 4096-entry limit."""
    witnesses = {f"W{index:05d}": [[index % 243, index]] for index in range(14855)}
    body = msgpack.packb({"certificate": {"witnesses": witnesses}})
    assert unpack_untrusted(body, "test")["certificate"]["witnesses"] == witnesses


def test_versions_and_magic(policy: Policy) -> None:
    body = file_of(policy)[HEADER.size :]
    assert load_policy_bytes(with_body(body, version=2), "v2.gwp").name == policy.name
    assert load_policy_bytes(with_body(body, version=1), "v1.gwp").name == policy.name
    for version in (0, 3):
        with pytest.raises(UnsupportedVersionError, match=f"policy file format {version} is"):
            load_policy_bytes(with_body(body, version=version), "v.gwp")
    with pytest.raises(NotAPolicyFileError, match=r"not a Guesswork policy file \(wrong magic"):
        load_policy_bytes(with_body(body, magic=b"PK\x03\x04\x00\x00\x00\x00"), "zip.gwp")
    with pytest.raises(NotAPolicyFileError, match="too short"):
        load_policy_bytes(b"GWP", "short.gwp")
    core = msgpack.unpackb(policy.core)
    newer = msgpack.packb({**core, "format": 7})
    with pytest.raises(
        UnsupportedVersionError, match="policy format 7 is newer than this Guesswork reads"
    ):
        decode_core(newer, "core")
    with pytest.raises(NotAPolicyFileError, match=r"not a Guesswork policy \(wrong magic"):
        decode_core(msgpack.packb({**core, "magic": "other"}), "core")
    with pytest.raises(MalformedPolicyError, match="unknown game 'chess'"):
        decode_core(msgpack.packb({**core, "game": {"id": "chess", "length": 5}}), "core")


def test_version_2_files_carry_the_content_hash(policy: Policy) -> None:
    data = file_of(policy)
    assert int.from_bytes(data[8:10], "big") == 2
    body = msgpack.unpackb(data[HEADER.size :])
    assert body["content_hash"] == policy.content_hash == hashlib.sha256(policy.core).hexdigest()
    with pytest.raises(InconsistentPolicyError, match="content hash mismatch"):
        load_policy_bytes(with_body(msgpack.packb({**body, "content_hash": "0" * 64}), 2), "h")
    without = {key: value for key, value in body.items() if key != "content_hash"}
    with pytest.raises(MalformedPolicyError, match="content_hash is missing"):
        load_policy_bytes(with_body(msgpack.packb(without), version=2), "h.gwp")
    # Version 1 has no content hash; unknown keys are ignored in either version.
    assert load_policy_bytes(with_body(msgpack.packb(without), version=1), "v1").name
    extra = msgpack.packb({**body, "comment": "new key"})
    assert load_policy_bytes(with_body(extra, version=2), "x.gwp").content_hash == (
        policy.content_hash
    )
    flipped = bytearray(data)
    flipped[-1] ^= 1
    with pytest.raises(CorruptFileError, match="checksum mismatch"):
        load_policy_bytes(bytes(flipped), "flipped.gwp")


def _crafted(policy: Policy, **changes: np.ndarray) -> bytes:
    arrays = {**policy.data.numpy_arrays(), **changes}
    return encode_core(replace(policy.data, arrays=arrays))


def test_crafted_trees_are_refused_before_any_walk(policy: Policy) -> None:
    a = policy.data.numpy_arrays()
    cycle = a["edge_child"].copy()
    cycle[5] = 0  # an edge back to the root: a walk could loop forever
    far = a["node_guess"].copy()
    far[3] = 10**6
    reply = a["edge_reply"].copy()
    reply[0] = 99
    order = a["target_order"].copy()
    order[0] = order[1]
    sizes = a["node_size"].copy()
    sizes[1] += 1
    cases = {
        "a child does not come after its parent": {"edge_child": cycle},
        "a guess index is outside the word lists": {"node_guess": far},
        "a reply code is outside the game's replies": {"edge_reply": reply},
        "target order is not a permutation": {"target_order": order},
        "node sizes do not add up": {"node_size": sizes},
        "node_first has": {"node_first": a["node_first"][:-1]},
    }
    for message, change in cases.items():
        with pytest.raises(MalformedPolicyError, match=message):
            decode_core(_crafted(policy, **change), "crafted")
        with pytest.raises(MalformedPolicyError, match=message):
            load_policy_bytes(file_of(policy, _crafted(policy, **change)), "crafted.gwp")


@pytest.mark.reliability
def test_resealed_files_with_misranked_alternatives_are_refused_by_every_reader(
    policy: Policy, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue #26, point 2 (the tamperings a structure check can see): a file re-sealed
    (content hash, body hash, header recomputed) with a node's alternative values
    reversed, or an alternative made the node's own guess, is refused by the file
    reader (import, verify, --store) and the catalog reader (the server)."""
    from guesswork.builder.cli import run as build_run

    a = policy.data.numpy_arrays()
    reversed_values = a["alt_value"].copy()
    reversed_values[: int(a["alt_offsets"][1])] = reversed_values[: int(a["alt_offsets"][1])][::-1]
    own = a["alt_guess"].copy()
    own[0] = a["node_guess"][0]
    tamperings = {
        "not ranked best first": {"alt_value": reversed_values},
        "hold the node's own guess": {"alt_guess": own},
    }
    for message, change in tamperings.items():
        core = _crafted(policy, **change)
        with pytest.raises(MalformedPolicyError, match=message):
            load_policy_bytes(file_of(policy, core), "tampered.gwp")  # a file read whole
        with pytest.raises(MalformedPolicyError, match=message):
            decode_core(core, "row")  # a catalog's policy, read on first use
        path = tmp_path / "tampered.gwp"
        path.write_bytes(file_of(policy, core))
        assert build_run(["import", str(path), "--catalog", str(tmp_path / "c.sqlite")]) == 1
        assert message in capsys.readouterr().err


def test_word_lists_must_match_their_hashes(policy: Policy) -> None:
    body = msgpack.unpackb(file_of(policy)[HEADER.size :])
    key = policy.data.targets.sha256
    body["words"][key] = body["words"][key].replace(b"DRAPE", b"DRIPE")
    with pytest.raises(InconsistentPolicyError, match="fails its SHA-256"):
        load_policy_bytes(with_body(msgpack.packb(body)), "words.gwp")


def test_guess_my_word_cores_carry_their_variant_and_weights() -> None:
    with open_catalog() as catalog:
        gmw = catalog.policy("guess-my-word-common-words-optimal-deduce")
        key_tree = catalog.policy("guess-my-word-common-words-optimal-live")
    core = msgpack.unpackb(gmw.core, raw=False)
    assert core["game"] == {"id": "guess-my-word", "length": 0, "variant": "deduce"}
    assert core["strategy"] == {"kind": "word-tree", "tree": "optimal"}
    assert gmw.data.weights is not None and len(gmw.data.weights) == len(gmw.targets)
    assert np.frombuffer(core["target_weights"], "<i8").tolist() == gmw.data.weights.tolist()
    assert encode_core(gmw.data) == gmw.core
    # Weights are Guess My Word's (and a prior's) only, and it must have them, one per target.
    with pytest.raises(PolicyFormatError, match="only Guess My Word policies and policies with"):
        decode_core(msgpack.packb({**core, "game": {"id": "wordle", "length": 5}}), "core")
    without = {key: value for key, value in core.items() if key != "target_weights"}
    with pytest.raises(PolicyFormatError, match="target_weights is missing"):
        decode_core(msgpack.packb(without), "core")
    short = {**core, "target_weights": core["target_weights"][:-8]}
    with pytest.raises(PolicyFormatError, match="does not cover every target"):
        decode_core(msgpack.packb(short), "core")
    for variant in (None, "hard"):
        game = {"id": "guess-my-word", "length": 0, "variant": variant}
        with pytest.raises(PolicyFormatError, match="variant"):
            decode_core(msgpack.packb({**core, "game": game}), "core")
    # A deduced tree wins targets only at its leaves (the known words): a key tree,
    # which wins one at every node, is not one.
    live = msgpack.unpackb(key_tree.core, raw=False)
    deduced = {**live, "game": {**live["game"], "variant": "deduce"}}
    with pytest.raises(PolicyFormatError, match="a node of a deduced tree wins a target"):
        decode_core(msgpack.packb(deduced), "core")
    leaf = int(np.flatnonzero(np.diff(gmw.data.numpy_arrays()["edge_offsets"]) == 0)[0])
    assert gmw.known(leaf) and not gmw.known(0) and not key_tree.known(leaf)


def test_a_prior_weighted_core_is_format_3_and_names_its_prior() -> None:
    """A policy weighted by a prior is written in format 3 with its target weights and
    the prior's reference, read back equal; every other core keeps format 2. A prior
    in an older format, a prior of the wrong shape, or weights without one are refused."""
    with open_catalog() as catalog:
        weighted = catalog.policy("wordle-3158-g14855-weighted-wordfreq-normal-neg-entropy")
        plain = catalog.policy("wordle-3158-g14855-normal-neg-entropy")
    core = msgpack.unpackb(weighted.core, raw=False)
    assert (core["format"], msgpack.unpackb(plain.core, raw=False)["format"]) == (3, 2)
    assert core["prior"]["name"] == "wordfreq" and core["prior"]["params"]["scale"] == 10000
    prior = weighted.data.prior
    assert prior is not None and prior.name == "wordfreq" and len(prior.sha256) == 64
    assert weighted.data.weights is not None and len(weighted.data.weights) == 3158
    assert encode_core(weighted.data) == weighted.core
    assert decode_core(weighted.core, "core").prior == prior
    older = {**core, "format": 2}
    with pytest.raises(PolicyFormatError, match="a prior needs policy format 3"):
        decode_core(msgpack.packb(older), "core")
    without_prior = {key: value for key, value in core.items() if key != "prior"}
    with pytest.raises(PolicyFormatError, match="policies with a prior have target weights"):
        decode_core(msgpack.packb(without_prior), "core")
    bad_params = {**core, "prior": {**core["prior"], "params": {"scale": [1]}}}
    with pytest.raises(PolicyFormatError, match=r"prior\.params\.scale"):
        decode_core(msgpack.packb(bad_params), "core")
    without_weights = {key: value for key, value in core.items() if key != "target_weights"}
    with pytest.raises(PolicyFormatError, match="target_weights is missing"):
        decode_core(msgpack.packb(without_weights), "core")


def test_need_is_the_public_field_check_both_readers_share() -> None:
    """client.policy_file checks its body's fields with policy_format's public need
    (issue #45: no private import across modules): a field of the right type comes
    back, a missing one or another type (a bool for a count) is named."""
    assert need(3, int, "format", "x.gwp") == 3
    assert need(True, bool, "certificate.proven", "x.gwp") is True
    for value in (None, True, "3"):
        with pytest.raises(
            MalformedPolicyError, match=r"^x.gwp: format is missing or of the wrong type$"
        ):
            need(value, int, "format", "x.gwp")
