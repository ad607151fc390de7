"""The policy format: one msgpack *core* per policy, and the standalone file.

The core is what the catalog stores as a policy's blob and what a policy
file carries; its SHA-256 is the policy's content hash. It is a msgpack map::

    magic     "guesswork-policy"          format  3 for a policy with a prior, else 2
              (1 to 3 are read)
    name      "wordle-2309-normal-max"    builder "guesswork 0.1.0"
    game      {"id": "wordle", "length": 5}    ("colours": 6 too, for mastermind only;
              {"id": "guess-my-word", "length": 0, "variant": "deduce"|"live"})
    mode      "hard" | "normal" | "nyt-hard" (client.games.MODES; Guess My
              Word: its variant)
    strategy  {"kind": "greedy", "metric": ..., "window": [low, high|nil] | nil,
               "arithmetic": "2022"|"2020", "jotto_order": ..., "seed": int|nil}
              or {"kind": "optimal", ...} or {"kind": "word-tree", "tree": ...}:
              see client.strategy, which types them
    targets   {"name": ..., "sha256": ..., "count": N}      (a word list)
    target_weights  (Guess My Word, and format 3 with a prior; absent otherwise)
              little-endian int64[N] as bin: each target's weight, positive: its
              count in Guess My Word's weighted list, or its likelihood of being
              the secret under the prior (the trees minimise the weighted mean)
    prior     (format 3, weighted Wordle-like policies only; absent otherwise)
              {"name": ..., "sha256": ..., "params": {key: str|int|float}}:
              the prior the target weights were read from (its name, the
              SHA-256 of its normalised text, every parameter that made it)
    guesses   {"name": ..., "sha256": ..., "count": G}
    extra_words [targets missing from the guess list]
    stats     {"count", "mean", "stdev", "median", "worst", "best",
               "histogram": [[score, targets], ...]}, and "entropy" (bits) for
              Guess My Word and prior-weighted policies, whose mean, stdev and
              median are weighted by the target weights; a prior-weighted one
              adds "uniform_mean" (every target alike) and "probabilities":
              [[score, probability], ...]: client.stats defines each
    tree      {"nodes": n, "edges": m, and little-endian int32 arrays as bin:
               node_guess[n], node_size[n], node_first[n], edge_offsets[n+1],
               edge_reply[m], edge_child[m], target_order[N];
               format 2 adds each node's ranked alternatives:
               alt_offsets[n+1], alt_guess[A] (int32) and alt_value[A]
               (little-endian float64, the greedy metric's value, lower is
               better; 0 for the random guesser)}
    certificate (optimised trees only; absent otherwise)
              {"objective": "total"|"minimax"|"total-then-worst"|"worst-then-total",
               "value": int, "lower_bound": int,
               "proven": bool, "beam": int|nil, "max_guesses": int|nil,
               "first_guess": str|nil, "hard": bool, "nyt_hard": true (only
               in NYT hard mode, whose node bounds are over legal guesses),
               "node_values": int32[n] as bin (each subtree's value),
               "node_bounds": int32[n] as bin (each node's static lower bound),
               "roots": [[first guess, value or refuting bound, exact], ...],
               "settled_by": ["search"|"static"|"one-level", ...] (only for a
               search over every opener: how each root was settled),
               "witnesses": {opener: [[reply code, bound], ...]} (only for a
               search over every opener: each opener settled by search but
               the root's, its classes whose proven bounds its value rests on),
               "witnesses_uncapped": [opener, ...] (only where some of those
               bounds were proven without the cap),
               "tie_break": {"worst": int, "refuted": int} (only for the
               objectives "total-then-worst" and "worst-then-total": the
               tree's worst case, and a proven lower bound on the total of
               any tree within one guess fewer, 2**40 if none: the proof that
               it is least)}

Node 0 is the root. Node i guesses word ``node_guess[i]`` of the vocabulary
(the guess list, then ``extra_words``) and covers ``node_size[i]`` targets:
``target_order[node_first[i] : node_first[i] + node_size[i]]`` (indices into
the target list). Its edges are ``edge_offsets[i] : edge_offsets[i+1]``, each a
reply code (see client.games) and a child node, which always has a larger
index than its parent. The winning reply has no edge. Node i's alternatives
are ``alt_guess[alt_offsets[i] : alt_offsets[i+1]]`` (vocabulary indices,
best first, never the node's own guess): the next-best guesses of the
policy's greedy step at that node, so a stored answer needs nothing but the
policy data. Format 1 cores carry none and read as having none.

Guess My Word's ``deduce`` variant never answers with the winning reply: a
right guess is answered ``after``, and once one target is left it is known
and named at no cost. In such a game (``Game.deduces``) a node with no edges
is a *deduced leaf*: its one target is its guess, the game is over there, and
it counts no guess; every other node wins no target. (Elsewhere a node with
no edges is a last guess, won by the winning reply.)

The standalone policy file that carries a core is client.policy_file's.

docs/policy-format.rst is the specification for readers in any language (what
to check, in which order, and the error class of each refusal);
tests/vectors holds the conformance files.

Everything read is untrusted: msgpack is unpacked with explicit size limits and
no extension types, and the tree is checked structurally (every index in range,
children after parents, so a walk always ends) before it is used. Keys a
reader does not know are ignored in every map; versions it does not know are
refused (UnsupportedVersionError).
"""

