'use strict';
// The games' reply rules, written from the policy-file spec (docs/policy-format.rst)
// and the reply-code definitions it gives. A game is a plain object:
//
//   id, length, wordProblem(word) -> why it is not a word of the game as stored
//   (upper case; lower case for Guess My Word), or null,
//   replySpace (codes are 0 .. replySpace-1), win (the winning code),
//   deduces (Guess My Word "deduce": a tree leaf names the target at no cost),
//   fold(word) (the game's letter case), reply(guess, target) -> code,
//   formatReply(code) -> text.
//
// Reply codes:
//   wordle, antiwordle  base-3 digit per position, miss 0, yellow 1, green 2, first
//                       letter most significant; win 3^k - 1. NYT duplicate rule:
//                       greens first, then left to right a letter is yellow only
//                       while the target has an unmatched copy of it left.
//   jotto               number of distinct letters guess and target share; win k.
//   mastermind          black * (k + 1) + white; win k * (k + 1).
//   guess-my-word       before 0, after 1 (target >= guess), correct 2 (live only).

const MISS = 0;
const YELLOW = 1;
const GREEN = 2;

class UnknownGameError extends Error {
  constructor(message) {
    super(message);
    this.name = 'UnknownGameError';
  }
}

/** Wordle colours (0/1/2 per position) of `guess` when the secret is `target`. */
function wordleColours(guessWord, targetWord) {
  // Letters are code points (any alphabet), not UTF-16 units.
  const guess = [...guessWord];
  const target = [...targetWord];
  const colours = new Array(guess.length).fill(MISS);
  const unmatched = new Map(); // target letters not matched by a green
  for (let i = 0; i < guess.length; i++) {
    if (guess[i] === target[i]) {
      colours[i] = GREEN;
    } else {
      unmatched.set(target[i], (unmatched.get(target[i]) || 0) + 1);
    }
  }
  for (let i = 0; i < guess.length; i++) {
    const left = unmatched.get(guess[i]) || 0;
    if (colours[i] === MISS && left > 0) {
      unmatched.set(guess[i], left - 1);
      colours[i] = YELLOW;
    }
  }
  return colours;
}

function coloursToCode(colours) {
  let code = 0;
  for (const colour of colours) code = code * 3 + colour;
  return code;
}

function codeToColours(code, length) {
  const digits = [];
  for (let i = 0; i < length; i++) {
    digits.push(code % 3);
    code = Math.floor(code / 3);
  }
  return digits.reverse();
}

/** Scripts told apart when checking that a word does not mix them (docs/policy-format.rst). */
const SCRIPTS = ['Latin', 'Greek', 'Cyrillic', 'Armenian', 'Georgian', 'Hebrew', 'Arabic'].map(
  (name) => new RegExp(`^\\p{Script=${name}}+$`, 'u'),
);

/** The capital of one letter, keeping words the same length (ß -> ẞ; a longer capital: kept). */
function upperLetter(letter) {
  if (letter === 'ß') return 'ẞ';
  const upper = letter.toUpperCase().normalize('NFC');
  return [...upper].length === 1 ? upper : letter;
}

/** `text` in NFC with every letter upper-cased on its own (the stored case of a word). */
function upperWord(text) {
  return [...text.normalize('NFC')].map(upperLetter).join('');
}

/** Why `word` is not a word of `length` letters of one script in the stored case (null when it is). */
function lettersProblem(word, length) {
  if (!/^\p{L}+$/u.test(word)) return 'not made only of letters';
  const scripts = SCRIPTS.filter((script) => [...word].some((c) => script.test(c)));
  if (scripts.length > 1) return 'mixes scripts';
  const letters = [...word].length; // code points, as the format counts them
  if (length && letters !== length) return `has ${letters} letters, not ${length}`;
  return null;
}

function wordle(id, length) {
  const space = 3 ** length;
  return {
    id,
    length,
    wordProblem: (word) => lettersProblem(word, length),
    replySpace: space,
    win: space - 1,
    deduces: false,
    fold: (word) => upperWord(word.trim()),
    reply: (guess, target) => coloursToCode(wordleColours(guess, target)),
    formatReply: (code) =>
      codeToColours(code, length)
        .map((c) => '.YG'[c])
        .join(''),
  };
}

