/* The game page: the seat and its token, requests to the server, live updates over the
   WebSocket, and the page's buttons. Drawing is in board.js and panel.js, the page's state in
   state.js; every state from the server goes through receive() there. */
import {receive, render, setRenderer, setText, store, tilesText, update} from "./state.js";
import {letGoOnEscape, pickTile, renderBoard, setBoardHooks, squareName} from "./board.js";
import {myTurn, renderChallengeWindow, renderConnection, renderControls, renderEvents, renderRack, renderScoreboard, renderSheet,
        renderSummary, renderTracker, setRackHooks} from "./panel.js";
import {renderCreator, renderJoin, setupSeats} from "./seats.js";
import {showAnalysis} from "./analysis.js";
import {passEndsText} from "./words.js";
import {claimAccountSeat, renderClub, setupClub} from "./club_game.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const $ = id => document.getElementById(id);
let socket = null;
let previewTimer = null;
let previewAsked = 0;  // the preview asked last: an answer to an earlier one is dropped
let previewFor = "";  // the tiles and version the preview was last asked for

function renderAll() {
  const focused = document.activeElement;
  renderScoreboard();
  renderChallengeWindow();
  renderConnection();
  renderBoard();
  renderRack();
  renderControls();
  renderEvents();
  renderSummary();
  renderTracker();
  renderSheet();
  renderJoin();
  renderCreator();
  renderClub();
  renderPassQuestion();
  const turn = myTurn();
  if (turn && store.wasMyTurn === false) chime();  // the turn came (not on opening the page)
  store.wasMyTurn = turn;
  // the preview follows the tiles put down and the board they are on
  const shown = store.tentative.size ? JSON.stringify(cells()) + "@" + store.game.version : "";
  if (shown && shown !== previewFor) schedulePreview();
  previewFor = shown;
  keepFocus(focused);
}

let passVersion = null;  // the game's version when Pass asked "Pass this turn?"

/** The question "Pass this turn?": what a pass does, the tiles put down that go back, and,
    from the server's view, whether it ends the game; closed once it is no longer this
    player's turn (the game over, or a turn passed on by the clock). */
function renderPassQuestion() {
  const dialog = $("pass-dialog");
  if (!myTurn()) {
    if (dialog.open) dialog.close();
    return;
  }
  const back = store.tentative.size ? " The tiles you put on the board go back to your rack." : "";
  setText($("pass-text"), "You score nothing and keep your tiles, and the turn goes to the next player. " +
    "A pass cannot be taken back." + back);
  const ends = passEndsText(store.game);
  setText($("pass-ends"), ends);  // emptied when hidden: the dialog's description reads it even then
  $("pass-ends").hidden = !ends;
  $("pass-confirm").textContent = ends ? "Pass and end the game" : "Pass";
}

/** A control that had the focus and was just disabled (while a request runs) or hidden (at the
    end of the game) would leave a keyboard or screen reader user nowhere: the focus goes to the
    typed move's box or the board, and when the game ends, from the board and the turn's
    controls to the game over box (with the GCG record). */
let overShown = null;  // whether the game was over when last drawn (null: not drawn yet)

/** Whether an element is drawn (checkVisibility where the browser has it: Safari before 17.4 has not). */
function isDrawn(element) {
  return element.checkVisibility ? element.checkVisibility() : element.getClientRects().length > 0;
}

function keepFocus(before) {
  const over = store.game.over;
  const ended = overShown === false && over;
  overShown = over;
  const now = document.activeElement;
  if (ended && (!now || now === document.body || now.closest("#board, #board-typing, #rack-area, #keyboard-form, #resign"))) {
    $("summary").focus({preventScroll: true});
    return;
  }
  if (!before || before === document.body || !before.matches("button, input")) return;
  if (now && now !== document.body && now !== before) return;  // the focus is somewhere else already
  if (before.isConnected && !before.disabled && isDrawn(before)) return;
  const target = over ? $("summary")
    : before.closest("#keyboard-form") && isDrawn($("move-text")) ? $("move-text")
    : document.querySelector("#board .square[tabindex='0']");
  if (target && isDrawn(target)) target.focus({preventScroll: true});
}

/** A note for this player, read out again when it is said again in the same words. */
function say(text) { update(s => { s.message = text === s.message ? "" : s.message; }); update(s => { s.message = text; }); }

