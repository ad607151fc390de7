// The Guesswork page: plays a game against the HTTP/JSON API of the server that
// serves it (POST /guesswork.v1.Guesswork/METHOD, Connect's unary JSON form).
// Plain JavaScript, no framework and no build step, nothing fetched from elsewhere:
// the service answers every question (suggestions, words left, analysis); the page
// only colours replies and letters for display and reads share texts. A move costs
// one SuggestGuess (or SuggestBoards): a stored answer carries the guesses expected,
// so the costly AnalyzeGame is asked only once a game is finished or pasted.
"use strict";

const API = "/guesswork.v1.Guesswork/";
// Tile colours in the order a tap cycles them, with the reply letter of each;
// -1 is a tile not set yet (sent as grey).
const COLOURS = [
  { name: "grey", letter: ".", square: "⬛" },
  { name: "yellow", letter: "Y", square: "🟨" },
  { name: "green", letter: "G", square: "🟩" },
];
// What a key or a share square means: a colour index.
const KEYS = { ".": 0, b: 0, x: 0, "0": 0, y: 1, "1": 1, g: 2, "2": 2 };
const SQUARES = { "⬛": 0, "⬜": 0, "🟨": 1, "🟦": 1, "🟩": 2, "🟧": 2 };
const TILE_GAMES = new Set(["wordle", "antiwordle"]);
const ANALYSED_GAMES = new Set(["wordle", "jotto", "mastermind"]);
// The guesses the NYT's Wordle allows (client.policy_info.WORDLE_GUESS_LIMIT).
const WORDLE_GUESS_LIMIT = 6;
const LANGUAGES = { de: "German", el: "Greek", es: "Spanish", fr: "French", ru: "Russian" };
const QWERTY = ["QWERTYUIOP", "ASDFGHJKL", "ZXCVBNM"];
const SOURCES = {
  VALUE_SOURCE_EXACT: "exact",
  VALUE_SOURCE_TREE: "exact for the suggested play",
  VALUE_SOURCE_GREEDY_ESTIMATE: "estimated",
};

const state = {
  policies: [],
  games: [], // the games offered: {id, label, policy, boards}
  game: null,
  policy: null, // the chosen policy's summary (ListPolicies)
  boardCount: 1,
  histories: [[]], // one [{guess, reply}] per board
  suggestion: null, // the last SuggestGuess or SuggestBoards answer
  colours: [], // per board, the colour index of each tile of the reply being entered (solved: null)
  cursor: 0, // the tile the keys and colour buttons set, counted over every board's tiles
  generation: 0, // bumped by every new position, so a late answer is dropped
};

const $ = (id) => document.getElementById(id);
const several = () => state.boardCount > 1;
const history = () => state.histories[0];
const tiled = () => Boolean(state.policy) && TILE_GAMES.has(state.policy.game);
const element = (tag, className, text) => {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
};
const number = (n) => Number(n || 0).toLocaleString("en-US");

// The service's answer to METHOD, or an Error: the service's message and code
// (Connect's, e.g. "resource_exhausted"), "network" when no answer came at all.
async function call(method, request) {
  busy(1);
  try {
    return await answerOf(method, request);
  } finally {
    busy(-1);
  }
}

// Calls in flight: while any is, the suggestion (a live region) is marked busy, so a
// screen reader waits for the new position instead of reading a half-drawn one (and a
// test waits for it before tapping a reply the answer would redraw).
let inFlight = 0;
function busy(change) {
  inFlight += change;
  $("suggestion").setAttribute("aria-busy", String(inFlight > 0));
}

async function answerOf(method, request) {
  let response;
  try {
    response = await fetch(API + method, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
    });
  } catch {
    const error = new Error("the server could not be reached");
    error.code = "network";
    throw error;
  }
  // A proxy's error page is not JSON: its status is all there is to say.
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(body.message || `HTTP ${response.status}`);
    error.code = body.code;
    throw error;
  }
  return body;
}

function meta(name) {
  const found = document.querySelector(`meta[name="${name}"]`);
  const value = found ? found.content : "";
  return value.startsWith("__") ? "" : value;
}

function showError(message) {
  $("error").textContent = message || "";
}

// ---- Choosing a game ----------------------------------------------------------

