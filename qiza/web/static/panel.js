/* Everything on the game page but the board, drawn from the store: whose turn, the scores, the
   rack and the controls, the recent events, the tile tracker, the score sheet and the game over box. */
import {setText, store, tileLabels} from "./state.js";
import {tileElement, tileValue, usedIndexes} from "./board.js";
import {endText, eventText, isGuest, named, notationText, playerLabel, plural, possessive, sheetMove, signed, winnerText}
  from "./words.js";

const $ = id => document.getElementById(id);
const EVENTS_SHOWN = 5;

let rackHooks = {click() {}, move() {}};

/** ``click(index)`` and ``move(from, to)``: what the rack's tiles do. */
export function setRackHooks(given) { rackHooks = given; }

export function myTurn() {
  const game = store.game;
  return Boolean(store.me) && game.seat === store.me.seat && !game.over && !game.aborted && game.to_move === store.me.seat
    && !meOut();
}

/** How this page's player left a game the others play on ("resigned", "lost on time", "left the
    game"), or "" while they are in it. */
export function meOut() {
  const game = store.game;
  const me = Boolean(store.me) && game.seat === store.me.seat ? game.players[game.seat] : null;
  return me && me.out ? me.out : "";
}

/** Whose turn it is, as the tab title and the line above the scores say it. */
export function turnText() {
  const game = store.game;
  if (game.over) return "Game over";
  if (game.aborted) return "Game aborted";  // (by its players: it never goes on)
  if (myTurn()) return "Your turn";
  const p = game.players[game.to_move];
  const whose = p.kind === "person" && !p.joined ? `Waiting for seat ${p.seat + 1}` : `${possessive(p.name)} turn`;
  // a player out of a game of three or four watches the others play on
  return meOut() ? `You ${meOut()} and are out of the game. ${whose}` : whose;
}

export function renderScoreboard() {
  const game = store.game;
  // the name keeps its isolate marks: the tab strip lays the title out by Unicode's rules too,
  // and a right-to-left name took the words beside it into its direction ("s turn — qiza'אבג")
  document.title = `${turnText()} — qiza`;
  // a new turn is said again even in the same words ("Your turn." when the computer's reply to
  // one's own move came before the answer to it): the status region's text is then set anew
  const turn = $("turn");
  const said = game.over ? `Game over. ${winnerText(game)}` : `${turnText()}.`;
  const key = `${game.over}/${game.aborted}/${game.to_move}/${game.history.length}`;
  if (turn.dataset.turn !== key) {
    turn.dataset.turn = key;
    setText(turn, said, true);
  } else {
    setText(turn, said);
  }
  turn.classList.toggle("mine", myTurn());
  const players = $("players");
  players.replaceChildren();
  for (const p of game.players) {
    const li = document.createElement("li");
    const turn = !game.over && game.to_move === p.seat;
    li.className = (turn ? "to-move " : "") + (p.you ? "you " : "") + (p.out ? "out" : "");
    const targets = game.rules.finish_line;
    const target = targets && targets[p.seat] !== undefined ? ` of ${targets[p.seat]}` : "";
    const name = playerName(p);
    const score = document.createElement("span");
    score.className = "score";
    const unit = document.createElement("span");
    unit.className = "unit";
    unit.textContent = " points";
    score.append(`${qiza.numberText(p.score)}${target}`, unit);
    const detail = document.createElement("span");
    detail.className = "detail";
    detail.textContent = p.out ? ` — ${p.out}, out of the game` : `, ${plural(p.rack_count, "tile")}`;
    const colon = document.createElement("span");
    colon.textContent = ":\u00a0";
    li.append(name, colon, score, detail);
    if (turn) {
      const note = document.createElement("span");
      note.className = "turn-note";
      note.textContent = " — to move";
      li.appendChild(note);
    }
    players.appendChild(li);
  }
}

/** A player's name in the scores: a link to the profile of the account that holds the seat, or
    the name marked "(guest)" (not on this page's own seat, which says "you"). */
function playerName(p) {
  const name = document.createElement(p.account ? "a" : "span");
  name.className = "name";
  name.textContent = playerLabel(p) + (p.you && p.name.toLowerCase() !== "you" ? " — you" : "");
  if (p.account) {
    name.href = "/player/" + encodeURIComponent(p.account);
    name.title = `Profile of ${p.account}`;
  } else if (isGuest(p) && !p.you) {
    const mark = document.createElement("span");
    mark.className = "guest";
    mark.textContent = " (guest)";
    name.appendChild(mark);
  }
  return name;
}

let rackDrawn = "";