// -- the seat's token: in the X-Seat-Token header, never in a URL ---------------------------
function seatHeaders() { return store.me ? {"X-Seat-Token": store.me.token} : {}; }

function seatApi(method, path, body) {
  return qiza.api(method, path, body && store.me ? Object.assign({seat: store.me.seat, token: store.me.token}, body) : body,
                  seatHeaders());
}

function loadSeat() {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.has("seat") || hash.has("token")) {
    // a seat that is no number, or no token, cannot be a seat's link: refused here as the server
    // refuses a wrong token (a seat sent as null was taken for watching, and nothing said)
    const seat = hash.get("seat") || "", token = hash.get("token") || "";
    if (/^\d+$/.test(seat) && token) localStorage.setItem(qiza.seatKey(gameId), JSON.stringify({seat: Number(seat), token}));
    else store.linkRefused = true;
  }
  if (hash.has("invite")) localStorage.setItem(qiza.inviteKey(gameId), hash.get("invite"));
  if (location.hash) history.replaceState(null, "", location.pathname);
  try { store.me = JSON.parse(localStorage.getItem(qiza.seatKey(gameId)) || "null"); } catch (e) { store.me = null; }
}

// -- a sound when the turn comes (off unless asked for) ---------------------------------------
function chime() {
  if (!$("sound").checked) return;
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    tone.onended = () => audio.close();
  } catch (e) { /* no sound on this browser */ }
}

// -- the preview of the tiles put down ---------------------------------------------------------
function cells() {
  const out = {};
  for (const [sq, t] of store.tentative) out[squareName(sq)] = t.char;
  return out;
}

function schedulePreview() {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, 120);
}

async function preview() {
  const text = $("move-text").value.trim();
  if (!store.me || store.game.over || (!store.tentative.size && !text)) { update(s => { s.preview = ""; }); return; }
  const body = store.tentative.size ? {cells: cells()} : {move: text};
  const asked = JSON.stringify(body) + store.game.version;
  const ask = ++previewAsked;
  let line;
  try {
    const p = await seatApi("POST", `/api/games/${encodeURIComponent(gameId)}/preview`, body);
    if (!p.ok) line = p.error;
    else {
      line = `${p.move}: ${p.score} points — ` + p.words.map(w => `${w.word} ${w.score}`).join(", ") + (p.bingo ? " (bingo!)" : "");
      if (p.invalid_words && p.invalid_words.length) line += ` — not in the dictionary: ${p.invalid_words.join(", ")}`;
    }
  } catch (error) {
    line = error.message;
  }
  // an answer about tiles that are no longer down, or an older board, is dropped
  const now = store.tentative.size ? {cells: cells()} : {move: $("move-text").value.trim()};
  if (ask === previewAsked && JSON.stringify(now) + store.game.version === asked) update(s => { s.preview = line; });
}

// -- actions ----------------------------------------------------------------------------------
function newId() { return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2); }

// An action is made against the version shown. The server refuses it as stale only if the
// game itself changed since (a rack rearranged, a join or a seat given to the computer does
// not count), so a refusal means: look at the board again.
async function act(kind, extra) {
  if (!store.me) return false;
  if (store.busy) {
    say("Your last action is still on its way: wait for its answer, then try again.");
    return false;
  }
  // the note is emptied as the request goes: a refusal in the same words as the last is then
  // written, and read out, again
  update(s => { s.busy = true; s.message = ""; });
  try {
    const next = await seatApi("POST", `/api/games/${encodeURIComponent(gameId)}/actions`,
      Object.assign({version: store.game.version, kind, request_id: newId()}, extra || {}));
    store.busy = false;
    receive(next);  // draws the page, even when a newer state came first over the WebSocket
    return true;
  } catch (error) {
    // the refusal says what is wrong once: the preview of the same move (often the same words) goes
    clearTimeout(previewTimer);
    previewAsked++;
    update(s => { s.busy = false; s.message = error.message; s.preview = ""; });
    if (error.code === "stale_version" && socket && socket.readyState === 1) socket.send("refresh");
    if (error.code === "token_expired") renewSeat();
    return false;
  }
}

