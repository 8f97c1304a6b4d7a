/* Seats: joining with an invite link, and the creator's invite link and free seats. */
import {render, setText, store} from "./state.js";
import {named} from "./words.js";

const $ = id => document.getElementById(id);
let ctx = null;            // {gameId, say, seatApi, seatHeaders, connect, receive} from game.js
let inviteAsked = false;   // the creator asked the server for the invite (once per page)

function path(tail) { return `/api/games/${encodeURIComponent(ctx.gameId)}${tail}`; }
function watchLink() { return `${location.origin}/game/${encodeURIComponent(ctx.gameId)}`; }
function inviteLink() { return `${watchLink()}#invite=${encodeURIComponent(store.invite)}`; }
function isCreator() {
  const me = store.me;
  return Boolean(me) && store.game.seat === me.seat && store.game.creator_seat === me.seat;
}
/** " (Ann)" after "seat 2": the seat's name, or nothing for the name the server gives a seat
    nobody named ("Seat 2"), which read "seat 2 (Seat 2)". */
function seatName(p) { return p.name === `Seat ${p.seat + 1}` ? "" : ` (${named(p.name)})`; }
function freeSeats() { return store.game.over ? [] : store.game.players.filter(p => p.kind === "person" && !p.joined); }
function loadInvite() { store.invite = localStorage.getItem(qiza.inviteKey(ctx.gameId)); }
function storeInvite(value) {
  store.invite = value;
  if (value) localStorage.setItem(qiza.inviteKey(ctx.gameId), value);
  else localStorage.removeItem(qiza.inviteKey(ctx.gameId));
}

export function renderJoin() {
  const game = store.game;
  loadInvite();
  const open = freeSeats();
  $("join").hidden = Boolean(store.me) || !open.length || !store.invite;
  // signed in, the account takes the seat under its own name
  $("join-name-label").hidden = $("join-guest").hidden = Boolean(qiza.user);
  const seats = $("open-seats");
  seats.replaceChildren(...open.map(p => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = `Take seat ${p.seat + 1}`;
    button.addEventListener("click", () => join(p.seat));
    return button;
  }));
  $("copy-invite").hidden = !store.invite || !open.length;
  $("invite-hint").hidden = !store.invite || !open.length || !store.me;
  const turn = game.players[game.to_move];
  const waiting = $("waiting");
  waiting.hidden = !open.some(p => p.seat === game.to_move);
  if (!waiting.hidden) {
    setText(waiting, isCreator()
      ? `It is seat ${turn.seat + 1}'s turn${seatName(turn)}, but nobody has taken that seat yet. Send the invite link, ` +
        "or let the computer play it (under Free seats)."
      : `Waiting for someone to take seat ${turn.seat + 1}${seatName(turn)}, whose turn it is. ` +
        "The player who created the game can let the computer play it.");
  }
  if (!store.me && !store.message && (store.linkRefused || !game.over)) {
    const ask = open.length && !store.invite ? " To play, ask for the invite link." : "";
    setText($("message"), store.linkRefused
      ? "This link's seat token is not valid (the seat may have been taken again or the link mistyped): " +
        `you are watching this game.${ask}`
      : `You are watching this game.${ask}`);
  }
}

export function renderCreator() {
  const creator = isCreator();
  const open = freeSeats();
  const managing = creator && open.length > 0;
  if (managing && !inviteAsked) { inviteAsked = true; fetchInvite(); }
  $("invite-link-label").hidden = !managing || !store.invite;
  if (store.invite) $("invite-link").value = inviteLink();
  $("invite-manage").hidden = !managing;
  $("invite-closed").hidden = !managing || Boolean(store.invite) || !store.inviteStatus;
  $("new-invite").hidden = !managing;
  $("withdraw-invite").hidden = !managing || !store.invite;
  $("free-seats").hidden = !managing;
  if (!managing) return;
  if (!store.meta) { qiza.api("GET", "/api/meta").then(m => { store.meta = m; render(); }).catch(() => {}); return; }
  const list = $("free-list");
  const shown = [...list.children].map(li => li.dataset.seat).join(",");
  if (shown === open.map(p => p.seat).join(",")) return;  // keep the levels chosen so far
  list.replaceChildren();
  for (const p of open) {
    const li = document.createElement("li");
    li.dataset.seat = p.seat;
    const label = document.createElement("label");
    setText(label, `Seat ${p.seat + 1}${seatName(p)}: computer level `);
    const level = document.createElement("select");
    level.className = "free-level";
    for (const name of store.meta.levels) {
      const opt = document.createElement("option");
      opt.value = name; opt.textContent = name;
      level.appendChild(opt);
    }
    level.value = store.meta.default_level;
    label.appendChild(level);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "seat-computer";
    button.textContent = `Let the computer play seat ${p.seat + 1}`;
    button.addEventListener("click", () => seatComputer(p.seat, level.value));
    li.append(label, button);
    list.appendChild(li);
  }
}

async function fetchInvite() {
  try {
    const found = await qiza.api("GET", path(`/invite?seat=${store.me.seat}`), undefined, ctx.seatHeaders());
    storeInvite(found.invite);
    store.inviteStatus = "";
  } catch (error) {
    if (error.code === "invite_closed" || error.code === "invite_unavailable") {
      storeInvite(null);
      store.inviteStatus = error.code === "invite_closed" ? "closed" : "unavailable";
    }
  }
  render();
}

async function changeInvite(method) {
  try {
    const tail = "/invite" + (method === "DELETE" ? `?seat=${store.me.seat}` : "");
    const found = method === "POST" ? await ctx.seatApi("POST", path(tail), {})
      : await qiza.api(method, path(tail), undefined, ctx.seatHeaders());
    storeInvite(found.invite);
    store.inviteStatus = found.invite ? "" : "closed";
    ctx.say(found.invite ? "New invite link made: send it again; the old link no longer works."
                         : "Invite link withdrawn: nobody can take a free seat until you make a new one.");
  } catch (error) {
    ctx.say(error.message);
  }
}

async function seatComputer(seat, level) {
  try {
    ctx.receive(await ctx.seatApi("POST", path(`/seats/${seat}/computer`), {level}));
    ctx.say(`The computer (${level}) plays seat ${seat + 1} now.`);
  } catch (error) {
    ctx.say(error.message);
  }
}

async function join(seat) {
  try {
    const answer = await qiza.api("POST", path("/join"), {seat, name: $("join-name").value, invite: store.invite});
    store.me = {seat, token: answer.token};
    localStorage.setItem(qiza.seatKey(ctx.gameId), JSON.stringify(store.me));
    ctx.connect();
  } catch (error) {
    if (["invite_revoked", "invite_closed", "wrong_invite"].includes(error.code)) {
      storeInvite(null);
      render();
    }
    ctx.say(error.message);
  }
}

/** Wires the seat buttons; ``given`` is game.js's {gameId, say, seatApi, seatHeaders, connect, receive}. */
export function setupSeats(given) {
  ctx = given;
  loadInvite();
  const copy = async (text, what) => {
    try { await navigator.clipboard.writeText(text); ctx.say(`${what} copied.`); } catch (e) { ctx.say(`${what}: ${text}`); }
  };
  $("copy-invite").addEventListener("click", () => copy(inviteLink(), "Invite link (to take a seat)"));
  $("new-invite").addEventListener("click", () => changeInvite("POST"));
  $("withdraw-invite").addEventListener("click", () => changeInvite("DELETE"));
  $("invite-link").addEventListener("focus", () => $("invite-link").select());
  $("copy-watch").addEventListener("click", () => copy(watchLink(), "Link to watch"));
}
