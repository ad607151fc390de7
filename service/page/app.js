// The Guesswork page: plays a game against the HTTP/JSON API of the server that
// serves it (POST /guesswork.v1.Guesswork/METHOD, Connect's unary JSON form).
// Plain JavaScript, no build step, nothing fetched from elsewhere.
"use strict";

const API = "/guesswork.v1.Guesswork/";
// Tile colours in the order a click cycles them, with the reply letter of each.
const COLOURS = [
  { name: "grey", letter: "." },
  { name: "yellow", letter: "Y" },
  { name: "green", letter: "G" },
];
const TILE_GAMES = new Set(["wordle", "antiwordle"]);

const state = {
  policies: [],
  policy: null, // the chosen policy's summary (ListPolicies)
  history: [], // [{guess, reply}]
  suggestion: null, // the last SuggestGuess answer
  colours: [], // the colour index of each tile of the reply being entered
};

const $ = (id) => document.getElementById(id);

async function call(method, request) {
  const response = await fetch(API + method, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(request),
  });
  const body = await response.json();
  if (!response.ok) {
    const error = new Error(body.message || `HTTP ${response.status}`);
    error.code = body.code;
    throw error;
  }
  return body;
}

function meta(name) {
  const element = document.querySelector(`meta[name="${name}"]`);
  const value = element ? element.content : "";
  return value.startsWith("__") ? "" : value;
}

function showError(message) {
  $("error").textContent = message || "";
}