async function saveRackOrder() {
  if (!store.me || !store.game || store.game.over) return;
  try {
    receive(await seatApi("POST", `/api/games/${encodeURIComponent(gameId)}/rack`, {order: tilesText(store.rack)}));
  } catch (error) {
    say(error.message);
  }
}

function moveRackTile(from, to) {
  if (from === to || store.exchangeMode) return;
  update(s => {
    s.tentative.clear();
    s.selected = null;
    const [tile] = s.rack.splice(from, 1);
    s.rack.splice(to, 0, tile);
  });
  changed();
  saveRackOrder();
}

function clickTile(index) {
  if (store.exchangeMode) {
    update(s => { if (s.exchangeSet.has(index)) s.exchangeSet.delete(index); else s.exchangeSet.add(index); });
    return;
  }
  pickTile(index);
}

/** After the tiles put down changed (the preview of tiles on the board follows in renderAll). */
function changed() {
  if (store.tentative.size) return;
  if ($("move-text").value.trim()) schedulePreview();
  else update(s => { s.preview = ""; });
}

async function submitPlacement() {
  await act("place", {cells: cells()});
}

// seconds before the next reconnect: doubles after each connection that brought no state
// (the server busy, the database away, too many attempts), back to 1 once a state arrives
let retryDelay = 1;
// A connection closed that brings no state again within OFFLINE_AFTER ms is said to be lost (a
// reconnect that takes a moment, or a new connection for another seat, is not)
const OFFLINE_AFTER = 2000;
let offlineTimer = null;
// While the page waits for another player, it asks for the state again now and then: a push
// that never arrived (a server restarting, a database away for a moment) would otherwise leave
// a player unaware that their turn, and their clock, had begun.
const WAITING_REFRESH = window.qizaWaitingRefresh || 20_000;  // (tests set a shorter one)
setInterval(() => {
  const game = store.game;
  if (socket && socket.readyState === 1 && game && !game.over && !game.aborted && store.me && game.to_move !== store.me.seat) {
    socket.send("refresh");
  }
}, WAITING_REFRESH);

/** Refusals of the seat and token this page holds (from a link) that mean the link is no
    good: a token that is not the seat's, a seat the game does not have, a seat or token the
    server cannot read. The page says so in its own words, which tell nothing of the seats (the
    server's refusals name the seat). */
const LINK_REFUSED = new Set(["wrong_token", "no_such_seat", "malformed_request"]);

// The seat's token is unknown or belonged to a sign-in that ended: watch, or, signed in, take the
// seat again with a new token.
async function renewSeat() {
  localStorage.removeItem(qiza.seatKey(gameId));
  store.me = null;
  await claimAccountSeat(gameId);
  if (store.me) store.linkRefused = false;  // signed in, the account's seat: playing again
  connect();
}

let retryTimer = null;  // the next try to reconnect
// the device online again (a laptop woken, the Wi-Fi back): try at once, not after the wait
window.addEventListener("online", () => {
  retryDelay = 1;  // a try under way that the line's change cuts is followed by one a second later
  if (retryTimer === null) return;  // connected, or connecting
  connect();
});

function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  if (socket) { socket.onclose = null; socket.close(); }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const live = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
  socket = live;
  // the seat and token go in the first message, never in the URL (servers log URLs)
  live.onopen = () => live.send(JSON.stringify(store.me ? {seat: store.me.seat, token: store.me.token} : {}));
  socket.onmessage = event => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      retryDelay = 1;
      clearTimeout(offlineTimer);
      offlineTimer = null;
      store.offline = false;  // (drawn by the state's render)
      qiza.heardServerTime(message.server_time);
      receive(message.state);
    }
    else if (message.type === "error") {
      const code = message.error.code;
      if (store.me && LINK_REFUSED.has(code)) {
        // watching from now on, and the page says why (renderJoin), not the server's words
        update(s => { s.linkRefused = true; s.message = ""; });
        renewSeat();
        return;
      }
      // nothing is drawn before the first state (render waits for a game): the refusal is
      // written alone, and the first state's render clears it
      if (store.game) say(message.error.message);
      else setText($("message"), message.error.message);
      if (code === "token_expired") renewSeat();
    }
  };
  socket.onclose = () => {
    if (offlineTimer === null) offlineTimer = setTimeout(() => update(st => { st.offline = true; }), OFFLINE_AFTER);
    retryTimer = setTimeout(connect, retryDelay * 1000);
    retryDelay = Math.min(retryDelay * 2, 30);
  };
}