from __future__ import annotations

import array
import hashlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import msgpack

from .board_openings import BoardOpenings, decode_openings
from .errors import (
    MalformedPolicyError,
    NotAPolicyFileError,
    UnsupportedVersionError,
)
from .games import Game, GuessMyWord, Mastermind, make_game
from .letters import list_language
from .policy_info import PolicyInfo
from .strategy import Strategy, strategy_from_map
from .text import version_refused
from .tree_arrays import (
    FLOAT64,
    INT32,
    INT64,
    TreeArray,
    as_numpy,
    from_little_endian,
    no_alternatives,
    to_little_endian,
)
from .tree_check import TreeShape, check_tree

if TYPE_CHECKING:
    import numpy.typing as npt

CORE_MAGIC = "guesswork-policy"
#: The core's format: 2 added the per-node alternatives, 3 target weights from a prior
#: for any game (written only by policies that have one, so the others keep format 2
#: and their bytes).
FORMAT_VERSION = 3
#: The format a policy without a prior is written in.
PLAIN_FORMAT = 2
#: Core formats this reader accepts.
READABLE_FORMATS = (1, 2, 3)
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
#: Format 2: each node's ranked alternatives (int32 offsets and guesses, float64 values).
_ALTERNATIVE_ARRAYS = ("alt_offsets", "alt_guess")


@dataclass(frozen=True)
class ListRef:
    """A word list referenced by a policy: its name, SHA-256 and word count."""

    name: str
    sha256: str
    count: int


@dataclass(frozen=True)
class PriorRef:
    """The prior a weighted policy's target weights come from: its name, the SHA-256
    of its normalised text and every parameter that made it (see builder.priors)."""

    name: str
    sha256: str
    params: dict[str, Any] = field(default_factory=dict, hash=False, compare=True)


@dataclass(frozen=True)
class PolicyData:
    """A decoded policy: identity, statistics and the flat tree arrays."""

    name: str
    game: Game
    mode: str
    #: What chose the guesses (client.strategy; stored as its map).
    strategy: Strategy
    targets: ListRef
    guesses: ListRef
    extra_words: tuple[str, ...]
    builder: str
    stats: dict[str, Any]
    arrays: dict[str, TreeArray] = field(repr=False)
    #: What proves an optimised tree (see builder.optimal); None for other trees.
    certificate: dict[str, Any] | None = field(default=None, repr=False)
    #: Each target's weight (int64), in target-list order: Guess My Word's counts, or
    #: how likely each target is under :attr:`prior`; None: every target alike.
    weights: TreeArray | None = field(default=None, repr=False)
    #: The prior the weights come from (weighted Wordle-like policies); None otherwise.
    prior: PriorRef | None = None
    #: Stored multi-board openings (Wordle policies: client.board_openings); None: none.
    openings: BoardOpenings | None = field(default=None, repr=False)

    @property
    def metric(self) -> str:
        """Return what chose the tree's guesses: the greedy metric (e.g. ``neg_entropy``),
        or for an optimised tree ``optimal``, ``minimax`` or ``lookahead-K``."""
        return self.strategy.label

    @property
    def node_count(self) -> int:
        """Return the number of tree nodes."""
        return len(self.arrays["node_guess"])

    def numpy_arrays(self) -> dict[str, npt.NDArray[Any]]:
        """Return the tree arrays as numpy arrays (views, no copies; imports numpy)."""
        return {name: as_numpy(values) for name, values in self.arrays.items()}

    def numpy_weights(self) -> npt.NDArray[Any] | None:
        """Return the target weights as a numpy array (a view), or None."""
        return None if self.weights is None else as_numpy(self.weights)


