/* The game page's club parts: the seat an account holds, the clocks (the server's; the page
   only counts down between updates), chat, and abort / remind / claim / rematch / play again. Text written
   by people is put in the page as text, never as HTML. */
import {deviceDate, render, serverNow, setText, store} from "./state.js";
import {isGuest, named} from "./words.js";

const $ = id => document.getElementById(id);
let hooks = null;         // {gameId, say, receive, refresh}
let warned = "";          // the version and phase (low, overtime) last warned of
let chatChannel = "players";
const CHANNELS = ["players", "spectators"];
let chatAfter = {players: 0, spectators: 0};
let chatTimer = null;
let askTimer = null;      // a refresh while an ask that lapses (abort, rematch) is shown
let dueTimer = null;      // a drawing when Remind or Claim comes due (nothing is pushed then)
const LOW_TIME = 30_000;
const ASK_REFRESH = 60_000;

/** The seat this signed-in player's account holds in the game, if the browser has no token. */
export async function claimAccountSeat(gameId) {
  if (store.me) return;
  const user = await qiza.account();
  if (!user) return;
  try {
    const seat = await qiza.api("POST", `/api/games/${encodeURIComponent(gameId)}/my-seat`);
    store.me = {seat: seat.seat, token: seat.token};
    localStorage.setItem(qiza.seatKey(gameId), JSON.stringify(store.me));
  } catch (error) { /* not a player of this game: watch it */ }
}

/** The ms left on each seat's clock now: the running one less the time since the server read
    them (its server_time), on the server's clock (serverNow), whatever this device's says. */
function remaining(game) {
  const clock = game.clock;
  const since = Math.max(0, serverNow() - clock.server_time * 1000);
  return clock.remaining.map((ms, seat) => clock.running === seat ? ms - since : ms);
}

function renderClocks() {
  const game = store.game;
  const box = $("clocks");
  if (!game || !game.clock) { box.hidden = true; return; }
  box.hidden = false;
  const left = remaining(game);
  const control = game.clock.control;
  // no overtime: the server ends the game when a player's time runs out
  $("clock-control").textContent = `${control.minutes} min + ${control.increment} s; ` + (control.max_overtime
    ? `after that, 10 points a minute of overtime, the game lost after ${control.max_overtime} min over`
    : "the game is lost when a player's time runs out");
  const list = $("clock-list");
  if (list.children.length !== left.length) {
    list.replaceChildren(...left.map((_, seat) => {
      const li = document.createElement("li");
      li.dataset.seat = String(seat);
      return li;
    }));
  }
  left.forEach((ms, seat) => {
    const li = list.children[seat];
    const penalty = ms < 0 ? ` (overtime: ${qiza.numberText(-10 * Math.ceil(-ms / 60000))})` : "";
    setText(li, `${named(game.players[seat].name)}: ${qiza.clockText(ms)}${penalty}`);
    li.classList.toggle("running", game.clock.running === seat);
    li.classList.toggle("low", ms < LOW_TIME);
  });
  const mine = store.me ? store.me.seat : -1;
  // said once when the time runs low and once more when overtime begins, in each turn
  const warning = `${game.version} ${left[mine] < 0 ? "overtime" : "low"}`;
  if (mine >= 0 && game.clock.running === mine && left[mine] < LOW_TIME && warned !== warning) {
    warned = warning;
    $("clock-warning").textContent = left[mine] < 0 ? "You are in overtime: 10 points lost for each minute started."
      : "Less than 30 seconds left on your clock.";
  } else if (game.clock.running !== mine) {
    setText($("clock-warning"), "");
  }
}

function seatBody() { return {seat: store.me.seat, token: store.me.token}; }

async function clubAction(path) {
  try {
    hooks.receive(await qiza.api("POST", `/api/games/${encodeURIComponent(hooks.gameId)}/${path}`, seatBody()));
  } catch (error) { hooks.say(error.message); }
}

