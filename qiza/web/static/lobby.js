/* The lobby: create a game with any preset and options, list games to join or watch. */
"use strict";
(function () {
  let meta = null;
  /** the request for the server's options (GET /api/meta), made once at the start */
  let metaAsked = null;
  const seatsBox = document.getElementById("seats");
  const message = document.getElementById("lobby-message");

  function option(select, value, label) {
    const opt = document.createElement("option");
    opt.value = value; opt.textContent = label || value;
    select.appendChild(opt);
  }

  function renderSeats() {
    const count = Number(document.getElementById("seat-count").value);
    const old = [...seatsBox.querySelectorAll(".seat")].map(row => ({
      kind: row.querySelector(".kind").value, name: row.querySelector(".name").value,
      level: row.querySelector(".level").value, target: row.querySelector(".target").value}));
    seatsBox.innerHTML = "";
    for (let i = 0; i < count; i++) {
      const row = document.createElement("div");
      row.className = "seat";
      row.innerHTML = `<span>Seat ${i + 1}</span>
        <label>Player <select class="kind" aria-label="Seat ${i + 1} player">
          <option value="person">Person</option><option value="computer">Computer</option></select></label>
        <label>Name <input class="name" maxlength="40" aria-label="Seat ${i + 1} name"></label>
        <label>Level <select class="level" aria-label="Seat ${i + 1} computer level"></select></label>
        <label class="finish-line-level">Finish Line target <select class="target"
          aria-label="Seat ${i + 1} Finish Line level"></select></label>`;
      const level = row.querySelector(".level");
      for (const lv of meta.levels) option(level, lv);
      const target = row.querySelector(".target");
      for (const lv of meta.finish_line_levels) option(target, lv, `${lv} (${meta.finish_line_targets[count][lv]} points)`);
      target.value = "intermediate";
      level.value = meta.default_level;
      if (old[i]) {
        row.querySelector(".kind").value = old[i].kind;
        row.querySelector(".name").value = old[i].name;
        level.value = old[i].level;
        target.value = old[i].target;
      } else if (i > 0) {
        row.querySelector(".kind").value = "computer";
      }
      const sync = () => { level.closest("label").hidden = row.querySelector(".kind").value !== "computer"; };
      row.querySelector(".kind").addEventListener("change", sync);
      sync();
      seatsBox.appendChild(row);
    }
    syncFinishLine();
  }

  function syncFinishLine() {
    const on = document.getElementById("finish-line").checked;
    for (const label of seatsBox.querySelectorAll(".finish-line-level")) label.hidden = !on;
  }

  async function loadGames() {
    const list = document.getElementById("games");
    const games = (await qiza.api("GET", "/api/games")).sort((a, b) => (a.status === "active" ? 0 : 1) - (b.status === "active" ? 0 : 1));
    list.innerHTML = "";
    for (const game of games) {
      const li = document.createElement("li");
      const players = document.createElement("span");
      players.className = "players";
      game.players.forEach((p, i) => {
        // an account's name is a link to its profile; a guest (any name, an account's too) says so
        const name = document.createElement(p.account ? "a" : "span");
        name.className = "name";
        name.dir = "auto";  // laid out apart from the names and words beside it, in its own direction
        name.textContent = p.name;
        if (p.account) name.href = "/player/" + encodeURIComponent(p.account);
        const person = p.kind === "person";
        const mark = !person ? "" : !p.joined ? " (free seat)" : p.account ? "" : " (guest)";
        players.append(i ? ", " : "", name, mark);
      });
      const link = document.createElement("a");
      link.href = "/game/" + game.id;
      link.textContent = game.status === "active" ? "Watch" : "See the game";
      link.setAttribute("aria-label", `${link.textContent}: ${players.textContent} (${game.status})`);
      li.append(players, ` — ${game.status} · `, link);
      list.appendChild(li);
    }
    if (!games.length) list.innerHTML = "<li>No games yet.</li>";
  }

  /** Create a game and go to it; a refusal is shown in ``where`` (beside the button clicked). */
  async function open(body, creator, where = message) {
    try {
      const created = await qiza.api("POST", "/api/games", body);
      if (creator >= 0) {
        localStorage.setItem(qiza.seatKey(created.id), JSON.stringify({seat: creator, token: created.tokens[creator]}));
      }
      localStorage.setItem(qiza.inviteKey(created.id), created.invite);
      location.href = created.url;
    } catch (error) {
      where.textContent = "Cannot create the game: " + error.message;
    }
  }

  /** One click: you against the computer at the default level, classic rules, the default challenge rule
   *  (a click before the server's options came waits for them). */
  async function quickPlay() {
    const where = document.getElementById("quick-message");
    let known;
    try {
      known = await metaAsked;
    } catch (error) {
      where.textContent = "Cannot create the game: " + error.message;
      return;
    }
    await open({preset: "classic", seats: [{kind: "person", name: "You"}, {kind: "computer", level: known.default_level}],
                creator_seat: 0}, 0, where);
  }

  async function create(event) {
    event.preventDefault();
    try {
      await metaAsked;  // a click before the server's options came: the menus are filled first
    } catch (error) {
      message.textContent = "Cannot create the game: " + error.message;
      return;
    }
    const seats = [...seatsBox.querySelectorAll(".seat")].map(row => {
      const kind = row.querySelector(".kind").value;
      const seat = {kind, name: row.querySelector(".name").value};
      if (kind === "computer") seat.level = row.querySelector(".level").value;
      return seat;
    });
    const creator = seats.findIndex(s => s.kind === "person");
    const options = {};
    for (const input of document.querySelectorAll("[data-option]")) {
      if (input.value !== "") options[input.dataset.option] = input.type === "number" ? Number(input.value) : input.value;
    }
    const body = {preset: document.getElementById("preset").value, options, seats,
                  lexicon: document.getElementById("lexicon").value,
                  word_help: document.getElementById("word-help").checked,
                  creator_seat: creator >= 0 ? creator : null};
    const minutes = Number(document.getElementById("clock-minutes").value);
    if (minutes > 0) {
      body.time_control = {minutes, increment: Number(document.getElementById("clock-increment").value),
                           max_overtime: Number(document.getElementById("clock-overtime").value)};
    }
    if (document.getElementById("finish-line").checked) {
      body.finish_line_levels = [...seatsBox.querySelectorAll(".seat .target")].map(select => select.value);
    }
    await open(body, creator);
  }

  async function start() {
    // the buttons answer at once, also while the server's options are on their way (a slow line)
    document.getElementById("quick-play").addEventListener("click", quickPlay);
    document.getElementById("create-form").addEventListener("submit", create);
    metaAsked = qiza.api("GET", "/api/meta");
    meta = await metaAsked;
    qiza.rulesMenus(meta, document.getElementById("preset"), document.getElementById("lexicon"));
    for (const [key, values] of Object.entries(meta.options)) {
      const select = document.getElementById("opt-" + key);
      if (select) for (const v of values) option(select, v);
    }
    document.getElementById("seat-count").addEventListener("change", renderSeats);
    document.getElementById("finish-line").addEventListener("change", syncFinishLine);
    document.getElementById("quick-level").textContent = meta.default_level;
    renderSeats();
    loadGames();
    setInterval(() => loadGames().catch(() => {}), 5000);
  }
  document.addEventListener("DOMContentLoaded", start);
})();
