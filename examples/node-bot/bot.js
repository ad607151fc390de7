#!/usr/bin/env node
'use strict';
// An example Guesswork bot in Node.js, built only on the project's contracts:
//
//   node bot.js play --server HOST:PORT --policy NAME --secret WORD [--json]
//   node bot.js health --server HOST:PORT
//   node bot.js offline --policy-file FILE.gwp --secret WORD [--json]
//   node bot.js vectors [DIR]          (default ../../tests/vectors)
//
// Exit status: 0 on success, 1 on an error (a service error, a refused policy
// file, a failed vector), 2 on a usage mistake.

const path = require('node:path');
const { parseArgs } = require('node:util');

const USAGE = `usage:
  node bot.js play --server HOST:PORT --policy NAME --secret WORD [--json] [--timeout SECONDS]
  node bot.js health --server HOST:PORT [--json] [--timeout SECONDS]
  node bot.js offline --policy-file FILE.gwp --secret WORD [--json]
  node bot.js vectors [DIR]   (default: the repository's tests/vectors)`;

class UsageError extends Error {}

function options(args, spec, required) {
  let parsed;
  try {
    parsed = parseArgs({ args, options: spec, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error.message);
  }
  for (const name of required) {
    if (parsed.values[name] === undefined) throw new UsageError(`--${name} is required`);
  }
  if (parsed.values.timeout !== undefined && !(Number(parsed.values.timeout) > 0)) {
    throw new UsageError(`--timeout must be a positive number of seconds, not ${parsed.values.timeout}`);
  }
  return parsed;
}

const COMMON = { json: { type: 'boolean', default: false }, timeout: { type: 'string', default: '5' } };

function plural(n, noun) {
  return `${n} ${n === 1 ? noun : `${noun}${noun.endsWith('s') ? 'es' : 's'}`}`;
}

async function play(args) {
  const { values } = options(
    args,
    { ...COMMON, server: { type: 'string' }, policy: { type: 'string' }, secret: { type: 'string' } },
    ['server', 'policy', 'secret'],
  );
  const { Client, playOnline } = require('./online');
  const client = new Client(values.server, Number(values.timeout));
  try {
    const result = await playOnline(client, values.policy, values.secret, (turn, n) => {
      if (!values.json) {
        console.log(`${n}. ${turn.guess}  ${turn.reply}  (${turn.remaining} possible, ${turn.source})`);
      }
    });
    if (values.json) {
      console.log(JSON.stringify({ policy: values.policy, secret: values.secret, ...result }));
    } else {
      const last = result.turns[result.turns.length - 1];
      const named = last && last.guess === result.solution ? '' : ` (then ${result.solution}, named without a guess)`;
      console.log(`Solved in ${plural(result.guesses, 'guess')}${named}: ${result.solution}`);
    }
  } finally {
    client.close();
  }
}

async function health(args) {
  const { values } = options(args, { ...COMMON, server: { type: 'string' } }, ['server']);
  const { Client } = require('./online');
  const client = new Client(values.server, Number(values.timeout));
  try {
    const response = await client.check('');
    console.log(values.json ? JSON.stringify(response) : response.status);
    if (response.status !== 'SERVING') process.exitCode = 1;
  } finally {
    client.close();
  }
}

function offline(args) {
  const { values } = options(
    args,
    { json: { type: 'boolean', default: false }, 'policy-file': { type: 'string' }, secret: { type: 'string' } },
    ['policy-file', 'secret'],
  );
  const { readPolicyFile } = require('./policy');
  const policy = readPolicyFile(values['policy-file']);
  const result = policy.play(values.secret);
  if (values.json) {
    console.log(
      JSON.stringify({
        policy: policy.name,
        content_hash: policy.contentHash,
        secret: policy.game.fold(values.secret),
        turns: result.turns,
        solved: result.solved,
        deduced: result.deduced,
        guesses: result.turns.length,
        error: result.offTree,
      }),
    );
  } else {
    console.log(`${policy.name} (${policy.game.id}, ${policy.targets.length} targets), offline`);
    result.turns.forEach((turn, i) => {
      console.log(`${i + 1}. ${turn.guess}  ${turn.reply}  (${turn.remaining} possible)`);
    });
    if (result.deduced !== null && result.solved) {
      console.log(`Deduced: ${result.deduced} (named without a guess)`);
    }
    if (result.solved) console.log(`Solved in ${plural(result.turns.length, 'guess')}.`);
  }
  if (!result.solved) {
    if (!values.json) console.error(`error: ${result.offTree}`);
    process.exitCode = 1;
  }
}

function vectors(args) {
  const { positionals } = options(args, {}, []);
  if (positionals.length > 1) throw new UsageError('vectors takes one directory');
  const dir = positionals[0] || path.resolve(__dirname, '..', '..', 'tests', 'vectors');
  const { runVectors } = require('./vectors');
  const { passed, failed } = runVectors(dir);
  console.log(`${passed} passed, ${failed} failed`);
  if (failed) process.exitCode = 1;
}

const COMMANDS = { play, health, offline, vectors };

async function main(argv) {
  const [command, ...args] = argv;
  if (command === undefined || command === '-h' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const run = COMMANDS[command];
  if (run === undefined) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  await run(args);
}

main(process.argv.slice(2)).catch((error) => {
  const json = process.argv.includes('--json');
  if (error instanceof UsageError) {
    console.error(`${USAGE}\nerror: ${error.message}`);
    process.exitCode = 2;
    return;
  }
  if (error && error.name === 'ServiceError') {
    // error: STATUS REASON message, then the ErrorInfo metadata
    if (json) {
      console.error(JSON.stringify(error.toJSON()));
    } else {
      console.error(error.line());
      console.error(`metadata: ${JSON.stringify(error.metadata)}`);
    }
  } else if (json) {
    console.error(JSON.stringify({ error: error.message, kind: error.name }));
  } else {
    console.error(`error: ${error.name}: ${error.message}`);
  }
  process.exitCode = 1;
});
