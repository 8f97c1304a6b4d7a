/* The analysis of a finished game: every turn against the computer's best move. Each cell
   carries its column's name (data-label), so that on a narrow panel a row reads as a card. */

const $ = id => document.getElementById(id);

function fill(table, rows, mark) {
  const labels = [...table.tHead.rows[0].cells].map(th => th.textContent);
  table.tBodies[0].replaceChildren(...rows.map(values => {
    const tr = document.createElement("tr");
    values.forEach((value, i) => {
      const td = document.createElement("td");
      td.textContent = value;
      td.dataset.label = labels[i];
      tr.appendChild(td);
    });
    if (mark && mark(values)) tr.classList.add("mistake");
    return tr;
  }));
}

/** Fetches the analysis of game ``gameId`` and shows it; ``say`` reports a refusal. ``names``:
    the players' names (the analysis reads the GCG record, which writes spaces as "_"). */
export async function showAnalysis(gameId, names, say) {
  const name = written => names.find(n => n.replace(/\s/g, "_") === written) || written;
  const button = $("show-analysis");
  // unavailable, not disabled, while the analysis is made: a disabled button loses the focus
  if (button.getAttribute("aria-disabled") === "true") return;
  button.setAttribute("aria-disabled", "true");
  button.textContent = "Analysing the game...";
  try {
    const data = await qiza.api("GET", `/api/games/${encodeURIComponent(gameId)}/analysis`);
    const num = v => (v === null || v === undefined ? "-" : v.toFixed(1));
    const percent = v => (v === null || v === undefined ? "-" : (100 * v).toFixed(1));
    fill($("analysis-turns"), data.turns.map(t => [
      t.turn, name(t.player), t.rack, t.played + (t.note && t.note !== t.played ? ` (${t.note})` : ""), t.score, num(t.equity),
      percent(t.win), t.best, num(t.best_equity), percent(t.best_win),
      num(t.lost) + (t.lost !== null && t.lost >= 5 ? " !" : "")]),
    values => String(values[values.length - 1]).endsWith("!"));
    fill($("analysis-players"), data.players.map(p => [
      name(p.player), p.rated, p.best_found, p.lost.toFixed(1), num(p.per_turn), p.mistakes]));
    $("analysis").hidden = false;
    const focused = document.activeElement === button;
    button.hidden = true;
    $("analysis").scrollIntoView({block: "start"});
    if (focused) $("analysis").focus({preventScroll: true});  // the button is gone: the focus goes to what it showed
  } catch (e) {
    say(`No analysis: ${e.message}`);
    button.removeAttribute("aria-disabled");
    button.textContent = "Show the analysis";
  }
}
