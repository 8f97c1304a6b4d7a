"""Game records that replay exactly (issue 15, items 7-9): revealed racks, challenge bonuses
as recorded, one report per wrong score with the engine's own breakdown."""

from __future__ import annotations

from pathlib import Path

import pytest

from qiza import gcg
from qiza.errors import RuleError
from qiza.game import EndReason, Game, Kind, apply_action
from qiza.lexicon import Lexicon
from qiza.move import Direction, Pass, Place
from qiza.rules import ChallengeRule, Rules

HEAD = "#character-encoding UTF-8\n#player1 Ben Ben\n#player2 Amy Amy\n"

SIX_SCORELESS = HEAD + """\
>Ben: AEINRST 8D RETAINS +66 66
>Amy: ADEILNO -  +0 0
>Ben: -  +0 66
>Amy: -  +0 0
>Ben: -  +0 66
>Amy: -  +0 0
>Ben: -  +0 66
>Ben: (EIOQRRT) -16 50
>Amy: (ADEILNO) -8 -8
"""

MIXED_BONUSES = HEAD + """\
>Ben: AEINRST 8D RETAINS +66 66
>Ben: AEINRST (challenge) +5 71
>Amy: ADEILNO -ADE +0 0
>Ben: BCDEFGH E7 B. +4 75
>Ben: BCDEFGH (challenge) +10 85
>Amy: ILNOPQU -IL +0 0
>Ben: CDEFGHJ F7 D. +8 93
>Ben: CDEFGHJ (challenge) +10 103
"""


def test_a_rack_revealed_at_the_end_is_the_rack_of_the_passes_before() -> None:
    result = gcg.replay(gcg.loads(SIX_SCORELESS))
    assert result.clean, [str(d) for d in result.differences]
    assert result.game is not None and result.game.scores == [50, -8]
    # the rack the passes kept is the one the end shows, not tiles of the replay's own drawing
    assert result.game.rack_text(0) == "EIOQRRT"


def test_challenge_bonuses_are_the_record_s_own_and_mixed_rules_warn_once() -> None:
    result = gcg.replay(gcg.loads(MIXED_BONUSES))
    assert result.clean, [str(d) for d in result.differences]
    assert result.game is not None and result.game.scores[0] == 103
    warnings = [str(w) for w in result.warnings]
    assert len(warnings) == 1 and "challenge bonuses of 5 and 10" in warnings[0]


def test_one_wrong_score_is_reported_once_with_the_engine_s_breakdown() -> None:
    text = SIX_SCORELESS.replace("RETAINS +66 66", "RETAINS +72 72").replace("+0 66", "+0 72").replace(
        "-16 50", "-16 56")
    result = gcg.replay(gcg.loads(text))
    assert len(result.differences) == 1
    message = result.differences[0].message
    assert "score +72 recorded, +66 by the engine" in message
    assert "RETAINS (from D8 across): R 1x2 on D8 + E 1" in message
    assert "x2 for H8 = 16; bingo +50; total 66" in message


def test_a_later_total_that_is_wrong_on_its_own_is_still_reported() -> None:
    text = SIX_SCORELESS.replace("RETAINS +66 66", "RETAINS +72 72").replace("-16 50", "-16 40")
    result = gcg.replay(gcg.loads(text))
    messages = {d.line: d.message for d in result.differences}
    # the play's score; the first pass, whose total (66) contradicts the record's own +72; the
    # end line, off by 10 from the record's own total at that point
    assert sorted(messages) == [4, 6, 11]
    assert messages[6] == "total 66 recorded, 72 by the engine (with the +6 of earlier differences)"
    assert messages[11] == "total 40 recorded, 50 by the engine"


def test_a_bonus_no_rule_gives_is_reported_and_the_replay_goes_on() -> None:
    text = MIXED_BONUSES.replace("(challenge) +5 71", "(challenge) +7 73").replace("+4 75", "+4 77")
    result = gcg.replay(gcg.loads(text))
    assert len(result.differences) >= 1
    assert "a challenge bonus of 7 is not one a rule gives" in result.differences[0].message
    assert result.checked == 8


@pytest.fixture
def five_point_game() -> Game:
    game = Game(Rules(challenge=ChallengeRule.FIVE_POINT), lexicon=Lexicon("words", {"RETAINS"}), seed=1)
    game.set_rack(0, "AEINRST")
    game.play(Place(7, 3, Direction.ACROSS, "RETAINS"))
    return game


