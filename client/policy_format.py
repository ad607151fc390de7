"""The policy format: one msgpack *core* per policy, and the standalone file.

The core is what the catalog stores as a policy's blob and what a policy
file carries; its SHA-256 is the policy's content hash. It is a msgpack map::

    magic     "guesswork-policy"          format  1
    name      "wordle-2309-normal-max"    builder "guesswork 0.1.0"
    game      {"id": "wordle", "length": 5}    ("colours": 6 too, for mastermind only)
    mode      "hard" | "normal"
    strategy  {"kind": "greedy", "metric": ..., "window": [low, high|nil] | nil,
               "arithmetic": "2022"|"2020", "jotto_order": ..., "seed": int|nil}
    targets   {"name": ..., "sha256": ..., "count": N}      (a word list)
    guesses   {"name": ..., "sha256": ..., "count": G}
    extra_words [targets missing from the guess list]
    stats     {"count", "mean", "stdev", "median", "worst", "best",
               "histogram": [[score, targets], ...]}
    tree      {"nodes": n, "edges": m, and little-endian int32 arrays as bin:
               node_guess[n], node_size[n], node_first[n], edge_offsets[n+1],
               edge_reply[m], edge_child[m], target_order[N]}
    certificate (optimised trees only; absent otherwise)
              {"objective": "total"|"minimax", "value": int, "lower_bound": int,
               "proven": bool, "beam": int|nil, "max_guesses": int|nil,
               "first_guess": str|nil, "hard": bool,
               "node_values": int32[n] as bin (each subtree's value),
               "node_bounds": int32[n] as bin (each node's static lower bound),
               "roots": [[first guess, value or refuting bound, exact], ...]}

Node 0 is the root. Node i guesses word ``node_guess[i]`` of the vocabulary
(the guess list, then ``extra_words``) and covers ``node_size[i]`` targets:
``target_order[node_first[i] : node_first[i] + node_size[i]]`` (indices into
the target list). Its edges are ``edge_offsets[i] : edge_offsets[i+1]``, each a
reply code (see client.games) and a child node, which always has a larger
index than its parent. The winning reply has no edge.

A standalone file (``.gwp``) is a 48-byte header and a msgpack body::

    0   8 bytes  magic b"GWPOLICY"
    8   uint16   format version (big-endian), 1
    10  uint16   reserved, 0
    12  uint32   body length in bytes (big-endian)
    16  32 bytes SHA-256 of the body
    48  body     {"policy": bin(core), "words": {sha256: bin(words joined by "\\n")}}

Everything read is untrusted: msgpack is unpacked with explicit size limits and
no extension types, and the tree is checked structurally (every index in range,
children after parents, so a walk always ends) before it is used.
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import msgpack
import numpy as np

from client.errors import PolicyFormatError
from client.games import Game, Mastermind, make_game

CORE_MAGIC = "guesswork-policy"
FILE_MAGIC = b"GWPOLICY"
FORMAT_VERSION = 1
HEADER = struct.Struct(">8sHHI32s")
#: Largest policy file or blob accepted (far above any real policy).
MAX_POLICY_BYTES = 256 << 20
_MAX_WORDS = 1 << 21

_ARRAYS = (
    "node_guess",
    "node_size",
    "node_first",
    "edge_offsets",
    "edge_reply",
    "edge_child",
    "target_order",
)


@dataclass(frozen=True)
class ListRef:
    """A word list referenced by a policy: its name, SHA-256 and word count."""

    name: str
    sha256: str
    count: int


@dataclass(frozen=True)
class PolicyData:
    """A decoded policy: identity, statistics and the flat tree arrays."""

    name: str
    game: Game
    mode: str
    strategy: dict[str, Any]
    targets: ListRef
    guesses: ListRef
    extra_words: tuple[str, ...]
    builder: str
    stats: dict[str, Any]
    arrays: dict[str, np.ndarray] = field(repr=False)
    #: What proves an optimised tree (see builder.optimal); None for other trees.
    certificate: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def metric(self) -> str:
        """Return what chose the tree's guesses: the greedy metric (e.g. ``neg_entropy``),
        or for an optimised tree ``optimal``, ``minimax`` or ``lookahead-K``."""
        if self.strategy.get("kind") == "optimal":
            if self.strategy.get("beam") is not None:
                return f"lookahead-{self.strategy['beam']}"
            return "minimax" if self.strategy.get("objective") == "minimax" else "optimal"
        return str(self.strategy.get("metric", ""))

    @property
    def node_count(self) -> int:
        """Return the number of tree nodes."""
        return len(self.arrays["node_guess"])


def _int32_bytes(values: np.ndarray) -> bytes:
    return np.ascontiguousarray(values, dtype="<i4").tobytes()


def encode_core(policy: PolicyData) -> bytes:
    """Return the canonical msgpack core of ``policy`` (same input, same bytes)."""
    arrays = policy.arrays
    core = {
        "magic": CORE_MAGIC,
        "format": FORMAT_VERSION,
        "name": policy.name,
        "builder": policy.builder,
        "game": _game_map(policy.game),
        "mode": policy.mode,
        "strategy": policy.strategy,
        "targets": _ref_map(policy.targets),
        "guesses": _ref_map(policy.guesses),
        "extra_words": list(policy.extra_words),
        "stats": policy.stats,
        "tree": {
            "nodes": len(arrays["node_guess"]),
            "edges": len(arrays["edge_reply"]),
            **{name: _int32_bytes(arrays[name]) for name in _ARRAYS},
        },
    }
    if policy.certificate is not None:
        core["certificate"] = policy.certificate
    packed: bytes = msgpack.packb(core, use_bin_type=True)
    return packed


def _game_map(game: Game) -> dict[str, Any]:
    """Return the stored game: id and length, and the colours for Mastermind only.

    Other games keep exactly ``{"id", "length"}``, so their cores (and
    content hashes) are the same as before Mastermind existed.
    """
    stored: dict[str, Any] = {"id": game.id, "length": game.length}
    if isinstance(game, Mastermind):
        stored["colours"] = game.colours
    return stored


def _ref_map(ref: ListRef) -> dict[str, Any]:
    return {"name": ref.name, "sha256": ref.sha256, "count": ref.count}


def content_hash(core: bytes) -> str:
    """Return the content hash of a policy core (SHA-256, hex)."""
    return hashlib.sha256(core).hexdigest()


def _refuse_extension(code: int, data: bytes) -> None:
    raise ValueError(f"msgpack extension type {code} is not allowed")


def unpack_untrusted(data: bytes, where: str) -> Any:
    """Return the msgpack value in ``data`` with strict limits.

    Raises:
        PolicyFormatError: malformed msgpack, trailing bytes, extension types,
            nesting deeper than msgpack's stack, or a length over the limits.
    """
    limit = len(data)
    try:
        return msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            ext_hook=_refuse_extension,
            max_ext_len=0,
            max_bin_len=limit,
            max_str_len=min(limit, 1 << 20),
            max_array_len=min(limit, _MAX_WORDS),
            max_map_len=min(limit, 4096),
        )
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as error:
        raise PolicyFormatError(f"{where}: malformed msgpack ({error})") from None


def _need(value: Any, kind: type | tuple[type, ...], what: str, where: str) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise PolicyFormatError(f"{where}: {what} is missing or of the wrong type")
    return value


def _ref(value: Any, what: str, where: str) -> ListRef:
    ref = _need(value, dict, what, where)
    return ListRef(
        name=_need(ref.get("name"), str, f"{what}.name", where),
        sha256=_need(ref.get("sha256"), str, f"{what}.sha256", where),
        count=_need(ref.get("count"), int, f"{what}.count", where),
    )


def decode_core(core: bytes, where: str) -> PolicyData:
    """Return the policy in ``core`` after checking its structure.

    Raises:
        PolicyFormatError: wrong magic, a newer or unknown format version,
            missing fields, or a tree that is not well formed.
    """
    if len(core) > MAX_POLICY_BYTES:
        raise PolicyFormatError(f"{where}: policy of {len(core)} bytes exceeds the limit")
    top = _need(unpack_untrusted(core, where), dict, "policy", where)
    if top.get("magic") != CORE_MAGIC:
        raise PolicyFormatError(f"{where}: not a Guesswork policy (wrong magic)")
    version = _need(top.get("format"), int, "format", where)
    if version != FORMAT_VERSION:
        newer = " newer" if version > FORMAT_VERSION else ""
        raise PolicyFormatError(
            f"{where}: policy format {version} is{newer} not supported; this Guesswork reads "
            f"format {FORMAT_VERSION} (rebuild or upgrade)"
        )
    game_map = _need(top.get("game"), dict, "game", where)
    game_id = _need(game_map.get("id"), str, "game.id", where)
    length = _need(game_map.get("length"), int, "game.length", where)
    colours = game_map.get("colours")
    if colours is not None or game_id == Mastermind.id:
        # Only Mastermind stores its colours; older Mastermind cores mean the classic 6.
        colours = _need(
            Mastermind.colours if colours is None else colours, int, "game.colours", where
        )
    try:
        game = make_game(game_id, length, colours)
    except (KeyError, ValueError) as error:
        raise PolicyFormatError(f"{where}: {error}") from None
    tree = _need(top.get("tree"), dict, "tree", where)
    extra = _need(top.get("extra_words"), list, "extra_words", where)
    policy = PolicyData(
        name=_need(top.get("name"), str, "name", where),
        game=game,
        mode=_need(top.get("mode"), str, "mode", where),
        strategy=_need(top.get("strategy"), dict, "strategy", where),
        targets=_ref(top.get("targets"), "targets", where),
        guesses=_ref(top.get("guesses"), "guesses", where),
        extra_words=tuple(_need(word, str, "extra word", where) for word in extra),
        builder=_need(top.get("builder"), str, "builder", where),
        stats=_need(top.get("stats"), dict, "stats", where),
        arrays={
            name: np.frombuffer(_need(tree.get(name), bytes, f"tree.{name}", where), "<i4")
            for name in _ARRAYS
        },
        certificate=_certificate(top.get("certificate"), tree.get("nodes"), where),
    )
    _check_tree(policy, tree, where)
    return policy


def _certificate(value: Any, nodes: Any, where: str) -> dict[str, Any] | None:
    """Return a stored certificate after checking its shape (None if absent)."""
    if value is None:
        return None
    cert: dict[str, Any] = _need(value, dict, "certificate", where)
    _need(cert.get("objective"), str, "certificate.objective", where)
    for name in ("value", "lower_bound"):
        _need(cert.get(name), int, f"certificate.{name}", where)
    _need(cert.get("proven"), bool, "certificate.proven", where)
    for name in ("node_values", "node_bounds"):
        data = _need(cert.get(name), bytes, f"certificate.{name}", where)
        if not isinstance(nodes, int) or len(data) != 4 * nodes:
            raise PolicyFormatError(f"{where}: certificate.{name} does not cover every node")
    _need(cert.get("roots"), list, "certificate.roots", where)
    return cert


def _check_tree(policy: PolicyData, tree: dict[str, Any], where: str) -> None:
    """Raise PolicyFormatError unless the tree arrays describe a well-formed tree."""
    a = policy.arrays

    def fail(problem: str) -> NoReturn:
        raise PolicyFormatError(f"{where}: malformed tree: {problem}")

    n, m = tree.get("nodes"), tree.get("edges")
    if not isinstance(n, int) or not isinstance(m, int) or n < 1 or m != n - 1:
        fail("node and edge counts are inconsistent")
    n_targets = policy.targets.count
    vocabulary = policy.guesses.count + len(policy.extra_words)
    expected = {
        "node_guess": n, "node_size": n, "node_first": n, "edge_offsets": n + 1,
        "edge_reply": m, "edge_child": m, "target_order": n_targets,
    }  # fmt: skip
    for name, length in expected.items():
        if len(a[name]) != length:
            fail(f"{name} has {len(a[name])} entries, expected {length}")
    offsets, child, size = a["edge_offsets"], a["edge_child"], a["node_size"]
    if offsets[0] != 0 or offsets[-1] != m or (np.diff(offsets) < 0).any():
        fail("edge offsets are not increasing from 0 to the edge count")
    parent = np.repeat(np.arange(n), np.diff(offsets))
    if m and ((child <= parent).any() or (child >= n).any()):
        fail("a child does not come after its parent")
    if (np.bincount(child, minlength=n)[1:] != 1).any():
        fail("a node is not reached by exactly one edge")
    if ((a["node_guess"] < 0) | (a["node_guess"] >= vocabulary)).any():
        fail("a guess index is outside the word lists")
    if ((a["edge_reply"] < 0) | (a["edge_reply"] >= policy.game.reply_space)).any():
        fail("a reply code is outside the game's replies")
    keys = parent.astype(np.int64) * policy.game.reply_space + a["edge_reply"]
    if len(np.unique(keys)) != m:
        fail("a node has two edges for one reply")
    if (size < 1).any() or size[0] != n_targets:
        fail("node sizes do not cover the targets")
    if ((a["node_first"] < 0) | (a["node_first"] + size > n_targets)).any():
        fail("a node's targets lie outside the target list")
    if not np.array_equal(np.sort(a["target_order"]), np.arange(n_targets)):
        fail("target order is not a permutation of the targets")
    below = np.bincount(parent, weights=size[child], minlength=n) if m else np.zeros(n)
    won_here = size - below
    if ((won_here != 0) & (won_here != 1)).any() or ((np.diff(offsets) == 0) & (size != 1)).any():
        fail("node sizes do not add up along the edges")


def encode_file(core: bytes, words: dict[str, bytes]) -> bytes:
    """Return a standalone policy file holding ``core`` and its word lists."""
    body: bytes = msgpack.packb(
        {"policy": core, "words": dict(sorted(words.items()))}, use_bin_type=True
    )
    digest = hashlib.sha256(body).digest()
    return HEADER.pack(FILE_MAGIC, FORMAT_VERSION, 0, len(body), digest) + body


def decode_file(data: bytes, where: str) -> tuple[bytes, dict[str, bytes]]:
    """Return (core, {sha256: words bytes}) from the bytes of a policy file.

    Raises:
        PolicyFormatError: too short, wrong magic, newer version, a length or
            checksum that does not match, or a malformed body.
    """
    if len(data) < HEADER.size:
        raise PolicyFormatError(f"{where}: too short to be a policy file ({len(data)} bytes)")
    magic, version, reserved, length, digest = HEADER.unpack_from(data)
    if magic != FILE_MAGIC:
        raise PolicyFormatError(f"{where}: not a Guesswork policy file (wrong magic)")
    if version != FORMAT_VERSION:
        newer = " newer" if version > FORMAT_VERSION else ""
        raise PolicyFormatError(
            f"{where}: policy file format {version} is{newer} not supported; this Guesswork "
            f"reads format {FORMAT_VERSION}"
        )
    if reserved != 0:
        raise PolicyFormatError(
            f"{where}: reserved header bytes are not zero (the file is corrupt)"
        )
    body = data[HEADER.size :]
    if len(body) != length:
        raise PolicyFormatError(
            f"{where}: truncated or extended: header says {length} body bytes, found {len(body)}"
        )
    if hashlib.sha256(body).digest() != digest:
        raise PolicyFormatError(f"{where}: checksum mismatch (the file is corrupt)")
    top = _need(unpack_untrusted(body, where), dict, "file body", where)
    core = _need(top.get("policy"), bytes, "policy", where)
    words = _need(top.get("words"), dict, "words", where)
    for key, value in words.items():
        _need(value, bytes, f"word list {key}", where)
    return core, words


def read_file_bytes(path: Path) -> bytes:
    """Return the bytes of a policy file, refusing absurd sizes before reading.

    Raises:
        PolicyFormatError: missing, unreadable, or larger than the limit.
    """
    try:
        size = path.stat().st_size
        if size > MAX_POLICY_BYTES + HEADER.size:
            raise PolicyFormatError(f"{path}: {size} bytes is too large for a policy file")
        return path.read_bytes()
    except FileNotFoundError:
        raise PolicyFormatError(f"{path}: no such policy file") from None
    except IsADirectoryError:
        raise PolicyFormatError(f"{path}: is a directory, not a policy file") from None
    except OSError as error:
        raise PolicyFormatError(f"{path}: cannot read ({error.strerror})") from None


def decode_words(data: bytes, ref: ListRef, where: str) -> tuple[str, ...]:
    """Return the words of a stored list after checking them against ``ref``.

    Raises:
        PolicyFormatError: not ASCII, or the SHA-256 or count do not match.
    """
    if hashlib.sha256(data).hexdigest() != ref.sha256:
        raise PolicyFormatError(f"{where}: word list {ref.name!r} fails its SHA-256")
    try:
        words = tuple(data.decode("ascii").split("\n")[:-1]) if data else ()
    except UnicodeDecodeError:
        raise PolicyFormatError(f"{where}: word list {ref.name!r} is not ASCII") from None
    if len(words) != ref.count:
        raise PolicyFormatError(f"{where}: word list {ref.name!r} has the wrong word count")
    return words


def encode_words(words: tuple[str, ...] | list[str]) -> bytes:
    """Return the stored form of a word list (its SHA-256 is the list's identity)."""
    return "".join(f"{word}\n" for word in words).encode("ascii")
