/* The board: drawing it from the store, and putting tiles on it by mouse, drag and drop or typing.
   Typing goes across or down from the chosen square (the cursor), shown by an arrow on it. */
import {store, update} from "./state.js";

const PREMIUM = {d: ["dl", "double letter", "DL"], t: ["tl", "triple letter", "TL"], q: ["ql", "quadruple letter", "QL"],
                 D: ["dw", "double word", "DW"], T: ["tw", "triple word", "TW"], Q: ["qw", "quadruple word", "QW"],
                 "*": ["dw star", "centre star, double word", "★"]};
const $ = id => document.getElementById(id);

let hooks = {submit() {}, changed() {}};

/** ``submit()`` plays the tiles put down; ``changed()`` runs after the tiles put down change. */
export function setBoardHooks(given) { hooks = given; }

export function squareName(sq) {
  const size = store.game.rules.size;
  return String.fromCharCode(65 + (sq % size)) + (Math.floor(sq / size) + 1);
}

export function tileValue(ch) {
  if (ch === "?" || ch === ch.toLowerCase()) return 0;
  return store.game.rules.tile_values[ch] || 0;
}

export function tileElement(ch) {
  const tile = document.createElement("span");
  tile.className = "tile" + (ch === "?" || ch === ch.toLowerCase() ? " blank" : "");
  tile.textContent = ch === "?" ? "" : ch.toUpperCase();
  const points = document.createElement("sub");
  points.textContent = ch === "?" ? "" : tileValue(ch);
  tile.appendChild(points);
  return tile;
}

export function usedIndexes() { return new Set([...store.tentative.values()].map(t => t.index)); }

function letterAt(sq) {
  const size = store.game.rules.size;
  return store.game.board[Math.floor(sq / size)][sq % size];
}

function isEmpty(sq) { return letterAt(sq) === "." && !store.tentative.has(sq); }

function cell(cls, text, role) {
  const div = document.createElement("div");
  div.className = cls;
  div.textContent = text;
  div.setAttribute("role", role);
  return div;
}

let drawn = "";  // what the board shows: it is drawn again only when that changes (a drag stays alive)

export function renderBoard() {
  const game = store.game;
  const board = $("board");
  const key = JSON.stringify([game.board, game.last_move, game.rules.size, [...store.tentative], store.cursor,
                              store.direction, Boolean(store.me), store.pending]);
  if (key === drawn && board.childElementCount) return;
  drawn = key;
  const size = game.rules.size;
  const last = new Set(game.last_move);
  const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#board");
  const centre = Math.floor(size / 2) * size + Math.floor(size / 2);
  // a move that arrives (which lets go of the cursor) leaves the focus on the square it was on
  const was = focused && document.activeElement.dataset.square !== undefined ? Number(document.activeElement.dataset.square) : null;
  const home = store.cursor ?? was ?? centre;
  board.closest(".layout").style.setProperty("--size", size);
  board.replaceChildren();
  const head = document.createElement("div");
  head.setAttribute("role", "row");
  head.className = "row";
  head.appendChild(cell("corner", "", "columnheader"));
  for (let c = 0; c < size; c++) head.appendChild(cell("coord", String.fromCharCode(65 + c), "columnheader"));
  board.appendChild(head);
  for (let r = 0; r < size; r++) {
    const row = document.createElement("div");
    row.setAttribute("role", "row");
    row.className = "row";
    row.appendChild(cell("coord", String(r + 1), "rowheader"));
    for (let c = 0; c < size; c++) row.appendChild(square(r * size + c, game.rules.premiums[r][c], last, home));
    board.appendChild(row);
  }
  if (focused) {
    const el = board.querySelector(`.square[data-square='${home}']`);
    if (el) el.focus({preventScroll: true});
  }
}

