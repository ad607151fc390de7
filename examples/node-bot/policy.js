'use strict';
// A reader of Guesswork policy files (.gwp), written from the spec
// (docs/policy-format.rst): the 48-byte header, the msgpack body and its word
// lists, the policy core, the tree's structural checks and the consistency
// replay. Every refusal is one of the named error classes below, the same
// names the conformance vectors (tests/vectors/vectors.json) use.

const crypto = require('node:crypto');
const fs = require('node:fs');
const { unpack, MsgpackFloat } = require('./msgpack');
const { makeGame } = require('./games');
const { policyStats, statsFaults } = require('./stats');

// -- errors ------------------------------------------------------------------

/** Base class: the bytes are not a usable policy file. */
class PolicyFormatError extends Error {
  constructor(message) {
    super(message);
    this.name = this.constructor.name;
  }
}
/** Not a policy file at all: too short, or the wrong magic (file or core). */
class NotAPolicyFileError extends PolicyFormatError {}
/** A container or core format version this reader does not read. */
class UnsupportedVersionError extends PolicyFormatError {}
/** Damaged bytes: a length or checksum that does not match. */
class CorruptFileError extends PolicyFormatError {}
/** Intact bytes that do not decode to a policy: bad msgpack, a missing or
 * mistyped field, arrays that do not form a tree. */
class MalformedPolicyError extends PolicyFormatError {}
/** A well-formed policy that contradicts itself: content hash, replay or stats. */
class InconsistentPolicyError extends PolicyFormatError {}

// -- constants -----------------------------------------------------------------

const FILE_MAGIC = Buffer.from('GWPOLICY', 'ascii');
const HEADER_SIZE = 48;
/** Container versions read: 1, and 2 (adds the body's "content_hash"). */
const CONTAINER_VERSIONS = [1, 2];
const CORE_MAGIC = 'guesswork-policy';
/** Core formats read: 1 (no alternatives) and 2. */
const CORE_FORMATS = [1, 2, 3];
/** Largest file accepted (far above any real policy). */
const MAX_POLICY_BYTES = 256 * 1024 * 1024;
const MAX_WORDS = 1 << 21;
/** Returned by Policy.step for the winning reply. */
const SOLVED = -1;

const TREE_ARRAYS = [
  'node_guess',
  'node_size',
  'node_first',
  'edge_offsets',
  'edge_reply',
  'edge_child',
  'target_order',
];

// -- msgpack -------------------------------------------------------------------

/** Decode untrusted msgpack (msgpack.js: limits, strict UTF-8, typed floats, no extensions). */
function unpackUntrusted(bytes, where) {
  try {
    return unpack(bytes, { maxArrayLength: MAX_WORDS });
  } catch (error) {
    throw new MalformedPolicyError(`${where}: malformed msgpack (${error.message})`);
  }
}

// -- field checks ---------------------------------------------------------------

// msgpack ints decode to numbers, floats to MsgpackFloat, maps to plain objects.
const isMap = (v) => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
const isInt = (v) => typeof v === 'number';
const isNumber = (v) => typeof v === 'number' || v instanceof MsgpackFloat;
const numberOf = (v) => (v instanceof MsgpackFloat ? v.value : v);
const isStr = (v) => typeof v === 'string';
const isBin = (v) => v instanceof Uint8Array;
const isBool = (v) => typeof v === 'boolean';
const isList = (v) => Array.isArray(v);

/** Own property of a decoded map (never an inherited one); undefined if absent. */
function get(map, key) {
  return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : undefined;
}

function need(value, check, what, where) {
  if (!check(value)) throw new MalformedPolicyError(`${where}: ${what} is missing or of the wrong type`);
  return value;
}

