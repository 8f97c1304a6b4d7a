"""GCG game records: read, write, convert from a :class:`~qiza.game.Game`, and replay.

A GCG file (the format of Quackle, Macondo, Woogles and cross-tables) is a list of
pragmas (``#player1 nick Full Name``, ``#title``, ``#lexicon`` ...) and events, one
per line (``>nick: RACK 8D WORD +24 24``). :class:`GameRecord` holds one file;
:func:`loads` / :func:`load` read it leniently (every problem goes to
:attr:`GameRecord.errors` or :attr:`GameRecord.warnings` with its line number, never
an exception; :func:`load_game` raises when a file gives no game at all), :func:`dumps` / :func:`dump` write it strictly. A record written and
read back is equal to the original. :func:`from_game` makes a record of a
:class:`~qiza.game.Game`; :func:`replay` plays a record through the rules engine and
lists every event whose recorded score or total differs from the engine's (it is defined in
the module ``qiza.gcg.replayer``: ``qiza.gcg.replay`` is the function; the module's old name
still imports, with a :class:`DeprecationWarning`).

Coordinates are always in the tournament notation (``8D`` reads across, ``D8`` down).

Unsuccessful challenges are written as Macondo (and so Woogles, which writes its files
with Macondo's ``gcgio``) writes them, so that those programs and Quackle read qiza's files:

* A turn lost to an unsuccessful challenge (the double rule) is a pass followed by the
  note ``#note #unsuccessful-challenge``: ``>bob: AEGILOT - +0 120``. Reading, a pass with
  that note becomes a :attr:`EventType.TURN_LOST` event (and the note is not kept as a
  note); Quackle, which has no such event, reads a pass with a note. As in Macondo's
  writer, a failed challenge of a play that went out is not written: it cost nothing, and
  the points for the other racks follow the play directly.
* A failed challenge that costs nothing (the single rule) is a challenge bonus of zero for
  the challenged player, ``>ann: EIRSTU? (challenge) +0 84``, as Macondo records it
  (five- and ten-point challenges write ``+5`` / ``+10`` the same way). Quackle reads it as
  a score addition of 0.
* Under the double rule with three or four players, a player who is not next may
  challenge; their next turn is lost later. qiza writes the failed challenge where it
  happened as ``(challenge) +0`` on the challenged play and the lost turn in its place.
* Macondo and Woogles record only two-player games, where the challenger is always the
  next player. In games of three or more players qiza adds the note
  ``#note #challenger NICK`` (a tag note in the style of Macondo's) to each ``(challenge)``
  event whose challenger it knows; without it the replay takes the player to move as the
  challenger.
* A player who resigns, loses on time or leaves a game of three or four that the others play
  on has no GCG event either: qiza writes the note ``#note #withdrew NICK resigned`` (or
  ``lost on time``, ``left the game``) after the last event before it (a note of the record
  when no event came before), and the replay takes the player out of the game there, so
  their turns are passed over and the end counts only the players still in.
* A game lost by resigning, on time or by leaving it (by one of two players, or of the last two)
  has no GCG event either, nor any form in Macondo's and Woogles' records (their writer, Macondo's,
  writes the events alone: such a record just stops). qiza writes the note ``#note Ann resigned``
  (``lost on time``, ``left the game``; the player's full name) after the last event, and the
  replay ends the game there, that player last; only that note word for word, the last of the last
  event, counts (:attr:`GameRecord.forfeit`): a note that speaks of resigning is a note.
* A record with no event (a game resigned before its first move) is a game of no moves:
  :func:`dumps` writes its notes just after the ``#player`` lines, where Macondo drops them,
  not as the file's last lines, where it fails (it takes the empty line after the last line
  break for a second line of the note); ``qiza gcg check`` replays it, 0 moves.

:func:`rules_for` infers the challenge rule from these events: a lost turn means the
double rule, a ``+5`` / ``+10`` challenge bonus the five- / ten-point rule, else single.

>>> record = loads(">Ann: AEINRST 8D RETINAS +72 72\\n")
>>> record.events[0].score, record.events[0].word
(72, 'RETINAS')
>>> print(dumps(record), end="")
#player1 Ann Ann
>Ann: AEINRST 8D RETINAS +72 72
"""

import sys
import types
import warnings

from qiza.errors import FileFormatError
from qiza.gcg.reader import MAX_EVENTS, MAX_PLAYERS, MAX_PROBLEMS, load, load_game, loads, parse_bytes
from qiza.gcg.record import (
    CHALLENGER_NOTE,
    TURN_EVENTS,
    UNSUCCESSFUL_CHALLENGE_NOTE,
    WITHDREW_NOTE,
    Event,
    EventType,
    GameRecord,
    Player,
    forfeit_note,
)
from qiza.gcg.replayer import Difference, Replay, check_files, replay, rules_for, tile_set_for
from qiza.gcg.writer import dump, dumps, from_game, written_nicknames

__all__ = [
    "EventType", "Event", "Player", "GameRecord", "loads", "load", "load_game", "parse_bytes", "dumps", "dump", "written_nicknames",
    "from_game", "replay", "Replay", "Difference", "rules_for", "tile_set_for", "check_files",
    "FileFormatError", "MAX_EVENTS", "MAX_PLAYERS", "MAX_PROBLEMS", "TURN_EVENTS",
    "UNSUCCESSFUL_CHALLENGE_NOTE", "CHALLENGER_NOTE", "WITHDREW_NOTE", "forfeit_note",
]


class _OldReplayModule(types.ModuleType):
    """``qiza.gcg.replay`` as a module, deprecated: the module is ``qiza.gcg.replayer``, and
    ``qiza.gcg.replay`` is the function :func:`replay` (one name for both: ``from qiza.gcg import
    replay`` gave the function, ``importlib.import_module("qiza.gcg.replay")`` the module). ``from
    qiza.gcg.replay import Replay`` still works, with a :class:`DeprecationWarning`."""

    def __getattr__(self, name: str) -> object:
        from qiza.gcg import replayer

        if name.startswith("__"):  # (__path__, __file__: what the import system looks for)
            raise AttributeError(name)
        value = getattr(replayer, name)
        warnings.warn("the module qiza.gcg.replay is now qiza.gcg.replayer (qiza.gcg.replay is the function): "
                      f"import {name} from qiza.gcg or qiza.gcg.replayer", DeprecationWarning, stacklevel=2)
        return value


sys.modules.setdefault(__name__ + ".replay", _OldReplayModule(__name__ + ".replay", _OldReplayModule.__doc__))
