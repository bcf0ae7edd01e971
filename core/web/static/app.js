// The page of `mindgames serve`: play against an agent by clicking the board or a listed move,
// and replay recorded games. The server holds no game: every request carries the game spec,
// the start position and the moves played (see docs/serve.md).
"use strict";

const $ = (id) => document.getElementById(id);
const game = { spec: "", start: null, moves: [], human: 0, agent: "", view: null, selected: [] };
const replay = { record: null, ply: 0 };
let games = [];
let mode = "play";
let busy = false;

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function status(text, state) {
  const line = $("status");
  line.textContent = text;
  line.dataset.state = state;
}

function request(extra) {
  return { game: game.spec, start: game.start, moves: game.moves, ...extra };
}

// --- drawing ----------------------------------------------------------------------------------
function show(view) {
  game.view = view;
  const board = $("board");
  board.innerHTML = view.board || "";
  $("text").hidden = Boolean(view.board);
  $("text").textContent = view.board ? "" : view.text;
  board.querySelectorAll("g.cell.key").forEach((cell) => {
    cell.addEventListener("click", () => clicked(cell.dataset.key));
  });
  const legal = $("legal");
  legal.innerHTML = "";
  const playing = mode === "play" && !view.over && view.to_move === game.human;
  for (const move of view.legal) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move";
    button.textContent = move.text;
    button.disabled = !playing;
    button.addEventListener("click", () => play({ move: move.text }));
    legal.appendChild(button);
  }
  const list = $("moves");
  list.innerHTML = "";
  view.moves.forEach((text) => {
    const item = document.createElement("li");
    item.textContent = text;
    list.appendChild(item);
  });
  $("position").textContent = view.position;
  mark();
}

function mark() {
  // the selected cells, and the cells that may come next in a legal move
  const cells = $("board").querySelectorAll("g.cell.key");
  const next = new Set();
  if (game.view && game.selected.length) {
    for (const move of game.view.legal) {
      if (startsWith(move.cells || [], game.selected)) next.add(move.cells[game.selected.length]);
    }
  }
  cells.forEach((cell) => {
    cell.classList.toggle("selected", game.selected.includes(cell.dataset.key));
    cell.classList.toggle("target", next.has(cell.dataset.key));
  });
}

function startsWith(path, prefix) {
  return path.length > prefix.length && prefix.every((key, i) => path[i] === key);
}

function describe(view) {
  if (view.over) return [`game over: ${view.result}`, "over"];
  const side = view.players[view.to_move];
  if (view.to_move === game.human) return [`${side} to move: your move`, "your-move"];
  return [`${side} to move: the agent's turn`, "agent-turn"];
}

// --- playing ----------------------------------------------------------------------------------
function clicked(key) {
  if (mode !== "play" || busy || !game.view) return;
  const view = game.view;
  if (view.over) return status(`game over: ${view.result}`, "over");
  if (view.to_move !== game.human) return status("wait: it is the agent's turn", "agent-turn");
  if (game.selected.length === 1 && game.selected[0] === key) {
    game.selected = [];
    return mark();
  }
  const candidate = [...game.selected, key];
  const paths = view.legal.map((move) => move.cells || []);
  const same = (path) => path.length === candidate.length && candidate.every((k, i) => path[i] === k);
  const exact = paths.some(same);
  const longer = paths.some((path) => startsWith(path, candidate));
  if (longer && !exact) {
    game.selected = candidate;
    return mark();
  }
  if (!exact && game.selected.length && paths.some((path) => startsWith(path, [key]))) {
    game.selected = [key]; // another piece of one's own: select it instead
    return mark();
  }
  play({ cells: candidate });
}

async function play(move) {
  if (busy) return;
  busy = true;
  game.selected = [];
  status("sending your move…", "sending");
  try {
    const view = await api("/api/move", request(move));
    game.moves = view.moves;
    show(view);
    if (!view.over && view.to_move !== game.human) {
      await agentMoves();
    } else {
      status(...describe(view));
    }
  } catch (error) {
    mark();
    status(`refused: ${error.message}`, "refused");
  } finally {
    busy = false;
  }
}