def info_of(policy: PolicyData, content_hash: str) -> PolicyInfo:
    """Return the summary of ``policy``, whose core has SHA-256 ``content_hash`` (hex)."""
    stats = policy.stats
    weights = (
        policy.prior.name
        if policy.prior is not None
        else policy.targets.name
        if policy.weights is not None
        else None
    )
    return PolicyInfo(
        name=policy.name,
        game=policy.game.id,
        length=policy.game.length,
        mode=policy.mode,
        metric=policy.metric,
        targets=policy.targets.name,
        guesses=policy.guesses.name,
        count=int(stats["count"]),
        mean=float(stats["mean"]),
        worst=int(stats["worst"]),
        content_hash=content_hash,
        language=list_language(policy.targets.name),
        weights=weights,
        stdev=float(stats["stdev"]),
        median=float(stats["median"]),
        best=int(stats["best"]),
        histogram=tuple((int(guesses), int(count)) for guesses, count in stats["histogram"]),
        targets_sha256=policy.targets.sha256,
        guesses_sha256=policy.guesses.sha256,
        guess_count=policy.guesses.count,
        builder=policy.builder,
        colours=int(getattr(policy.game, "colours", 0)),
        uniform_mean=float(stats["uniform_mean"]) if "uniform_mean" in stats else None,
    )


def encode_core(policy: PolicyData) -> bytes:
    """Return the canonical msgpack core of ``policy`` (same input, same bytes)."""
    arrays = policy.arrays
    core = {
        "magic": CORE_MAGIC,
        "format": FORMAT_VERSION if policy.prior is not None else PLAIN_FORMAT,
        "name": policy.name,
        "builder": policy.builder,
        "game": _game_map(policy.game),
        "mode": policy.mode,
        "strategy": policy.strategy.to_map(),
        "targets": _ref_map(policy.targets),
        "guesses": _ref_map(policy.guesses),
        "extra_words": list(policy.extra_words),
        "stats": policy.stats,
        "tree": {
            "nodes": len(arrays["node_guess"]),
            "edges": len(arrays["edge_reply"]),
            **{
                name: to_little_endian(INT32, arrays[name])
                for name in _ARRAYS + _ALTERNATIVE_ARRAYS
            },
            "alt_value": to_little_endian(FLOAT64, arrays["alt_value"]),
        },
    }
    if policy.certificate is not None:
        core["certificate"] = policy.certificate
    if policy.weights is not None:
        core["target_weights"] = to_little_endian(INT64, policy.weights)
    if policy.prior is not None:
        core["prior"] = {
            "name": policy.prior.name,
            "sha256": policy.prior.sha256,
            "params": dict(sorted(policy.prior.params.items())),
        }
    if policy.openings is not None:
        core["openings"] = policy.openings.to_map()
    packed: bytes = msgpack.packb(core, use_bin_type=True)
    return packed


def _game_map(game: Game) -> dict[str, Any]:
    """Return the stored game: id and length, the colours for Mastermind only and
    the variant for Guess My Word only.

    Other games keep exactly ``{"id", "length"}``, so their cores (and
    content hashes) are the same as before Mastermind existed.
    """
    return game.stored()


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
        MalformedPolicyError: malformed msgpack, trailing bytes, extension types,
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
            # A certificate's witnesses map one entry per opener (8,556 of 14,855 in
            # the NYT-hard proof of 3158 x 14855): as many as words. Each pair takes two
            # bytes at least, so the data's length bounds what a map can claim.
            max_map_len=min(limit, _MAX_WORDS),
        )
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as error:
        raise MalformedPolicyError(f"{where}: malformed msgpack ({error})") from None


def need(value: Any, kind: type | tuple[type, ...], what: str, where: str) -> Any:
    """Return ``value``, a field of untrusted data, if it is of ``kind`` (a ``bool`` only
    where ``kind`` is ``bool``: msgpack's true is no count); the readers of the policy
    core and of the policy file (client.policy_file) check each field with it.

    Raises:
        MalformedPolicyError: ``value`` is missing (None) or of another type, the message
            naming ``where`` and the field ``what``.
    """
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise MalformedPolicyError(f"{where}: {what} is missing or of the wrong type")
    return value


def _ref(value: Any, what: str, where: str) -> ListRef:
    ref = need(value, dict, what, where)
    return ListRef(
        name=need(ref.get("name"), str, f"{what}.name", where),
        sha256=need(ref.get("sha256"), str, f"{what}.sha256", where),
        count=need(ref.get("count"), int, f"{what}.count", where),
    )


