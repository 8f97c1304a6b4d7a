/* The player and leaderboard pages (names are put in the page as text, never as HTML). */
"use strict";
(function () {
  const $ = id => document.getElementById(id);

  function row(cells) {
    const tr = document.createElement("tr");
    for (const value of cells) {
      const td = document.createElement("td");
      if (value instanceof Node) td.appendChild(value); else td.textContent = String(value);
      tr.appendChild(td);
    }
    return tr;
  }

  /** A variant's name ("large-print/untimed/multi") that a narrow table may break after each
      "/" and nowhere else. */
  function variantName(text) {
    const span = document.createElement("span");
    text.split("/").forEach((part, i) => {
      if (i) { span.append("/"); span.appendChild(document.createElement("wbr")); }
      span.append(part);
    });
    return span;
  }

  function link(href, text) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    return a;
  }

  async function player() {
    const part = location.pathname.split("/").filter(Boolean).pop();
    // a mistyped address may not decode ("%E0%A4"): ask for it as it stands, and the server says
    // that there is no such player, as for any other name
    let name;
    try { name = decodeURIComponent(part); } catch { name = part; }
    let data;
    try { data = await qiza.api("GET", "/api/players/" + encodeURIComponent(name)); }
    catch (error) {
      // no such player (or no answer): the message alone, not empty record, ratings and games
      $("player-message").textContent = error.message;
      for (const section of document.querySelectorAll("main section")) section.hidden = true;
      return;
    }
    $("player-name").textContent = data.name;
    $("archive").href = "/api/players/" + encodeURIComponent(data.name) + "/games.zip";
    document.title = `${data.name} — qiza`;
    const line = r => `${r.wins} won, ${r.losses} lost, ${r.draws} drawn`;
    $("record").textContent = `Rated games: ${line(data.rated_record)}. ` +
      `All finished games, rated or not: ${line(data.record)}.`;
    const body = $("ratings").querySelector("tbody");
    for (const rating of data.ratings) body.appendChild(row([variantName(rating.variant), rating.rating, rating.deviation, rating.games]));
    if (!data.ratings.length) body.appendChild(row(["No rated games yet.", "", "", ""]));
    for (const game of data.recent) {
      const li = document.createElement("li");
      const scores = game.scores ? ` ${game.scores.join("–")}` : "";
      const result = game.result ? ` — ${game.result}` : ` — ${game.status}`;
      const change = game.rating_change ? ` (${game.rating_change[0]} → ${game.rating_change[1]})` : "";
      li.append(link(game.url, game.players.join(" vs ")), `${scores}${result}${change}`);
      $("recent").appendChild(li);
    }
  }

  async function leaderboard() {
    const select = $("variant");
    const wanted = new URLSearchParams(location.search).get("variant") || "classic/untimed";
    const data = await qiza.api("GET", "/api/leaderboard?variant=" + encodeURIComponent(wanted));
    for (const name of new Set([wanted, ...data.variants])) select.add(new Option(name, name, false, name === wanted));
    select.addEventListener("change", () => { location.search = "?variant=" + encodeURIComponent(select.value); });
    const body = $("leaders").querySelector("tbody");
    for (const p of data.players) {
      body.appendChild(row([p.rank, link("/player/" + encodeURIComponent(p.name), p.name), p.rating, p.deviation, p.games]));
    }
    if (!data.players.length) body.appendChild(row(["", "Nobody is rated in this variant yet.", "", "", ""]));
  }

  document.addEventListener("DOMContentLoaded", () => ($("leaders") ? leaderboard() : player()));
})();