// The games offered, in a player's words, each played by a policy of the catalog:
// today's Wordle (the server's calendar choice), hard mode, the multi-board games
// over today's policy, then the other games, lengths and languages built.
function gamesOf(policies) {
  const find = (test) => policies.find(test);
  const named = (name) => find((p) => p.name === name);
  const today = named(meta("guesswork-default-policy")) ||
    find((p) => p.game === "wordle" && p.length === 5) || policies[0];
  const games = [];
  const add = (id, label, policy, boards = 1) => {
    if (policy) games.push({ id, label, policy: policy.name, boards });
  };
  add("wordle", "Today's Wordle", today);
  add("hard", "Wordle, hard mode", named(meta("guesswork-default-hard-policy")));
  if (today && today.game === "wordle") {
    add("dordle", "Dordle (2 boards)", today, 2);
    add("quordle", "Quordle (4 boards)", today, 4);
    add("octordle", "Octordle (8 boards)", today, 8);
  }
  add("absurdle", "Absurdle", find((p) => p.name.includes("absurdle") && p.mode === "normal"));
  add("antiwordle", "Antiwordle", find((p) => p.game === "antiwordle"));
  add("jotto", "Jotto", find((p) => p.game === "jotto" && p.mode === "normal"));
  add("mastermind", "Mastermind", find((p) => p.game === "mastermind"));
  const english = policies.filter((p) => p.game === "wordle" && !/^wordle-[a-z]{2}-/.test(p.name));
  const lengths = [...new Set(english.map((p) => p.length))].filter((n) => n !== 5).sort((a, b) => a - b);
  for (const length of lengths) {
    add(`letters-${length}`, `Wordle with ${length} letters`,
      find((p) => p.game === "wordle" && p.length === length && p.mode === "normal"));
  }
  for (const [code, language] of Object.entries(LANGUAGES)) {
    add(`language-${code}`, `Wordle in ${language}`, find((p) => p.name.startsWith(`wordle-${code}-`)));
  }
  return games;
}

