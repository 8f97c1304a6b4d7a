/* What the page says about the game, in plain words (never the server's internal names). */

export function plural(n, one, many) { return `${qiza.numberText(n)} ${n === 1 || n === -1 ? one : (many || one + "s")}`; }

/** A player's name put in a longer text, marked (by Unicode's first strong isolate and pop
    directional isolate) so that setText (state.js) shows it in an element of its own, a <bdi>:
    laid out apart from the words and numbers around it, in its own direction (a name in a
    right-to-left script ending in digits beside a number read "0 :123 אבג points"). In a text
    no element can go in (the tab title, a tooltip) the marks stay and isolate the name there;
    in the page setText replaces them by the <bdi>. Names never hold them (the server drops
    format characters from names). */
export function named(name) { return `\u2068${name}\u2069`; }

/** ``text`` without the marks of named(). */
export function plainText(text) { return text.replace(/[\u2068\u2069]/g, ""); }

function points(n) { return plural(n, "point"); }

/** Whether a player's name is "You" (the one-click game's name for its person), which takes
    "you win", "your play", not "You wins", "You's play". */
function isYou(name) { return plainText(String(name)).trim().toLowerCase() === "you"; }

/** The verb that goes with a player's name: ``one`` ("wins"), or ``many`` ("win") after "You". */
export function verb(name, one, many) { return isYou(name) ? many : one; }

/** A player's name as an owner: "Ann's", or "Your" for "You". */
export function possessive(name) {
  return isYou(name) ? (plainText(name).trim()[0] === "y" ? "your" : "Your") : `${named(plainText(name))}'s`;
}

/** A number of points gained or lost: "+8", "−8" (the pages' minus sign, :func:`qiza.numberText`), "0". */
export function signed(n) { return n > 0 ? `+${n}` : qiza.numberText(n); }

/** The tiles of an exchange as shown: "Y", or a count when the tiles are not shown. */
function exchanged(move) {
  const tiles = (move || "").replace(/^exchange\s*/i, "").trim();
  if (!tiles) return "tiles";
  if (/^\d+$/.test(tiles)) return plural(Number(tiles), "tile");
  return tiles;
}

/** How a typed move's square reads in a game's notation ("rulebook" or "tournament"). */
export function notationText(notation) {
  return notation === "tournament"
    ? "Tournament notation: number first (8H) reads across, letter first (H8) reads down."
    : "Letter first (H8) reads across, number first (8H) reads down.";
}

/** One score sheet line as a sentence. */
export function eventText(r, players) {
  const name = named(players[r.seat] ? players[r.seat].name : `Seat ${r.seat + 1}`);
  switch (r.kind) {
    case "place":
      return `${name} played ${r.move} for ${points(r.score)}` + (r.bingo ? " (a bingo)" : "") + ".";
    case "exchange": return `${name} exchanged ${exchanged(r.move)}.`;
    case "pass": return `${name} passed.`;
    case "phony-removed":
      return `${possessive(name)} play ${r.move} comes off: ` +
        (r.words && r.words.length ? `${r.words.join(", ")} ${r.words.length === 1 ? "is" : "are"} not in the dictionary` :
          "a word is not in the dictionary") + ` (${signed(r.score)}).`;
    case "challenge-bonus":
      return `${possessive(name)} play stands: the challenge failed, ${name} ${verb(name, "gets", "get")} ${signed(r.score)}.`;
    case "failed-challenge": {
      // "Ann challenged, but the words are good and loses this turn" read as if the words lost it
      const who = isYou(name) ? "you" : name;
      const loses = verb(name, "loses", "lose");
      const cost = r.note && /next turn lost/.test(r.note) ? `: ${who} ${loses} the next turn`
        : r.note && /turn lost/.test(r.note) ? `: ${who} ${loses} this turn` : "";
      return `${name} challenged, but the words are good${cost}.`;
    }
    case "lost-turn": return `${name} ${verb(name, "loses", "lose")} this turn (an unsuccessful challenge).`;
    case "end-rack-bonus":
      return `${name} ${verb(name, "gets", "get")} ${signed(r.score)} for the tiles left on the other racks.`;
    case "end-rack-penalty":
      return `${name} ${verb(name, "loses", "lose")} ${points(-r.score)} for the tiles left on ${verb(name, "their", "your")} rack.`;
    case "time-penalty": return `${name} ${verb(name, "loses", "lose")} ${points(-r.score)} (time penalty).`;
    case "resigned":
      return `${name} ${r.move} and ${verb(name, "is", "are")} out of the game; the others play on.`;
    default: return `${name}: ${r.move || "a turn"} (${signed(r.score)}).`;
  }
}