function square(sq, code, last, home) {
  const letter = letterAt(sq);
  const div = cell("square", "", "gridcell");
  div.dataset.square = sq;
  div.id = "sq-" + squareName(sq);
  div.tabIndex = sq === home ? 0 : -1;
  let label = squareName(sq);
  if (letter !== ".") {
    div.classList.add("filled");
    div.appendChild(tileElement(letter));
    label += `, ${letter === letter.toLowerCase() ? "blank as " + letter.toUpperCase() : letter}`;
    if (last.has(sq)) { div.classList.add("last"); label += ", last move"; }
  } else if (store.tentative.has(sq)) {
    const t = store.tentative.get(sq);
    div.classList.add("tentative");
    const tile = tileElement(t.char);
    tile.draggable = true;
    tile.addEventListener("dragstart", e => e.dataTransfer.setData("text/plain", "board:" + sq));
    div.appendChild(tile);
    if (PREMIUM[code]) label += ", " + PREMIUM[code][1];  // it counts for this tile: said as the preview counts it
    label += `, your tile ${t.char === t.char.toLowerCase() ? "blank as " + t.char.toUpperCase() : t.char}, not played yet`;
  } else {
    if (PREMIUM[code]) {
      div.classList.add(...PREMIUM[code][0].split(" "));
      const mark = document.createElement("span");
      mark.className = "premium";
      mark.textContent = PREMIUM[code][2];
      mark.setAttribute("aria-hidden", "true");
      div.appendChild(mark);
      label += ", " + PREMIUM[code][1];
    } else {
      label += ", empty";
    }
    if (store.cursor === sq) {
      div.classList.add("cursor", store.direction);
      const arrow = document.createElement("span");
      arrow.className = "arrow";
      arrow.textContent = store.direction === "across" ? "→" : "↓";
      arrow.setAttribute("aria-hidden", "true");
      div.appendChild(arrow);
      label += `, typing ${store.direction}`;
      const begun = store.pending && store.pending.sq === sq ? store.pending : null;
      if (begun) {  // a tile of several letters begun ([C, Q of QU): its letters so far
        arrow.textContent = (begun.bracket ? "[" : "") + begun.text;
        arrow.classList.add("begun");
        label += `, tile begun: ${begun.bracket ? "[" : ""}${begun.text}`;
      }
    }
  }
  div.setAttribute("aria-label", label);
  // tapped on a touch screen (or with a pen): typing goes through the field that opens the keyboard
  div.addEventListener("click", e => clickSquare(sq, e.pointerType === "touch" || e.pointerType === "pen"));
  // a square tapped while typing on a touch screen leaves the focus in the field (the keyboard open)
  div.addEventListener("pointerdown", e => { tapped = e.pointerType === "touch" || e.pointerType === "pen"; });
  div.addEventListener("mousedown", e => { if (tapped && typingOn()) e.preventDefault(); });
  div.addEventListener("dragover", e => { if (letterAt(sq) === ".") e.preventDefault(); });
  div.addEventListener("drop", e => { e.preventDefault(); dropOnSquare(sq, e.dataTransfer.getData("text/plain")); });
  div.addEventListener("keydown", e => boardKey(e, sq));
  return div;
}

// -- putting tiles down ------------------------------------------------------------------------
let endQuestion = null;  // ends the blank's question whose dialog closed but whose close event has not come

function askBlank() {
  const dialog = $("blank-dialog");
  const input = $("blank-letter");
  input.value = "";
  endQuestion?.();
  return new Promise(resolve => {
    let letter = null;
    const labels = Object.keys(store.game.rules.tile_values);  // the tile set's letters (Ñ, CH, Ą...)
    const ok = e => {
      e.preventDefault();
      // one letter however it was typed: N and a combining tilde (NFD) is Ñ, as the server reads it
      // in brackets or not; a label with a middle dot also as the server says it is typed in ASCII (L.L)
      const typed = input.value.trim().toUpperCase().normalize("NFC").replace(/^\[(.+)\]$/, "$1");
      const v = labels.includes(typed) ? typed : (store.game.rules.typed_labels || {})[typed];
      if (labels.includes(v)) { letter = v.toLowerCase(); dialog.close(); }
      else input.setCustomValidity(`Not a letter of this game: choose one of ${labels.join(" ")}`);
    };
    input.oninput = () => input.setCustomValidity("");
    const cancel = () => dialog.close();
    // however the dialog closes (OK, Cancel or Escape), this question ends with it: a question
    // left open by Escape would answer the next one too (one blank put on two squares)
    const end = () => {
      $("blank-form").removeEventListener("submit", ok);
      $("blank-cancel").removeEventListener("click", cancel);
      dialog.removeEventListener("close", closed);
      endQuestion = null;
      resolve(letter);
    };
    // the close event comes in a later task (Chromium: at the next frame): on a loaded machine
    // the one of a dialog closed with Escape can come after the next question opened the dialog
    // again; it ended that question too, and the letter typed then was taken by no one
    const closed = () => { if (!dialog.open) end(); };
    endQuestion = end;
    $("blank-form").addEventListener("submit", ok);
    $("blank-cancel").addEventListener("click", cancel);
    // a button per letter, to choose it with one tap (a phone's on-screen keyboard covers the board)
    $("blank-letters").replaceChildren(...labels.map(label => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.setAttribute("aria-label", label);
      button.addEventListener("click", () => { letter = label.toLowerCase(); dialog.close(); });
      return button;
    }));
    dialog.addEventListener("close", closed);
    dialog.showModal();
    // typed where there is a keyboard; on a touch screen the letters are tapped
    if (window.matchMedia("(pointer: coarse)").matches) $("blank-letters").firstElementChild.focus();
    else input.focus();
  });
}