async function loadPolicies() {
  const answer = await call("ListPolicies", {});
  // Resource names ("policies/NAME") are kept as the bare name; Guess My Word has no board.
  state.policies = (answer.policies || [])
    .filter((p) => p.game !== "guess-my-word")
    .map((p) => ({ ...p, name: p.name.replace(/^policies\//, "") }));
  state.games = gamesOf(state.policies);
  const select = $("game");
  select.replaceChildren();
  for (const game of state.games) {
    const option = element("option", "", game.label);
    option.value = game.id;
    select.append(option);
  }
  const policies = $("policy");
  policies.replaceChildren();
  for (const policy of state.policies) {
    const option = element("option", "", `${policy.name} (${policy.game}, ${number(policy.targetCount)} words)`);
    option.value = policy.name;
    policies.append(option);
  }
}

function chooseGame() {
  const game = state.games.find((g) => g.id === $("game").value) || state.games[0];
  if (game && game.id !== "custom") {
    state.game = game;
    state.boardCount = game.boards;
    state.policy = state.policies.find((p) => p.name === game.policy) || null;
    $("policy").value = game.policy;
  }
  return newGame();
}

// Advanced: any policy of the catalog, played on one board.
function choosePolicy() {
  state.policy = state.policies.find((p) => p.name === $("policy").value) || null;
  state.boardCount = 1;
  let custom = state.games.find((g) => g.id === "custom");
  if (!custom) {
    custom = { id: "custom", label: "Another policy (advanced)", boards: 1 };
    state.games.push(custom);
    const option = element("option", "", custom.label);
    option.value = "custom";
    $("game").append(option);
  }
  custom.policy = state.policy && state.policy.name;
  state.game = custom;
  $("game").value = "custom";
  return newGame();
}

function newGame() {
  state.histories = Array.from({ length: state.boardCount }, () => []);
  state.suggestion = null;
  $("analysis-panel").hidden = true;
  $("analysis-wait").hidden = true;
  $("share-out").hidden = true;
  $("words-left-panel").hidden = true;
  $("share-panel").hidden = several() || !tiled();
  showGuarantee();
  return refresh();
}

// Whether a policy wins within its game's guess limit, in the words of
// client.policy_info.guarantee (the command line's; change the two together), from
// ListPolicies' worst case and histogram; null for a game without a limit.
function guaranteeOf(policy) {
  if (policy.game !== "wordle" || policy.name.includes("absurdle")) return null;
  const limit = WORDLE_GUESS_LIMIT;
  const worst = policy.worst || 0;
  if (worst <= limit) return `guaranteed within ${limit}`;
  const histogram = Object.entries(policy.histogram || {});
  if (!histogram.length) return `not guaranteed within ${limit} (worst ${worst})`;
  const over = histogram
    .filter(([guesses]) => Number(guesses) > limit)
    .reduce((sum, [, count]) => sum + Number(count), 0);
  return `not guaranteed within ${limit}: ${over} of ${policy.targetCount || 0} answers ` +
    `${over === 1 ? "takes" : "take"} ${limit + 1} or more (worst ${worst})`;
}

// The guarantee in a player's words: at the start the policy's; in a game, the
// service's guaranteed_within (the stored tree's worst case from the position, the
// turns played counted; absent when the answer was computed live).
function showGuarantee() {
  const said = state.policy && !several() ? guaranteeOf(state.policy) : null;
  const answer = state.suggestion;
  const limit = WORDLE_GUESS_LIMIT;
  let text = "";
  if (said && !history().length) {
    text = `Playing the suggestions, you are ${said}.`;
  } else if (said && answer && !answer.solved) {
    const within = answer.guaranteedWithin;
    const was = said.startsWith("guaranteed");
    if (within === undefined) {
      text = "Not guaranteed (computed live): no stored line bounds the game from here.";
    } else if (within <= limit) {
      text = `${was ? "Still" : "Now"} guaranteed within ${limit}: keep playing the suggestions ` +
        `(at most ${within} guesses in all).`;
    } else {
      text = `${was ? "No longer" : "Not"} guaranteed within ${limit} (worst case ${within}).`;
    }
  }
  $("policy-guarantee").textContent = text;
}

// ---- Asking the service -------------------------------------------------------

// The service's answer for a position: SuggestBoards for several boards, else
// SuggestGuess. Raises the service's error; changes nothing here.
function ask(histories) {
  const name = state.policy.name;
  return histories.length > 1
    ? call("SuggestBoards", { policy: name, boards: histories.map((h) => ({ history: h })), maxAlternatives: 3 })
    : call("SuggestGuess", { policy: name, history: histories[0], maxAlternatives: 3 });
}

// Shows the position of state.histories: its suggestion, or the error (the position
// is then unchanged on screen); analyses a finished game.
async function refresh() {
  showError("");
  if (!state.policy) return;
  const generation = ++state.generation;
  try {
    const answer = await ask(state.histories);
    if (generation !== state.generation) return;
    state.suggestion = answer;
    render();
    if (answer.solved) await finish();
  } catch (error) {
    if (generation !== state.generation) return;
    showError(error.message);
    render();
  }
}

// Plays the reply (or replies) entered: the new position is asked for first, and
// only taken when the service accepts it, so a refused reply leaves no row behind.
async function play(histories, guess) {
  showError("");
  const generation = ++state.generation;
  try {
    const answer = await ask(histories);
    if (generation !== state.generation) return false;
    state.histories = histories;
    state.suggestion = answer;
    render();
    if (answer.solved) await finish();
    return true;
  } catch (error) {
    if (generation === state.generation) showError(error.message);
    return false;
  }
}

// The guesses expected in all (one board), from the suggestion itself: SuggestGuess's
// expected_guesses, the stored tree's mean from the position with the turns played
// counted (the policy's mean at the start), exact for the suggested play. Absent when
// the answer was computed live: no stored line plays the rest, so none is claimed.
function expectedGuesses(answer) {
  const shown = element("span", "", "—");
  let note = "computed live: no stored line";
  if (answer.expectedGuesses !== undefined) {
    shown.textContent = Number(answer.expectedGuesses).toFixed(2);
    note = "exact for the suggested play";
  }
  const said = document.createDocumentFragment();
  said.append(shown, " ", element("span", "note", `(${note})`));
  return said;
}

// ---- Drawing ------------------------------------------------------------------

function render() {
  const answer = state.suggestion;
  $("words-left-panel").hidden = true;
  showGuarantee();
  $("board").hidden = several();
  $("boards-played").hidden = !several();
  if (several()) drawBoards();
  else drawHistory();
  drawKeyboard();
  drawNumbers();
  if (!answer) {
    $("reply-area").hidden = true;
    return;
  }
  if (answer.solved) {
    $("suggestion").textContent = several()
      ? `Solved: all ${state.boardCount} boards in ${answer.turn || 0} guesses (limit ${answer.guessLimit}).`
      : `Solved: ${answer.guess} in ${history().length} guesses.`;
    $("reply-area").hidden = true;
    return;
  }
  const suggestion = $("suggestion");
  suggestion.replaceChildren("Guess ", element("strong", "", answer.guess));
  const others = answer.alternatives || [];
  if (others.length) suggestion.append(element("span", "alternatives", ` (or ${others.join(", ")})`));
  $("reply-area").hidden = false;
  $("text-reply").hidden = tiled();
  $("text-reply-label").hidden = tiled();
  $("colour-keys").hidden = !tiled();
  $("tiles").hidden = several() || !tiled();
  $("board-tiles").hidden = !several();
  $("reply-help").textContent = !tiled()
    ? `Type the reply your game gave to ${answer.guess}, then press Enter reply.`
    : several()
      ? `Play ${answer.guess} on every board, then set each unsolved board's colours below.`
      : `Play ${answer.guess}, then set the colours your game showed.`;
  state.colours = several()
    ? answer.boards.map((b) => (b.solved ? null : Array.from(answer.guess, () => -1)))
    : [Array.from(answer.guess, () => -1)];
  state.cursor = 0;
  if (tiled()) buildTiles();
}

// One played row: the guess in coloured tiles (the colours are the reply), read out
// as words; other games show the reply as its text.
function rowOf(guess, reply) {
  const row = element("span", "row");
  const colours = coloursOf(guess, reply);
  if (!colours) {
    row.textContent = `${guess}: ${reply}`;
    return row;
  }
  const said = Array.from(guess).map((letter, i) => `${letter} ${COLOURS[colours[i]].name}`).join(", ");
  row.append(element("span", "visually-hidden", `${guess}: ${said}`));
  Array.from(guess).forEach((letter, i) => {
    const tile = element("span", `tile ${COLOURS[colours[i]].name}`, letter);
    tile.setAttribute("aria-hidden", "true");
    row.append(tile);
  });
  return row;
}

// A Wordle reply's colour indices ("GY..Y", or squares), or null for another game's.
function coloursOf(guess, reply) {
  if (!tiled()) return null;
  const symbols = Array.from(reply.replace(/[\uFE0F\u200D\s]/g, ""));
  if (symbols.length !== Array.from(guess).length) return null;
  const colours = symbols.map((s) => (s in SQUARES ? SQUARES[s] : KEYS[s.toLowerCase()]));
  return colours.every((c) => c !== undefined) ? colours : null;
}

function drawHistory() {
  const board = $("board");
  board.replaceChildren();
  for (const turn of history()) {
    const item = element("li", "played");
    item.append(rowOf(turn.guess, turn.reply));
    board.append(item);
  }
}

// Several boards: each board's turns in small tiles under its heading.
function drawBoards() {
  const answer = state.suggestion;
  const played = $("boards-played");
  played.replaceChildren();
  state.histories.forEach((turns, index) => {
    const column = element("section", "played-board");
    const board = answer && answer.boards ? answer.boards[index] || {} : {};
    const heading = element("h3", board.solved ? "solved" : "",
      `Board ${index + 1}: ` + (board.solved ? "solved" : `${number(board.remaining)} left`));
    heading.id = `played-board-${index + 1}`;
    const list = element("ol");
    list.setAttribute("aria-labelledby", heading.id);
    for (const turn of turns) {
      const item = element("li", "played");
      item.append(rowOf(turn.guess, turn.reply));
      list.append(item);
    }
    column.append(heading, list);
    played.append(column);
  });
}

// The on-screen keyboard: each letter's best state so far (green, yellow, grey).
function drawKeyboard() {
  const keyboard = $("keyboard");
  keyboard.replaceChildren();
  // Several boards: a letter's state differs from board to board, so none is shown.
  if (!tiled() || several()) return;
  const best = new Map();
  for (const turns of state.histories) {
    for (const { guess, reply } of turns) {
      const colours = coloursOf(guess, reply) || [];
      Array.from(guess).forEach((letter, i) => {
        best.set(letter, Math.max(best.has(letter) ? best.get(letter) : -1, colours[i] ?? -1));
      });
    }
  }
  const latin = Array.from(state.suggestion ? state.suggestion.guess : "A").every((c) => c >= "A" && c <= "Z");
  const rows = latin ? QWERTY : [Array.from(best.keys()).sort().join("")];
  for (const letters of rows) {
    const row = element("div", "kb-row");
    for (const letter of letters) {
      const colour = best.has(letter) ? best.get(letter) : -1;
      row.append(element("span", colour >= 0 ? COLOURS[colour].name : "", letter));
    }
    keyboard.append(row);
  }
}

// The plain numbers: words left (one board) or guesses left (several), the guess
// count, and the guesses expected once known.
function drawNumbers() {
  const answer = state.suggestion;
  const numbers = $("numbers");
  numbers.replaceChildren();
  if (!answer || answer.solved) return;
  if (several()) {
    addNumber("turn", "Guess", `${(answer.turn || 0) + 1} of ${answer.guessLimit}`);
    const open = answer.boards.filter((b) => !b.solved).length;
    addNumber("open", "Boards to solve", `${open} of ${state.boardCount}`);
    return;
  }
  addNumber("left", "Words left", wordsLeftButton(answer.remaining));
  addNumber("turn", "Guess", String(history().length + 1));
  if (ANALYSED_GAMES.has(state.policy.game)) addNumber("expected", "Expected guesses", expectedGuesses(answer));
}

function addNumber(key, label, value) {
  const group = element("div");
  group.dataset.key = key;
  const shown = element("dd");
  shown.append(value);
  group.append(element("dt", "", label), shown);
  $("numbers").append(group);
}

// The words-left count as a button: a tap lists the words (SuggestGuess's candidates).
function wordsLeftButton(remaining) {
  const button = element("button", "", number(remaining));
  button.type = "button";
  button.id = "words-left-button";
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "words-left-panel");
  button.setAttribute("aria-label", `${number(remaining)} words left: list them`);
  button.addEventListener("click", toggleWordsLeft);
  return button;
}

// The most words listed (client.remaining.MAX_CANDIDATES, the service's limit).
const MAX_CANDIDATES = 500;

// Lists the words still possible (most likely first with their chance where the
// policy's prior weights them, else A to Z), or hides the list.
async function toggleWordsLeft() {
  const button = $("words-left-button");
  const panel = $("words-left-panel");
  if (!panel.hidden) {
    panel.hidden = true;
    button.setAttribute("aria-expanded", "false");
    return;
  }
  const generation = state.generation;
  try {
    const answer = await call("SuggestGuess", {
      policy: state.policy.name, history: history(), maxAlternatives: 0, maxCandidates: MAX_CANDIDATES,
    });
    if (generation !== state.generation) return;
    const words = answer.candidates || [];
    const chances = answer.candidateWeights || [];
    const list = $("words-left");
    list.replaceChildren();
    words.forEach((word, i) => {
      const item = element("li", "", word);
      if (chances.length) item.append(" ", element("span", "chance", percent(chances[i])));
      list.append(item);
    });
    const some = words.length < answer.remaining ? `the first ${number(words.length)} of ` : "";
    $("words-left-title").textContent = chances.length
      ? `Words left, most likely first (${some}${number(answer.remaining)}):`
      : `Words left, A to Z (${some}${number(answer.remaining)}):`;
    panel.hidden = false;
    button.setAttribute("aria-expanded", "true");
  } catch (error) {
    showError(error.message);
  }
}

function percent(chance) {
  const value = 100 * (chance || 0);
  return value < 0.1 ? "<0.1%" : `${value.toFixed(value < 10 ? 1 : 0)}%`;
}

// ---- Entering a reply ---------------------------------------------------------

// The pending reply's tiles: buttons made once per suggestion and repainted in
// place, so the focus stays where it is.
function buildTiles() {
  const guess = state.suggestion.guess;
  const one = $("tiles");
  one.replaceChildren();
  // A long word wraps into two rows on a phone, so no tile is below a tap target.
  const letters = Array.from(guess).length;
  one.classList.toggle("long", letters >= 7);
  one.style.setProperty("--columns", String(Math.ceil(letters / 2)));
  const area = $("board-tiles");
  area.replaceChildren();
  let flat = 0;
  state.colours.forEach((colours, board) => {
    if (!colours) return;
    let row = one;
    if (several()) {
      const group = element("div", "board-reply");
      group.setAttribute("role", "group");
      group.setAttribute("aria-label", `Board ${board + 1}'s reply`);
      const label = element("span", "board-label", `Board ${board + 1}`);
      label.setAttribute("aria-hidden", "true");
      row = element("div", "row pending");
      group.append(label, row);
      area.append(group);
    }
    Array.from(guess).forEach((letter, index) => {
      const tile = element("button", "tile input", letter);
      tile.type = "button";
      tile.dataset.board = String(board);
      tile.dataset.index = String(index);
      tile.dataset.flat = String(flat++);
      tile.addEventListener("click", () => {
        state.cursor = Number(tile.dataset.flat);
        colours[index] = (Math.max(colours[index], 0) + 1) % COLOURS.length;
        paintTiles();
      });
      row.append(tile);
    });
  });
  paintTiles();
  // The keys go to the reply: the first tile takes the focus after a reply, a new
  // game or a game chosen (where it was on the page itself, the chooser or a tile).
  const focused = document.activeElement;
  if (!focused || focused === document.body || focused.closest("#choose, #reply-area")) {
    const first = allTiles()[0];
    if (first) first.focus({ preventScroll: true });
  }
}

function allTiles() {
  return Array.from(document.querySelectorAll(several() ? "#board-tiles .tile" : "#tiles .tile"));
}

function paintTiles() {
  const prefix = (board) => (several() ? `board ${board + 1}, ` : "");
  for (const tile of allTiles()) {
    const board = Number(tile.dataset.board);
    const index = Number(tile.dataset.index);
    const colour = state.colours[board][index];
    const name = colour < 0 ? "not set (grey)" : COLOURS[colour].name;
    tile.className = `tile input ${colour < 0 ? "unset" : COLOURS[colour].name}` +
      (Number(tile.dataset.flat) === state.cursor ? " cursor" : "");
    tile.setAttribute("aria-label",
      `${prefix(board)}letter ${index + 1}, ${tile.textContent}: ${name}; press to change`);
  }
}

// Sets the colour of the tile at the cursor and moves on (a key or a colour button).
function setColour(colour) {
  const tiles = allTiles();
  const tile = tiles[state.cursor];
  if (!tile) return;
  state.colours[Number(tile.dataset.board)][Number(tile.dataset.index)] = colour;
  moveCursor(1, document.activeElement && document.activeElement.classList.contains("input"));
}

function moveCursor(step, follow) {
  const count = allTiles().length;
  state.cursor = Math.min(Math.max(state.cursor + step, 0), Math.max(count - 1, 0));
  paintTiles();
  if (follow) allTiles()[state.cursor].focus();
}

function onKey(event) {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (target.closest && target.closest("input, textarea, select, summary, a")) return;
  const replying = !$("reply-area").hidden && tiled();
  if (!replying) return;
  const onTile = target.classList && target.classList.contains("input");
  const key = event.key.toLowerCase();
  if (key in KEYS) {
    setColour(KEYS[key]);
  } else if (event.key === "Backspace") {
    const tile = allTiles()[state.cursor];
    if (tile) state.colours[Number(tile.dataset.board)][Number(tile.dataset.index)] = -1;
    moveCursor(-1, onTile);
  } else if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
    moveCursor(event.key === "ArrowRight" ? 1 : -1, onTile);
  } else if (event.key === "Enter" && (onTile || target === document.body)) {
    submitReply();
  } else {
    return;
  }
  event.preventDefault();
}

function replyOf(colours) {
  return colours.map((c) => COLOURS[Math.max(c, 0)].letter).join("");
}

async function submitReply() {
  const answer = state.suggestion;
  if (!answer || answer.solved) return;
  const guess = answer.guess;
  let histories;
  if (several()) {
    // The guess is played on every unsolved board, each with its tiles' reply.
    histories = state.histories.map((turns, board) =>
      state.colours[board] ? [...turns, { guess, reply: replyOf(state.colours[board]) }] : turns);
  } else {
    const reply = tiled() ? replyOf(state.colours[0]) : $("text-reply").value.trim();
    histories = [[...history(), { guess, reply }]];
  }
  if (await play(histories, guess)) $("text-reply").value = "";
}

// "I played another word": the reply tiles show that word instead.
function useOwnWord() {
  const word = $("own-word").value.trim().toUpperCase();
  if (!state.suggestion || !word) return;
  state.suggestion = { ...state.suggestion, guess: word, alternatives: [] };
  $("own-word").value = "";
  $("own-word-panel").open = false;
  render();
}

async function undo() {
  if (!state.histories.some((h) => h.length)) return;
  // The last guess was played on every board whose history is the longest.
  const turns = Math.max(...state.histories.map((h) => h.length));
  state.histories = state.histories.map((h) => (h.length === turns ? h.slice(0, -1) : h));
  $("analysis-panel").hidden = true;
  $("analysis-wait").hidden = true;
  $("share-out").hidden = true;
  await refresh();
}

// ---- Share texts --------------------------------------------------------------

// A NYT share text read: its rows of squares as colour indices, the words typed with
// it (one a line, or none), and whether the header marks hard mode ("4/6*").
// Raises an Error in words when it holds no rows or disagrees with its header.
function readShare(text) {
  const rows = [];
  const words = [];
  let header = null;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/[\uFE0F\u200D\u200E\u200F\s]/g, "");
    if (!line) continue;
    const symbols = Array.from(line);
    if (symbols.every((s) => s in SQUARES)) {
      rows.push(symbols.map((s) => SQUARES[s]));
    } else if (!rows.length && header === null && /(^|[^\d/])([0-9]+|X)\/([0-9]+)\*?/i.test(raw)) {
      header = raw;
    } else if (/^\p{L}+$/u.test(line)) {
      words.push(line.toUpperCase());
    }
  }
  if (!rows.length) throw new Error("No rows of coloured squares in the share text.");
  if (rows.some((r) => r.length !== rows[0].length)) throw new Error("The share text's rows differ in length.");
  const claimed = header && /([0-9]+|X)\/([0-9]+)/i.exec(header);
  if (claimed) {
    const count = claimed[1].toUpperCase() === "X" ? Number(claimed[2]) : Number(claimed[1]);
    if (count !== rows.length) {
      throw new Error(`The share text says ${claimed[0]} but has ${rows.length} rows.`);
    }
  }
  if (words.length && words.length !== rows.length) {
    throw new Error(`The share text has ${rows.length} rows but ${words.length} words.`);
  }
  return { rows, words, hard: Boolean(header && /\/[0-9]+\*/.test(header)) };
}

