/* The puzzles page: a position to find the best play in (/puzzles/N), the move typed checked by
   the server (an illegal move or a phony named, and the player tries again), ranked among every
   play, and the best plays shown. The board is drawn as the game page draws it (board.js), and
   takes letters typed on it as the game page does: the tiles put down are written in the move box. */
import {render, setRenderer, setText, store, tileLabels, update} from "./state.js";
import {letGoOnEscape, pickTile, renderBoard, setBoardHooks, squareName} from "./board.js";
import {renderRack, renderTracker, setRackHooks} from "./panel.js";
import {notationText, plural} from "./words.js";

const $ = id => document.getElementById(id);
const MAX_PUZZLE = 1000000000;
let number = null;
let busy = false;
let coordinate = "";  // the square last chosen on the board, as it was put in the move box

/** A note in the verdict region, read out again when it is said again in the same words. */
function say(text) {
  const verdict = $("verdict");
  if (verdict.textContent === text) verdict.textContent = "";
  verdict.textContent = text;
}

/** A server's message as a sentence: capital first, full stop last. */
function sentence(text) {
  const t = String(text || "").trim();
  if (!t) return "";
  return t[0].toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? "" : ".");
}

function points(n) { return plural(n, "point"); }

function equity(n) { return Number(n).toFixed(1); }

function notationHelp(notation) {
  return notationText(notation) + " Or choose a square on the board and type your letters there.";
}

// -- tiles put on the board, written in the move box --------------------------------------------
/** A square's name in the puzzle's notation, for a word read ``across`` or down from it. */
function coordinateOf(sq, across) {
  const name = squareName(sq);
  const letter = name[0], row = name.slice(1);
  return across !== (store.game.notation === "tournament") ? letter + row : row + letter;
}

function cells() {
  const out = {};
  for (const [sq, t] of store.tentative) out[squareName(sq)] = t.char;
  return out;
}

/** The tiles put on the board as the engine writes their move ("H8 WO(R)D") in the move box;
    its refusal (not in one line, a gap) said. Returns whether the box holds their move. */
async function writeTiles() {
  if (!store.tentative.size) { $("move-text").value = ""; coordinate = ""; return false; }
  const asked = JSON.stringify(cells());
  try {
    const result = await qiza.api("POST", `/api/puzzles/${number}/written`, {cells: cells()});
    if (JSON.stringify(cells()) !== asked) return false;  // the tiles changed meanwhile
    $("move-text").value = result.move;
    return true;
  } catch (error) {
    if (JSON.stringify(cells()) !== asked) return false;
    $("move-text").value = "";
    say(sentence(error.message));
    return false;
  }
}

function renderPlayers() {
  const game = store.game;
  const list = $("players");
  list.replaceChildren(...game.players.map(p => {
    const li = document.createElement("li");
    li.className = (p.you ? "to-move you" : "");
    li.textContent = `${p.name}: ${points(p.score)}` + (p.you ? " — to play" : "");
    return li;
  }));
  const you = game.players.find(p => p.you);
  const other = game.players.find(p => !p.you);
  const ahead = you.score - other.score;
  const standing = ahead > 0 ? `ahead by ${points(ahead)}` : ahead < 0 ? `behind by ${points(-ahead)}` : "level";
  setText($("task"), `Find the best play. Turn ${game.turn}; you are ${standing}; ` +
    `${plural(game.bag_count, "tile")} in the bag.`);
}

/** A square chosen on the board (clicked, or moved to with the keys) goes into the move box, in
    the direction its arrow shows; the word typed after it stays. */
function followCursor() {
  if (store.cursor === null || store.tentative.size) return;
  const coord = coordinateOf(store.cursor, store.direction === "across");
  if (coord === coordinate) return;
  const input = $("move-text");
  const word = input.value.trim().split(/\s+/).slice(1).join(" ");
  input.value = word ? `${coord} ${word}` : `${coord} `;
  coordinate = coord;
}

let pickedNote = "";  // the verdict's note that a tile is picked, while that tile is

