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
// The guesses the NYT's Wordle allows (client.policy_info.WORDLE_GUESS_LIMIT).
const WORDLE_GUESS_LIMIT = 6;

const state = {
  policies: [],
  policy: null, // the chosen policy's summary (ListPolicies)
  boardCount: 1, // 1: Wordle (SuggestGuess); more: Dordle, Quordle... (SuggestBoards)
  history: [], // one board: [{guess, reply}]
  histories: [], // several boards: one [{guess, reply}] per board
  suggestion: null, // the last SuggestGuess or SuggestBoards answer
  colours: [], // one board: the colour index of each tile of the reply being entered
  boardColours: [], // several boards: per board, its tiles' colour indices (solved: null)
};

const several = () => state.boardCount > 1;

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

// Whether a policy wins within its game's guess limit, in the words of
// client.policy_info.guarantee (the command line's; change the two together), from
// ListPolicies' worst case and histogram; null for a game without a limit.
function guaranteeOf(policy) {
  if (policy.game !== "wordle") return null;
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

// The chosen policy's guarantee under the policy list (one board: a multi-board
// game has a limit of its own, shown with each guess).
function showGuarantee() {
  const said = state.policy && !several() ? guaranteeOf(state.policy) : null;
  $("policy-guarantee").textContent = said ? `${state.policy.name} is ${said}.` : "";
}

function choosePolicy() {
  state.policy = state.policies.find((p) => p.name === $("policy").value) || null;
  showGuarantee();
  state.history = [];
  state.histories = Array.from({ length: state.boardCount }, () => []);
  $("analysis-panel").hidden = true;
  return suggest();
}

// A multi-board game is played in normal mode over a Wordle policy's lists: the
// hard-mode box and the share text (one board's rows) are for one board.
function chooseBoards() {
  state.boardCount = Number($("boards").value) || 1;
  $("hard").disabled = several();
  if (several() && $("hard").checked) {
    $("hard").checked = false;
    pickDefault();
  }
  $("share-panel").hidden = several();
  return choosePolicy();
}

async function suggest() {
  showError("");
  if (!state.policy) return;
  try {
    const answer = several()
      ? await call("SuggestBoards", {
        policy: state.policy.name,
        boards: state.histories.map((history) => ({ history })),
        maxAlternatives: 5,
      })
      : await call("SuggestGuess", {
        policy: state.policy.name,
        history: state.history,
        maxAlternatives: 5,
      });
    state.suggestion = answer;
    render();
    if (answer.solved && !several()) await analyse();
  } catch (error) {
    showError(error.message);
    render();
  }
}

function render() {
  $("board").hidden = several();
  $("boards-played").hidden = !several();
  if (several()) {
    renderBoards();
    return;
  }
  $("board-tiles").hidden = true;
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
  $("suggestion").textContent = `Guess ${answer.guess} (${remaining} possible, ${sourceOf(answer)})`;
  showAlternatives(answer);
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

// Several boards: each board's turns under its own heading, then one row of tiles
// per unsolved board for the replies to the guess shown.
function renderBoards() {
  const answer = state.suggestion;
  const played = $("boards-played");
  played.replaceChildren();
  state.histories.forEach((history, number) => {
    const column = document.createElement("section");
    column.className = "played-board";
    const heading = document.createElement("h3");
    const board = answer && answer.boards ? answer.boards[number] || {} : {};
    heading.id = `played-board-${number + 1}`;
    heading.textContent = `Board ${number + 1}: ` +
      (board.solved ? "solved" : `${board.remaining || 0} possible`);
    const list = document.createElement("ol");
    list.setAttribute("aria-labelledby", heading.id);
    for (const turn of history) {
      const item = document.createElement("li");
      item.className = "played";
      item.append(rowOf(turn.guess, turn.reply));
      list.append(item);
    }
    column.append(heading, list);
    played.append(column);
  });
  $("tiles").hidden = true;
  $("text-reply").hidden = true;
  $("text-reply-label").hidden = true;
  if (!answer) return;
  const turns = answer.turn || 0;
  if (answer.solved) {
    $("suggestion").textContent =
      `Solved: all ${state.boardCount} boards in ${turns} guesses (limit ${answer.guessLimit}).`;
    $("alternatives").textContent = "";
    $("reply-area").hidden = true;
    $("board-tiles").hidden = true;
    return;
  }
  $("suggestion").textContent =
    `Guess ${answer.guess} (guess ${turns + 1} of ${answer.guessLimit}, ${sourceOf(answer)})`;
  showAlternatives(answer);
  $("reply-area").hidden = false;
  $("reply-help").textContent =
    "For each unsolved board, click each letter (or focus it and press G, Y or .) until " +
    "it shows that board's colour, then press Enter reply.";
  state.boardColours = answer.boards.map((b) => (b.solved ? null : Array.from(answer.guess, () => 0)));
  drawBoardTiles();
}

function drawBoardTiles() {
  const area = $("board-tiles");
  area.hidden = false;
  area.replaceChildren();
  const guess = state.suggestion.guess;
  state.boardColours.forEach((colours, number) => {
    if (!colours) return;
    const group = document.createElement("div");
    group.className = "board-reply";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", `Board ${number + 1}'s reply`);
    const label = document.createElement("span");
    label.className = "board-label";
    label.textContent = `Board ${number + 1}`;
    label.setAttribute("aria-hidden", "true");
    const row = document.createElement("div");
    row.className = "row";
    fillTiles(row, guess, colours, `board ${number + 1}, `, () => drawBoardTiles());
    group.append(label, row);
    area.append(group);
  });
}

function sourceOf(answer) {
  return answer.source === "SOURCE_STORED" ? "stored" : "computed live";
}

// The next-best guesses of a SuggestGuess or SuggestBoards answer, with their values.
function showAlternatives(answer) {
  const others = answer.alternatives || [];
  const values = answer.alternativeValues || [];
  const shown = others.map((word, i) =>
    i < values.length ? `${word} (${describeValue(values[i], answer.alternativeMetric)})` : word,
  );
  $("alternatives").textContent = shown.length ? `Next best: ${shown.join(", ")}` : "";
}

// What an alternative's value means, by the metric that ranked it (lower is better).
function describeValue(value, metric) {
  if (metric === "neg_entropy" || metric === "approx_entropy") return `${(-value).toFixed(2)} bits`;
  if (metric === "entropy") return `${value.toFixed(2)} bits`;
  // Bits about every board's secret plus two per board the guess may solve.
  if (metric === "joint_entropy") return `${(-value).toFixed(2)} joint bits`;
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
  fillTiles($("tiles"), state.suggestion.guess, state.colours, "", () => drawTiles());
}

// One reply's tiles in ``box``: each cycles its colour on a click, or takes G, Y or
// "." from the keyboard and moves the focus on (to the next box's first tile after
// the last). ``redraw`` draws every box again after a change.
function fillTiles(box, guess, colours, labelPrefix, redraw) {
  box.replaceChildren();
  // Focus moves within one reply area: the one board's tiles, or every board's.
  const area = box.closest("#board-tiles") || box;
  const tilesOf = () => Array.from(area.querySelectorAll(".tile.input"));
  Array.from(guess).forEach((letter, index) => {
    const tile = document.createElement("button");
    tile.type = "button";
    const colour = COLOURS[colours[index]];
    tile.className = `tile input ${colour.name}`;
    tile.textContent = letter;
    tile.setAttribute(
      "aria-label",
      `${labelPrefix}letter ${index + 1}, ${letter}: ${colour.name}; press to change`,
    );
    tile.addEventListener("click", () => {
      const at = tilesOf().indexOf(tile);
      colours[index] = (colours[index] + 1) % COLOURS.length;
      redraw();
      tilesOf()[at].focus();
    });
    tile.addEventListener("keydown", (event) => {
      const found = COLOURS.findIndex((c) => c.letter.toLowerCase() === event.key.toLowerCase());
      if (found >= 0) {
        const at = tilesOf().indexOf(tile);
        colours[index] = found;
        redraw();
        const all = tilesOf();
        all[Math.min(at + 1, all.length - 1)].focus();
        event.preventDefault();
      }
    });
    box.append(tile);
  });
}

function currentReply() {
  if (TILE_GAMES.has(state.policy.game) && !several()) {
    return state.colours.map((c) => COLOURS[c].letter).join("");
  }
  return $("text-reply").value.trim();
}

async function submitReply() {
  if (!state.suggestion || state.suggestion.solved) return;
  if (several()) {
    await submitBoardReplies();
    return;
  }
  state.history.push({ guess: state.suggestion.guess, reply: currentReply() });
  $("text-reply").value = "";
  const before = state.history.length;
  await suggest();
  if ($("error").textContent && state.history.length === before) {
    state.history.pop(); // refused: the reply is asked for again
    render();
  }
}

// Several boards: the guess shown is played on every unsolved board, each with the
// reply its tiles show; a refused position is taken back whole.
async function submitBoardReplies() {
  const guess = state.suggestion.guess;
  const played = [];
  state.boardColours.forEach((colours, number) => {
    if (!colours) return;
    state.histories[number].push({ guess, reply: colours.map((c) => COLOURS[c].letter).join("") });
    played.push(number);
  });
  await suggest();
  if ($("error").textContent) {
    for (const number of played) state.histories[number].pop();
    const message = $("error").textContent;
    await suggest();
    showError(message);
  }
}

async function undo() {
  if (several()) {
    // The last guess was played on every board whose history is the longest.
    const turns = Math.max(0, ...state.histories.map((h) => h.length));
    for (const history of state.histories) if (history.length === turns) history.pop();
    await suggest();
    return;
  }
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
  $("boards").addEventListener("change", chooseBoards);
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