export function renderRack() {
  const box = $("rack");
  const key = JSON.stringify([store.rack, [...store.tentative.values()].map(t => t.index), store.selected,
                              store.exchangeMode, [...store.exchangeSet], store.game.rules.tile_values]);
  if (key === rackDrawn && box.childElementCount) return;
  rackDrawn = key;
  // the tile that had the focus (picked with Enter or Space) keeps it once drawn again
  const focused = box.contains(document.activeElement) ? document.activeElement.dataset.index : null;
  box.replaceChildren();
  const used = usedIndexes();
  store.rack.forEach((ch, index) => {
    const tile = tileElement(ch);
    tile.setAttribute("role", "button");
    tile.tabIndex = 0;
    tile.classList.add("rack-tile");
    tile.dataset.index = index;
    tile.dataset.letter = ch;
    const name = ch === "?" ? "blank" : `${ch}, ${plural(tileValue(ch), "point")}`;
    if (used.has(index)) {
      tile.classList.add("used");
      tile.setAttribute("aria-label", `Tile ${name}, on the board`);
      tile.setAttribute("aria-disabled", "true");
    } else {
      tile.draggable = true;
      const choosing = store.exchangeMode ? (store.exchangeSet.has(index) ? ", chosen to exchange" : ", press to exchange") : "";
      tile.setAttribute("aria-label", `Tile ${name}${choosing}`);
      // pressed: picked to put on a square, or chosen to exchange
      tile.setAttribute("aria-pressed", String(store.exchangeMode ? store.exchangeSet.has(index) : store.selected === index));
    }
    if (store.selected === index) tile.classList.add("selected");
    if (store.exchangeSet.has(index)) tile.classList.add("chosen");
    tile.addEventListener("dragstart", e => e.dataTransfer.setData("text/plain", "rack:" + index));
    tile.addEventListener("dragover", e => e.preventDefault());
    tile.addEventListener("drop", e => {
      const data = e.dataTransfer.getData("text/plain");
      if (data.startsWith("rack:")) { e.preventDefault(); e.stopPropagation(); rackHooks.move(Number(data.slice(5)), index); }
    });
    tile.addEventListener("click", () => rackHooks.click(index));
    tile.addEventListener("keydown", e => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); rackHooks.click(index); } });
    box.appendChild(tile);
  });
  if (focused !== null && box.children[focused]) box.children[focused].focus({preventScroll: true});
}

export function renderControls() {
  const game = store.game;
  // a player out of the game (resigned, lost on time, left) is offered no move any more
  const mine = Boolean(store.me) && game.seat === store.me.seat && !meOut();
  $("rack-area").hidden = !mine;
  const ended = game.over || game.aborted;
  $("keyboard-form").hidden = !mine || ended;
  $("resign").closest("p").hidden = !mine || ended;
  setText($("preview"), store.preview);
  setText($("message"), store.message);
  if (!mine) return;
  setText($("notation-help"), notationText(game.rules.notation));
  const turn = myTurn();
  $("play-controls").hidden = ended;
  for (const id of ["play", "pass"]) $(id).disabled = !turn || store.busy;
  // (not while busy: Enter in the typed move's box submits through this button, and a move sent
  // while the last one is on its way is answered with a note rather than dropped in silence)
  $("play-typed").disabled = !turn;
  $("exchange").disabled = !turn || store.busy || !game.exchange_allowed;
  // greyed out by the bag: why, in the rule's words as the server says them (seen, and read out
  // with the button, which the hint describes)
  const refused = !ended && game.exchange_refused ? `No exchange: ${game.exchange_refused}.` : "";
  setText($("exchange-hint"), refused);
  $("exchange-hint").hidden = !refused;
  if (refused) $("exchange").title = refused;
  else $("exchange").removeAttribute("title");
  $("exchange").textContent = store.exchangeMode ? "Cancel exchange" : "Exchange…";
  $("confirm-exchange").hidden = !store.exchangeMode;
  $("confirm-exchange").disabled = store.busy;
  $("challenge").hidden = !game.can_challenge;
  $("challenge").disabled = store.busy;
  $("resign").disabled = store.busy;
}

/** The last few events, newest first, from the score sheet: they stay until newer ones come. */
export function renderEvents() {
  const game = store.game;
  const list = $("events");
  const first = game.history.length - 1;
  // each event keyed by its turn and its words: one that stays is left in place, so that the
  // live list reads out only the new ones, not the last five again
  const wanted = game.history.slice(-EVENTS_SHOWN).reverse().map((r, i) => `${first - i}\u0000${eventText(r, game.players)}`);
  const shown = new Map([...list.children].map(li => [li.dataset.key, li]));
  const items = wanted.map(key => {
    if (shown.has(key)) return shown.get(key);
    const li = document.createElement("li");
    li.dataset.key = key;
    setText(li, key.slice(key.indexOf("\u0000") + 1));
    return li;
  });
  for (const li of [...list.children]) if (!items.includes(li)) li.remove();
  items.forEach((li, i) => {
    li.className = i === 0 ? "latest" : "";
    if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
  });
}

