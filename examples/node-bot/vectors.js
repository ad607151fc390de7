'use strict';
// The conformance vectors (tests/vectors/vectors.json): every policy file must
// load and match its description and walks; every damaged file must be refused
// with the named error class.
//
// Cases, one output line each: a policy file's load (metadata included), each
// of its walks, each damaged file. The count is what `N passed, M failed` adds up.

const fs = require('node:fs');
const path = require('node:path');
const { readPolicyFile } = require('./policy');

const LOAD_KEYS = [
  'file',
  'name',
  'game',
  'length',
  'mode',
  'strategy',
  'container_version',
  'core_format',
  'content_hash',
  'targets',
  'win_code',
];
const WALK_KEYS = ['guess', 'remaining', 'solved', 'off_tree'];

/** Compare `actual` with the fields of `known` that `expected` gives (later
 * vectors_format 1 files may add other keys: they are ignored); return the mismatches. */
function differences(expected, actual, known) {
  const out = [];
  for (const [key, want] of Object.entries(expected)) {
    if (!known.includes(key)) continue;
    const got = actual[key];
    if (JSON.stringify(got) !== JSON.stringify(want)) {
      out.push(`${key}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
    }
  }
  return out;
}

/** What a policy says about itself, under the vector's field names. */
function describe(policy, relative) {
  return {
    file: relative,
    name: policy.name,
    game: policy.game.id,
    length: policy.game.length,
    mode: policy.mode,
    strategy: policy.strategy.kind,
    container_version: policy.containerVersion,
    core_format: policy.coreFormat,
    content_hash: policy.contentHash,
    targets: policy.targets.length,
    win_code: policy.game.win,
  };
}

/** What a walk gives, under the vector's field names. */
function walkResult(policy, history) {
  const result = policy.walk(history);
  if (result.offTree) return { off_tree: true };
  if (result.gameOver) return { game_over: true, off_tree: false }; // no guess: never matches a vector's
  return { guess: result.guess, remaining: result.remaining, solved: result.solved, off_tree: false };
}

/**
 * Run every vector under `dir`. `print(line)` gets one line per case.
 * Returns {passed, failed}.
 */
function runVectors(dir, print = console.log) {
  const file = path.join(dir, 'vectors.json');
  const vectors = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (vectors.vectors_format !== 1) {
    throw new Error(`${file}: vectors_format ${vectors.vectors_format} is not supported (1)`);
  }
  let passed = 0;
  let failed = 0;
  const report = (ok, label, detail) => {
    if (ok) passed++;
    else failed++;
    print(`${ok ? 'PASS' : 'FAIL'} ${label}${detail ? `: ${detail}` : ''}`);
  };

  for (const vector of vectors.policies || []) {
    let policy = null;
    const { walks = [], ...meta } = vector;
    try {
      policy = readPolicyFile(path.join(dir, vector.file));
      const problems = differences(meta, describe(policy, vector.file), LOAD_KEYS);
      report(problems.length === 0, `load ${vector.file}`, problems.join('; '));
    } catch (error) {
      report(false, `load ${vector.file}`, `${error.name}: ${error.message}`);
    }
    walks.forEach((walk, index) => {
      const label = `walk ${vector.file} #${index + 1} ${JSON.stringify(walk.history)}`;
      if (policy === null) {
        report(false, label, 'the policy did not load');
        return;
      }
      const { history, ...expected } = walk;
      if (expected.off_tree === undefined) expected.off_tree = false;
      const problems = differences(expected, walkResult(policy, history), WALK_KEYS);
      report(problems.length === 0, label, problems.join('; '));
    });
  }

  for (const damaged of vectors.damaged || []) {
    const label = `damaged ${damaged.file} -> ${damaged.error}`;
    try {
      readPolicyFile(path.join(dir, damaged.file));
      report(false, label, 'loaded without an error');
    } catch (error) {
      const ok = error.name === damaged.error;
      report(ok, label, ok ? '' : `got ${error.name}: ${error.message}`);
    }
  }
  return { passed, failed };
}

module.exports = { runVectors, walkResult, describe };