function renderActions() {
  const game = store.game;
  const me = store.me;
  const status = [];
  const inGame = !!me && !game.players[me.seat].out;  // a player out of a game of three is refused these
  // the server says whether the game may still be aborted (the turns as the rules count them)
  $("abort").hidden = !inGame || !game.abort_open || game.abort_asked.includes(me.seat);
  // who must agree, as the server counts them: the people seated and still in (computers agree at
  // once, and a seat nobody took has nobody to ask)
  const people = game.players.filter(p => p.kind === "person" && p.joined && !p.out).length;
  $("abort").textContent = people <= 1 ? "Abort" : people === 2 ? "Abort (both must agree)" : "Abort (every player must agree)";
  if (game.aborted) status.push("This game was aborted by its players: no result, no rating.");
  else if (game.abort_asked.length && !game.over) {
    status.push(`Asked to abort: ${game.abort_asked.map(s => named(game.players[s].name)).join(", ")}.`);
  }
  // Remind and Claim show when they can work: a person who took the seat to move, idle for the
  // server's wait (remind_at), not reminded yet; then claimed from the reminder's claim_at (times of
  // the server, compared with the server's time now: serverNow, so that a device whose clock is
  // wrong shows them neither early nor late)
  const reminder = game.reminder;  // the one sent since the player to move last moved, if any
  const waitingFor = game.players[game.to_move];
  const idle = !game.over && !game.aborted && game.remind_at !== null && inGame && game.to_move !== me.seat
    && waitingFor.kind === "person" && waitingFor.joined && !waitingFor.out;
  const now = serverNow() / 1000;
  const remindIn = idle && !reminder ? Math.max(0, game.remind_at - now) : null;
  const claimIn = idle && reminder ? Math.max(0, reminder.claim_at - now) : null;
  $("remind").hidden = remindIn === null || remindIn > 0;
  $("claim").hidden = claimIn === null || claimIn > 0;
  clearTimeout(dueTimer);
  const due = remindIn || claimIn;
  if (due) dueTimer = setTimeout(render, Math.min(due * 1000 + 50, 2 ** 31 - 1));
  if (reminder && !game.over) {
    const when = deviceDate(reminder.claim_at).toLocaleString();  // as this device's clock will read then
    status.push(me && me.seat === reminder.seat ? `You were reminded to play: the game can be claimed from ${when}.`
      : `${named(game.players[reminder.seat].name)} was reminded; the game can be claimed from ${when}.`);
  }
  // a game against the computer only: a new one at once (the club's rematch is for people together)
  $("play-again").hidden = !(game.over && !game.aborted && me
    && game.players.every((p, seat) => seat === me.seat || p.kind === "computer"));
  const everyAccount = game.accounts.every(Boolean);
  const offer = game.rematch;
  // an ask lapses on the server without a change of the game, so nothing is pushed: look again
  const asking = (game.abort_asked.length && !game.over && !game.aborted) || (offer && !offer.game && offer.asked.length);
  if (asking && !askTimer && hooks.refresh) askTimer = setTimeout(() => { askTimer = null; hooks.refresh(); }, ASK_REFRESH);
  $("rematch").hidden = !(game.over && !game.aborted && me && everyAccount && qiza.user)
    || !!(offer && (offer.game || offer.asked.includes(me.seat)));
  const link = $("rematch-link");
  link.hidden = !(offer && offer.game);
  if (offer && offer.game) {
    link.href = "/game/" + encodeURIComponent(offer.game);
    status.push("The rematch is on.");
    if (me && sessionStorage.getItem("qiza-rematch-" + hooks.gameId) !== offer.game) {
      sessionStorage.setItem("qiza-rematch-" + hooks.gameId, offer.game);
      if (offer.asked.includes(me.seat)) location.href = link.href;
    }
  } else if (offer && offer.asked.length) {
    status.push(`Rematch asked by ${offer.asked.map(s => named(game.players[s].name)).join(", ")}.`);
  }
  const changes = game.rating_changes;
  if (changes) {
    status.push(`Ratings (${changes.variant}): ` + game.players.map((p, i) =>
      `${named(p.name)} ${changes.before[i]} → ${changes.after[i]}`).join(", ") + ".");
  }
  if (game.not_rated) status.push(`Not rated: ${game.not_rated}.`);
  setText($("club-status"), status.join(" "));
}

function renderChatForm() {
  const game = store.game;
  const playing = !!store.me;
  for (const channel of CHANNELS) {  // tabs: the chosen one is the tab list's one Tab stop and names the panel
    const tab = $(`chat-${channel}-tab`);
    tab.setAttribute("aria-selected", String(chatChannel === channel));
    tab.tabIndex = chatChannel === channel ? 0 : -1;
  }
  $("chat-panel").setAttribute("aria-labelledby", `chat-${chatChannel}-tab`);
  if (!game) return;  // a tab chosen before the game's state arrived: drawn with it
  const canWrite = chatChannel === "players" ? playing : !playing && !!qiza.user;
  $("chat-form").hidden = !canWrite;
  setText($("chat-note"), chatChannel === "spectators" && playing && !game.over && !game.aborted
    ? "The spectators' chat opens to the players when the game is over."
    : spectatorsChatClosed(game)
      ? "Sign in to read the spectators' chat while the game is on; anyone may read it once the game is over."
      : !canWrite ? (chatChannel === "players" ? "Only the players write here." : "Sign in to write here.") : "");
}

