// The bitsolve explorer: draws a position the server describes (its
// diagram), lists and draws its moves coloured by their value, and plays a
// move on a click. State lives in the URL's hash (game, options, store,
// position), so a view can be linked and reloaded.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 52;
const explorer = {
  games: [],
  stores: [],
  history: [],
  at: -1,
  answer: null,
};

const $ = (id) => document.getElementById(id);

function element(name, attributes, parent) {
  const made = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes || {})) {
    made.setAttribute(key, value);
  }
  if (parent) parent.appendChild(made);
  return made;
}

async function api(path, parameters) {
  const query = new URLSearchParams(parameters || {}).toString();
  const response = await fetch(path + (query ? "?" + query : ""));
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

// --- choosing a game, its options and a store ---

function currentGame() {
  return explorer.games.find((g) => g.name === $("game").value);
}

function chosenStore() {
  return explorer.stores.find((s) => String(s.id) === $("store").value);
}

// The first store that holds `name`'s tables.
function storeHolding(name) {
  return explorer.stores.find((s) => s.game && s.game.name === name);
}

// A game whose every option has a default opens with none given.
function opensAsIs(game) {
  return game.options.every((o) => o.value === null || o.default !== null);
}

// Shows the game a store holds, with its options (its variant).
function chooseGame(name, values) {
  $("game").value = name;
  renderOptions(values);
}

function renderOptions(values) {
  const box = $("options");
  box.textContent = "";
  for (const option of currentGame().options) {
    const label = document.createElement("label");
    label.title = option.help;
    label.append(option.name + " ");
    const input = document.createElement("input");
    input.dataset.option = option.name;
    if (option.value === null) {
      input.type = "checkbox";
      input.checked = values[option.name] !== undefined && values[option.name] !== "0";
    } else {
      input.value = values[option.name] || option.default || "";
      input.placeholder = option.value;
    }
    input.addEventListener("change", () => startPosition());
    label.appendChild(input);
    box.appendChild(label);
  }
  $("random").hidden = currentGame().kind !== "one-player";
}

function gameParameters() {
  const parameters = { game: $("game").value };
  for (const input of $("options").querySelectorAll("input")) {
    if (input.type === "checkbox") {
      if (input.checked) parameters[input.dataset.option] = "1";
    } else if (input.value.trim() !== "") {
      parameters[input.dataset.option] = input.value.trim();
    }
  }
  if ($("store").value !== "") parameters.store = $("store").value;
  return parameters;
}

function readHash() {
  const values = {};
  for (const [key, value] of new URLSearchParams(location.hash.slice(1))) {
    values[key] = value;
  }
  return values;
}

function writeHash(position) {
  const parameters = new URLSearchParams({ ...gameParameters(), position });
  history.replaceState(null, "", "#" + parameters.toString());
}

// --- positions ---

async function startPosition() {
  showError("");
  try {
    const started = await api("/api/start", gameParameters());
    await visit(started.position, true);
  } catch (error) {
    showError(error.message);
  }
}

async function randomPosition() {
  const answer = explorer.answer;
  if (!answer || answer.size === undefined) return;
  const rank = Math.floor(Math.random() * answer.size);
  showError("");
  try {
    const shown = await api("/api/position", { ...gameParameters(), rank: String(rank) });
    remember(shown.position);
    show(shown);
  } catch (error) {
    showError(error.message);
  }
}

// Asks the server about `position` and shows it; `record` adds it to the
// back/forward history.
async function visit(position, record) {
  showError("");
  try {
    const shown = await api("/api/position", { ...gameParameters(), position });
    if (record) remember(shown.position);
    show(shown);
  } catch (error) {
    showError(error.message);
  }
}

function remember(position) {
  explorer.history = explorer.history.slice(0, explorer.at + 1);
  explorer.history.push(position);
  explorer.at = explorer.history.length - 1;
}

function step(by) {
  const to = explorer.at + by;
  if (to < 0 || to >= explorer.history.length) return;
  explorer.at = to;
  visit(explorer.history[to], false);
}

function show(answer) {
  explorer.answer = answer;
  $("position-text").value = answer.position;
  writeHash(answer.position);
  $("back").disabled = explorer.at <= 0;
  $("forward").disabled = explorer.at >= explorer.history.length - 1;
  const twoPlayer = answer.kind !== "one-player";
  $("to-move").textContent = twoPlayer ? answer.to_move : "–";
  $("layer").textContent = twoPlayer ? answer.layer_name : "rank " + answer.rank;
  if (twoPlayer) {
    $("value").textContent = answer.value === null ? "no store chosen" : answer.value;
    $("value").className = answer.outcome;
    // Where the store lacks the layer: which run would add it.
    $("note").textContent = answer.missing || "";
    $("note").hidden = !answer.missing;
  } else {
    $("note").hidden = true;
    $("value").textContent = answer.target === null ? "no table of depths in this store" : "to " + answer.goal;
    $("value").className = "";
  }
  $("distance").textContent = answer.distance === null ? "–" : distanceText(answer.distance, twoPlayer);
  const next = $("next-move");
  next.hidden = !answer.next_move;
  next.textContent = "";
  if (answer.next_move) {
    next.append("an optimal next move: ");
    const play = document.createElement("button");
    play.type = "button";
    play.id = "play-next";
    play.textContent = answer.next_move.move;
    play.addEventListener("click", () => visit(answer.next_move.position, true));
    next.appendChild(play);
  }
  drawBoard(answer);
  listMoves(answer);
}

function distanceText(distance, twoPlayer) {
  return twoPlayer ? distance + " plies" : distance + (distance === 1 ? " move" : " moves");
}

// --- the moves ---

function listMoves(answer) {
  const list = $("moves");
  list.textContent = "";
  answer.moves.forEach((move, index) => {
    const item = document.createElement("li");
    item.className = "move " + move.outcome;
    item.dataset.move = move.move;
    item.dataset.outcome = move.outcome;
    item.dataset.index = index;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move.move;
    button.addEventListener("click", () => visit(move.position, true));
    item.appendChild(button);
    const value = document.createElement("span");
    value.className = "value";
    const words = [];
    if (move.value) words.push(move.value);
    if (move.distance !== null && move.distance !== undefined) {
      words.push(answer.kind !== "one-player" ? "in " + move.distance + " plies" : move.distance + " to go");
    }
    value.textContent = words.join(" ");
    item.appendChild(value);
    item.addEventListener("mouseenter", () => highlight(index, true));
    item.addEventListener("mouseleave", () => highlight(index, false));
    list.appendChild(item);
  });
  if (answer.moves.length === 0) {
    const item = document.createElement("li");
    item.textContent = "no moves: the game is over";
    list.appendChild(item);
  }
}

function highlight(index, on) {
  for (const shape of document.querySelectorAll(`[data-move-index="${index}"]`)) {
    shape.classList.toggle("hover", on);
  }
  const move = explorer.answer.moves[index];
  for (const cell of move.sketch.changed) {
    const shape = document.querySelector(`#board [data-cell-index="${cell}"]`);
    if (shape) shape.classList.toggle("changed", on);
  }
  const item = document.querySelector(`#moves li[data-index="${index}"]`);
  if (item) item.classList.toggle("hover", on);
}

// --- the board ---

const OUTCOME_COLOURS = { win: "#1b7f3b", loss: "#b3261e", draw: "#8a6d00", unknown: "#666" };
const FACE_COLOURS = { U: "#f4f4f4", D: "#f2d600", F: "#2e9e44", B: "#1f5fbf", R: "#c62828", L: "#ef7d00" };

function drawBoard(answer) {
  const diagram = answer.diagram;
  const box = $("board");
  box.textContent = "";
  const style = diagram.style;
  if (style === "stack") return drawStack(answer, box);
  if (style === "ring") return drawRing(answer, box);
  const margin = CELL / 2;
  // Hex: each row half a cell right of the row above.
  const shift = style === "hex" ? CELL / 2 : 0;
  const svg = element("svg", {
    width: diagram.columns * CELL + 2 * margin + shift * diagram.rows,
    height: diagram.rows * CELL + 2 * margin,
    "data-style": style,
  }, box);
  // Arrowheads, one per colour of outcome.
  const defs = element("defs", {}, svg);
  for (const [outcome, colour] of Object.entries(OUTCOME_COLOURS)) {
    const marker = element("marker", {
      id: "head-" + outcome, viewBox: "0 0 10 10", refX: 5, refY: 5,
      markerWidth: 3.5, markerHeight: 3.5, orient: "auto-start-reverse",
    }, defs);
    element("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: colour }, marker);
  }
  const centre = (cell) => [
    margin + (cell.column + 0.5) * CELL + shift * cell.row,
    margin + (cell.row + 0.5) * CELL,
  ];
  for (const [a, b] of diagram.lines || []) {
    const [x1, y1] = centre(diagram.cells[a]);
    const [x2, y2] = centre(diagram.cells[b]);
    element("line", { x1, y1, x2, y2, stroke: "#999", "stroke-width": 2 }, svg);
  }
  diagram.cells.forEach((cell, index) => {
    const [x, y] = centre(cell);
    const attributes = { "data-cell": cell.name, "data-cell-index": index, class: "cell" };
    if (style === "points") {
      element("circle", { ...attributes, cx: x, cy: y, r: 6, fill: "#bbb" }, svg);
    } else if (style === "hex") {
      const corners = [...Array(6).keys()].map((i) => {
        const a = Math.PI / 6 + (i * Math.PI) / 3;
        return `${x + (CELL / Math.sqrt(3)) * Math.cos(a)},${y + (CELL / Math.sqrt(3)) * Math.sin(a)}`;
      });
      element("polygon", { ...attributes, points: corners.join(" "), fill: "#f7f2e8", stroke: "#aaa" }, svg);
    } else if (style === "net") {
      element("rect", {
        ...attributes, x: x - CELL / 2 + 1, y: y - CELL / 2 + 1, width: CELL - 2, height: CELL - 2,
        rx: 5, fill: FACE_COLOURS[cell.piece] || "#999", stroke: "#333",
      }, svg);
    } else {
      element("rect", {
        ...attributes, x: x - CELL / 2 + 1, y: y - CELL / 2 + 1, width: CELL - 2, height: CELL - 2,
        fill: (cell.row + cell.column) % 2 ? "#eee8dc" : "#f7f2e8", stroke: "#ccc",
      }, svg);
    }
    element("text", { x: x - CELL / 2 + 3, y: y - CELL / 2 + 11, "font-size": 9, fill: "#999" }, svg)
      .textContent = cell.name;
    if (cell.piece !== null && style !== "net") drawPiece(svg, cell, x, y, index);
  });
  answer.moves.forEach((move, index) => drawMove(svg, move, index, diagram, centre));
}

function drawPiece(svg, cell, x, y, index) {
  const piece = cell.piece;
  const attributes = { class: "piece", "data-piece": piece, "data-cell": cell.name, "data-cell-index": index };
  const looks = {
    F: { fill: "#c0392b", r: 19 },
    g: { fill: "#fff", r: 15, stroke: "#333" },
    o: { fill: "#6b4f2a", r: 13 },
    b: { fill: "#222", r: 17 },
    w: { fill: "#fff", r: 17, stroke: "#333" },
    X: { fill: "#222", r: 19 },
    O: { fill: "#fff", r: 19, stroke: "#333" },
  }[piece];
  if (looks) {
    element("circle", { ...attributes, cx: x, cy: y, r: looks.r, fill: looks.fill, stroke: looks.stroke || "none", "stroke-width": 2 }, svg);
    return;
  }
  if (piece === "B" || piece === "R") {
    element("rect", {
      ...attributes, x: x - 16, y: y - 12, width: 32, height: 24, rx: 6,
      fill: piece === "B" ? "#1f5fbf" : "#c62828",
    }, svg);
    return;
  }
  // A tile or a stone: a labelled square.
  const group = element("g", attributes, svg);
  element("rect", { x: x - 22, y: y - 22, width: 44, height: 44, rx: 6, fill: "#d9c7a3", stroke: "#7a6a4a" }, group);
  element("text", { x, y: y + 6, "text-anchor": "middle", "font-size": 18, "font-weight": "bold" }, group).textContent = piece;
}

function drawMove(svg, move, index, diagram, centre) {
  const sketch = move.sketch;
  const common = { class: "arrow " + move.outcome, "data-move": move.move, "data-move-index": index };
  let shape = null;
  if (sketch.from !== null && sketch.to !== null) {
    const [x1, y1] = centre(diagram.cells[sketch.from]);
    const [x2, y2] = centre(diagram.cells[sketch.to]);
    // Stop short of the target so parallel arrows stay apart.
    const shorten = 0.82;
    shape = element("line", {
      ...common, x1, y1, x2: x1 + (x2 - x1) * shorten, y2: y1 + (y2 - y1) * shorten,
      "marker-end": `url(#head-${move.outcome})`,
    }, svg);
  } else if (sketch.to !== null) {
    const [x, y] = centre(diagram.cells[sketch.to]);
    shape = element("circle", { ...common, cx: x, cy: y, r: 10, fill: "none" }, svg);
  } else if (sketch.from !== null) {
    const [x, y] = centre(diagram.cells[sketch.from]);
    shape = element("line", {
      ...common, x1: x, y1: y, x2: x + CELL * 0.45, y2: y - CELL * 0.45,
      "marker-end": `url(#head-${move.outcome})`,
    }, svg);
  }
  if (!shape) return;
  const title = element("title", {}, shape);
  title.textContent = move.move + (move.value ? ": " + move.value : "");
  shape.addEventListener("click", () => visit(move.position, true));
  shape.addEventListener("mouseenter", () => highlight(index, true));
  shape.addEventListener("mouseleave", () => highlight(index, false));
}

function drawStack(answer, box) {
  const cells = answer.diagram.cells;
  const largest = Math.max(...cells.map((c) => Math.abs(Number(c.piece))));
  const width = 40 + largest * 24;
  const svg = element("svg", { width: width + 60, height: cells.length * 30 + 30, "data-style": "stack" }, box);
  cells.forEach((cell, index) => {
    const size = Number(cell.piece);
    const w = 20 + Math.abs(size) * 24;
    const y = 15 + index * 30;
    element("rect", {
      class: "piece cell", "data-piece": cell.piece, "data-cell": cell.name, "data-cell-index": index,
      x: 20 + (width - w) / 2, y, width: w, height: 24, rx: 11,
      fill: size < 0 ? "#7a4a1c" : "#e0a458", stroke: "#6b3f12",
    }, svg);
    element("text", { x: 20 + width / 2, y: y + 17, "text-anchor": "middle", "font-size": 13, fill: size < 0 ? "#fff" : "#000" }, svg)
      .textContent = String(Math.abs(size)) + (size < 0 ? " (burned up)" : "");
  });
}

function drawRing(answer, box) {
  const diagram = answer.diagram;
  const n = diagram.cells.length;
  const radius = Math.max(90, n * 12);
  const size = 2 * radius + 80;
  const svg = element("svg", { width: size, height: size, "data-style": "ring" }, box);
  const c = size / 2;
  element("circle", { cx: c, cy: c, r: radius, fill: "none", stroke: "#ccc", "stroke-width": 14 }, svg);
  const angle = (i) => -Math.PI / 2 + (2 * Math.PI * i) / n;
  // The turnstile over the first `window` positions.
  const a0 = angle(-0.5), a1 = angle(diagram.window - 0.5);
  const large = diagram.window > n / 2 ? 1 : 0;
  const arc = `M ${c + (radius + 24) * Math.cos(a0)} ${c + (radius + 24) * Math.sin(a0)} A ${radius + 24} ${radius + 24} 0 ${large} 1 ${c + (radius + 24) * Math.cos(a1)} ${c + (radius + 24) * Math.sin(a1)}`;
  element("path", { d: arc, fill: "none", stroke: "#2d3a4a", "stroke-width": 6, "data-window": diagram.window }, svg);
  diagram.cells.forEach((cell, i) => {
    const x = c + radius * Math.cos(angle(i));
    const y = c + radius * Math.sin(angle(i));
    element("circle", { class: "piece cell", "data-piece": cell.piece, "data-cell": cell.name, "data-cell-index": i, cx: x, cy: y, r: 16, fill: "#d9c7a3", stroke: "#7a6a4a" }, svg);
    element("text", { x, y: y + 5, "text-anchor": "middle", "font-size": 14 }, svg).textContent = cell.piece;
  });
}

// --- layer counts ---

// The chosen store's tables with layer counts: its finished BFS tables,
// and for a two-player game the states of each layer it holds.
function listTables() {
  const select = $("table");
  select.textContent = "";
  const store = chosenStore();
  const add = (value, text) => {
    const option = document.createElement("option");
    option.value = JSON.stringify(value);
    option.textContent = text;
    select.appendChild(option);
  };
  if (store) {
    for (const table of store.tables) {
      if (table.layers) add({ store: store.id, table: table.file }, `${store.name}: ${table.descriptor}`);
    }
    if (store.game && store.game.layers && store.game.layers.length > 0) {
      add({ store: store.id, stored: true }, `${store.name}: ${store.game.name}, states per stored layer`);
    }
  }
  drawChart();
}

async function drawChart() {
  const box = $("chart");
  box.textContent = "";
  const value = $("table").value;
  if (!value) {
    box.textContent = chosenStore() ? "this store has no table of layer counts" : "choose a store to see its layer counts";
    return;
  }
  const chosen = JSON.parse(value);
  if (chosen.stored) {
    const game = chosenStore().game;
    const counts = game.layers.map((l) => l.states);
    const total = counts.reduce((a, b) => a + b, 0);
    drawBars(box, game.layers.map((l) => l.layer), counts,
      `${game.name} retrograde values: ${total.toLocaleString()} states in ${counts.length} layers`);
    return;
  }
  try {
    const found = await api("/api/layers", { store: String(chosen.store), table: chosen.table });
    // Another table may have been chosen meanwhile.
    if ($("table").value !== value) return;
    const counts = found.layers;
    drawBars(box, counts.map((_, layer) => layer), counts,
      `${found.descriptor}: ${found.total.toLocaleString()} states, depth ${found.depth}`);
  } catch (error) {
    box.textContent = error.message;
  }
}

// A bar per layer (`layers` its numbers), and `caption` below.
function drawBars(box, layers, counts, caption) {
  box.textContent = "";
  const largest = Math.max(...counts, 1);
  const barWidth = Math.max(6, Math.min(40, Math.floor(720 / counts.length)));
  const height = 220;
  const svg = element("svg", { width: counts.length * barWidth + 70, height: height + 50, id: "layer-chart" }, box);
  counts.forEach((count, index) => {
    const layer = layers[index];
    const h = Math.max(1, (count / largest) * height);
    const bar = element("rect", {
      class: "bar", "data-layer": layer, "data-count": count,
      x: 60 + index * barWidth, y: 10 + height - h, width: barWidth - 2, height: h,
    }, svg);
    element("title", {}, bar).textContent = `layer ${layer}: ${count.toLocaleString()} states`;
    if (counts.length <= 40 || index % 5 === 0) {
      element("text", { x: 60 + index * barWidth + barWidth / 2 - 1, y: height + 25, "text-anchor": "middle", "font-size": 10 }, svg)
        .textContent = layer;
    }
  });
  element("text", { x: 4, y: 18, "font-size": 10 }, svg).textContent = largest.toLocaleString();
  element("text", { x: 4, y: height + 45, "font-size": 11 }, svg).textContent = caption;
}

// --- start-up ---

async function main() {
  try {
    const [games, stores] = await Promise.all([api("/api/games"), api("/api/stores")]);
    explorer.games = games.games;
    explorer.stores = stores.stores;
  } catch (error) {
    showError("cannot reach the server: " + error.message);
    return;
  }
  const wanted = readHash();
  for (const game of explorer.games) {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = `${game.name} (${game.kind})`;
    $("game").appendChild(option);
  }
  const none = document.createElement("option");
  none.value = "";
  none.textContent = "none";
  $("store").appendChild(none);
  for (const store of explorer.stores) {
    const option = document.createElement("option");
    option.value = String(store.id);
    option.textContent = store.name;
    $("store").appendChild(option);
  }
  if (wanted.game && explorer.games.some((g) => g.name === wanted.game)) {
    // A linked view: its game, options and store as given.
    const holder = storeHolding(wanted.game);
    if (wanted.store !== undefined) $("store").value = wanted.store;
    else $("store").value = holder ? String(holder.id) : "";
    chooseGame(wanted.game, wanted);
  } else {
    // A newcomer: the first store's game and variant, at a start it can
    // answer; without a store, the first game that opens as it is.
    const first = explorer.stores[0];
    $("store").value = first ? "0" : "";
    if (first && first.game) chooseGame(first.game.name, first.game.options);
    else chooseGame((explorer.games.find(opensAsIs) || explorer.games[0]).name, {});
  }
  $("game").addEventListener("change", () => {
    // Into a store that holds the game, as it holds it.
    const holder = storeHolding($("game").value);
    $("store").value = holder ? String(holder.id) : "";
    renderOptions(holder ? holder.game.options : {});
    listTables();
    startPosition();
  });
  $("store").addEventListener("change", () => {
    listTables();
    const store = chosenStore();
    if (store && store.game && store.game.name !== $("game").value) {
      chooseGame(store.game.name, store.game.options);
      startPosition();
      return;
    }
    if (store && store.game) renderOptions(store.game.options);
    visit($("position-text").value, false);
  });
  $("start").addEventListener("click", startPosition);
  $("random").addEventListener("click", randomPosition);
  $("back").addEventListener("click", () => step(-1));
  $("forward").addEventListener("click", () => step(1));
  $("position-form").addEventListener("submit", (event) => {
    event.preventDefault();
    visit($("position-text").value.trim(), true);
  });
  $("copy").addEventListener("click", () => {
    const text = $("position-text");
    text.select();
    if (navigator.clipboard) navigator.clipboard.writeText(text.value).catch(() => {});
  });
  $("table").addEventListener("change", drawChart);
  listTables();
  // The page writes its own hash without this event (replaceState); a new
  // hash from outside (a link, the address bar) is a new view.
  window.addEventListener("hashchange", () => location.reload());
  if (wanted.position) await visit(wanted.position, true);
  else await startPosition();
}

main();