// Analyses a pasted share text: with its words, or with the guesses suggested here
// for its rows. Nothing changes on the board unless every row is accepted.
async function pasteShare() {
  showError("");
  let share;
  try {
    share = readShare($("share").value);
  } catch (error) {
    showError(`Share text: ${error.message}`);
    return;
  }
  const wanted = share.hard ? "hard" : "wordle";
  const game = state.games.find((g) => g.id === wanted) || state.games[0];
  const before = { game: state.game, policy: state.policy, boards: state.boardCount };
  state.game = game;
  state.policy = state.policies.find((p) => p.name === game.policy);
  state.boardCount = 1;
  const generation = ++state.generation;
  const turns = [];
  try {
    for (const [index, row] of share.rows.entries()) {
      const guess = share.words[index] || (await ask([turns])).guess;
      turns.push({ guess, reply: replyOf(row) });
    }
    const answer = await ask([turns]);
    if (generation !== state.generation) return;
    $("game").value = game.id;
    $("policy").value = game.policy;
    state.histories = [turns];
    state.suggestion = answer;
    render();
    $("share-panel").open = false;
    await finish(true);
  } catch (error) {
    Object.assign(state, { game: before.game, policy: before.policy, boardCount: before.boards });
    showError(`Share text: ${error.message}`);
  }
}