def test_game_challenge_takes_a_recorded_bonus(five_point_game: Game) -> None:
    game = five_point_game
    with pytest.raises(RuleError, match="bonus of 15 is not one a rule gives"):
        game.challenge(1, bonus=15)  # one word: 5 or 10 only
    with pytest.raises(RuleError, match="bonus of 3"):
        game.challenge(1, bonus=3)
    assert game.can_challenge  # the refused challenges changed nothing
    record = game.challenge(1, bonus=10)
    assert record.score == 10 and game.scores[0] == 66 + 10
    assert game.actions[-1] == (1, "challenge 10")
    # the action replays (saved games)
    again = Game(Rules(challenge=ChallengeRule.FIVE_POINT), lexicon=Lexicon("words", {"RETAINS"}), seed=1)
    for seat, action in game.actions:
        apply_action(again, seat, action)
    assert again.scores == game.scores


def test_no_bonus_under_a_rule_without_one() -> None:
    game = Game(Rules(challenge=ChallengeRule.DOUBLE), lexicon=Lexicon("words", {"RETAINS"}), seed=1)
    game.set_rack(0, "AEINRST")
    game.play(Place(7, 3, Direction.ACROSS, "RETAINS"))
    with pytest.raises(RuleError, match="gives no challenge bonus"):
        game.challenge(1, bonus=5)
    game.play(Pass())


def test_a_word_list_that_is_not_a_regular_file_or_too_big_is_refused(tmp_path: Path) -> None:
    from qiza.lexicon import MAX_WORD_LIST_BYTES, LexiconError

    with pytest.raises(LexiconError, match="/dev/zero is not a regular file"):
        Lexicon.from_file("/dev/zero")
    with pytest.raises(LexiconError, match="Is a directory"):
        Lexicon.from_file(tmp_path)
    big = tmp_path / "big.txt"
    with big.open("wb") as handle:
        handle.truncate(MAX_WORD_LIST_BYTES + 1)
    with pytest.raises(LexiconError, match="over 64 MB"):
        Lexicon.from_file(big)
    ok = tmp_path / "ok.txt"
    ok.write_text("cat\ndog\n")
    assert len(Lexicon.from_file(ok)) == 2