async function agentMoves() {
  // the agent plays until it is the human's turn (Kalah's extra turns) or the game ends
  let view = game.view;
  while (!view.over && view.to_move !== game.human) {
    status(`${view.players[view.to_move]} to move: the agent is thinking…`, "thinking");
    view = await api("/api/agent", request({ agent: game.agent }));
    game.moves = view.moves;
    show(view);
    $("last-reply").textContent = `agent played ${view.reply.move} (value ${view.reply.value.toFixed(3)})`;
  }
  status(...describe(view));
}

async function newGame(event) {
  if (event) event.preventDefault();
  if (busy) return;
  busy = true;
  status("starting a new game…", "loading");
  game.spec = $("game-spec").value.trim() || $("game-name").value;
  game.start = $("start").value.trim() || null;
  game.human = Number($("human").value);
  game.agent = $("agent").value.trim();
  game.moves = [];
  game.selected = [];
  $("last-reply").textContent = "";
  try {
    show(await api("/api/new", request({})));
    if (!game.view.over && game.view.to_move !== game.human) await agentMoves();
    else status(...describe(game.view));
  } catch (error) {
    status(`refused: ${error.message}`, "refused");
  } finally {
    busy = false;
  }
}

function chooseGame() {
  const chosen = games.find((g) => g.name === $("game-name").value);
  $("game-spec").value = chosen.name;
  $("agent").value = chosen.agent;
  const human = $("human");
  human.innerHTML = "";
  chosen.players.forEach((name, side) => human.add(new Option(`${name} (${side ? "second" : "first"})`, side)));
}

// --- replaying --------------------------------------------------------------------------------
async function loadReplay() {
  const number = $("replay-game").value;
  if (number === "") return;
  replay.record = await api(`/api/replay/${number}`);
  await step(0);
}

async function step(ply) {
  const record = replay.record;
  if (!record) return;
  replay.ply = Math.max(0, Math.min(ply, record.moves.length));
  try {
    const view = await api("/api/state", {
      game: record.game, start: record.start, moves: record.moves.slice(0, replay.ply),
    });
    show(view);
    $("ply").textContent = `${replay.ply} / ${record.moves.length}`;
    const last = replay.ply ? `after ${record.moves[replay.ply - 1]}` : "start";
    status(`${record.title}: ${last}`, "replay");
  } catch (error) {
    status(`refused: ${error.message}`, "refused");
  }
}

function switchTo(next) {
  mode = next;
  $("tab-play").classList.toggle("active", mode === "play");
  $("tab-replay").classList.toggle("active", mode === "replay");
  $("play-form").hidden = mode !== "play";
  $("replay-form").hidden = mode !== "replay";
  if (mode === "replay") loadReplay();
  else if (game.spec) api("/api/state", request({})).then((view) => { show(view); status(...describe(view)); });
}

async function start() {
  const info = await api("/api/games");
  games = info.games;
  for (const g of games) $("game-name").add(new Option(g.name, g.name));
  if (games.some((g) => g.name === "checkers")) $("game-name").value = "checkers";
  info.replays.forEach((r) => $("replay-game").add(new Option(r.title, r.number)));
  $("no-replays").hidden = info.replays.length > 0;
  chooseGame();
  $("game-name").addEventListener("change", chooseGame);
  $("play-form").addEventListener("submit", newGame);
  $("tab-play").addEventListener("click", () => switchTo("play"));
  $("tab-replay").addEventListener("click", () => switchTo("replay"));
  $("replay-game").addEventListener("change", loadReplay);
  $("first").addEventListener("click", () => step(0));
  $("back").addEventListener("click", () => step(replay.ply - 1));
  $("forward").addEventListener("click", () => step(replay.ply + 1));
  $("last").addEventListener("click", () => step(Infinity));
  document.addEventListener("keydown", (event) => {
    if (mode !== "replay") return;
    if (event.key === "ArrowLeft") step(replay.ply - 1);
    if (event.key === "ArrowRight") step(replay.ply + 1);
  });
  await newGame();
}

start().catch((error) => status(`cannot start: ${error.message}`, "refused"));