// Our share text: the game's rows of squares in the NYT's shape (several boards:
// each board's count, then its rows).
function shareText() {
  const label = state.game ? state.game.label.replace(/^Today's /, "") : "Wordle";
  const hard = state.policy && state.policy.mode !== "normal" ? "*" : "";
  const squares = (turns) => turns.map((t) =>
    (coloursOf(t.guess, t.reply) || []).map((c) => COLOURS[c].square).join("")).join("\n");
  if (!several()) {
    return `Guesswork ${label} ${history().length}/${WORDLE_GUESS_LIMIT}${hard}\n\n${squares(history())}`;
  }
  const limit = state.suggestion.guessLimit;
  const counts = state.histories.map((h, i) => `Board ${i + 1}: ${h.length}/${limit}`).join("\n");
  return `Guesswork ${label} ${state.suggestion.turn}/${limit}\n${counts}\n\n` +
    state.histories.map(squares).join("\n\n");
}

async function copyShare() {
  const text = $("share-text");
  try {
    await navigator.clipboard.writeText(text.value);
    $("copied").textContent = "Copied.";
  } catch {
    text.select();
    $("copied").textContent = "Selected: copy it with your device's Copy.";
  }
}

// ---- Analysis -----------------------------------------------------------------

// The end of a game: our share text, and the analysis of every board played.
async function finish(pasted = false) {
  if (tiled() && !pasted) {
    $("share-text").value = shareText();
    $("share-out").hidden = false;
  }
  if (ANALYSED_GAMES.has(state.policy.game)) await analyse();
}

// Why an analysis did not come, in a player's words, from the call's error code.
const ANALYSIS_FAILURES = {
  resource_exhausted: "the server is busy with other calls",
  unavailable: "the server could not compute it just now",
  deadline_exceeded: "the server took too long",
  network: "the server could not be reached",
};

// The analysis of every board played: the game's one AnalyzeGame call per board (a
// live computation of seconds, so never asked before the end). While it computes a
// line says so; if it fails, the line says why, with a Retry button: the game stays.
async function analyse() {
  const generation = state.generation;
  const wait = $("analysis-wait");
  const retry = $("retry-analysis");
  $("analysis-note").textContent = "Analysing your game…";
  retry.hidden = true;
  wait.hidden = false;
  try {
    const boards = state.histories.map((turns, index) => ({ turns, index })).filter((b) => b.turns.length);
    const reports = await Promise.all(boards.map((b) =>
      call("AnalyzeGame", { policy: state.policy.name, history: b.turns })));
    if (generation !== state.generation) return;
    wait.hidden = true;
    drawAnalysis(boards, reports);
  } catch (error) {
    if (generation !== state.generation) return;
    const why = ANALYSIS_FAILURES[error.code] || error.message;
    $("analysis-note").textContent = `The analysis did not come: ${why}. Your game is kept: try again.`;
    retry.hidden = false;
  }
}

function drawAnalysis(boards, reports) {
  const area = $("analysis");
  area.replaceChildren();
  const mean = (key) => reports.reduce((s, r) => s + (r[key] || 0), 0) / reports.length;
  const lost = reports.reduce((s, r) => s + (r.lostToChoices || 0), 0);
  $("analysis-summary").textContent =
    `Skill ${Math.round(mean("skill"))}, luck ${Math.round(mean("luck"))} (out of 100). ` +
    (several() ? "" : `Best play needs ${(reports[0].expectedStart || 0).toFixed(2)} guesses on average; `) +
    `your choices cost ${lost.toFixed(2)} ${several() ? "guesses over all boards" : "guesses"}.`;
  reports.forEach((report, i) => {
    let parent = area;
    if (several()) {
      parent = element("section", "board-analysis");
      parent.append(element("h3", "", `Board ${boards[i].index + 1}: ` +
        `skill ${Math.round(report.skill || 0)}, luck ${Math.round(report.luck || 0)}`));
      area.append(parent);
    }
    for (const move of report.moves || []) parent.append(moveCard(move, several() ? "h4" : "h3"));
  });
  drawChart(reports[0].moves || []);
  $("chart-figure").hidden = several();
  const message = JSON.stringify({ policy: state.policy.name, history: boards[0].turns });
  $("analysis-picture-link").href = `/picture/analysis.svg?encoding=json&message=${encodeURIComponent(message)}`;
  $("analysis-picture-link").parentElement.hidden = several();
  $("analysis-panel").hidden = false;
}

// One move in words: the guess and its reply, skill and luck, the words left, and
// the best move with what it would have left.
function moveCard(move, level) {
  const card = element("article", "move");
  const heading = element(level, "", `${move.turn}. `);
  heading.append(rowOf(move.guess, move.reply));
  card.append(heading);
  const scores = element("p", "scores");
  scores.append(element("span", "", `Skill ${Math.round(move.skill || 0)}`),
    element("span", "", `Luck ${Math.round(move.luck || 0)}`));
  card.append(scores);
  const after = move.remainingAfter ? `${number(move.remainingAfter)} left` : "solved";
  card.append(element("p", "", `Words: ${number(move.remainingBefore)} before, ${after}.`));
  const how = SOURCES[move.source] || "estimated";
  if (move.bestGuess && move.bestGuess !== move.guess) {
    const left = move.bestRemaining !== undefined
      ? `would have left ${number(move.bestRemaining)}`
      : `would leave ${(move.bestExpectedRemaining || 0).toFixed(1)} on average`;
    card.append(element("p", "", `Best: ${move.bestGuess}, which ${left} ` +
      `(you ${(move.expectedRemaining || 0).toFixed(1)} on average).`));
    card.append(element("p", "", `Guesses expected: ${(move.expected || 0).toFixed(2)} yours, ` +
      `${(move.bestExpected || 0).toFixed(2)} best (${how}).`));
  } else {
    card.append(element("p", "", `The best move. Guesses expected: ${(move.expected || 0).toFixed(2)} (${how}).`));
  }
  if (move.legal === false) card.append(element("p", "warning", "Breaks the hard-mode rule."));
  return card;
}

// The words left after each move as bars on a log scale, the best move's expectation
// marked: plain HTML, so its words keep their size on a phone.
function drawChart(moves) {
  const chart = $("left-chart");
  chart.replaceChildren();
  const top = Math.max(2, ...moves.map((m) => m.remainingBefore || 0));
  const scale = (n) => `${(100 * Math.log1p(n || 0)) / Math.log1p(top)}%`;
  for (const move of moves) {
    const row = element("div", "chart-row");
    row.append(element("span", "", `${move.turn}.`));
    const track = element("div", "chart-track");
    const bar = element("div", "chart-bar");
    bar.style.width = scale(move.remainingAfter);
    const best = element("div", "chart-best");
    best.style.left = scale(move.bestExpectedRemaining);
    track.append(bar, best);
    track.setAttribute("aria-hidden", "true");
    const said = element("span", "chart-words",
      `${number(move.remainingAfter)} left, best ≈ ${(move.bestExpectedRemaining || 0).toFixed(1)}`);
    row.append(track, said);
    chart.append(row);
  }
}

// ---- Appearance ---------------------------------------------------------------

function setTheme(dark, contrast) {
  document.body.classList.toggle("dark", dark);
  document.body.classList.toggle("contrast", contrast);
  $("theme").setAttribute("aria-pressed", String(dark));
  $("contrast").setAttribute("aria-pressed", String(contrast));
  try {
    localStorage.setItem("guesswork-theme", JSON.stringify({ dark, contrast }));
  } catch {
    // Private browsing may refuse storage: the choice then lasts this visit.
  }
}

function loadTheme() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem("guesswork-theme") || "null");
  } catch {
    saved = null;
  }
  const system = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  const contrast = window.matchMedia && window.matchMedia("(prefers-contrast: more)").matches;
  setTheme(saved ? saved.dark : system, saved ? saved.contrast : contrast);
}