def decode_core(core: bytes, where: str) -> PolicyData:
    """Return the policy in ``core`` after checking its structure.

    Raises:
        NotAPolicyFileError: the core's magic is wrong.
        UnsupportedVersionError: a newer or unknown core format.
        MalformedPolicyError: bad msgpack, a missing or mistyped field, an
            unknown game, or tree arrays that do not form a tree.
    """
    if len(core) > MAX_POLICY_BYTES:
        raise MalformedPolicyError(f"{where}: policy of {len(core)} bytes exceeds the limit")
    top = need(unpack_untrusted(core, where), dict, "policy", where)
    if top.get("magic") != CORE_MAGIC:
        raise NotAPolicyFileError(f"{where}: not a Guesswork policy (wrong magic)")
    version = need(top.get("format"), int, "format", where)
    if version not in READABLE_FORMATS:
        raise UnsupportedVersionError(
            f"{where}: "
            + version_refused("policy format", version, READABLE_FORMATS, "rebuild the policy")
        )
    game_map = need(top.get("game"), dict, "game", where)
    game_id = need(game_map.get("id"), str, "game.id", where)
    length = need(game_map.get("length"), int, "game.length", where)
    colours = game_map.get("colours")
    if colours is not None or game_id == Mastermind.id:
        # Only Mastermind stores its colours; older Mastermind cores mean the classic 6.
        colours = need(
            Mastermind.colours if colours is None else colours, int, "game.colours", where
        )
    variant = game_map.get("variant")
    if variant is not None or game_id == GuessMyWord.id:
        variant = need(variant, str, "game.variant", where)
    try:
        game = make_game(game_id, length, colours, variant)
    except (KeyError, ValueError) as error:
        raise MalformedPolicyError(f"{where}: {error}") from None
    tree = need(top.get("tree"), dict, "tree", where)
    extra = need(top.get("extra_words"), list, "extra_words", where)
    prior = _prior(top.get("prior"), version, where)
    guesses = _ref(top.get("guesses"), "guesses", where)
    decoded = {
        **{name: _int32_array(tree, name, where) for name in _ARRAYS},
        **_alternatives(tree, version, where),
    }
    policy = PolicyData(
        name=need(top.get("name"), str, "name", where),
        game=game,
        mode=need(top.get("mode"), str, "mode", where),
        strategy=strategy_from_map(need(top.get("strategy"), dict, "strategy", where), where),
        targets=_ref(top.get("targets"), "targets", where),
        guesses=guesses,
        extra_words=tuple(need(word, str, "extra word", where) for word in extra),
        builder=need(top.get("builder"), str, "builder", where),
        stats=need(top.get("stats"), dict, "stats", where),
        arrays=dict(decoded),
        certificate=_certificate(top.get("certificate"), tree.get("nodes"), where),
        weights=_weights(top.get("target_weights"), game, where, prior, version),
        prior=prior,
        openings=decode_openings(
            top.get("openings"),
            guesses.count + len(extra),
            game.reply_space,
            where,
        ),
    )
    shape = TreeShape(
        nodes=tree.get("nodes"),
        edges=tree.get("edges"),
        targets=policy.targets.count,
        vocabulary=policy.guesses.count + len(policy.extra_words),
        reply_space=policy.game.reply_space,
        deduces=policy.game.deduces,
    )
    check_tree(decoded, shape, where)
    if policy.weights is not None and len(policy.weights) != policy.targets.count:
        raise MalformedPolicyError(f"{where}: target_weights does not cover every target")
    return policy


def _int32_array(tree: dict[str, Any], name: str, where: str) -> array.array[Any]:
    """Return the tree's array ``name``: a bin of little-endian int32s.

    Raises:
        MalformedPolicyError: missing, not a bin, or not a whole number of int32s.
    """
    data = need(tree.get(name), bytes, f"tree.{name}", where)
    if len(data) % 4:
        raise MalformedPolicyError(f"{where}: malformed tree: {name} is not int32s")
    return from_little_endian(INT32, data)


def _weights(
    value: Any, game: Game, where: str, prior: PriorRef | None = None, version: int = PLAIN_FORMAT
) -> array.array[Any] | None:
    """Return the target weights: a Guess My Word policy needs them, a format-3 policy
    with a prior needs them, and no other has them."""
    weighted = game.weighted_list or (version >= 3 and prior is not None)
    if not weighted:
        if value is not None:
            raise MalformedPolicyError(
                f"{where}: only Guess My Word policies and policies with a prior have "
                f"target weights"
            )
        return None
    data = need(value, bytes, "target_weights", where)
    weights = from_little_endian(INT64, data) if len(data) % 8 == 0 else array.array(INT64)
    if len(weights) * 8 != len(data) or min(weights, default=1) < 1:
        raise MalformedPolicyError(f"{where}: target_weights are not positive int64s")
    return weights


