/* Shared helpers: display modes, JSON requests (with the CSRF token), the account bar. */
"use strict";
const qiza = {
  /** The server's clock less this device's (ms), as the newest answer said (X-Server-Time, or a
      live update's server_time); the time on the way counts in it, a fraction of a second. */
  serverOffset: 0,
  /** Notes the server's time (seconds) an answer that just came said. */
  heardServerTime(seconds) {
    if (Number.isFinite(seconds) && seconds > 0) qiza.serverOffset = seconds * 1000 - Date.now();
  },
  /** The CSRF token this browser holds (the qiza_csrf cookie), sent with every request that
      changes something. */
  csrf() {
    const found = document.cookie.split("; ").find(c => c.startsWith("qiza_csrf="));
    return found ? decodeURIComponent(found.slice("qiza_csrf=".length)) : "";
  },
  async api(method, path, body, headers) {
    const options = {method, headers: Object.assign({}, headers || {}), credentials: "same-origin"};
    if (method !== "GET") options.headers["X-CSRF-Token"] = qiza.csrf();
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(path, options);
    } catch (e) {
      // the request reached no server (the line down, the server restarting): said in words a
      // player reads, not the browser's ("Failed to fetch")
      const error = new Error("The page could not reach the server (is the connection lost?): try again in a moment.");
      error.status = 0;
      error.code = "unreachable";
      error.retryAfter = 0;
      error.detail = {};
      throw error;
    }
    qiza.heardServerTime(Number(response.headers.get("X-Server-Time")));
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const message = data && data.error ? data.error.message : `error ${response.status}`;
      const error = new Error(message);
      error.status = response.status;
      error.code = data && data.error ? data.error.code : "";
      error.retryAfter = Number(response.headers.get("Retry-After")) || 0;  // seconds (0: not said)
      error.detail = data && data.error ? data.error : {};  // the refusal's other fields (e.g. game_url)
      throw error;
    }
    return data;
  },
  setupModes() {
    for (const [id, cls] of [["large-print", "large"], ["high-contrast", "contrast"]]) {
      const box = document.getElementById(id);
      if (!box) continue;
      box.checked = localStorage.getItem("qiza-mode-" + cls) === "1";
      document.body.classList.toggle(cls, box.checked);
      box.addEventListener("change", () => {
        localStorage.setItem("qiza-mode-" + cls, box.checked ? "1" : "0");
        document.body.classList.toggle(cls, box.checked);
      });
    }
  },
  seatKey(gameId) { return "qiza-seat-" + gameId; },
  inviteKey(gameId) { return "qiza-invite-" + gameId; },
  user: null,
  /** Who is signed in (null: nobody); fills the account bar of the page. */
  async account() {
    try { qiza.user = (await qiza.api("GET", "/api/account")).user; } catch (e) { qiza.user = null; }
    const bar = document.getElementById("account-bar");
    if (bar) {
      bar.textContent = "";
      const link = (href, text) => { const a = document.createElement("a"); a.href = href; a.textContent = text; return a; };
      if (qiza.user) {
        bar.append("Signed in as ", link("/player/" + encodeURIComponent(qiza.user.name), qiza.user.name), " · ");
        const out = document.createElement("button");
        out.type = "button"; out.id = "sign-out"; out.textContent = "Sign out";
        out.addEventListener("click", async () => { await qiza.api("POST", "/api/account/signout"); location.reload(); });
        bar.append(out);
      } else {
        bar.append(link("/#account", "Sign in or sign up"));
      }
      bar.append(" · ", link("/leaderboard", "Leaderboard"));
    }
    return qiza.user;
  },
  /** The banner under the page's header while the signed-in player plays a game on the clock
      (``playing``: ``{game_id, game_url}`` from GET /api/account/playing or the seeks' listing),
      with a link to it; hidden when there is none, and on that game's own page. */
  showPlaying(playing) {
    const url = playing && playing.game_url;
    const shown = !!url && location.pathname !== url;
    let banner = document.getElementById("playing-banner");
    if (!banner) {
      if (!shown) return;
      banner = document.createElement("p");
      banner.id = "playing-banner";
      banner.className = "banner";
      banner.setAttribute("role", "status");
      document.querySelector("header.top").after(banner);
    }
    banner.hidden = !shown;
    if (!shown) return;
    const link = document.createElement("a");
    link.href = url;
    link.textContent = "Go to your game in progress";
    banner.replaceChildren("You are in a game on the clock: no seek or rematch until it ends. ", link, ".");
  },
  /** Ask the server whether the signed-in player plays a game on the clock (:func:`showPlaying`). */
  async checkPlaying() {
    try { qiza.showPlaying(await qiza.api("GET", "/api/account/playing")); } catch (e) { /* shown at the next check */ }
  },
  /** Fill a preset menu and its lexicon menu from GET /api/meta so that they always go together:
      for the chosen preset only the lexicons a game of it may have (``preset_lexicons``: a French
      tile set with ENABLE is refused), in a group per language, the preset's own first; when the
      preset's language changes, its first lexicon is chosen. A preset no offered lexicon goes
      with is not offered. */
  rulesMenus(meta, preset, lexicon) {
    for (const name of Object.keys(meta.presets)) {
      if ((meta.preset_lexicons[name] || []).length) preset.add(new Option(name, name));
    }
    let language;
    const fill = () => {
      const offered = meta.preset_lexicons[preset.value] || [];
      const wanted = meta.preset_languages[preset.value];
      const keep = wanted === language && offered.includes(lexicon.value) ? lexicon.value : offered[0];
      language = wanted;
      lexicon.textContent = "";
      const groups = new Map();
      for (const name of offered) {
        const said = meta.lexicon_languages[name];
        const label = said ? said[0].toUpperCase() + said.slice(1) : "Other word lists";
        if (!groups.has(label)) {
          const group = document.createElement("optgroup");
          group.label = label;
          groups.set(label, lexicon.appendChild(group));
        }
        groups.get(label).appendChild(new Option(name, name));
      }
      lexicon.value = keep;
    };
    preset.addEventListener("change", fill);
    fill();
  },
  /** A number as every page shows it: a negative one with the minus sign (U+2212, read "minus"
      by screen readers), not a hyphen; ``text``: the digits, if not those of ``n`` (a clock's m:ss). */
  numberText(n, text = String(Math.abs(n))) {
    return (n < 0 ? "\u2212" : "") + text;
  },
  /** A duration in milliseconds as m:ss (negative: overtime, with a minus sign). */
  clockText(ms) {
    const total = Math.ceil(Math.abs(ms) / 1000);
    return qiza.numberText(ms, `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`);
  },
};
document.addEventListener("DOMContentLoaded", async () => {
  qiza.setupModes();
  if (await qiza.account()) qiza.checkPlaying();
});