async function start() {
  loadTheme();
  const pressed = (id) => $(id).getAttribute("aria-pressed") === "true";
  $("theme").addEventListener("click", () => setTheme(!pressed("theme"), pressed("contrast")));
  $("contrast").addEventListener("click", () => setTheme(pressed("theme"), !pressed("contrast")));
  $("game").addEventListener("change", chooseGame);
  $("policy").addEventListener("change", choosePolicy);
  $("new-game").addEventListener("click", newGame);
  $("submit").addEventListener("click", submitReply);
  $("undo").addEventListener("click", undo);
  $("paste").addEventListener("click", pasteShare);
  $("copy-share").addEventListener("click", copyShare);
  $("retry-analysis").addEventListener("click", analyse);
  $("use-own-word").addEventListener("click", useOwnWord);
  for (const key of document.querySelectorAll("#colour-keys .key")) {
    key.addEventListener("click", () => setColour(Number(key.dataset.colour)));
  }
  $("text-reply").addEventListener("keydown", (event) => {
    if (event.key === "Enter") submitReply();
  });
  document.addEventListener("keydown", onKey);
  try {
    await loadPolicies();
    await chooseGame();
  } catch (error) {
    $("suggestion").textContent = "The server is not answering yet.";
    showError(error.message);
  }
}

start();