/** Whether the server refuses this page the spectators' chat for now: nobody signed in and the game on
   (a guest player could read it by leaving out their seat token otherwise). */
function spectatorsChatClosed(game) {
  return chatChannel === "spectators" && !store.me && !qiza.user && !game.over && !game.aborted;
}

/** Draws the clocks, chat controls and club actions (called with the rest of the page). */
export function renderClub() {
  if (!store.game) return;
  renderClocks();
  renderActions();
  renderChatForm();
}

async function pollChat() {
  const channel = chatChannel;
  const game = store.game;
  if (!game) return;
  if (channel === "spectators" && (store.me || spectatorsChatClosed(game)) && !game.over && !game.aborted) {
    $("chat-messages").replaceChildren();
    return;
  }
  const headers = store.me ? {"X-Seat-Token": store.me.token} : {};
  const seat = store.me ? `&seat=${store.me.seat}` : "";
  try {
    const data = await qiza.api("GET", `/api/games/${encodeURIComponent(hooks.gameId)}/chat?channel=${channel}` +
      `&after=${chatAfter[channel]}${seat}`, undefined, headers);
    if (channel !== chatChannel) return;
    // the newest message stays in view, unless the reader scrolled up to older ones
    const box = $("chat-messages");
    const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 2;
    for (const m of data.messages) {
      const li = document.createElement("li");
      const who = document.createElement("strong");
      const player = m.seat === null || m.seat === undefined ? null : store.game.players[m.seat];
      who.textContent = m.author + (player && isGuest(player) ? " (guest)" : "") + ": ";
      li.append(who, m.text);  // text, never HTML
      $("chat-messages").appendChild(li);
      chatAfter[channel] = m.id;
    }
    if (atEnd && data.messages.length) box.scrollTop = box.scrollHeight;
  } catch (error) {
    if (error.status === 401) $("chat-note").textContent = error.message;  // signed out meanwhile: say why
    /* otherwise the next poll tries again */
  }
}

function switchChat(channel) {
  chatChannel = channel;
  chatAfter[channel] = 0;
  $("chat-messages").replaceChildren();
  renderChatForm();
  pollChat();
}

export function setupClub(given) {
  hooks = given;
  $("abort").addEventListener("click", () => clubAction("abort"));
  $("remind").addEventListener("click", () => clubAction("remind"));
  $("claim").addEventListener("click", () => clubAction("claim"));
  $("play-again").addEventListener("click", async () => {
    $("play-again").disabled = true;  // one new game a click
    try {
      const created = await qiza.api("POST", `/api/games/${encodeURIComponent(hooks.gameId)}/play-again`, seatBody());
      const [seat, token] = Object.entries(created.tokens)[0];
      // the token is kept in this browser, as the lobby's games' are: never in the page's address
      localStorage.setItem(qiza.seatKey(created.id), JSON.stringify({seat: Number(seat), token}));
      localStorage.setItem(qiza.inviteKey(created.id), created.invite);
      location.href = created.url;
    } catch (error) {
      $("play-again").disabled = false;
      hooks.say("Cannot start a new game: " + error.message);
    }
  });
  $("rematch").addEventListener("click", async () => {
    try {
      const offer = await qiza.api("POST", `/api/games/${encodeURIComponent(hooks.gameId)}/rematch`);
      if (offer.game) location.href = "/game/" + encodeURIComponent(offer.game);
      else hooks.say("Rematch asked: it starts when the other player asks too.");
    } catch (error) { hooks.say(error.message); }
  });
  $("chat-players-tab").addEventListener("click", () => switchChat("players"));
  $("chat-spectators-tab").addEventListener("click", () => switchChat("spectators"));
  // the arrow keys, Home and End move between the tabs and choose, as in every tab list
  $("chat-players-tab").parentElement.addEventListener("keydown", e => {
    const at = CHANNELS.indexOf(chatChannel);
    const to = {ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: CHANNELS.length - 1}[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const channel = CHANNELS[(to + CHANNELS.length) % CHANNELS.length];
    if (channel !== chatChannel) switchChat(channel);
    $(`chat-${channel}-tab`).focus();
  });
  $("chat-form").addEventListener("submit", async e => {
    e.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    const body = Object.assign({channel: chatChannel, text}, chatChannel === "players" ? seatBody() : {});
    try {
      await qiza.api("POST", `/api/games/${encodeURIComponent(hooks.gameId)}/chat`, body);
      $("chat-text").value = "";
      pollChat();
    } catch (error) { $("chat-note").textContent = error.message; }
  });
  setInterval(() => { if (store.game && store.game.clock) renderClocks(); }, 250);
  chatTimer = setInterval(pollChat, 2000);
  pollChat();
  return chatTimer;
}
