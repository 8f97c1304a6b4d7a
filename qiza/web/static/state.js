/* The game page's state: one object, changed only here or through update(), and drawn by one
   render function after every change. Game states from the server (the answer to a request or
   a WebSocket push, in whatever order they arrive) go through receive(), which keeps the newest
   version, so the page shows the same thing whatever the order of arrival. */

import {plainText} from "./words.js";

export const store = {
  game: null,          // the newest game state from the server
  me: null,            // {seat, token} of this browser's seat, or null (watching)
  linkRefused: false,  // the seat and token of this page's link were refused: watching, and saying why
  busy: false,         // a request of this player is on its way
  rack: [],            // the local order of the rack's tiles ("?" for a blank)
  tentative: new Map(),// square -> {index, char}: tiles put on the board, not played yet
  selected: null,      // rack index picked for click placement
  exchangeMode: false,
  exchangeSet: new Set(),
  cursor: null,        // the square typed letters go to (shows the direction arrow)
  pending: null,       // {sq, text, bracket}: a tile of several letters begun on the board ([CH typed, Q of QU)
  direction: "across", // typing direction, across at the start of every turn
  message: "",         // a short note for this player (a hint or a refusal); cleared by the next move
  preview: "",         // the score of the tiles put down, from the server
  invite: null,        // the game's invite secret, if this browser was given the invite link
  inviteStatus: "",    // the creator's invite: "" (open or not asked), "closed" or "unavailable"
  meta: null,          // /api/meta (the computer levels), fetched when first needed
  wasMyTurn: null,     // whether the page last drawn was this player's turn (for the sound)
  offline: false,      // the live connection is down: the page is not kept up to date meanwhile
};

let renderer = () => {};

/** The server's time now (ms since 1970): this device's clock corrected by the server's time the
    newest answer said (qiza.serverOffset): the deadlines the server gives (Remind, Claim, the
    clocks) are compared with it, so that a device whose clock is wrong shows them on time. */
export function serverNow() { return Date.now() + qiza.serverOffset; }

/** A time of the server (seconds) as a Date on this device's clock (what its own clock will
    read then), for saying it to the player. */
export function deviceDate(serverSeconds) { return new Date(serverSeconds * 1000 - qiza.serverOffset); }

/** Sets the function that draws the whole page from the store. */
export function setRenderer(fn) { renderer = fn; }

/** Draws the page from the store. */
export function render() { if (store.game) renderer(); }

/** Changes the store and draws the page. */
export function update(change) {
  change(store);
  render();
}

/** Sets an element's text only when it differs: a live region (status, alert) written again,
    even with the same words, is read out again by screen readers (on every key typed). */
/** Sets ``el``'s text if it changed (``again``: even if not, so that a live region says it
    again); each player's name marked by named() goes in a <bdi> of its own. */
export function setText(el, text, again = false) {
  if (el.textContent === plainText(text) && !again) return;
  el.replaceChildren(...text.split(/\u2068([^\u2069]*)\u2069/).map((part, i) => {
    if (i % 2 === 0) return part;
    const name = document.createElement("bdi");
    name.textContent = part;
    return name;
  }).filter(part => part !== ""));
}

/** The tiles of a tile text, one label each: ``[CH]`` (a tile of several letters) is one tile. */
export function tileLabels(text) {
  return (text.match(/\[[^\]]*\]|./gu) || []).map(t => t.length > 1 && t.startsWith("[") ? t.slice(1, -1) : t);
}

/** A tile text the server reads back: with tiles of several letters in the set, each tile in
    brackets (so that C and H are not read as the CH tile). */
export function tilesText(labels) {
  const multi = Object.keys(store.game.rules.tile_values).some(label => label.length > 1);
  return labels.map(t => multi && t !== "?" ? `[${t}]` : t).join("");
}

/** Clears this player's unplayed tiles and choices (the rack is as the server has it). */
function resetTurn(game) {
  store.rack = tileLabels(game.rack);
  store.tentative.clear();
  store.pending = null;
  store.selected = null;
  store.exchangeMode = false;
  store.exchangeSet.clear();
  store.preview = "";
}

/** Whether two racks (a label per tile) hold the same tiles, in any order. */
function sameTiles(a, b) {
  return a.length === b.length && [...a].sort().join("\u0000") === [...b].sort().join("\u0000");
}

/** A game state from the server: kept if it is not older than the one shown; the page is drawn
    again either way (a request that ended changes the controls even when its answer is stale).
    Returns whether the state was kept. */
export function receive(next) {
  const old = store.game;
  const kept = !old || next.version >= old.version;
  if (kept) {
    next.board = next.board.map(row => typeof row === "string" ? tileLabels(row) : row);  // a label per square
    store.game = next;
    const moved = !old || old.history.length !== next.history.length || old.to_move !== next.to_move
      || old.over !== next.over;
    if (moved) {
      store.cursor = null;
      store.pending = null;
      store.direction = "across";
      store.message = "";  // a note such as "Tile U picked" is about the turn before
      store.selected = null;
      store.preview = "";
    }
    const mine = store.me && old && next.history.slice(old.history.length).some(r => r.seat === store.me.seat);
    // the same tiles in another order (an answer or push from before a shuffle, which the
    // server saves on its own) leave the order the player sees as it is
    if (!old || mine || !sameTiles(store.rack, tileLabels(next.rack)) || next.over) {
      resetTurn(next);
    } else {
      const size = next.rules.size;
      for (const sq of [...store.tentative.keys()]) {
        if (next.board[Math.floor(sq / size)][sq % size] !== ".") store.tentative.delete(sq);
      }
    }
  }
  render();
  return kept;
}