function renderAll() {
  if (store.message) {  // a note of the board's (no such letter on the rack, a tile picked)
    const note = store.message;
    store.message = "";
    say(note);
    pickedNote = store.selected !== null ? note : "";
  } else if (pickedNote && store.selected === null) {  // let go of (Escape, picked again) or put down
    if ($("verdict").textContent === pickedNote) say("");
    pickedNote = "";
  }
  renderPlayers();
  renderBoard();
  renderRack();
  renderTracker();
  followCursor();
}

function showBest(best, played) {
  const body = $("best").tBodies[0];
  body.replaceChildren(...best.map((b, i) => {
    const tr = document.createElement("tr");
    if (played && b.move === played) tr.className = "yours";
    for (const text of [String(i + 1), b.move, String(b.score), equity(b.equity), b.leave || "—"]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.appendChild(td);
    }
    return tr;
  }));
  $("answer").hidden = false;
}

function clearAnswer() {
  $("answer").hidden = true;
  $("best").tBodies[0].replaceChildren();
}

function setBusy(on) {
  busy = on;
  for (const id of ["check", "give-up", "next"]) $(id).setAttribute("aria-disabled", String(on));
}

let loads = 0;  // puzzles asked for: only the answer to the last one asked is shown

function showTitle(n) {
  document.title = `Puzzle ${n} — qiza`;
  setText($("puzzle-title"), `Puzzle ${n}`);
}

/** Shows puzzle ``n`` (``push``: as a new page of the browser's history). One that cannot be
    shown (too many new puzzles just now) leaves the puzzle shown before as it was. */
/** Milliseconds before a puzzle still loading says why it takes long. */
const SLOW_LOAD_MS = 4000;

async function load(n, push) {
  const asked = ++loads;
  const before = store.game ? store.game.number : null;
  number = n;
  if (push) history.pushState({number: n}, "", `/puzzles/${n}`);
  showTitle(n);
  store.tentative.clear();
  clearAnswer();
  $("move-text").value = "";
  coordinate = "";
  say(`Loading puzzle ${n}…`);
  setBusy(true);
  // just after a server's first start the move generator compiles: puzzles are made without it
  // meanwhile (in the server's own process), more slowly
  let slow = setTimeout(() => {
    if (asked === loads) say(`Still making puzzle ${n}: just after the server's first start, the computer is slower for a few minutes.`);
  }, SLOW_LOAD_MS);
  try {
    let position = null;
    while (position === null) {
      try {
        position = await qiza.api("GET", `/api/puzzles/${n}`);
      } catch (error) {
        // the server is making puzzles (this one, made ahead at its start, or many asked for at
        // once): it says when to ask again
        if (error.code !== "puzzles_busy" || asked !== loads) throw error;
        clearTimeout(slow);
        const seconds = error.retryAfter || 3;
        say(`The server is still making puzzles: puzzle ${n} is asked for again in ${plural(seconds, "second")}.`);
        await new Promise(resolve => { slow = setTimeout(resolve, seconds * 1000); });
      }
      if (asked !== loads) return;  // another puzzle was asked for meanwhile
    }
    position.board = position.board.map(row => tileLabels(row));
    store.game = position;
    store.me = {seat: position.to_move};  // the board takes the letters typed on it
    store.rack = tileLabels(position.rack);
    store.cursor = null;
    store.pending = null;
    store.direction = "across";
    store.tentative.clear();
    setText($("notation-help"), notationHelp(position.notation));
    $("go-number").value = String(n);
    render();
    const rack = tileLabels(position.rack).map(ch => ch === "?" ? "blank" : ch).join(" ");
    say(`Puzzle ${n}: find the best play with ${rack}.`);
  } catch (error) {
    if (asked !== loads) return;
    if (before !== null && before !== n) {  // still the puzzle shown before
      number = before;
      showTitle(before);
      history.replaceState({number: before}, "", `/puzzles/${before}`);
      render();
      say(`${sentence(error.message)} This is still puzzle ${before}.`);
    } else {
      say(sentence(error.message));
    }
  } finally {
    clearTimeout(slow);
    if (asked === loads) setBusy(false);
  }
}

/** Whether the page is waiting for the server (said, so that a key pressed meanwhile is not lost
    without a word). */