async function loadPolicies() {
  const answer = await call("ListPolicies", {});
  // Resource names ("policies/NAME") are shown and kept as the bare name.
  state.policies = (answer.policies || [])
    .filter((p) => p.game !== "guess-my-word")
    .map((p) => ({ ...p, name: p.name.replace(/^policies\//, "") }));
  const select = $("policy");
  select.replaceChildren();
  for (const policy of state.policies) {
    const option = document.createElement("option");
    option.value = policy.name;
    option.textContent = `${policy.name} (${policy.game}, ${policy.targetCount} targets)`;
    select.append(option);
  }
  pickDefault();
}

function pickDefault() {
  const wanted = $("hard").checked
    ? meta("guesswork-default-hard-policy")
    : meta("guesswork-default-policy");
  const names = state.policies.map((p) => p.name);
  $("policy").value = names.includes(wanted) ? wanted : names[0];
}

function choosePolicy() {
  state.policy = state.policies.find((p) => p.name === $("policy").value) || null;
  state.history = [];
  $("analysis-panel").hidden = true;
  return suggest();
}

async function suggest() {
  showError("");
  if (!state.policy) return;
  try {
    const answer = await call("SuggestGuess", {
      policy: state.policy.name,
      history: state.history,
      maxAlternatives: 5,
    });
    state.suggestion = answer;
    render();
    if (answer.solved) await analyse();
  } catch (error) {
    showError(error.message);
    render();
  }
}

function render() {
  const answer = state.suggestion;
  const board = $("board");
  board.replaceChildren();
  for (const turn of state.history) {
    const item = document.createElement("li");
    item.className = "played";
    item.append(rowOf(turn.guess, turn.reply));
    board.append(item);
  }
  if (!answer) return;
  const remaining = answer.remaining || 0;
  if (answer.solved) {
    $("suggestion").textContent = `Solved: ${answer.guess} in ${state.history.length} guesses.`;
    $("alternatives").textContent = "";
    $("reply-area").hidden = true;
    return;
  }
  const source = answer.source === "SOURCE_STORED" ? "stored" : "computed live";
  $("suggestion").textContent = `Guess ${answer.guess} (${remaining} possible, ${source})`;
  const others = answer.alternatives || [];
  const values = answer.alternativeValues || [];
  const shown = others.map((word, i) =>
    i < values.length ? `${word} (${describeValue(values[i], answer.alternativeMetric)})` : word,
  );
  $("alternatives").textContent = shown.length ? `Next best: ${shown.join(", ")}` : "";
  $("reply-area").hidden = false;
  const tiles = TILE_GAMES.has(state.policy.game);
  $("tiles").hidden = !tiles;
  $("text-reply").hidden = tiles;
  $("text-reply-label").hidden = tiles;
  $("reply-help").textContent = tiles
    ? "Click each letter (or focus it and press G, Y or .) until it shows your game's colour, then press Enter reply."
    : `Type the reply your game gave to ${answer.guess}, then press Enter reply.`;
  state.colours = Array.from(answer.guess, () => 0);
  drawTiles();
}

// What an alternative's value means, by the metric that ranked it (lower is better).
function describeValue(value, metric) {
  if (metric === "neg_entropy" || metric === "approx_entropy") return `${(-value).toFixed(2)} bits`;
  if (metric === "entropy") return `${value.toFixed(2)} bits`;
  if (metric === "max") return `at most ${Math.round(value)} left`;
  if (metric === "expectation") return `${value.toFixed(1)} left expected`;
  return String(Number(value.toFixed(3)));
}

function rowOf(guess, reply) {
  const row = document.createElement("span");
  row.className = "row";
  if (TILE_GAMES.has(state.policy.game) && reply.length === guess.length) {
    row.setAttribute("aria-label", `${guess}: ${describeReply(guess, reply)}`);
    Array.from(guess).forEach((letter, index) => {
      const tile = document.createElement("span");
      const colour = COLOURS.find((c) => c.letter === reply[index]) || COLOURS[0];
      tile.className = `tile ${colour.name}`;
      tile.textContent = letter;
      tile.setAttribute("aria-hidden", "true");
      row.append(tile);
    });
  } else {
    row.textContent = `${guess} ${reply}`;
  }
  return row;
}

function describeReply(guess, reply) {
  return Array.from(guess)
    .map((letter, i) => `${letter} ${(COLOURS.find((c) => c.letter === reply[i]) || COLOURS[0]).name}`)
    .join(", ");
}

function drawTiles() {
  const box = $("tiles");
  box.replaceChildren();
  const guess = state.suggestion.guess;
  Array.from(guess).forEach((letter, index) => {
    const tile = document.createElement("button");
    tile.type = "button";
    const colour = COLOURS[state.colours[index]];
    tile.className = `tile ${colour.name}`;
    tile.textContent = letter;
    tile.setAttribute("aria-label", `letter ${index + 1}, ${letter}: ${colour.name}; press to change`);
    tile.addEventListener("click", () => {
      state.colours[index] = (state.colours[index] + 1) % COLOURS.length;
      drawTiles();
      box.children[index].focus();
    });
    tile.addEventListener("keydown", (event) => {
      const found = COLOURS.findIndex((c) => c.letter.toLowerCase() === event.key.toLowerCase());
      if (found >= 0) {
        state.colours[index] = found;
        drawTiles();
        const next = box.children[Math.min(index + 1, guess.length - 1)];
        next.focus();
        event.preventDefault();
      }
    });
    box.append(tile);
  });
}

function currentReply() {
  if (TILE_GAMES.has(state.policy.game)) {
    return state.colours.map((c) => COLOURS[c].letter).join("");
  }
  return $("text-reply").value.trim();
}

async function submitReply() {
  if (!state.suggestion || state.suggestion.solved) return;
  state.history.push({ guess: state.suggestion.guess, reply: currentReply() });
  $("text-reply").value = "";
  const before = state.history.length;
  await suggest();
  if ($("error").textContent && state.history.length === before) {
    state.history.pop(); // refused: the reply is asked for again
    render();
  }
}

async function undo() {
  state.history.pop();
  $("analysis-panel").hidden = true;
  await suggest();
}

const SQUARES = { "⬛": ".", "⬜": ".", "🟨": "Y", "🟦": "Y", "🟩": "G", "🟧": "G" };

async function pasteShare() {
  const rows = $("share").value
    .split("\n")
    .map((line) => Array.from(line.trim()))
    .filter((chars) => chars.length && chars.every((c) => c in SQUARES));
  if (!rows.length) {
    showError("No rows of coloured squares in the share text.");
    return;
  }
  state.history = [];
  for (const row of rows) {
    await suggest();
    if (!state.suggestion || state.suggestion.solved || $("error").textContent) return;
    state.history.push({ guess: state.suggestion.guess, reply: row.map((c) => SQUARES[c]).join("") });
  }
  await suggest();
}

async function analyse() {
  try {
    const report = await call("AnalyzeGame", { policy: state.policy.name, history: state.history });
    const body = $("analysis").tBodies[0];
    body.replaceChildren();
    for (const move of report.moves || []) {
      const row = document.createElement("tr");
      const cells = [
        move.turn, move.guess, move.reply,
        `${move.remainingBefore || 0}>${move.remainingAfter || 0}`,
        move.bestGuess, (move.bestExpected || 0).toFixed(3), (move.expected || 0).toFixed(3),
        Math.round(move.skill || 0), Math.round(move.luck || 0),
      ];
      for (const value of cells) {
        const cell = document.createElement("td");
        cell.textContent = String(value ?? "");
        row.append(cell);
      }
      body.append(row);
    }
    $("analysis-summary").textContent =
      `Expected with best play ${(report.expectedStart || 0).toFixed(2)}; ` +
      `skill ${Math.round(report.skill || 0)}, luck ${Math.round(report.luck || 0)}.`;
    // The picture guesswork analyze --plot draws, made by the server; where it cannot
    // (no matplotlib there), a simpler chart drawn here.
    const picture = $("analysis-picture");
    const message = JSON.stringify({ policy: state.policy.name, history: state.history });
    picture.hidden = false;
    $("left-chart").hidden = true;
    picture.onerror = () => {
      picture.hidden = true;
      drawChart(report.moves || []);
      $("left-chart").hidden = false;
    };
    picture.src = `/picture/analysis.svg?encoding=json&message=${encodeURIComponent(message)}`;
    $("analysis-panel").hidden = false;
  } catch (error) {
    showError(`Analysis: ${error.message}`);
  }
}

function drawChart(moves) {
  const svg = $("left-chart");
  const ns = "http://www.w3.org/2000/svg";
  svg.replaceChildren();
  const top = Math.max(1, ...moves.map((m) => m.remainingBefore || 0));
  const scale = (n) => 140 * Math.log1p(n) / Math.log1p(top);
  const width = 300 / Math.max(1, moves.length);
  moves.forEach((move, i) => {
    const bar = document.createElementNS(ns, "rect");
    const height = scale(move.remainingAfter || 0);
    bar.setAttribute("x", String(10 + i * width));
    bar.setAttribute("y", String(150 - height));
    bar.setAttribute("width", String(width * 0.6));
    bar.setAttribute("height", String(Math.max(1, height)));
    bar.setAttribute("class", "bar");
    svg.append(bar);
    const best = document.createElementNS(ns, "line");
    const y = 150 - scale(move.bestExpectedRemaining || 0);
    best.setAttribute("x1", String(10 + i * width));
    best.setAttribute("x2", String(10 + i * width + width * 0.6));
    best.setAttribute("y1", String(y));
    best.setAttribute("y2", String(y));
    best.setAttribute("class", "best");
    svg.append(best);
  });
}

function setContrast() {
  document.body.classList.toggle("contrast", $("contrast").checked);
}

async function start() {
  $("policy").addEventListener("change", choosePolicy);
  $("hard").addEventListener("change", () => { pickDefault(); choosePolicy(); });
  $("contrast").addEventListener("change", setContrast);
  $("new-game").addEventListener("click", choosePolicy);
  $("submit").addEventListener("click", submitReply);
  $("undo").addEventListener("click", undo);
  $("paste").addEventListener("click", pasteShare);
  $("text-reply").addEventListener("keydown", (event) => {
    if (event.key === "Enter") submitReply();
  });
  try {
    await loadPolicies();
    await choosePolicy();
  } catch (error) {
    $("suggestion").textContent = "The server is not answering yet.";
    showError(error.message);
  }
}

start();