/** Picks rack tile ``index`` to put on the square tapped or clicked next (picked again: let go). */
export function pickTile(index) {
  if (usedIndexes().has(index)) return;
  update(s => {
    s.selected = s.selected === index ? null : index;
    const ch = s.rack[index];
    s.message = s.selected === null ? "" : `Tile ${ch === "?" ? "blank" : ch} picked: choose a square.`;
  });
}

/** Escape (a dialog open takes its own) lets go of a picked tile, unless ``first()``, the page's
    own use of Escape (the game page's choice of tiles to exchange), takes it and returns true. */
export function letGoOnEscape(first = () => false) {
  document.addEventListener("keydown", e => {
    if (e.key !== "Escape" || document.querySelector("dialog[open]") || first()) return;
    if (store.selected !== null) update(s => { s.selected = null; s.message = ""; });
  });
}

/** Puts rack tile ``index`` on ``sq`` (asking the letter of a blank). */
export async function place(index, sq) {
  if (!store.me || store.game.over || usedIndexes().has(index) || letterAt(sq) !== ".") return;
  let ch = store.rack[index];
  if (ch === "?") {
    ch = await askBlank();
    if (!ch) return;
  }
  update(s => {
    s.tentative.set(sq, {index, char: ch});
    s.selected = null;
    s.message = "";
  });
  hooks.changed();
}

function dropOnSquare(sq, data) {
  if (data.startsWith("rack:")) place(Number(data.slice(5)), sq);
  else if (data.startsWith("board:")) {
    const from = Number(data.slice(6));
    const t = store.tentative.get(from);
    if (t && !store.tentative.has(sq)) {
      update(s => { s.tentative.delete(from); s.tentative.set(sq, {...t, typed: ""}); });
      hooks.changed();
    }
  }
}

function clickSquare(sq, touch = false) {
  if (store.tentative.has(sq)) {
    update(s => { s.tentative.delete(sq); });
    hooks.changed();
  } else if (store.selected !== null) {
    place(store.selected, sq);
  } else if (isEmpty(sq)) {
    if (touch && !typingOn()) typeByTouch(sq);
    turnAt(sq);
  }
}

function boardKey(e, sq) {
  const size = store.game.rules.size;
  const key = e.key.normalize("NFC");  // a letter and its combining accent (NFD) as one letter, as the blank's dialog
  let r = Math.floor(sq / size), c = sq % size;
  const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
  if (moves[e.key]) {
    e.preventDefault();
    r = Math.min(size - 1, Math.max(0, r + moves[e.key][0]));
    c = Math.min(size - 1, Math.max(0, c + moves[e.key][1]));
    update(s => { s.cursor = r * size + c; s.pending = null; });
    focusOn(r * size + c);
  } else if (e.key === " ") {
    e.preventDefault();
    turnAt(sq);
  } else if (e.key === "Backspace" || e.key === "Delete") {
    e.preventDefault();
    backspace(sq, e.key === "Backspace");
  } else if (e.key === "Enter") {
    e.preventDefault();
    if (store.tentative.size) hooks.submit();
    else clickSquare(sq);
  } else if (e.key === "Escape" && store.pending) {
    update(s => { s.pending = null; s.message = ""; });  // the tile begun is let go of
  } else if (typable(key) && !e.metaKey
             && ((!e.ctrlKey && !e.altKey) || e.getModifierState("AltGraph") || !/^[a-zA-Z]$/.test(key))) {
    // any letter of any alphabet (Ł, Ñ, Ä...), also typed with AltGr (Ctrl+Alt on Windows) or
    // Option; and what a tile of several letters is typed with: [ ] around it, a middle dot (L·L)
    e.preventDefault();
    typeKey(sq, key === "." ? DOT : key.toUpperCase());
  }
}