/** The unseen tiles grouped by letter, with counts. */
export function renderTracker() {
  const game = store.game;
  $("bag-count").textContent = `${plural(game.bag_count, "tile")} in the bag.`;
  const counts = new Map();
  for (const ch of tileLabels((game.unseen || "").replace(/\s/g, ""))) counts.set(ch, (counts.get(ch) || 0) + 1);
  const letters = [...counts.keys()].sort((a, b) => (a === "?") - (b === "?") || a.localeCompare(b));
  const list = $("tracker");
  list.replaceChildren(...letters.map(ch => {
    const li = document.createElement("li");
    const n = counts.get(ch);
    li.dataset.letter = ch;
    li.setAttribute("aria-label", `${ch === "?" ? "blank" : ch}: ${n}`);
    const letter = document.createElement("span");
    letter.className = "letter";
    letter.textContent = ch === "?" ? "?" : ch;
    const count = document.createElement("span");
    count.className = "count";
    count.textContent = n;
    li.append(letter, count);
    return li;
  }));
  if (!letters.length) {
    const li = document.createElement("li");
    li.textContent = "none";
    list.appendChild(li);
  }
  // the tile set's vowels as the server names them (Ą, Ö, and Y in German and Polish), as the terminal counts them
  const vowelLabels = new Set(game.rules.vowels || []);
  const vowels = tileLabels(game.unseen || "").filter(ch => vowelLabels.has(ch)).length;
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  $("unseen-title").textContent = `Unseen tiles (in the bag or on other racks): ${total}, ` +
    `${plural(vowels, "vowel")}, ${plural(total - vowels - (counts.get("?") || 0), "consonant")}` +
    (counts.get("?") ? `, ${plural(counts.get("?"), "blank")}` : "") + ".";
}

export function renderSheet() {
  const game = store.game;
  const body = $("sheet").tBodies[0];
  body.replaceChildren();
  game.history.forEach((r, i) => {
    const tr = document.createElement("tr");
    if (r.challenged_off) tr.className = "struck";
    for (const v of [i + 1, game.players[r.seat].name, r.rack, sheetMove(r), qiza.numberText(r.score), qiza.numberText(r.total)]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    // each word of the move is kept whole: a line may break at its spaces, not inside "[CH][LL]"
    tr.cells[3].replaceChildren(...sheetMove(r).split(" ").flatMap((word, k) => {
      const span = document.createElement("span");
      span.className = "word";
      span.textContent = word;
      return k ? [" ", span] : [span];
    }));
    tr.title = eventText(r, game.players);  // a tooltip is laid out as the title is: the marks stay
    body.appendChild(tr);
  });
}

export function renderChallengeWindow() {
  const game = store.game;
  const box = $("challenge-window");
  box.hidden = !game.challenge_window;
  if (game.challenge_window) {
    const w = game.challenge_window;
    // the words formed, unless the move already spells its only one ("H8 FORD", not "H8 FORD (FORD)")
    const spelt = w.words.length === 1 && w.move.split(" ").pop().toUpperCase() === w.words[0].toUpperCase();
    const words = spelt ? "" : ` (${w.words.join(", ")})`;
    setText(box, `${named(game.players[w.seat].name)} played ${w.move}${words} for ${plural(w.score, "point")}. ` +
      (game.can_challenge ? "You may challenge it until the next player starts their turn." : "Other players may challenge it."));
  }
}

/** The note that the live connection is down (the page then shows the game as it last heard of it). */
export function renderConnection() {
  const box = $("connection");
  box.hidden = !store.offline;
  if (store.offline) {
    setText(box, "The connection to the server was lost: trying again. Until it is back, moves made " +
      "meanwhile do not show here.");
  }
}

let summaryShown = false;

/** The game over box: who went out, the scores before and after the unplayed tiles, the winner. */
export function renderSummary() {
  const game = store.game;
  const box = $("summary");
  box.hidden = !game.over;
  if (!game.over) return;
  setText($("summary-text"), `${endText(game)} ${winnerText(game)}`);
  const before = game.scores_before_end || game.players.map(p => p.score);
  // time penalties come at the end too: their own column, not counted as tiles left
  const time = game.players.map(() => 0);
  for (const r of game.history) if (r.kind === "time-penalty") time[r.seat] += r.score;
  const timed = time.some(t => t !== 0);
  $("summary-time").hidden = !timed;
  const body = $("summary-scores").tBodies[0];
  body.replaceChildren();
  for (const p of game.players) {
    const tr = document.createElement("tr");
    if (game.winners.includes(p.seat)) tr.className = "winner";
    const tiles = p.score - before[p.seat] - time[p.seat];
    // the tiles still on the player's rack, beside what they cost
    const kept = game.history.find(r => r.kind === "end-rack-penalty" && r.seat === p.seat);
    // a player who left the game is placed below those who did not, whatever their score
    const place = game.places && game.places.length ? `, place ${game.places[p.seat]}` : "";
    const mark = game.winners.includes(p.seat) ? " (winner)" : p.out ? ` (${p.out}${place})` : "";
    for (const v of [p.name + mark, before[p.seat],
                     (kept && kept.rack ? `${kept.rack} ` : "") + signed(tiles), ...(timed ? [signed(time[p.seat])] : []), qiza.numberText(p.score)]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  $("gcg").href = `/api/games/${encodeURIComponent(game.id)}/gcg`;
  if (!summaryShown) {
    summaryShown = true;
    requestAnimationFrame(() => box.scrollIntoView({block: "nearest"}));
  }
}