function waiting() {
  if (busy) say("The last request is still on its way: wait for its answer, then try again.");
  return busy || !store.game;
}

async function check(event) {
  if (event) event.preventDefault();
  if (waiting()) return;
  if (store.tentative.size && !(await writeTiles())) return;  // the tiles' move, as the engine writes it
  const move = $("move-text").value.trim();
  if (!move || /^[A-Za-z]?\d*[A-Za-z]?$/.test(move)) {
    say("Type a square and a word first, e.g. H8 WORD.");
    $("move-text").focus();
    return;
  }
  setBusy(true);
  try {
    const result = await qiza.api("POST", `/api/puzzles/${number}/answer`, {move});
    const a = result.answer;
    const head = `${a.move}: ${points(a.score)}, equity ${equity(a.equity)}`;
    say(a.best_play
      ? `${head}. The best play — well found!`
      : `${head}. Number ${a.rank} of ${result.plays} plays: ${equity(a.lost)} equity less than the best. Try again, or show the answer.`);
    showBest(result.best, a.move);
  } catch (error) {
    // the move named once: some of the engine's messages quote it already
    const named = error.status === 422 && !error.message.includes(move);
    say(named ? `${move}: ${sentence(error.message)}` : sentence(error.message));
  } finally {
    setBusy(false);
  }
}

async function giveUp() {
  if (waiting()) return;
  setBusy(true);
  try {
    const result = await qiza.api("POST", `/api/puzzles/${number}/answer`, {give_up: true});
    const top = result.best[0];
    say(`The best play: ${top.move}, ${points(top.score)}, equity ${equity(top.equity)}.`);
    showBest(result.best, null);
    $("answer").focus();
  } catch (error) {
    say(sentence(error.message));
  } finally {
    setBusy(false);
  }
}

function numberFromPath() {
  const found = location.pathname.match(/^\/puzzles\/(\d{1,10})\/?$/);
  const n = found ? Number(found[1]) : NaN;
  return n >= 1 && n <= MAX_PUZZLE ? n : null;
}

function start() {
  setRenderer(renderAll);
  setBoardHooks({changed: () => { writeTiles(); }, submit: () => check(null)});
  // a tile tapped, then a square, puts the tile there, as on the game page; a tile dropped on
  // another moves it there on the rack
  letGoOnEscape();
  setRackHooks({click: pickTile, move: (from, to) => {
    update(s => {
      s.tentative.clear();
      s.selected = null;
      s.rack.splice(to, 0, ...s.rack.splice(from, 1));
    });
    writeTiles();
  }});
  // a move typed in the box takes back the tiles put on the board (the box says the move)
  $("move-text").addEventListener("input", () => {
    if (store.tentative.size) update(s => { s.tentative.clear(); });
  });
  $("answer-form").addEventListener("submit", check);
  $("give-up").addEventListener("click", giveUp);
  $("next").addEventListener("click", async () => {
    if (waiting()) return;
    await load(number >= MAX_PUZZLE ? 1 : number + 1, true);
    $("move-text").focus();
  });
  $("go-form").addEventListener("submit", async event => {
    event.preventDefault();
    const n = Number($("go-number").value);
    if (!Number.isInteger(n) || n < 1 || n > MAX_PUZZLE) {
      say(`Puzzles are numbered 1 to ${MAX_PUZZLE.toLocaleString("en")}.`);
      return;
    }
    await load(n, true);
    $("move-text").focus();
  });
  window.addEventListener("popstate", () => { const n = numberFromPath(); if (n) load(n, false); });
  const asked = numberFromPath();
  if (asked) load(asked, false);
  else loadStarting();
}

/** Shows a puzzle to start with: the server draws it, or, if it cannot, one drawn here. */
async function loadStarting() {
  say("Loading a puzzle…");
  let n = null;
  try {
    n = (await qiza.api("GET", "/api/puzzles/random")).number;
  } catch (error) {
    n = null;
  }
  if (!Number.isInteger(n) || n < 1 || n > MAX_PUZZLE) n = 1 + Math.floor(Math.random() * 100000);
  history.replaceState({number: n}, "", `/puzzles/${n}`);
  await load(n, false);
}

start();