/** Whether ``key`` (one character, NFC) is typed on the board: a letter of any alphabet, or a
    mark of a tile of several letters ([ ] around it, the middle dot of L·L). */
function typable(key) { return /^\p{L}$/u.test(key) || TILE_MARKS.includes(key); }

/** Space (or the square clicked) on ``sq``: the cursor goes there, or, there already, turns. */
function turnAt(sq) {
  update(s => {
    if (s.cursor === sq) s.direction = s.direction === "across" ? "down" : "across";
    s.cursor = sq;
    s.pending = null;
  });
  focusOn(sq);
}

// -- typing on a touch screen ------------------------------------------------------------------
// A phone's on-screen keyboard opens only for a text field, and sends no key a page can read
// (Android: "Unidentified", key code 229), only the text it puts in the field. A square tapped
// gives the focus to #board-typing, a field laid over the cursor's square (transparent; it
// never takes the focus on a desktop, where the squares read the keys), and the text that
// comes into it is typed on the board as keys are: letters, a space to turn the direction;
// what is deleted from it is taken back, as Backspace does.
const KEPT = "\u200b";  // the field is never empty: a Backspace on it always deletes something, and says so
let typingAt = null;  // the square the field types on (as the focused square does on a desktop)
let seen = KEPT;  // the field's text as last read
let tapped = false;  // whether the last press on a square was a finger's (or a pen's)

function typingField() { return $("board-typing"); }

function typingOn() { const field = typingField(); return Boolean(field) && document.activeElement === field; }

/** Lays the field over square ``sq`` (the browser keeps it in view above the keyboard) and names it. */
function placeField(sq) {
  const field = typingField();
  const square = document.querySelector(`#board .square[data-square='${sq}']`);
  typingAt = sq;
  if (square) {
    field.style.top = `${square.offsetTop}px`;
    field.style.left = `${square.offsetLeft}px`;
    field.style.width = `${square.offsetWidth}px`;
    field.style.height = `${square.offsetHeight}px`;
  }
  field.setAttribute("aria-label", `Type your letters on ${squareName(sq)}, ${store.direction}; a space turns the direction`);
}

/** The field emptied (but for its kept character), unless the keyboard is writing a word in it. */
function resetField(field) {
  field.value = KEPT;
  seen = KEPT;
  field.setSelectionRange(1, 1);
}

/** The text of the field as it changed: each character no longer there taken back (the tile
    before the cursor, as Backspace), each new one typed. */
function readField(field, composing) {
  const now = field.value;
  let same = 0;
  while (same < seen.length && same < now.length && seen[same] === now[same]) same++;
  const gone = seen.length - same;
  const added = now.slice(same).normalize("NFC");
  seen = now;
  for (let i = 0; i < gone; i++) backspace(typingAt, true);
  // (a text pasted in is typed up to a line of the board's length: no word is longer)
  for (const ch of [...added].slice(0, store.game.rules.size)) {
    if (ch === " ") turnAt(typingAt);
    else if (typable(ch)) typeKey(typingAt, ch === "." ? DOT : ch.toUpperCase());
  }
  if (!composing) resetField(field);
}

/** Sets up the board's typing field (on the pages that have one). */
function setUpField() {
  const field = typingField();
  if (!field || field.dataset.ready) return;
  field.dataset.ready = "1";
  resetField(field);
  field.addEventListener("input", e => { if (typingAt !== null) readField(field, e.isComposing); });
  field.addEventListener("compositionend", () => { if (typingAt !== null) readField(field, false); });
  // unused, it is hidden from screen readers: on a desktop it would be a box to type in that types nothing
  field.addEventListener("blur", () => field.setAttribute("aria-hidden", "true"));
  // a keyboard that sends its keys (a tablet's, Enter and Backspace on some phones) works as on a desktop
  field.addEventListener("keydown", e => {
    if (typingAt !== null && !e.isComposing && e.key !== "Unidentified" && e.keyCode !== 229) boardKey(e, typingAt);
  });
}

/** Square ``sq`` tapped on a touch screen: the typing field takes the focus (the keyboard opens). */
function typeByTouch(sq) {
  const field = typingField();
  if (!field || !store.me) return;
  setUpField();
  placeField(sq);
  field.removeAttribute("aria-hidden");
  field.focus({preventScroll: true});
  resetField(field);
}

