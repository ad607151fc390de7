'use strict';
// Talking to a Guesswork server with nothing but the project's protos:
// protos/guesswork/v1/guesswork.proto (the service), protos/google/rpc/*.proto
// (the error details) and protos/grpc/health/v1/health.proto, loaded at run time.

const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { makeGame } = require('./games');

/** The repository's protos/ folder: the include dir every import is relative to. */
const PROTOS = path.resolve(__dirname, '..', '..', 'protos');
const FILES = [
  'guesswork/v1/guesswork.proto',
  'google/rpc/status.proto',
  'google/rpc/error_details.proto',
  'grpc/health/v1/health.proto',
];
// An Any's type_url is "<prefix>/<full message name>" (type.googleapis.com/google.rpc.ErrorInfo).
const ERROR_INFO = 'google.rpc.ErrorInfo';
const STATUS_NAMES = Object.fromEntries(Object.entries(grpc.status).map(([name, code]) => [code, name]));

let loaded = null;

/** Load the protos once (google/protobuf/any.proto and duration.proto come bundled with proto-loader). */
function protos() {
  if (loaded === null) {
    const definition = protoLoader.loadSync(FILES, {
      includeDirs: [PROTOS],
      keepCase: true, // field names as in the .proto: max_alternatives, reply_code
      longs: Number,
      enums: String, // Source values by name: "SOURCE_STORED"
      defaults: true, // proto3: unset fields read as their zero values
      oneofs: true,
    });
    const tree = grpc.loadPackageDefinition(definition);
    loaded = {
      Guesswork: tree.guesswork.v1.Guesswork,
      Health: tree.grpc.health.v1.Health,
      Status: definition['google.rpc.Status'],
      ErrorInfo: definition['google.rpc.ErrorInfo'],
    };
  }
  return loaded;
}

/** An error a call failed with, decoded from its status and its google.rpc.Status details. */
class ServiceError extends Error {
  constructor(code, message, info) {
    super(message);
    this.name = 'ServiceError';
    this.code = code;
    this.status = STATUS_NAMES[code] || String(code);
    this.reason = info ? info.reason : '';
    this.domain = info ? info.domain : '';
    this.metadata = info ? { ...info.metadata } : {};
  }

  /** One line: "error: NOT_FOUND POLICY_NOT_FOUND no policy named ...". */
  line() {
    return `error: ${this.status} ${this.reason || '-'} ${this.message}`;
  }

  toJSON() {
    return {
      error: this.message,
      status: this.status,
      reason: this.reason,
      domain: this.domain,
      metadata: this.metadata,
    };
  }
}

/** Decode a failed call: the grpc-status-details-bin trailer is a google.rpc.Status
 * whose details hold a google.rpc.ErrorInfo (domain "guesswork.v1", a stable reason). */
function decodeError(error) {
  if (error === null || typeof error !== 'object' || !('code' in error)) return error;
  const { Status, ErrorInfo } = protos();
  let message = error.details || error.message;
  let info = null;
  const raw = error.metadata ? error.metadata.get('grpc-status-details-bin') : [];
  if (raw.length) {
    const status = Status.deserialize(Buffer.from(raw[0]));
    if (status.message) message = status.message;
    for (const detail of status.details || []) {
      if (detail.type_url.split('/').pop() === ERROR_INFO) info = ErrorInfo.deserialize(Buffer.from(detail.value));
    }
  }
  return new ServiceError(error.code, message, info);
}

/** A connection to a server: promise-returning calls with a deadline. */
class Client {
  constructor(address, timeoutSeconds = 5) {
    const { Guesswork, Health } = protos();
    const credentials = grpc.credentials.createInsecure();
    this.stub = new Guesswork(address, credentials);
    this.health = new Health(address, credentials, { channelOverride: this.stub.getChannel() });
    this.timeout = timeoutSeconds;
  }

  call(stub, method, request) {
    const deadline = new Date(Date.now() + this.timeout * 1000);
    return new Promise((resolve, reject) => {
      stub[method](request, { deadline }, (error, response) => {
        if (error) reject(decodeError(error));
        else resolve(response);
      });
    });
  }

  suggest(policy, history) {
    return this.call(this.stub, 'SuggestGuess', {
      policy,
      history: history.map(([guess, reply]) => ({ guess, reply })),
    });
  }

  score(policy, guess, target) {
    return this.call(this.stub, 'ScoreGuess', { policy, guess, target });
  }

  getPolicy(name) {
    return this.call(this.stub, 'GetPolicy', { name }).then((response) => response.policy);
  }

  check(service = '') {
    return this.call(this.health, 'Check', { service });
  }

  close() {
    this.stub.close();
  }
}

/**
 * Who scores the guesses: the service's ScoreGuess, except for Guess My Word,
 * whose policies answer suggestions only (ScoreGuess says BAD_REQUEST): there
 * the bot applies the game's rule itself (games.js), the variant being the
 * policy's mode (GetPolicy).
 */
async function chooseReferee(client, policy, secret) {
  const info = await client.getPolicy(policy);
  if (info.game === 'guess-my-word') {
    const game = makeGame('guess-my-word', 0, undefined, info.mode);
    const target = game.fold(secret);
    return {
      name: 'local',
      score: async (guess) => {
        const code = game.reply(guess, target);
        return { reply: game.formatReply(code), reply_code: code, solved: code === game.win };
      },
    };
  }
  return { name: 'ScoreGuess', score: (guess) => client.score(policy, guess, secret) };
}

/** The most turns a game may take before the bot gives up (no real game comes close). */
const MAX_TURNS = 100;

/**
 * Play a whole game: SuggestGuess(history) gives the guess, ScoreGuess(policy,
 * guess, secret) referees it, the turn (guess, reply text) joins the history;
 * until SuggestGuess says solved (which also covers Guess My Word's deduced
 * end, where the last word is named without a guess). `onTurn` sees each turn.
 * Returns {turns, solution, guesses}.
 */
async function playOnline(client, policy, secret, onTurn = () => {}) {
  const referee = await chooseReferee(client, policy, secret);
  const history = [];
  const turns = [];
  for (;;) {
    const answer = await client.suggest(policy, history);
    if (answer.solved) return { turns, solution: answer.guess, guesses: turns.length, referee: referee.name };
    if (turns.length >= MAX_TURNS) throw new Error(`no solution after ${MAX_TURNS} guesses`);
    const scored = await referee.score(answer.guess);
    const turn = {
      guess: answer.guess,
      reply: scored.reply,
      reply_code: scored.reply_code,
      remaining: answer.remaining,
      source: answer.source,
    };
    turns.push(turn);
    onTurn(turn, turns.length);
    history.push([answer.guess, scored.reply]);
  }
}

module.exports = { Client, ServiceError, decodeError, playOnline, protos, PROTOS };