/** The score sheet's move column. */
export function sheetMove(r) {
  return {
    "phony-removed": `challenged off: ${r.move}`, "failed-challenge": "unsuccessful challenge", "lost-turn": "turn lost",
    "end-rack-bonus": `others' tiles ${r.move}`, "end-rack-penalty": `tiles left ${r.move}`,
    "challenge-bonus": "challenge bonus", "time-penalty": "time penalty", "pass": "pass",
    "resigned": `${r.move}: out of the game`,
  }[r.kind] || r.move || "";
}

/** A player's label: the name, and "computer, level" unless the name says it already. */
export function playerLabel(p) {
  if (p.kind === "computer") {
    const said = p.level && p.name.toLowerCase().includes(p.level.toLowerCase());
    return said ? p.name : `${p.name} (computer, ${p.level})`;
  }
  return p.joined ? p.name : `${p.name} (free seat)`;
}

/** Whether a player is a guest: a person in a seat that no account holds. A guest may take any
    name, an account's too; the page says "(guest)" after it, and an account's name is a link to
    its profile. */
export function isGuest(p) { return p.kind === "person" && p.joined && !p.account; }

/** Why the game ended, and who did it. */
export function endText(game) {
  const names = game.players.map(p => named(p.name));
  if (game.resigned !== null && game.resigned !== undefined) {
    const how = game.players[game.resigned].out || "resigned";
    return `${names[game.resigned]} ${how}.`;
  }
  const out = game.history.find(r => r.kind === "end-rack-bonus");
  if (out && /went out/.test(game.end_reason || "")) return `${names[out.seat]} went out.`;
  const reasons = {
    "every player had three scoreless turns in a row": "Nobody scored for too many turns in a row.",
    "every player passed twice in a row": "Every player passed twice in a row.",
    "no player can make a play": "Nobody can make a play.",
    "a player reached the Finish Line target": finishLineText(game, names),
  };
  return reasons[game.end_reason] || (game.end_reason ? `The game ended: ${game.end_reason}.` : "The game ended.");
}

/** "Ann reached the Finish Line target of 70 points.": the player of the last play, and their target
    as the view's rules give it (one per seat). */
function finishLineText(game, names) {
  const last = game.history[game.history.length - 1];
  if (!last) return "A player reached the Finish Line target.";
  const target = ((game.rules || {}).finish_line || [])[last.seat];
  return `${names[last.seat]} reached the Finish Line target${target ? ` of ${points(target)}` : ""}.`;
}

/** What the question "Pass this turn?" says of the game's end: "" when a pass now leaves the game
    going on, else how it ends it, from the server's ``pass_ends`` (the rules engine's end reason
    of a pass now: the page counts no turns itself). */
export function passEndsText(game) {
  const reason = game.pass_ends;
  if (!reason) return "";
  const w = game.challenge_window;
  if (w && w.ends_game) {  // the pass lets a play open to challenge stand, and that play ends the game
    const which = {"a player went out": "went out", "a player reached the Finish Line target": "reached the Finish Line target",
                   "every player had three scoreless turns in a row": "was the last scoreless turn the rules allow"}[reason];
    return `This pass ends the game: it accepts ${possessive(game.players[w.seat].name)} play ${w.move}, which ` +
      `${which || "ends it"}.`;
  }
  const why = {"every player had three scoreless turns in a row": "it is the last scoreless turn in a row the rules allow",
               "every player passed twice in a row": "it is the last pass in a row the rules allow"}[reason];
  return why ? `This pass ends the game: ${why}.` : `This pass ends the game (${reason}).`;
}

/** Who won, as a sentence. */
export function winnerText(game) {
  const names = game.winners.map(s => named(game.players[s].name));
  if (!names.length) return "";
  return names.length > 1 ? `Shared win: ${names.join(" and ")}.` : `${names[0]} ${verb(names[0], "wins", "win")}.`;
}