/** Backspace takes back the tile on the square, or else the one before it in the typing direction. */
function backspace(sq, back) {
  if (store.pending) {  // a tile begun ([C, Q of QU): let go of, nothing taken back
    update(s => { s.pending = null; s.message = ""; });
    return;
  }
  const size = store.game.rules.size;
  let target = sq;
  if (!store.tentative.has(sq) && back) {
    const step = store.direction === "across" ? 1 : size;
    let prev = sq - step;
    while (prev >= 0 && (store.direction === "down" || Math.floor(prev / size) === Math.floor(sq / size))
           && letterAt(prev) !== "." && !store.tentative.has(prev)) prev -= step;
    if (prev >= 0 && store.tentative.has(prev)) target = prev;
  }
  if (!store.tentative.has(target)) return;
  update(s => { s.tentative.delete(target); s.cursor = target; });
  hooks.changed();
  focusOn(target);
}

/** The square after ``sq`` in the typing direction (``empty``: the first one without a tile or a
    tile put down), or null past the edge of the board. */
function nextSquare(sq, empty) {
  const size = store.game.rules.size;
  let nr = Math.floor(sq / size), nc = sq % size;
  do {
    if (store.direction === "across") nc++; else nr++;
  } while (empty && nr < size && nc < size && (letterAt(nr * size + nc) !== "." || store.tentative.has(nr * size + nc)));
  return nr < size && nc < size ? nr * size + nc : null;
}

// -- typing tiles of several letters (Spanish CH, LL, RR; Catalan L·L, NY, QU) -----------------
// The letters typed read as the move box reads them (TileSet.codes: greedy longest match): a
// letter typed just after a tile typed before it makes one tile with it when the two are a
// tile's letters (Spanish C then H is the CH tile, whose words never hold a C and an H tile side
// by side; Catalan N then Y is NY, Q then U is QU, L then . or · then L is L·L, while L then L
// stays two L tiles). A tile in brackets is that tile alone, as in the move box: [C][H] is a C
// and an H, [L.L] the L·L. Which words are good is the server's to say.
const DOT = "\u00b7";
const TILE_MARKS = ["[", "]", ".", DOT];

function labels() { return Object.keys(store.game.rules.tile_values); }

/** The tile set's label that ``text`` (typed, in capitals) is (L.L is L·L, as in brackets), or null. */
function labelOf(text) {
  const typed = text.normalize("NFC").toUpperCase();
  if (labels().includes(typed)) return typed;
  const ascii = (store.game.rules.typed_labels || {})[typed];
  return ascii && labels().includes(ascii) ? ascii : null;
}

/** The labels of several letters that begin with ``text`` and are longer (Q: QU). */
function longer(text) { return labels().filter(label => label.length > text.length && label.startsWith(text)); }

/** A rack tile for ``label`` not put down yet (``freed``: one put down that is to be taken back):
    the tile itself, else a blank standing for it; null when there is neither. */
function rackTile(label, freed = null) {
  const used = usedIndexes();
  if (freed !== null) used.delete(freed);
  const index = store.rack.findIndex((ch, i) => ch === label && !used.has(i));
  if (index >= 0) return {index, char: label};
  const blank = store.rack.findIndex((ch, i) => ch === "?" && !used.has(i));
  return blank >= 0 ? {index: blank, char: label.toLowerCase()} : null;
}

/** Puts the rack's ``tile`` on empty square ``sq`` and moves the cursor on (``typed``: the
    letters typed for it outside brackets, which a next letter may join). */
function putTyped(sq, tile, typed) {
  const next = nextSquare(sq, true) ?? sq;
  update(s => {
    s.tentative.set(sq, {...tile, typed});
    s.cursor = next;
    s.pending = null;
    s.message = "";
  });
  hooks.changed();
  focusOn(next);
}

/** Says ``text`` (emptied first: said again in the same words, it is read out again). */
function note(text) {
  update(s => { s.message = ""; s.pending = null; });
  update(s => { s.message = text; });
}