async function setup() {
  loadSeat();
  setRenderer(renderAll);
  setBoardHooks({submit: submitPlacement, changed});
  setRackHooks({click: clickTile, move: moveRackTile});
  setupSeats({gameId, say, seatApi, seatHeaders, connect, receive});
  $("sound").checked = localStorage.getItem("qiza-sound") === "1";
  $("sound").addEventListener("change", () => localStorage.setItem("qiza-sound", $("sound").checked ? "1" : "0"));
  $("play").addEventListener("click", () => {
    if (store.tentative.size) submitPlacement();
    else if ($("move-text").value.trim()) $("keyboard-form").requestSubmit();
    else say("Put tiles on the board first (drag them, pick a tile then a square, or click a square and type).");
  });
  $("recall").addEventListener("click", () => { update(s => { s.tentative.clear(); s.selected = null; }); changed(); });
  $("shuffle").addEventListener("click", () => {
    update(s => {
      s.tentative.clear();
      const rack = s.rack;
      for (let i = rack.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [rack[i], rack[j]] = [rack[j], rack[i]]; }
    });
    changed();
    saveRackOrder();
  });
  $("resign").addEventListener("click", () => {
    $("resign-dialog").showModal();
    $("resign-cancel").focus();
  });
  $("resign-cancel").addEventListener("click", () => $("resign-dialog").close());
  $("resign-confirm").addEventListener("click", async () => {
    $("resign-dialog").close();
    await act("resign");
  });
  $("exchange").addEventListener("click", () => {
    update(s => {
      s.exchangeMode = !s.exchangeMode;
      s.exchangeSet.clear();
      s.tentative.clear();
      s.message = s.exchangeMode ? "Choose the tiles to exchange, then press Exchange selected." : "";
    });
    changed();
  });
  $("confirm-exchange").addEventListener("click", () => {
    if (!store.exchangeSet.size) { say("Choose at least one tile to exchange."); return; }
    act("exchange", {tiles: tilesText([...store.exchangeSet].map(i => store.rack[i]))});
  });
  // Escape leaves the choice of tiles to exchange, or lets go of a picked tile
  letGoOnEscape(() => {
    if (!store.exchangeMode) return false;
    $("exchange").click();
    return true;
  });
  // a pass cannot be taken back and costs the turn: asked first, as resigning is
  $("pass").addEventListener("click", () => {
    passVersion = store.game.version;
    renderPassQuestion();
    $("pass-dialog").showModal();
    $("pass-cancel").focus();
  });
  $("pass-cancel").addEventListener("click", () => $("pass-dialog").close());
  $("pass-confirm").addEventListener("click", async () => {
    $("pass-dialog").close();
    // made against the game the question was about: changed since, the server refuses it as stale
    await act("pass", {version: passVersion});
  });
  $("challenge").addEventListener("click", () => act("challenge"));
  $("keyboard-form").addEventListener("submit", async e => {
    e.preventDefault();
    const text = $("move-text").value.trim();
    if (!text) return;
    if (await act("place", {move: text})) $("move-text").value = "";
  });
  $("move-text").addEventListener("input", () => { if (!store.tentative.size) schedulePreview(); });
  $("rack").addEventListener("dragover", e => e.preventDefault());
  $("rack").addEventListener("drop", e => {
    e.preventDefault();
    const data = e.dataTransfer.getData("text/plain");
    if (data.startsWith("board:")) { update(s => { s.tentative.delete(Number(data.slice(6))); }); changed(); }
  });
  $("show-analysis").addEventListener("click", () => showAnalysis(gameId, store.game.players.map(p => p.name), say));
  window.addEventListener("hashchange", () => {
    const before = JSON.stringify(store.me);
    loadSeat();
    if (JSON.stringify(store.me) !== before) connect();
    else render();
  });
  setupClub({gameId, say, receive, refresh: () => { if (socket && socket.readyState === 1) socket.send("refresh"); }});
  // the page's controls answer from the start (a chat tab chosen while the account is asked
  // for was lost); the seat is known before the socket opens
  await claimAccountSeat(gameId);
  connect();
}

document.addEventListener("DOMContentLoaded", setup);
