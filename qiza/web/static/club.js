/* The lobby's club: signing in and up, changing the password, seeks (posted, listed live,
   accepted). Text from other players is always put in the page as text, never as HTML. */
"use strict";
(function () {
  const $ = id => document.getElementById(id);
  const waiting = new Set();  // ids of my open seeks

  function cell(row, text, label) {
    const td = document.createElement("td");
    td.textContent = text;
    if (label) td.dataset.label = label;  // shown before the value on a phone, where the header row is not
    row.appendChild(td);
    return td;
  }

  async function credentials(path) {
    try {
      await qiza.api("POST", path, {name: $("account-name").value.trim(), password: $("account-password").value});
      location.reload();
    } catch (error) {
      $("account-status").textContent = error.message;
    }
  }

  async function showAccount() {
    const user = await qiza.account();
    $("account-form").hidden = !!user;
    $("password-form").hidden = !user;
    $("password-username").value = user ? user.name : "";  // the account whose password changes (password managers)
    $("seek-form").hidden = !user;
    $("account-status").textContent = user ? `Signed in as ${user.name}.` : "";
    // signed out, the Accept buttons are greyed: say why where it shows (a tooltip does not on a phone)
    $("seeks-signed-out").hidden = !!user;
    return user;
  }

  /** A refusal in the seeks' message line; playing a game on the clock already, with a link to it. */
  function refused(error) {
    const where = $("seek-message");
    const url = error.detail && error.detail.game_url;
    if (error.code !== "in_another_game" || !url) { where.textContent = error.message; return; }
    const link = document.createElement("a");
    link.id = "game-in-progress";
    link.href = url;
    link.textContent = "your game in progress";
    where.replaceChildren("You are playing another game on the clock: finish it (or abort it, before its second "
      + "turn) before you start one more. Go to ", link, ".");
  }

  function openGame(gameId) {
    location.href = "/game/" + encodeURIComponent(gameId);
  }

  async function loadSeeks() {
    let listing;
    try { listing = await qiza.api("GET", "/api/seeks"); } catch (e) { return; }
    qiza.showPlaying(listing.playing);  // a game on the clock begun or ended since the last refresh
    // a seek of mine posted while this page was open was accepted: the game is on
    for (const mine of listing.mine) {
      if (mine.status === "open") waiting.add(mine.id);
      else if (mine.status === "accepted" && mine.game_id && waiting.has(mine.id)) {
        waiting.delete(mine.id);
        openGame(mine.game_id);
        return;
      }
    }
    const body = $("seeks").querySelector("tbody");
    body.textContent = "";
    for (const seek of listing.open) {
      const row = document.createElement("tr");
      cell(row, seek.player);
      cell(row, String(seek.rating), "Rating");
      cell(row, `${seek.preset}, ${seek.lexicon}`, "Rules");
      cell(row, seek.clock_text, "Clock");
      const range = seek.min_rating != null || seek.max_rating != null
        ? `, ratings ${seek.min_rating ?? 0}-${seek.max_rating ?? "any"}` : "";
      cell(row, `${seek.rated ? "rated" : "casual"}${range}, ${seek.seated} of ${seek.players} players`);
      const act = cell(row, "");
      const button = document.createElement("button");
      button.type = "button";
      if (seek.yours || seek.joined_by_you) {
        button.textContent = seek.yours ? "Cancel" : "Leave";
        button.addEventListener("click", async () => {
          // taken a moment ago (the game opens), or gone: say so instead of failing silently
          try { await qiza.api("DELETE", "/api/seeks/" + seek.id); }
          catch (error) { $("seek-message").textContent = error.message; }
          loadSeeks();
        });
      } else {
        button.textContent = "Accept";
        button.className = "accept-seek";
        button.disabled = !qiza.user;
        button.title = qiza.user ? "" : "Sign in to accept";
        button.addEventListener("click", async () => {
          try {
            const taken = await qiza.api("POST", `/api/seeks/${seek.id}/accept`);
            if (taken.game_id) openGame(taken.game_id);
            else {
              $("seek-message").textContent = `Joined: waiting for ${taken.waiting_for} more player(s).`;
              waiting.add(seek.id);
              loadSeeks();
            }
          }
          catch (error) { refused(error); loadSeeks(); }
        });
      }
      act.appendChild(button);
      body.appendChild(row);
    }
    if (!listing.open.length) {
      const row = document.createElement("tr");
      cell(row, "No open seeks.").colSpan = 6;
      body.appendChild(row);
    }
  }

  async function postSeek(event) {
    event.preventDefault();
    const minutes = Number($("seek-minutes").value);
    const body = {preset: $("seek-preset").value, lexicon: $("seek-lexicon").value, rated: $("seek-rated").checked,
                  players: Number($("seek-players").value),
                  time_control: minutes > 0 ? {minutes, increment: Number($("seek-increment").value)} : null};
    if ($("seek-min").value !== "") body.min_rating = Number($("seek-min").value);
    if ($("seek-max").value !== "") body.max_rating = Number($("seek-max").value);
    try {
      await qiza.api("POST", "/api/seeks", body);
      $("seek-message").textContent = "Seek posted: the game opens here when someone accepts it.";
      loadSeeks();
    } catch (error) {
      refused(error);
    }
  }

  async function start() {
    $("account-form").addEventListener("submit", e => { e.preventDefault(); credentials("/api/account/signin"); });
    $("sign-up").addEventListener("click", () => {
      if ($("account-form").reportValidity()) credentials("/api/account/signup");
    });
    $("password-form").addEventListener("submit", async e => {
      e.preventDefault();
      try {
        await qiza.api("POST", "/api/account/password", {old_password: $("old-password").value,
                                                          new_password: $("new-password").value});
        $("account-status").textContent = "Password changed; your other sessions are signed out.";
      } catch (error) { $("account-status").textContent = error.message; }
    });
    $("seek-form").addEventListener("submit", postSeek);
    const meta = await qiza.api("GET", "/api/meta");
    qiza.rulesMenus(meta, $("seek-preset"), $("seek-lexicon"));
    await showAccount();
    await loadSeeks();
    setInterval(loadSeeks, 2000);
  }
  document.addEventListener("DOMContentLoaded", start);
})();