/** A key typed on square ``sq``: a letter (in capitals), the middle dot, or a bracket. */
function typeKey(sq, key) {
  if (!store.me) return;
  const pending = store.pending && store.pending.sq === sq ? store.pending : null;
  if (pending && pending.bracket) {
    if (key === "]") closeBracket(sq, pending.text);
    else if (key !== "[" && pending.text.length < 8) update(s => { s.pending = {...pending, text: pending.text + key}; });
    return;
  }
  if (key === "[") {
    update(s => { s.pending = {sq, text: "", bracket: true}; s.message = "Type the tile's letters, then ]."; });
    return;
  }
  if (key === "]") return;
  if (letterAt(sq) !== ".") { typeOnTile(sq, key); return; }
  if (pending) { typeText(sq, pending.text + key); return; }
  // the tile typed just before and this letter: one tile when they are its letters
  const prev = previousSquare(sq);
  const before = prev === null ? undefined : store.tentative.get(prev);
  const joined = before && before.typed ? before.typed + key : "";
  if (joined && labelOf(joined)) {
    const tile = rackTile(labelOf(joined), before.index);
    if (tile) { putTyped(prev, tile, joined); return; }
  } else if (joined && longer(joined).length) {  // L then the dot: L·L's first letters
    update(s => { s.tentative.delete(prev); s.cursor = prev; s.pending = {sq: prev, text: joined, bracket: false}; });
    hooks.changed();
    focusOn(prev);
    return;
  }
  if (key === DOT) return;
  typeText(sq, key);
}

/** The letters ``text`` typed on empty square ``sq``: the tile they are, or the first letters of
    a tile of several (Catalan Q of QU; C of CH where the rack has CH and no C): kept until the
    next letter. */
function typeText(sq, text) {
  const label = labelOf(text);
  const tile = label && rackTile(label);
  if (tile) { putTyped(sq, tile, text); return; }
  const more = longer(text);
  if (more.some(other => rackTile(other))) {
    update(s => { s.pending = {sq, text, bracket: false}; s.message = ""; });
    return;
  }
  if (label) note(`No ${label} on your rack.`);
  else if (more.length) note(`No ${more.join(" or ")} on your rack.`);
  else note(`${text} is no tile of this game: its tiles are ${labels().join(" ")}.`);
}

/** A tile typed in brackets, ``[CH]``: that tile alone. */
function closeBracket(sq, text) {
  const label = labelOf(text);
  if (!label) { note(`[${text}] is no tile of this game: its tiles are ${labels().join(" ")}.`); return; }
  if (letterAt(sq) !== ".") {  // from a tile on the board: its own label steps over it
    const next = nextSquare(sq, letterAt(sq).toUpperCase() !== label);
    update(s => { s.pending = null; s.message = ""; });
    if (next === null) return;
    if (letterAt(sq).toUpperCase() === label) { update(s => { s.cursor = next; }); focusOn(next); }
    else closeBracket(next, text);
    return;
  }
  const tile = rackTile(label);
  if (tile) putTyped(sq, tile, "");
  else note(`No ${label} on your rack.`);
}

/** A key typed from a tile on the board: its own letters step over it (typing through, as in
    Quackle; a tile of several letters, CH, once all are typed), another letter goes on the next
    empty square. */
function typeOnTile(sq, key) {
  const label = letterAt(sq).toUpperCase();
  const typed = (store.pending && store.pending.sq === sq ? store.pending.text : "") + key;
  if (label === typed || (label.startsWith(typed) && typed.length < label.length)) {
    const next = label === typed ? nextSquare(sq, false) : sq;
    if (next === null) return;
    update(s => { s.cursor = next; s.pending = next === sq ? {sq, text: typed, bracket: false} : null; });
    focusOn(next);
    return;
  }
  update(s => { s.pending = null; });
  const next = nextSquare(sq, true);
  if (next === null) return;
  typeKey(next, typed[0]);
  for (const letter of typed.slice(1)) typeKey(store.cursor, letter);
}

/** The square before ``sq`` in the typing direction, or null at the edge of the board. */
function previousSquare(sq) {
  const size = store.game.rules.size;
  if (store.direction === "across") return sq % size ? sq - 1 : null;
  return sq >= size ? sq - size : null;
}

export function focusOn(sq) {
  const el = document.querySelector(`#board .square[data-square='${sq}']`);
  if (!el) return;
  for (const other of document.querySelectorAll("#board .square[tabindex='0']")) other.tabIndex = -1;
  el.tabIndex = 0;
  // typing on a touch screen: the field keeps the focus (the keyboard open), laid over the square
  if (typingOn()) placeField(sq);
  else el.focus({preventScroll: true});
}
