/* The game page: board, rack, drag-and-drop and keyboard play, live updates over WebSocket. */
"use strict";
(function () {
  const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const PREMIUM = {d: ["dl", "double letter", "DL"], t: ["tl", "triple letter", "TL"], q: ["ql", "quadruple letter", "QL"],
                   D: ["dw", "double word", "DW"], T: ["tw", "triple word", "TW"], Q: ["qw", "quadruple word", "QW"],
                   "*": ["dw star", "centre star, double word", "★"]};
  const $ = id => document.getElementById(id);
  let state = null;
  let me = null;            // {seat, token}
  let invite = null;        // the game's invite secret, if this browser was given the invite link
  let inviteAsked = false;  // the creator asked the server for the invite (once per page)
  let inviteStatus = "";    // the creator's invite: "" (open or not asked), "closed" or "unavailable"
  let meta = null;          // /api/meta (computer levels), fetched when first needed
  let rack = [];            // local order of rack tiles ("?" blank)
  let tentative = new Map(); // square -> {index, char}
  let selected = null;      // rack index picked for click placement
  let exchangeMode = false;
  const exchangeSet = new Set();
  let focusSquare = null;
  let direction = "across";
  let socket = null;
  let busy = false;
  let previewTimer = null;

  // -- seat and token -----------------------------------------------------------------------
  function loadSeat() {
    const hash = new URLSearchParams(location.hash.slice(1));
    if (hash.has("seat") && hash.has("token")) {
      localStorage.setItem(qiza.seatKey(gameId), JSON.stringify({seat: Number(hash.get("seat")), token: hash.get("token")}));
    }
    if (hash.has("invite")) localStorage.setItem(qiza.inviteKey(gameId), hash.get("invite"));
    if (location.hash) history.replaceState(null, "", location.pathname);
    try { me = JSON.parse(localStorage.getItem(qiza.seatKey(gameId)) || "null"); } catch (e) { me = null; }
    invite = localStorage.getItem(qiza.inviteKey(gameId));
  }

  function watchLink() { return `${location.origin}/game/${encodeURIComponent(gameId)}`; }
  function inviteLink() { return `${watchLink()}#invite=${encodeURIComponent(invite)}`; }

  function say(text) { $("message").textContent = text; }
  function seatHeaders() { return me ? {"X-Seat-Token": me.token} : {}; }
  function isCreator() { return Boolean(me) && state.seat === me.seat && state.creator_seat === me.seat; }
  function freeSeats() { return state.over ? [] : state.players.filter(p => p.kind === "person" && !p.joined); }
  function storeInvite(value) {
    invite = value;
    if (value) localStorage.setItem(qiza.inviteKey(gameId), value);
    else localStorage.removeItem(qiza.inviteKey(gameId));
  }

  // -- rendering --------------------------------------------------------------------------------
  function squareName(sq) {
    const size = state.rules.size;
    return String.fromCharCode(65 + (sq % size)) + (Math.floor(sq / size) + 1);
  }
  function tileValue(ch) {
    if (ch === "?" || ch === ch.toLowerCase()) return 0;
    return state.rules.tile_values[ch] || 0;
  }

  function renderBoard() {
    const board = $("board");
    const size = state.rules.size;
    const last = new Set(state.last_move);
    board.closest(".board-area").style.setProperty("--size", size);
    board.innerHTML = "";
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
      for (let c = 0; c < size; c++) {
        const sq = r * size + c;
        const code = state.rules.premiums[r][c];
        const letter = state.board[r][c];
        const div = cell("square", "", "gridcell");
        div.dataset.square = sq;
        div.id = "sq-" + squareName(sq);
        div.tabIndex = sq === (focusSquare ?? (Math.floor(size / 2) * size + Math.floor(size / 2))) ? 0 : -1;
        let label = squareName(sq);
        if (letter !== ".") {
          div.classList.add("filled");
          div.appendChild(tileElement(letter));
          label += `, ${letter === letter.toLowerCase() ? "blank as " + letter.toUpperCase() : letter}`;
          if (last.has(sq)) { div.classList.add("last"); label += ", last move"; }
        } else if (tentative.has(sq)) {
          const t = tentative.get(sq);
          div.classList.add("tentative");
          const tile = tileElement(t.char);
          tile.draggable = true;
          tile.addEventListener("dragstart", e => e.dataTransfer.setData("text/plain", "board:" + sq));
          div.appendChild(tile);
          label += `, your tile ${t.char === t.char.toLowerCase() ? "blank as " + t.char.toUpperCase() : t.char}, not played yet`;
        } else if (PREMIUM[code]) {
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
        div.setAttribute("aria-label", label);
        div.addEventListener("click", () => clickSquare(sq));
        div.addEventListener("dragover", e => { if (state.board[r][c] === ".") e.preventDefault(); });
        div.addEventListener("drop", e => { e.preventDefault(); dropOnSquare(sq, e.dataTransfer.getData("text/plain")); });
        div.addEventListener("keydown", e => boardKey(e, sq));
        div.addEventListener("focus", () => { focusSquare = sq; });
        row.appendChild(div);
      }
      board.appendChild(row);
    }
  }

  function cell(cls, text, role) {
    const div = document.createElement("div");
    div.className = cls;
    div.textContent = text;
    div.setAttribute("role", role);
    return div;
  }

  function tileElement(ch) {
    const tile = document.createElement("span");
    tile.className = "tile" + (ch === "?" || ch === ch.toLowerCase() ? " blank" : "");
    tile.textContent = ch === "?" ? "" : ch.toUpperCase();
    const points = document.createElement("sub");
    points.textContent = ch === "?" ? "" : tileValue(ch);
    tile.appendChild(points);
    return tile;
  }

  function usedIndexes() { return new Set([...tentative.values()].map(t => t.index)); }

  function renderRack() {
    const box = $("rack");
    box.innerHTML = "";
    const used = usedIndexes();
    rack.forEach((ch, index) => {
      const tile = tileElement(ch);
      tile.setAttribute("role", "listitem");
      tile.tabIndex = 0;
      tile.classList.add("rack-tile");
      tile.dataset.index = index;
      tile.dataset.letter = ch;
      const name = ch === "?" ? "blank" : `${ch}, ${tileValue(ch)} point${tileValue(ch) === 1 ? "" : "s"}`;
      if (used.has(index)) {
        tile.classList.add("used");
        tile.setAttribute("aria-label", `Tile ${name}, on the board`);
      } else {
        tile.draggable = true;
        tile.setAttribute("aria-label", `Tile ${name}` + (exchangeMode ? (exchangeSet.has(index) ? ", chosen to exchange" : ", press to exchange") : ""));
        if (exchangeMode) tile.setAttribute("aria-pressed", exchangeSet.has(index) ? "true" : "false");
      }
      if (selected === index) tile.classList.add("selected");
      if (exchangeSet.has(index)) tile.classList.add("chosen");
      tile.addEventListener("dragstart", e => e.dataTransfer.setData("text/plain", "rack:" + index));
      tile.addEventListener("dragover", e => e.preventDefault());
      tile.addEventListener("drop", e => {
        const data = e.dataTransfer.getData("text/plain");
        if (data.startsWith("rack:")) { e.preventDefault(); e.stopPropagation(); moveRackTile(Number(data.slice(5)), index); }
      });
      tile.addEventListener("click", () => clickTile(index));
      tile.addEventListener("keydown", e => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); clickTile(index); } });
      box.appendChild(tile);
    });
  }

  function renderSide() {
    const players = $("players");
    players.innerHTML = "";
    for (const p of state.players) {
      const li = document.createElement("li");
      const turn = !state.over && state.to_move === p.seat;
      li.className = (turn ? "to-move " : "") + (p.you ? "you" : "");
      const who = p.kind === "computer" ? ` (computer, ${p.level})` : (p.joined ? "" : " (free seat)");
      const targets = state.rules.finish_line;
      const target = targets && targets[p.seat] !== undefined ? ` of ${targets[p.seat]}` : "";
      const waiting = turn && p.kind === "person" && !p.joined ? " (waiting for someone to take this seat)" : "";
      li.textContent = `${p.name}${who}${p.you ? " — you" : ""}: ${p.score}${target} points, ${p.rack_count} tiles` +
        (turn ? " — to move" + waiting : "");
      players.appendChild(li);
    }
    $("bag-count").textContent = `${state.bag_count} tiles in the bag`;
    $("unseen").textContent = state.unseen || "—";
    const body = $("sheet").querySelector("tbody");
    body.innerHTML = "";
    state.history.forEach((r, i) => {
      const tr = document.createElement("tr");
      if (r.challenged_off) tr.className = "struck";
      const what = {"phony-removed": "challenged off: ", "failed-challenge": "failed challenge ", "lost-turn": "",
                    "end-rack-bonus": "others' tiles ", "end-rack-penalty": "unplayed tiles ",
                    "challenge-bonus": "challenge bonus ", "time-penalty": "penalty "}[r.kind] || "";
      const values = [i + 1, state.players[r.seat].name, r.rack, (what + (r.move || r.kind)).trim(), r.score, r.total];
      for (const v of values) { const td = document.createElement("td"); td.textContent = v; tr.appendChild(td); }
      if (r.note) tr.title = r.note;
      body.appendChild(tr);
    });
    const window_ = $("challenge-window");
    if (state.challenge_window) {
      const w = state.challenge_window;
      window_.hidden = false;
      window_.textContent = `Challenge window: ${state.players[w.seat].name} played ${w.move} (${w.words.join(", ")}) for ${w.score}. ` +
        (state.can_challenge ? "You may challenge it until the next player starts their turn." : "Other players may challenge it.");
    } else {
      window_.hidden = true;
    }
    const summary = $("summary");
    summary.hidden = !state.over;
    if (state.over) {
      const names = state.winners.map(s => state.players[s].name);
      const scores = state.players.map(p => `${p.name} ${p.score}`).join(", ");
      const reason = state.resigned !== null && state.resigned !== undefined
        ? `${state.players[state.resigned].name} resigned` : state.end_reason;
      $("summary-text").textContent = `The game is over: ${reason}. ` +
        (names.length > 1 ? `Shared win: ${names.join(" and ")}. ` : `${names[0]} wins. `) + `Final scores: ${scores}.`;
      $("gcg").href = `/api/games/${gameId}/gcg`;
    }
  }

  async function showAnalysis() {
    const button = $("show-analysis");
    button.disabled = true;
    button.textContent = "Analysing the game...";
    try {
      const data = await qiza.api("GET", `/api/games/${gameId}/analysis`);
      const num = v => (v === null || v === undefined ? "-" : v.toFixed(1));
      const cells = (row, values) => {
        for (const value of values) {
          const td = document.createElement("td");
          td.textContent = value;
          row.appendChild(td);
        }
      };
      const turns = $("analysis-turns").tBodies[0];
      turns.replaceChildren();
      for (const t of data.turns) {
        const tr = document.createElement("tr");
        const mistake = t.lost !== null && t.lost >= 5;
        cells(tr, [t.turn, t.player, t.rack, t.played + (t.note ? ` (${t.note})` : ""), t.score, num(t.equity),
                   t.best, num(t.best_equity), num(t.lost) + (mistake ? " !" : "")]);
        if (mistake) tr.classList.add("mistake");
        turns.appendChild(tr);
      }
      const players = $("analysis-players").tBodies[0];
      players.replaceChildren();
      for (const p of data.players) {
        const tr = document.createElement("tr");
        cells(tr, [p.player, p.rated, p.best_found, p.lost.toFixed(1), num(p.per_turn), p.mistakes]);
        players.appendChild(tr);
      }
      $("analysis").hidden = false;
      button.hidden = true;
    } catch (e) {
      say(`No analysis: ${e.message}`);
      button.disabled = false;
      button.textContent = "Show the analysis";
    }
  }

  function renderControls() {
    const mine = me && state.seat === me.seat;
    $("rack-area").hidden = !mine;
    if (!mine) return;
    const myTurn = !state.over && state.to_move === me.seat;
    $("play-controls").hidden = state.over;
    $("keyboard-form").hidden = state.over;
    for (const id of ["play", "pass", "play-typed"]) $(id).disabled = !myTurn || busy;
    $("exchange").disabled = !myTurn || busy || !state.exchange_allowed;
    $("exchange").textContent = exchangeMode ? "Cancel exchange" : "Exchange…";
    $("confirm-exchange").hidden = !exchangeMode;
    $("challenge").hidden = !state.can_challenge;
    $("challenge").disabled = busy;
    $("resign").hidden = state.over;
    $("resign").disabled = busy;
  }

  function render() {
    document.title = `qiza — ${state.players.map(p => p.name).join(" vs ")}`;
    renderBoard();
    renderRack();
    renderSide();
    renderControls();
    renderJoin();
    renderCreator();
  }

  function renderJoin() {
    const open = state.over ? [] : state.players.filter(p => p.kind === "person" && !p.joined);
    $("join").hidden = Boolean(me) || !open.length || !invite;
    const seats = $("open-seats");
    seats.innerHTML = "";
    for (const p of open) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = `Take seat ${p.seat + 1}`;
      button.addEventListener("click", () => join(p.seat));
      seats.appendChild(button);
    }
    $("copy-invite").hidden = !invite || !open.length;
    $("invite-hint").hidden = !invite || !open.length || !me;
    const turn = state.players[state.to_move];
    const waiting = $("waiting");
    waiting.hidden = !open.some(p => p.seat === state.to_move);
    if (!waiting.hidden) {
      waiting.textContent = isCreator()
        ? `It is seat ${turn.seat + 1}'s turn (${turn.name}), but nobody has taken that seat yet. Send the invite link, ` +
          "or let the computer play it (under Free seats)."
        : `Waiting for someone to take seat ${turn.seat + 1} (${turn.name}), whose turn it is. ` +
          "The player who created the game can let the computer play it.";
    }
    if (!me && !state.over) {
      say(open.length && !invite ? "You are watching this game. To play, ask for the invite link."
                                 : "You are watching this game.");
    }
  }

  // -- the creator: invite link and free seats --------------------------------------------------
  function renderCreator() {
    const creator = isCreator();
    const open = freeSeats();
    const managing = creator && open.length > 0;
    if (managing && !inviteAsked) { inviteAsked = true; fetchInvite(); }
    $("invite-link-label").hidden = !managing || !invite;
    if (invite) $("invite-link").value = inviteLink();
    $("invite-manage").hidden = !managing;
    $("invite-closed").hidden = !managing || Boolean(invite) || !inviteStatus;
    $("new-invite").hidden = !managing;
    $("withdraw-invite").hidden = !managing || !invite;
    $("free-seats").hidden = !managing;
    if (!managing) return;
    if (!meta) { qiza.api("GET", "/api/meta").then(m => { meta = m; renderCreator(); }).catch(() => {}); return; }
    const list = $("free-list");
    const shown = [...list.children].map(li => li.dataset.seat).join(",");
    if (shown === open.map(p => p.seat).join(",")) return;  // keep the levels chosen so far
    list.innerHTML = "";
    for (const p of open) {
      const li = document.createElement("li");
      li.dataset.seat = p.seat;
      const label = document.createElement("label");
      label.textContent = `Seat ${p.seat + 1} (${p.name}): computer level `;
      const level = document.createElement("select");
      level.className = "free-level";
      for (const name of meta.levels) {
        const opt = document.createElement("option");
        opt.value = name; opt.textContent = name;
        level.appendChild(opt);
      }
      level.value = meta.default_level;
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
      const found = await qiza.api("GET", `/api/games/${gameId}/invite?seat=${me.seat}`, undefined, seatHeaders());
      storeInvite(found.invite);
      inviteStatus = "";
    } catch (error) {
      if (error.code === "invite_closed" || error.code === "invite_unavailable") {
        storeInvite(null);
        inviteStatus = error.code === "invite_closed" ? "closed" : "unavailable";
      }
    }
    if (state) render();
  }

  async function changeInvite(method) {
    try {
      const path = `/api/games/${gameId}/invite` + (method === "DELETE" ? `?seat=${me.seat}` : "");
      const body = method === "POST" ? {seat: me.seat, token: me.token} : undefined;
      const found = await qiza.api(method, path, body, seatHeaders());
      storeInvite(found.invite);
      inviteStatus = found.invite ? "" : "closed";
      say(found.invite ? "New invite link made: send it again; the old link no longer works."
                       : "Invite link withdrawn: nobody can take a free seat until you make a new one.");
    } catch (error) {
      say(error.message);
    }
    render();
  }

  async function seatComputer(seat, level) {
    try {
      const next = await qiza.api("POST", `/api/games/${gameId}/seats/${seat}/computer`,
        {seat: me.seat, token: me.token, level});
      accept(next, false);
      say(`The computer (${level}) plays seat ${seat + 1} now.`);
    } catch (error) {
      say(error.message);
    }
  }

  // -- placing tiles ---------------------------------------------------------------------------------
  function askBlank() {
    const dialog = $("blank-dialog");
    const input = $("blank-letter");
    input.value = "";
    return new Promise(resolve => {
      const done = letter => { dialog.close(); cleanup(); resolve(letter); };
      const ok = e => { e.preventDefault(); const v = input.value.trim(); if (/^[A-Za-z]$/.test(v)) done(v.toLowerCase()); };
      const cancel = () => done(null);
      const cleanup = () => { $("blank-form").removeEventListener("submit", ok); $("blank-cancel").removeEventListener("click", cancel); };
      $("blank-form").addEventListener("submit", ok);
      $("blank-cancel").addEventListener("click", cancel);
      dialog.showModal();
      input.focus();
    });
  }

  async function place(index, sq) {
    if (!me || state.over || usedIndexes().has(index)) return;
    const [r, c] = [Math.floor(sq / state.rules.size), sq % state.rules.size];
    if (state.board[r][c] !== ".") return;
    if (tentative.has(sq)) tentative.delete(sq);
    let ch = rack[index];
    if (ch === "?") {
      ch = await askBlank();
      if (!ch) return;
    }
    tentative.set(sq, {index, char: ch});
    selected = null;
    focusSquare = sq;
    changed();
  }

  function changed() {
    renderBoard();
    renderRack();
    schedulePreview();
  }

  function dropOnSquare(sq, data) {
    if (data.startsWith("rack:")) place(Number(data.slice(5)), sq);
    else if (data.startsWith("board:")) {
      const from = Number(data.slice(6));
      const t = tentative.get(from);
      if (t && !tentative.has(sq)) { tentative.delete(from); tentative.set(sq, t); changed(); }
    }
  }

  function clickTile(index) {
    if (exchangeMode) {
      if (exchangeSet.has(index)) exchangeSet.delete(index); else exchangeSet.add(index);
      renderRack();
      return;
    }
    if (usedIndexes().has(index)) return;
    selected = selected === index ? null : index;
    renderRack();
    say(selected === null ? "" : `Tile ${rack[index] === "?" ? "blank" : rack[index]} picked: choose a square.`);
  }

  function clickSquare(sq) {
    if (tentative.has(sq)) { tentative.delete(sq); changed(); return; }
    if (selected !== null) place(selected, sq);
  }

  function boardKey(e, sq) {
    const size = state.rules.size;
    let r = Math.floor(sq / size), c = sq % size;
    const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
    if (moves[e.key]) {
      e.preventDefault();
      r = Math.min(size - 1, Math.max(0, r + moves[e.key][0]));
      c = Math.min(size - 1, Math.max(0, c + moves[e.key][1]));
      focusOn(r * size + c);
    } else if (e.key === " ") {
      e.preventDefault();
      direction = direction === "across" ? "down" : "across";
      say(`Typing ${direction}.`);
    } else if (e.key === "Backspace" || e.key === "Delete") {
      e.preventDefault();
      if (tentative.has(sq)) { tentative.delete(sq); changed(); focusOn(sq); }
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (tentative.size) submitPlacement();
      else clickSquare(sq);
    } else if (/^[a-zA-Z]$/.test(e.key) && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      typeLetter(sq, e.key);
    }
  }

  function typeLetter(sq, key) {
    const used = usedIndexes();
    const upper = key.toUpperCase();
    let index = rack.findIndex((ch, i) => ch === upper && !used.has(i));
    let ch = upper;
    if (index < 0) {
      index = rack.findIndex((t, i) => t === "?" && !used.has(i));
      ch = upper.toLowerCase();
    }
    if (index < 0) { say(`No ${upper} on your rack.`); return; }
    const size = state.rules.size;
    const [r, c] = [Math.floor(sq / size), sq % size];
    if (state.board[r][c] !== ".") return;
    tentative.set(sq, {index, char: ch});
    // advance past filled squares in the typing direction
    let nr = r, nc = c;
    do {
      if (direction === "across") nc++; else nr++;
    } while (nr < size && nc < size && (state.board[nr][nc] !== "." || tentative.has(nr * size + nc)));
    changed();
    focusOn(nr < size && nc < size ? nr * size + nc : sq);
  }

  function focusOn(sq) {
    focusSquare = sq;
    for (const el of document.querySelectorAll("#board .square[tabindex='0']")) el.tabIndex = -1;
    const el = document.querySelector(`#board .square[data-square='${sq}']`);
    if (el) { el.tabIndex = 0; el.focus(); }
  }

  function cells() {
    const out = {};
    for (const [sq, t] of tentative) out[squareName(sq)] = t.char;
    return out;
  }

  // -- preview ---------------------------------------------------------------------------------------
  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(preview, 120);
  }

  async function preview() {
    const text = $("move-text").value.trim();
    if (!me || (!tentative.size && !text)) { $("preview").textContent = ""; return; }
    const body = {seat: me.seat, token: me.token};
    if (tentative.size) body.cells = cells(); else body.move = text;
    try {
      const p = await qiza.api("POST", `/api/games/${gameId}/preview`, body);
      if (!p.ok) { $("preview").textContent = p.error; return; }
      let line = `${p.move}: ${p.score} points — ` + p.words.map(w => `${w.word} ${w.score}`).join(", ") + (p.bingo ? " (bingo!)" : "");
      if (p.invalid_words && p.invalid_words.length) line += ` — not in the dictionary: ${p.invalid_words.join(", ")}`;
      $("preview").textContent = line;
    } catch (error) {
      $("preview").textContent = error.message;
    }
  }

  // -- actions ----------------------------------------------------------------------------------
  function newId() { return crypto.randomUUID ? crypto.randomUUID() : String(Math.random()).slice(2); }

  // An action is made against the version shown. The server refuses it as stale only if the
  // game itself changed since (a rack rearranged, a join or a seat given to the computer does
  // not count), so a refusal means: look at the board again.
  async function act(kind, extra) {
    if (!me || busy) return false;
    busy = true;
    renderControls();
    try {
      const next = await qiza.api("POST", `/api/games/${gameId}/actions`,
        Object.assign({seat: me.seat, token: me.token, version: state.version, kind, request_id: newId()}, extra || {}));
      busy = false;
      accept(next, true);
      return true;
    } catch (error) {
      busy = false;
      say(error.message);
      if (error.code === "stale_version" && socket && socket.readyState === 1) socket.send("refresh");
      renderControls();
      return false;
    }
  }

  // -- the rack's order is kept by the server ------------------------------------------------
  async function saveRackOrder() {
    if (!me || !state || state.over) return;
    try {
      accept(await qiza.api("POST", `/api/games/${gameId}/rack`, {seat: me.seat, token: me.token, order: rack.join("")}), false);
    } catch (error) {
      say(error.message);
    }
  }

  function moveRackTile(from, to) {
    if (from === to || exchangeMode) return;
    tentative.clear();
    selected = null;
    const [tile] = rack.splice(from, 1);
    rack.splice(to, 0, tile);
    changed();
    saveRackOrder();
  }

  async function submitPlacement() {
    if (await act("place", {cells: cells()})) { tentative.clear(); $("preview").textContent = ""; }
  }

  function accept(next, ownAction) {
    if (state && next.version < state.version) return;
    const oldRack = state ? state.rack : null;
    state = next;
    if (ownAction || oldRack !== state.rack || rack.join("") !== state.rack) {
      rack = state.rack.split("");
      tentative.clear();
      selected = null;
      exchangeMode = false;
      exchangeSet.clear();
    } else {
      for (const sq of [...tentative.keys()]) {
        const size = state.rules.size;
        if (state.board[Math.floor(sq / size)][sq % size] !== ".") tentative.delete(sq);
      }
    }
    render();
    announce();
  }

  let announced = 0;
  function announce() {
    const count = state.history.length;
    if (count > announced && announced > 0) {
      const r = state.history[count - 1];
      say(`${state.players[r.seat].name}: ${r.move || r.kind} (${r.score >= 0 ? "+" : ""}${r.score})${r.note ? " — " + r.note : ""}.`);
    }
    announced = count;
  }

  async function join(seat) {
    try {
      const answer = await qiza.api("POST", `/api/games/${gameId}/join`, {seat, name: $("join-name").value, invite});
      me = {seat, token: answer.token};
      localStorage.setItem(qiza.seatKey(gameId), JSON.stringify(me));
      connect();
    } catch (error) {
      if (["invite_revoked", "invite_closed", "wrong_invite"].includes(error.code)) {
        storeInvite(null);
        if (state) render();
      }
      say(error.message);
    }
  }

  function connect() {
    if (socket) { socket.onclose = null; socket.close(); }
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const live = new WebSocket(`${scheme}://${location.host}/ws/games/${encodeURIComponent(gameId)}`);
    socket = live;
    // the seat and token go in the first message, never in the URL (servers log URLs)
    live.onopen = () => live.send(JSON.stringify(me ? {seat: me.seat, token: me.token} : {}));
    socket.onmessage = event => {
      const message = JSON.parse(event.data);
      if (message.type === "state") accept(message.state, false);
      else if (message.type === "error") {
        say(message.error.message);
        if (message.error.code === "wrong_token") { localStorage.removeItem(qiza.seatKey(gameId)); me = null; connect(); }
      }
    };
    socket.onclose = () => setTimeout(connect, 1000);
  }

  function setup() {
    loadSeat();
    $("play").addEventListener("click", () => {
      if (tentative.size) submitPlacement();
      else if ($("move-text").value.trim()) $("keyboard-form").requestSubmit();
      else say("Put tiles on the board first (drag them, or pick a tile then a square, or type a move).");
    });
    $("recall").addEventListener("click", () => { tentative.clear(); selected = null; changed(); });
    $("shuffle").addEventListener("click", () => {
      tentative.clear();
      for (let i = rack.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [rack[i], rack[j]] = [rack[j], rack[i]]; }
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
      if (await act("resign")) say("You resigned.");
    });
    $("exchange").addEventListener("click", () => {
      exchangeMode = !exchangeMode; exchangeSet.clear(); tentative.clear();
      say(exchangeMode ? "Choose the tiles to exchange, then press Exchange selected." : "");
      changed(); renderControls();
    });
    $("confirm-exchange").addEventListener("click", () => {
      if (!exchangeSet.size) { say("Choose at least one tile to exchange."); return; }
      act("exchange", {tiles: [...exchangeSet].map(i => rack[i]).join("")});
    });
    $("pass").addEventListener("click", () => act("pass"));
    $("challenge").addEventListener("click", () => act("challenge"));
    $("keyboard-form").addEventListener("submit", async e => {
      e.preventDefault();
      const text = $("move-text").value.trim();
      if (!text) return;
      if (await act("place", {move: text})) $("move-text").value = "";
    });
    $("move-text").addEventListener("input", () => { if (!tentative.size) schedulePreview(); });
    $("rack").addEventListener("dragover", e => e.preventDefault());
    $("rack").addEventListener("drop", e => {
      e.preventDefault();
      const data = e.dataTransfer.getData("text/plain");
      if (data.startsWith("board:")) { tentative.delete(Number(data.slice(6))); changed(); }
    });
    const copy = async (text, what) => {
      try { await navigator.clipboard.writeText(text); say(`${what} copied.`); } catch (e) { say(`${what}: ${text}`); }
    };
    $("copy-invite").addEventListener("click", () => copy(inviteLink(), "Invite link (to take a seat)"));
    $("new-invite").addEventListener("click", () => changeInvite("POST"));
    $("withdraw-invite").addEventListener("click", () => changeInvite("DELETE"));
    $("invite-link").addEventListener("focus", () => $("invite-link").select());
    $("copy-watch").addEventListener("click", () => copy(watchLink(), "Link to watch"));
    $("show-analysis").addEventListener("click", showAnalysis);
    // an invite (or seat) link opened in a tab that already shows the game
    window.addEventListener("hashchange", () => {
      const before = JSON.stringify(me);
      loadSeat();
      if (JSON.stringify(me) !== before) connect();
      else if (state) render();
    });
    connect();
  }
  document.addEventListener("DOMContentLoaded", setup);
})();