function jotto(length) {
  return {
    id: 'jotto',
    length,
    wordProblem: (word) => {
      const problem = lettersProblem(word, length);
      if (problem === null && new Set(word).size !== [...word].length) return 'repeats a letter';
      return problem;
    },
    replySpace: length + 1,
    win: length,
    deduces: false,
    fold: (word) => upperWord(word.trim()),
    reply: (guess, target) => {
      const letters = new Set(target);
      let shared = 0;
      for (const letter of new Set(guess)) if (letters.has(letter)) shared++;
      return shared;
    },
    formatReply: (code) => String(code),
  };
}

function mastermind(length, colours) {
  return {
    id: 'mastermind',
    length,
    colours,
    wordProblem: (word) => {
      const problem = lettersProblem(word, length);
      if (problem !== null) return problem;
      for (const letter of word) {
        if (letter.charCodeAt(0) - 65 >= colours) return `uses colour ${letter}; this game has ${colours} colours`;
      }
      return null;
    },
    replySpace: (length + 1) ** 2,
    win: length * (length + 1),
    deduces: false,
    fold: (word) => upperWord(word.trim()),
    reply: (guess, target) => {
      let black = 0;
      const counts = new Map();
      for (let i = 0; i < guess.length; i++) {
        if (guess[i] === target[i]) black++;
        counts.set(target[i], (counts.get(target[i]) || 0) + 1);
      }
      let shared = 0;
      for (const letter of guess) {
        const left = counts.get(letter) || 0;
        if (left > 0) {
          shared++;
          counts.set(letter, left - 1);
        }
      }
      return black * (length + 1) + (shared - black);
    },
    formatReply: (code) => `${Math.floor(code / (length + 1))}B${code % (length + 1)}W`,
  };
}

const POSITIONS = ['before', 'after', 'correct'];

function guessMyWord(variant) {
  const deduces = variant === 'deduce';
  return {
    id: 'guess-my-word',
    length: 0,
    variant,
    wordProblem: (word) => (/^[a-z]+$/.test(word) ? null : 'not made only of letters a-z'),
    replySpace: 3,
    win: 2,
    deduces,
    fold: (word) => word.trim().toLowerCase(),
    reply: (guess, target) => {
      if (guess === target && !deduces) return 2;
      // Code-unit order; the words are ASCII, so this is the byte order.
      return target >= guess ? 1 : 0;
    },
    formatReply: (code) => POSITIONS[code],
  };
}

/**
 * The rules of the game a policy's `game` map names: {"id", "length"}, plus
 * "colours" (Mastermind) or "variant" (Guess My Word). Throws UnknownGameError
 * (an unknown id) or RangeError (a length, colour count or variant out of range).
 */
function makeGame(id, length, colours, variant) {
  if (id === 'guess-my-word') {
    if (variant !== 'deduce' && variant !== 'live') {
      throw new RangeError(`guess-my-word: unknown variant ${JSON.stringify(variant)} (deduce, live)`);
    }
    if (length !== 0) throw new RangeError('guess-my-word: words have any length; length must be 0');
    if (colours !== undefined) throw new RangeError('guess-my-word: only mastermind has colours');
    return guessMyWord(variant);
  }
  if (variant !== undefined) throw new RangeError(`${id}: only guess-my-word has a variant`);
  if (!['wordle', 'antiwordle', 'jotto', 'mastermind'].includes(id)) {
    throw new UnknownGameError(
      `unknown game ${JSON.stringify(id)}; known games: antiwordle, guess-my-word, jotto, mastermind, wordle`,
    );
  }
  if (!(length >= 2 && length <= 12)) {
    throw new RangeError(`${id}: word length must be between 2 and 12, not ${length}`);
  }
  if (id === 'mastermind') {
    const c = colours === undefined ? 6 : colours;
    if (!(c >= 2 && c <= 26)) throw new RangeError(`mastermind: colours must be 2..26, not ${c}`);
    return mastermind(length, c);
  }
  if (colours !== undefined) throw new RangeError(`${id}: only mastermind has colours`);
  if (id === 'jotto') return jotto(length);
  return wordle(id, length);
}

module.exports = { makeGame, wordleColours, coloursToCode, codeToColours, UnknownGameError };