def test_an_unfinished_game_ends_with_the_racks_of_its_rack_lines(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    """``#rack1`` / ``#rack2`` (Macondo's way of saving a game to study) are the racks of the last
    position: ``qiza best`` and ``gcg export --to cgp`` gave tiles of the replay's own dealing."""
    from qiza.cli import main

    text = HEAD + ">Amy: AEINRST 8D RETAINS +66 66\n#rack1 EIOQRRT\n#rack2 ?AEGJSU\n"
    result = gcg.replay(gcg.loads(text))
    assert result.clean and not result.warnings, [str(w) for w in result.warnings]
    assert result.game is not None and result.game.players[result.game.to_move] == "Ben"
    assert sorted(result.game.rack_text(result.game.to_move)) == sorted("EIOQRRT")
    assert sorted(result.game.rack_text(1 - result.game.to_move)) == sorted("?AEGJSU")
    path = tmp_path / "unfinished.gcg"
    path.write_text(text)
    assert main(["gcg", "export", "--to", "cgp", str(path)]) == 0
    racks = capsys.readouterr().out.split()[1]
    assert sorted(racks) == sorted("EIOQRRT/?AEGJSU")
    # a rack no #rack line gives is unknown: empty, not the replay's dealing shown as known
    path.write_text(text.replace("#rack2 ?AEGJSU\n", ""))
    assert main(["gcg", "export", "--to", "cgp", str(path)]) == 0
    assert capsys.readouterr().out.split()[1] == "EIOQRRT/"
    # tiles a #rack line cannot have (Ben holds the one Q) are a warning, not an exception
    result = gcg.replay(gcg.loads(text.replace("?AEGJSU", "QQAEGJS")))
    assert result.clean and "Amy's rack QQAEGJS: QQ not available" in str(result.warnings[0])


@pytest.mark.parametrize("line", [">Amy: ADEILNO -- -66 0", ">Amy: ADEILNO (challenge) +5 5"])
def test_a_challenge_line_of_the_wrong_player_says_whose_play_is_open(line: str) -> None:
    """It said 'a player cannot challenge their own play', twice (the replay retried the
    challenge with the rule's own bonus after any refusal)."""
    result = gcg.replay(gcg.loads(HEAD + ">Ben: AEINRST 8D RETAINS +66 66\n" + line + "\n"))
    assert [d.message for d in result.differences] == ["the play open to challenge is Ben's, not Amy's"]



@pytest.mark.parametrize("rule", ["single", "five-point"])
def test_a_failed_challenge_of_a_play_that_went_out_replays_clean(enable: Lexicon, rule: str) -> None:
    # the challenge ends the game in the engine: its line's total is the one before the racks are counted
    game = Game(Rules(challenge=ChallengeRule(rule)), players=["Ann", "Bob"], lexicon=enable, seed=3)
    while not game.over:
        if game.pending_ends_game:
            game.challenge(game.to_move)
        else:
            moves = game.legal_moves()
            game.play(moves[0].move if moves else Pass())
    assert game.end_reason is EndReason.WENT_OUT and any(r.kind is Kind.FAILED_CHALLENGE or
                                                         r.kind is Kind.CHALLENGE_BONUS for r in game.history)
    result = gcg.replay(gcg.loads(gcg.dumps(gcg.from_game(game))))
    assert result.clean, result.differences
    assert result.game is not None
    assert [result.game.scores[result.game_seat(seat)] for seat in (0, 1)] == game.scores


def test_a_four_player_game_blocked_with_the_bag_empty_replays_to_its_end() -> None:
    """A game of four that ended when nobody could play after the last pass, the bag empty
    (qiza's own export). The replay's rules allow exchanges at any bag (exchange_limit 0, as
    records show them), and the engine took a limit of 0 to mean a player could still
    exchange from an empty bag: the game did not end and the racks' penalties differed."""
    record = gcg.load(Path(__file__).parent / "fixtures" / "blocked_four_players.gcg")
    assert len(record.players) == 4
    result = gcg.replay(record, lexicon="enable")
    assert result.clean, result.differences
    game = result.game
    assert game is not None
    assert game.over and game.end_reason is EndReason.BLOCKED
    assert not game.bag
    assert [game.scores[result.game_seat(i)] for i in range(4)] == [158, 115, 221, 129]
    assert [r.kind for r in game.history[-4:]] == [Kind.END_RACK_PENALTY] * 4


def test_a_pass_ends_a_blocked_game_when_exchanges_have_no_bag_limit() -> None:
    """With exchange_limit 0 an empty bag still allows no exchange: nobody can play, so the pass
    that leaves the game so ends it."""
    record = gcg.load(Path(__file__).parent / "fixtures" / "blocked_four_players.gcg")
    game = gcg.replay(record, lexicon="enable").game
    assert game is not None and game.rules.exchange_limit == 0
    last_pass = next(r for r in reversed(game.history) if r.kind is Kind.PASS)
    assert game.history.index(last_pass) == len(game.history) - 5  # the four penalties follow it


def test_passes_at_the_end_of_a_three_player_game_do_not_end_the_replay() -> None:
    """Bob passes three times with the bag empty while the others still play (qiza's own
    export). The replay's stand-in lexicon knows no words, so the engine must not decide from
    it that nobody can play: the game ends when Cal goes out, as recorded."""
    record = gcg.load(Path(__file__).parent / "fixtures" / "passes_at_the_end_three_players.gcg")
    result = gcg.replay(record)
    assert result.clean, result.differences
    assert result.game is not None and result.game.end_reason is EndReason.WENT_OUT


def test_a_game_ends_blocked_only_after_a_pass_with_no_exchange_allowed() -> None:
    game = Game(Rules(), players=["Ann", "Bob", "Cal"], seed=1)
    game.play("pass")
    with pytest.raises(RuleError, match="exchanges are allowed"):
        game.end_blocked()
    assert not game.over


RESIGN_WORDS = Lexicon("WORDS", ["RETAINS", "AT"])


def _lost(players: list[str], reason: EndReason, loser: str, *, before: str = "", end_game: bool = False,
          moved: bool = True) -> Game:
    """A game whose first player plays RETAINS (unless not ``moved``), the next passes, then the
    player ``before`` leaves (a game of three), then ``loser`` loses it by ``reason``."""
    game = Game(Rules(), players=players, lexicon=RESIGN_WORDS, seed=3)
    if moved:
        game.set_rack(game.to_move, "AEINRST")
        game.play("H8 RETAINS")
        if game.can_challenge:
            game.accept()
        game.play(Pass())
    if before:
        game.resign(game.players.index(before))
    game.resign(game.players.index(loser), reason, end_game=end_game)
    return game


@pytest.mark.parametrize(("players", "reason", "loser", "options"), [
    (["Ann", "Bob"], EndReason.RESIGNED, "Ann", {}),
    (["Ann", "Bob"], EndReason.RESIGNED, "Bob", {}),
    (["Ann Lee", "Bob"], EndReason.TIME, "Ann Lee", {}),
    (["Ann", "Bob"], EndReason.ABANDONED, "Bob", {"moved": False}),  # a note of the record: no event
    (["Ann", "Bob", "Cy"], EndReason.RESIGNED, "Bob", {"before": "Cy"}),  # the last two: it ends the game
    (["Ann", "Bob", "Cy"], EndReason.RESIGNED, "Ann", {"end_game": True}),  # a saved game's resign of before
])
def test_a_game_lost_by_resigning_on_time_or_by_leaving_replays_to_that_end(
        players: list[str], reason: EndReason, loser: str, options: dict[str, object]) -> None:
    """qiza writes a game lost so as a note after its last event (``#note Ann resigned``: GCG has
    no event for it, and Macondo's and Woogles' records have no form of it); the replay (gcg show,
    analyze, best) read it as a note and left the game in progress. It ends there now, with the
    result of the game written, and its record written again is the same."""
    game = _lost(players, reason, loser, **options)  # type: ignore[arg-type]
    text = gcg.dumps(gcg.from_game(game))
    record = gcg.loads(text)
    assert record.forfeit == ([p.name for p in record.players].index(loser), reason)
    replayed = gcg.replay(record, lexicon=RESIGN_WORDS)
    assert replayed.clean and not replayed.warnings, replayed.differences
    again = replayed.game
    assert again.over and again.end_reason is reason and again.players[again.ended_by() or 0] == loser
    assert [again.players[seat] for seat in again.standings] == [game.players[seat] for seat in game.standings]
    assert [again.players[seat] for seat in again.winners] == [game.players[seat] for seat in game.winners]
    assert gcg.dumps(gcg.from_game(again)) == text  # written again and read again: the same record


@pytest.mark.parametrize("notes", [
    ["Bob resigned himself to a pass"], ["resigned"], ["Bob resigned", "a fine game"], ["bob resigned"],
    ["Bob Resigned"], ["Bob resigned."], ["#withdrew Bob resigned"], ["Bob resigned\nlater"], ["Eve resigned"],
])
def test_a_note_that_only_speaks_of_resigning_ends_no_game(notes: list[str]) -> None:
    """Only qiza's note, word for word, as the last note of the last event, ends the game: a note
    of a player's own words does not (nor one with the nickname where the full name differs)."""
    text = "#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETAINS +66 66\n>bob: ADEILNO - +0 0\n" + \
        "".join(f"#note {note}\n" for note in notes)
    record = gcg.loads(text)
    assert record.forfeit is None
    assert not gcg.replay(record).game.over
    assert gcg.loads(text.replace("#player2 bob Bob", "#player2 bob bob")).forfeit == ((1, EndReason.RESIGNED)
                                                                                      if notes == ["bob resigned"]
                                                                                      else None)


def test_a_resignation_note_before_the_last_event_or_of_an_incomplete_game_ends_no_game() -> None:
    text = "#player1 ann Ann\n#player2 bob Bob\n>ann: AEINRST 8D RETAINS +66 66\n#note Bob resigned\n" \
           ">bob: ADEILNO - +0 0\n"
    assert gcg.loads(text).forfeit is None and not gcg.replay(gcg.loads(text)).game.over
    incomplete = text.replace("#note Bob resigned\n", "") + "#note Bob resigned\n#incomplete\n"
    assert gcg.loads(incomplete).forfeit is None and not gcg.replay(gcg.loads(incomplete)).game.over
    ended = gcg.loads(text.replace("#note Bob resigned\n", "") + "#note Bob resigned\n")
    assert ended.forfeit == (1, EndReason.RESIGNED) and gcg.replay(ended).game.winners == [0]