def _prior(value: Any, version: int, where: str) -> PriorRef | None:
    """Return the prior of a format-3 weighted policy (None if absent).

    Raises:
        MalformedPolicyError: a prior in an older format, or one of the wrong shape.
    """
    if value is None:
        return None
    if version < 3:
        raise MalformedPolicyError(f"{where}: a prior needs policy format 3, not {version}")
    prior = need(value, dict, "prior", where)
    params = need(prior.get("params"), dict, "prior.params", where)
    for key, item in params.items():
        need(item, (str, int, float), f"prior.params.{key}", where)
    return PriorRef(
        name=need(prior.get("name"), str, "prior.name", where),
        sha256=need(prior.get("sha256"), str, "prior.sha256", where),
        params=params,
    )


def _alternatives(tree: dict[str, Any], version: int, where: str) -> dict[str, array.array[Any]]:
    """Return the alternative arrays of a format-2 tree (empty ones for format 1)."""
    if version < 2:
        nodes = tree.get("nodes")
        return no_alternatives(nodes if isinstance(nodes, int) and nodes > 0 else 1)
    arrays = {name: _int32_array(tree, name, where) for name in _ALTERNATIVE_ARRAYS}
    values = need(tree.get("alt_value"), bytes, "tree.alt_value", where)
    if len(values) % 8:
        raise MalformedPolicyError(f"{where}: malformed tree: alt_value is not float64s")
    arrays["alt_value"] = from_little_endian(FLOAT64, values)
    return arrays


#: How a search over every opener settled each opener (certificate ``settled_by``).
SETTLED_BY = frozenset({"search", "static", "one-level"})


def _certificate(value: Any, nodes: Any, where: str) -> dict[str, Any] | None:
    """Return a stored certificate after checking its shape (None if absent)."""
    if value is None:
        return None
    cert: dict[str, Any] = need(value, dict, "certificate", where)
    need(cert.get("objective"), str, "certificate.objective", where)
    for name in ("value", "lower_bound"):
        need(cert.get(name), int, f"certificate.{name}", where)
    need(cert.get("proven"), bool, "certificate.proven", where)
    for name in ("node_values", "node_bounds"):
        data = need(cert.get(name), bytes, f"certificate.{name}", where)
        if not isinstance(nodes, int) or len(data) != 4 * nodes:
            raise MalformedPolicyError(f"{where}: certificate.{name} does not cover every node")
    need(cert.get("roots"), list, "certificate.roots", where)
    # The search's parameters: typed when present, as docs/policy-format.rst says.
    optional: dict[str, type | tuple[type, ...]] = {
        "beam": (int, type(None)),
        "max_guesses": (int, type(None)),
        "first_guess": (str, type(None)),
        "hard": bool,
        "nyt_hard": bool,
        "lead_opener": str,
    }
    for name, kind in optional.items():
        if name in cert:
            need(cert[name], kind, f"certificate.{name}", where)
    if "tie_break" in cert:
        record = need(cert["tie_break"], dict, "certificate.tie_break", where)
        for name in ("worst", "refuted"):
            need(record.get(name), int, f"certificate.tie_break.{name}", where)
    if "settled_by" in cert:
        settled = need(cert["settled_by"], list, "certificate.settled_by", where)
        if len(settled) != len(cert["roots"]) or not set(settled) <= SETTLED_BY:
            raise MalformedPolicyError(
                f"{where}: certificate.settled_by must name one of {sorted(SETTLED_BY)} "
                f"for each root"
            )
    if "witnesses" in cert:
        _witnesses(cert, where)
    return cert


def _witnesses(cert: dict[str, Any], where: str) -> None:
    """Check the shape of a certificate's ``witnesses`` ({opener: [[code, bound], ...]})
    and ``witnesses_uncapped`` (a list of those openers); return nothing.

    Raises:
        MalformedPolicyError: either is not of that shape.
    """
    witnesses = need(cert["witnesses"], dict, "certificate.witnesses", where)
    for word, pairs in witnesses.items():
        need(word, str, "certificate.witnesses' opener", where)
        for pair in need(pairs, list, f"certificate.witnesses[{word[:16]!r}]", where):
            if not (
                isinstance(pair, list)
                and len(pair) == 2
                and all(type(n) is int and n >= 0 for n in pair)
            ):
                raise MalformedPolicyError(
                    f"{where}: certificate.witnesses[{word[:16]!r}] must be a list of "
                    f"[reply code, bound] pairs of non-negative integers"
                )
    uncapped = need(
        cert.get("witnesses_uncapped", []), list, "certificate.witnesses_uncapped", where
    )
    if not all(isinstance(word, str) and word in witnesses for word in uncapped):
        raise MalformedPolicyError(
            f"{where}: certificate.witnesses_uncapped must name openers of certificate.witnesses"
        )