function int32s(bytes, what, where) {
  if (bytes.length % 4) throw new MalformedPolicyError(`${where}: malformed tree: ${what} is not int32s`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Int32Array(bytes.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(4 * i, true);
  return out;
}

function float64s(bytes, what, where) {
  if (bytes.length % 8) throw new MalformedPolicyError(`${where}: malformed tree: ${what} is not float64s`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Float64Array(bytes.length / 8);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(8 * i, true);
  return out;
}

function sha256(bytes) {
  return crypto.createHash('sha256').update(bytes).digest();
}

// -- the container ------------------------------------------------------------------

/**
 * Return {version, core (Uint8Array), words ({sha256 hex: Uint8Array}), contentHash}
 * from the bytes of a policy file, after the header and body checks.
 */
function decodeContainer(data, where) {
  if (data.length < HEADER_SIZE) {
    throw new NotAPolicyFileError(`${where}: too short to be a policy file (${data.length} bytes)`);
  }
  if (!data.subarray(0, 8).equals(FILE_MAGIC)) {
    throw new NotAPolicyFileError(`${where}: not a Guesswork policy file (wrong magic)`);
  }
  const version = data.readUInt16BE(8);
  if (!CONTAINER_VERSIONS.includes(version)) {
    const newer = version > Math.max(...CONTAINER_VERSIONS) ? ' newer' : '';
    throw new UnsupportedVersionError(
      `${where}: policy file format ${version} is${newer} not supported; ` +
        `this reader reads formats ${CONTAINER_VERSIONS.join(', ')}`,
    );
  }
  if (data.readUInt16BE(10) !== 0) {
    throw new CorruptFileError(`${where}: reserved header bytes are not zero (the file is corrupt)`);
  }
  const length = data.readUInt32BE(12);
  const body = data.subarray(HEADER_SIZE);
  if (body.length !== length) {
    throw new CorruptFileError(
      `${where}: truncated or extended: header says ${length} body bytes, found ${body.length}`,
    );
  }
  if (!sha256(body).equals(data.subarray(16, 48))) {
    throw new CorruptFileError(`${where}: checksum mismatch (the file is corrupt)`);
  }
  const top = need(unpackUntrusted(body, where), isMap, 'file body', where);
  const core = need(get(top, 'policy'), isBin, 'policy', where);
  const words = need(get(top, 'words'), isMap, 'words', where);
  for (const [key, value] of Object.entries(words)) need(value, isBin, `word list ${key}`, where);
  const contentHash = sha256(core).toString('hex');
  if (version >= 2) {
    const stored = need(get(top, 'content_hash'), isStr, 'content_hash', where);
    if (stored !== contentHash) {
      throw new InconsistentPolicyError(
        `${where}: content hash ${stored} does not match the policy's SHA-256 ${contentHash}`,
      );
    }
  }
  return { version, core, words, contentHash };
}

// -- the core ----------------------------------------------------------------------

function listRef(value, what, where) {
  const ref = need(value, isMap, what, where);
  return {
    name: need(get(ref, 'name'), isStr, `${what}.name`, where),
    sha256: need(get(ref, 'sha256'), isStr, `${what}.sha256`, where),
    count: need(get(ref, 'count'), isInt, `${what}.count`, where),
  };
}

/** Check a stored strategy map (greedy, optimal or word-tree) and return it. */
function checkStrategy(stored, where) {
  const field = (key, check) => {
    const value = get(stored, key);
    if (value !== undefined && value !== null && !check(value)) {
      throw new MalformedPolicyError(`${where}: strategy.${key} is of the wrong type`);
    }
    return value;
  };
  const greedy = () => {
    const window = field('window', isList);
    if (
      window !== undefined &&
      window !== null &&
      (window.length !== 2 || !isInt(window[0]) || !(window[1] === null || isInt(window[1])))
    ) {
      throw new MalformedPolicyError(`${where}: strategy.window is not [low, high or nil]`);
    }
    const metric = field('metric', isStr);
    const arithmetic = field('arithmetic', isStr);
    if (metric == null || arithmetic == null) {
      throw new MalformedPolicyError(`${where}: strategy lacks its metric or arithmetic`);
    }
    const retry = numberOf(field('retry_percent', isNumber));
    if (retry != null && !(retry > 0 && retry <= 100)) {
      throw new MalformedPolicyError(`${where}: strategy.retry_percent is not in (0, 100]`);
    }
    field('jotto_order', isStr);
    field('seed', isInt);
  };
  const kind = get(stored, 'kind');
  if (kind === 'greedy') {
    greedy();
  } else if (kind === 'optimal') {
    if (field('objective', isStr) == null) throw new MalformedPolicyError(`${where}: strategy lacks its objective`);
    field('beam', isInt);
    field('max_guesses', isInt);
    field('first_guess', isStr);
    greedy();
  } else if (kind === 'word-tree') {
    if (field('tree', isStr) == null) throw new MalformedPolicyError(`${where}: strategy lacks its tree`);
  } else {
    throw new MalformedPolicyError(`${where}: unknown strategy kind ${JSON.stringify(kind)}`);
  }
  return stored;
}

function checkCertificate(value, nodes, where) {
  if (value === undefined || value === null) return null;
  const cert = need(value, isMap, 'certificate', where);
  need(get(cert, 'objective'), isStr, 'certificate.objective', where);
  for (const name of ['value', 'lower_bound']) need(get(cert, name), isInt, `certificate.${name}`, where);
  need(get(cert, 'proven'), isBool, 'certificate.proven', where);
  for (const name of ['node_values', 'node_bounds']) {
    const data = need(get(cert, name), isBin, `certificate.${name}`, where);
    if (!isInt(nodes) || data.length !== 4 * nodes) {
      throw new MalformedPolicyError(`${where}: certificate.${name} does not cover every node`);
    }
  }
  need(get(cert, 'roots'), isList, 'certificate.roots', where);
  const optional = { beam: isInt, max_guesses: isInt, first_guess: isStr, hard: isBool, nyt_hard: isBool };
  for (const [name, check] of Object.entries(optional)) {
    const value = get(cert, name);
    if (value !== undefined && value !== null && !check(value)) {
      throw new MalformedPolicyError(`${where}: certificate.${name} is of the wrong type`);
    }
  }
  return cert;
}

/** Decode and check a policy core (everything but its word lists and the replay). */
function decodeCore(core, where) {
  const top = need(unpackUntrusted(core, where), isMap, 'policy', where);
  if (get(top, 'magic') !== CORE_MAGIC) {
    throw new NotAPolicyFileError(`${where}: not a Guesswork policy (wrong core magic)`);
  }
  const format = need(get(top, 'format'), isInt, 'format', where);
  if (!CORE_FORMATS.includes(format)) {
    const newer = format > Math.max(...CORE_FORMATS) ? ' newer' : '';
    throw new UnsupportedVersionError(
      `${where}: policy format ${format} is${newer} not supported; ` +
        `this reader reads formats ${CORE_FORMATS.join(', ')}`,
    );
  }
  const gameMap = need(get(top, 'game'), isMap, 'game', where);
  const gameId = need(get(gameMap, 'id'), isStr, 'game.id', where);
  const length = need(get(gameMap, 'length'), isInt, 'game.length', where);
  let colours = get(gameMap, 'colours');
  if (colours === null) colours = undefined;
  if (colours !== undefined || gameId === 'mastermind') {
    colours = need(colours === undefined ? 6 : colours, isInt, 'game.colours', where);
  }
  let variant = get(gameMap, 'variant');
  if (variant === null) variant = undefined;
  if (variant !== undefined || gameId === 'guess-my-word') {
    variant = need(variant, isStr, 'game.variant', where);
  }
  let game;
  try {
    game = makeGame(gameId, length, colours, variant);
  } catch (error) {
    throw new MalformedPolicyError(`${where}: ${error.message}`);
  }
  const tree = need(get(top, 'tree'), isMap, 'tree', where);
  const extra = need(get(top, 'extra_words'), isList, 'extra_words', where);
  const policy = {
    coreFormat: format,
    name: need(get(top, 'name'), isStr, 'name', where),
    game,
    mode: need(get(top, 'mode'), isStr, 'mode', where),
    strategy: checkStrategy(need(get(top, 'strategy'), isMap, 'strategy', where), where),
    targetsRef: listRef(get(top, 'targets'), 'targets', where),
    guessesRef: listRef(get(top, 'guesses'), 'guesses', where),
    extraWords: extra.map((word) => need(word, isStr, 'extra word', where)),
    builder: need(get(top, 'builder'), isStr, 'builder', where),
    stats: need(get(top, 'stats'), isMap, 'stats', where),
    arrays: {},
    certificate: null,
    weights: null,
    prior: null,
  };
  for (const name of TREE_ARRAYS) {
    policy.arrays[name] = int32s(need(get(tree, name), isBin, `tree.${name}`, where), name, where);
  }
  if (format >= 2) {
    for (const name of ['alt_offsets', 'alt_guess']) {
      policy.arrays[name] = int32s(need(get(tree, name), isBin, `tree.${name}`, where), name, where);
    }
    const values = need(get(tree, 'alt_value'), isBin, 'tree.alt_value', where);
    policy.arrays.alt_value = float64s(values, 'alt_value', where);
  } else {
    const nodes = get(tree, 'nodes');
    policy.arrays.alt_offsets = new Int32Array((isInt(nodes) && nodes > 0 ? nodes : 1) + 1);
    policy.arrays.alt_guess = new Int32Array(0);
    policy.arrays.alt_value = new Float64Array(0);
  }
  policy.certificate = checkCertificate(get(top, 'certificate'), get(tree, 'nodes'), where);
  policy.prior = checkPrior(get(top, 'prior'), format, where);
  policy.weights = checkWeights(get(top, 'target_weights'), game, where, policy.prior !== null);
  checkTree(policy, tree, where);
  if (policy.weights !== null && policy.weights.length !== policy.targetsRef.count) {
    throw new MalformedPolicyError(`${where}: target_weights does not cover every target`);
  }
  return policy;
}

/** Format 3's prior: {name, sha256, params: {key: str|int|float}}, or null when absent. */
function checkPrior(value, format, where) {
  if (value === undefined || value === null) return null;
  if (format < 3) throw new MalformedPolicyError(`${where}: a prior needs policy format 3, not ${format}`);
  const prior = need(value, isMap, 'prior', where);
  const params = need(get(prior, 'params'), isMap, 'prior.params', where);
  for (const [key, item] of Object.entries(params)) {
    need(item, (v) => isStr(v) || isNumber(v), `prior.params.${key}`, where);
  }
  return {
    name: need(get(prior, 'name'), isStr, 'prior.name', where),
    sha256: need(get(prior, 'sha256'), isStr, 'prior.sha256', where),
  };
}

/** Target weights (positive little-endian int64s): Guess My Word needs them, and so does a
 * policy with a prior; no other has them. */
function checkWeights(value, game, where, hasPrior) {
  if (game.id !== 'guess-my-word' && !hasPrior) {
    if (value !== undefined && value !== null) {
      throw new MalformedPolicyError(
        `${where}: only Guess My Word policies and policies with a prior have target weights`,
      );
    }
    return null;
  }
  const data = need(value, isBin, 'target_weights', where);
  const bad = () => new MalformedPolicyError(`${where}: target_weights are not positive int64s`);
  if (data.length % 8) throw bad();
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const weights = new BigInt64Array(data.length / 8);
  for (let i = 0; i < weights.length; i++) {
    weights[i] = view.getBigInt64(8 * i, true);
    if (weights[i] < 1n) throw bad();
  }
  return weights;
}

/** The tree's structural checks: afterwards every index is in range and a walk always ends. */
function checkTree(policy, tree, where) {
  const a = policy.arrays;
  const fail = (problem) => {
    throw new MalformedPolicyError(`${where}: malformed tree: ${problem}`);
  };
  const n = get(tree, 'nodes');
  const m = get(tree, 'edges');
  if (!isInt(n) || !isInt(m) || n < 1 || m !== n - 1) fail('node and edge counts are inconsistent');
  const nTargets = policy.targetsRef.count;
  const vocabulary = policy.guessesRef.count + policy.extraWords.length;
  const expected = {
    node_guess: n,
    node_size: n,
    node_first: n,
    edge_offsets: n + 1,
    edge_reply: m,
    edge_child: m,
    target_order: nTargets,
  };
  for (const [name, length] of Object.entries(expected)) {
    if (a[name].length !== length) fail(`${name} has ${a[name].length} entries, expected ${length}`);
  }
  const offsets = a.edge_offsets;
  const child = a.edge_child;
  const size = a.node_size;
  if (offsets[0] !== 0 || offsets[n] !== m) fail('edge offsets are not increasing from 0 to the edge count');
  for (let i = 0; i < n; i++) {
    if (offsets[i + 1] < offsets[i]) fail('edge offsets are not increasing from 0 to the edge count');
  }
  const parent = new Int32Array(m);
  for (let i = 0; i < n; i++) for (let e = offsets[i]; e < offsets[i + 1]; e++) parent[e] = i;
  const reached = new Int32Array(n);
  for (let e = 0; e < m; e++) {
    if (child[e] <= parent[e] || child[e] >= n) fail('a child does not come after its parent');
    reached[child[e]]++;
  }
  for (let i = 1; i < n; i++) if (reached[i] !== 1) fail('a node is not reached by exactly one edge');
  for (const g of a.node_guess) if (g < 0 || g >= vocabulary) fail('a guess index is outside the word lists');
  const space = policy.game.replySpace;
  for (const r of a.edge_reply) if (r < 0 || r >= space) fail("a reply code is outside the game's replies");
  const seen = new Set();
  for (let e = 0; e < m; e++) {
    const key = parent[e] * space + a.edge_reply[e];
    if (seen.has(key)) fail('a node has two edges for one reply');
    seen.add(key);
  }
  for (const s of size) if (s < 1) fail('node sizes do not cover the targets');
  if (size[0] !== nTargets) fail('node sizes do not cover the targets');
  for (let i = 0; i < n; i++) {
    if (a.node_first[i] < 0 || a.node_first[i] + size[i] > nTargets) {
      fail("a node's targets lie outside the target list");
    }
  }
  const hit = new Uint8Array(nTargets);
  for (const t of a.target_order) {
    if (t < 0 || t >= nTargets || hit[t]) fail('target order is not a permutation of the targets');
    hit[t] = 1;
  }
  const altOffsets = a.alt_offsets;
  const altGuess = a.alt_guess;
  if (altOffsets.length !== n + 1 || altOffsets[0] !== 0 || altOffsets[n] !== altGuess.length) {
    fail('alternative offsets do not cover the alternatives');
  }
  for (let i = 0; i < n; i++) {
    if (altOffsets[i + 1] < altOffsets[i]) {
      fail('alternative offsets are not increasing, or values do not match guesses');
    }
  }
  if (a.alt_value.length !== altGuess.length) {
    fail('alternative offsets are not increasing, or values do not match guesses');
  }
  for (const g of altGuess) {
    if (g < 0 || g >= vocabulary) fail("an alternative's guess index is outside the word lists");
  }
  for (let i = 0; i < n; i++) {
    const start = altOffsets[i];
    const end = altOffsets[i + 1];
    for (let k = start; k + 1 < end; k++) {
      if (a.alt_value[k] > a.alt_value[k + 1]) {
        fail("a node's alternatives are not ranked best first (their values decrease)");
      }
    }
    const seen = new Set();
    for (let k = start; k < end; k++) {
      if (seen.has(altGuess[k]) || altGuess[k] === a.node_guess[i]) {
        fail("a node's alternatives repeat a guess, or hold the node's own guess");
      }
      seen.add(altGuess[k]);
    }
  }
  const below = new Float64Array(n);
  for (let e = 0; e < m; e++) below[parent[e]] += size[child[e]];
  for (let i = 0; i < n; i++) {
    const wonHere = size[i] - below[i];
    const leaf = offsets[i + 1] === offsets[i];
    if ((wonHere !== 0 && wonHere !== 1) || (leaf && size[i] !== 1)) {
      fail('node sizes do not add up along the edges');
    }
    if (policy.game.deduces && wonHere !== (leaf ? 1 : 0)) {
      fail('a node of a deduced tree wins a target, or a leaf wins none');
    }
  }
}

// -- word lists ----------------------------------------------------------------------

/** The words of a stored list (each followed by "\n"), checked against its reference. */
function decodeWords(data, ref, where) {
  if (data === undefined) {
    throw new MalformedPolicyError(`${where}: word list ${JSON.stringify(ref.name)} is missing from the file`);
  }
  if (sha256(data).toString('hex') !== ref.sha256) {
    throw new InconsistentPolicyError(`${where}: word list ${JSON.stringify(ref.name)} fails its SHA-256`);
  }
  let text;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new MalformedPolicyError(`${where}: word list ${JSON.stringify(ref.name)} is not UTF-8`);
  }
  const words = text.length ? text.split('\n').slice(0, -1) : [];
  if (words.length !== ref.count) {
    throw new InconsistentPolicyError(`${where}: word list ${JSON.stringify(ref.name)} has the wrong word count`);
  }
  return words;
}

// -- the policy ----------------------------------------------------------------------

class Policy {
  constructor(data, targets, guesses, contentHash, containerVersion) {
    Object.assign(this, data);
    this.targets = targets;
    this.guesses = guesses;
    this.vocabulary = guesses.concat(data.extraWords);
    this.contentHash = contentHash;
    this.containerVersion = containerVersion;
    const a = data.arrays;
    this.nodeCount = a.node_guess.length;
    this.edges = new Map();
    for (let i = 0; i < this.nodeCount; i++) {
      for (let e = a.edge_offsets[i]; e < a.edge_offsets[i + 1]; e++) {
        this.edges.set(i * this.game.replySpace + a.edge_reply[e], a.edge_child[e]);
      }
    }
  }

  /** The word guessed at `node` (at a deduced leaf: the target, named without a guess). */
  guess(node) {
    return this.vocabulary[this.arrays.node_guess[node]];
  }

  /** How many targets are still possible at `node`. */
  remaining(node) {
    return this.arrays.node_size[node];
  }

  /** True at a deduced leaf (Guess My Word "deduce"): the target is known, the game over. */
  known(node) {
    const a = this.arrays;
    return this.game.deduces && a.edge_offsets[node + 1] === a.edge_offsets[node];
  }

  /** The stored ranked alternatives at `node`, best first. */
  alternatives(node) {
    const a = this.arrays;
    const out = [];
    for (let i = a.alt_offsets[node]; i < a.alt_offsets[node + 1]; i++) out.push(this.vocabulary[a.alt_guess[i]]);
    return out;
  }

  /** The targets still possible at `node`, in target-list order. */
  remainingTargets(node) {
    const a = this.arrays;
    const first = a.node_first[node];
    return Array.from(a.target_order.subarray(first, first + a.node_size[node]))
      .sort((x, y) => x - y)
      .map((i) => this.targets[i]);
  }

  /** The node reached from `node` by reply `code`: SOLVED on the win, null with no edge. */
  step(node, code) {
    if (code === this.game.win) return SOLVED;
    if (!Number.isInteger(code) || code < 0 || code >= this.game.replySpace) return null;
    const child = this.edges.get(node * this.game.replySpace + code);
    return child === undefined ? null : child;
  }

  /**
   * Follow `history` ([[guess, reply code], ...]) from the root. Returns
   * {offTree: true, turn, why} when it leaves the tree, {gameOver: true, turn}
   * when it goes on after the game ended, else the answer a bot would get:
   * {guess, remaining, solved, alternatives, node}.
   */
  walk(history) {
    let node = 0;
    let last = null;
    for (let t = 0; t < history.length; t++) {
      const [word, code] = history[t];
      if (node === SOLVED || this.known(node)) return { gameOver: true, turn: t + 1 };
      const guess = this.game.fold(word);
      if (guess !== this.guess(node)) {
        return { offTree: true, turn: t + 1, why: `the policy guesses ${this.guess(node)}, not ${guess}` };
      }
      const next = this.step(node, code);
      if (next === null) {
        return { offTree: true, turn: t + 1, why: `no branch for reply ${code} to ${guess}` };
      }
      node = next;
      last = guess;
    }
    if (node === SOLVED) return { guess: last, remaining: 1, solved: true, alternatives: [], node };
    if (this.known(node)) return { guess: this.guess(node), remaining: 1, solved: true, alternatives: [], node };
    return {
      guess: this.guess(node),
      remaining: this.remaining(node),
      solved: false,
      alternatives: this.alternatives(node),
      node,
    };
  }

  /**
   * Play the game against `secret` with this policy's own reply rule. Returns
   * {turns: [{guess, code, reply, remaining}], solved, deduced (the word named at a
   * deduced leaf, or null), offTree (why, or null)}.
   */
  play(secret) {
    const target = this.game.fold(secret);
    const turns = [];
    let node = 0;
    for (;;) {
      if (this.known(node)) {
        const word = this.guess(node);
        const why = `the tree deduces ${word}: ${target} is not a target of ${this.name}`;
        return { turns, solved: word === target, deduced: word, offTree: word === target ? null : why };
      }
      const guess = this.guess(node);
      const code = this.game.reply(guess, target);
      turns.push({ guess, code, reply: this.game.formatReply(code), remaining: this.remaining(node) });
      const next = this.step(node, code);
      if (next === SOLVED) return { turns, solved: true, deduced: null, offTree: null };
      if (next === null) {
        return {
          turns,
          solved: false,
          deduced: null,
          offTree:
            `no branch for reply ${this.game.formatReply(code)} to ${guess}: ` +
            `${target} is not a target of ${this.name}`,
        };
      }
      node = next;
    }
  }
}

// -- the consistency replay --------------------------------------------------------------

/**
 * Every word of the lists must be a word of the game; replay every target
 * through the tree with the game's reply rule: each must pass only nodes whose
 * target slice lists it and end won (or at its deduced leaf, naming it); node
 * sizes must equal the targets that reach them; the stored statistics must
 * equal the replay's (stats.js). Returns the recomputed statistics.
 */
function verifyPolicy(policy, where) {
  const a = policy.arrays;
  const fail = (problem) => {
    throw new InconsistentPolicyError(`${where}: policy ${JSON.stringify(policy.name)}: ${problem}`);
  };
  for (const word of new Set(policy.vocabulary)) {
    const problem = policy.game.wordProblem(word);
    if (problem !== null) fail(`word ${JSON.stringify(word)} of its lists is not a ${policy.game.id} word: ${problem}`);
  }
  const vocabulary = new Set(policy.vocabulary);
  for (const target of policy.targets) {
    if (!vocabulary.has(target)) fail(`target ${JSON.stringify(target)} is not a word of its vocabulary`);
  }
  const position = new Int32Array(policy.targets.length);
  a.target_order.forEach((target, p) => {
    position[target] = p;
  });
  const visits = new Int32Array(policy.nodeCount);
  const scores = [];
  policy.targets.forEach((target, index) => {
    let node = 0;
    let turns = 0;
    let guess;
    for (;;) {
      if (!(a.node_first[node] <= position[index] && position[index] < a.node_first[node] + a.node_size[node])) {
        fail(`target ${target} passes node ${node}, which does not list it`);
      }
      visits[node]++;
      guess = policy.guess(node);
      if (policy.known(node)) break; // deduced, not guessed
      turns++;
      const next = policy.step(node, policy.game.reply(guess, target));
      if (next === SOLVED) break;
      if (next === null) fail(`target ${target} falls off the tree at node ${node}`);
      node = next;
    }
    if (guess !== target) fail(`target ${target} is 'won' by guessing ${guess}`);
    scores.push(turns);
  });
  for (let i = 0; i < policy.nodeCount; i++) {
    if (visits[i] !== a.node_size[i]) fail('node sizes disagree with the targets that reach them');
  }
  const recomputed = policyStats(scores, policy.weights, policy.prior !== null);
  const faults = statsFaults(policy.stats, recomputed);
  if (faults.length) fail(faults[0]);
  return recomputed;
}

// -- entry points ----------------------------------------------------------------------

/** Decode, check and verify the bytes of a policy file; return the Policy. */
function decodePolicyFile(data, where = 'policy file') {
  const buffer = Buffer.isBuffer(data) ? data : Buffer.from(data);
  const { version, core, words, contentHash } = decodeContainer(buffer, where);
  const decoded = decodeCore(core, where);
  const targets = decodeWords(get(words, decoded.targetsRef.sha256), decoded.targetsRef, where);
  const guesses = decodeWords(get(words, decoded.guessesRef.sha256), decoded.guessesRef, where);
  const policy = new Policy(decoded, targets, guesses, contentHash, version);
  verifyPolicy(policy, where);
  return policy;
}

/** Read, check and verify a policy file. */
function readPolicyFile(path) {
  let stat;
  try {
    stat = fs.statSync(path);
  } catch (error) {
    throw new PolicyFormatError(`${path}: cannot read (${error.code || error.message})`);
  }
  if (stat.isDirectory()) throw new PolicyFormatError(`${path}: is a directory, not a policy file`);
  if (stat.size > MAX_POLICY_BYTES + HEADER_SIZE) {
    throw new MalformedPolicyError(`${path}: ${stat.size} bytes is too large for a policy file`);
  }
  return decodePolicyFile(fs.readFileSync(path), path);
}

module.exports = {
  PolicyFormatError,
  NotAPolicyFileError,
  UnsupportedVersionError,
  CorruptFileError,
  MalformedPolicyError,
  InconsistentPolicyError,
  Policy,
  SOLVED,
  decodePolicyFile,
  readPolicyFile,
  verifyPolicy,
};
