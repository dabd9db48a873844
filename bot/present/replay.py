"""Replaying a finished hand for ``/tractor replay``: seed + action list → public frames.

A hand's record (`bot.storage.HandRecord`) holds its seed and every accepted action. Running
them through the engine again gives the hand exactly; `replay_frames` keeps only what was
public at each step, through `PublicView`s:

- step 0: trump and the starter, before the first lead (Finding Friends: and the calls);
- one step per trick, the trick complete in front of the players (the previous one small),
  with the friends it revealed (Finding Friends);
- the last step: the settled hand, with the kitty turned up and the result (Finding
  Friends: the final sides).

Every mode replays with N seats: a record carries every seat's level before the hand
(`HandRecord.levels_before`; hands the four-player game recorded before schema 7 take the
match's level history), so the match is rebuilt exactly; a friend is named only from the
trick where their called card was played.

Nothing before the last step carries the kitty or its points: the last trick's frame is
made from the settled view with the result, the kitty bonus and the new levels taken out
(`_before_settlement`). Cards still in the players' hands are never in a `PublicView`.
Pure and blocking (the engine, and Pillow for the images): call from a thread.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from bot import render
from bot.i18n import resolve_locale, t, tn
from bot.present.text import call_text, cards_text, hand_outcome, kitty_lines, trump_text
from bot.storage import HandRecord, LevelPoint
from engine.actions import Action, StartHand, action_from_dict
from engine.cards import Rank
from engine.deal import deal_shape, take_over_points
from engine.errors import TractorError
from engine.events import FriendRevealed, HandSettled, TrickWon
from engine.friends import FriendCall
from engine.game import Match, Phase, Trick
from engine.rules import Mode, RuleSet
from engine.views import PublicView

__all__ = [
    "Frame",
    "ReplayError",
    "Reveal",
    "SeatInfo",
    "frame_png",
    "frame_text",
    "levels_before",
    "replay_frames",
]

FrameKind = Literal["start", "trick", "kitty"]
RevealKind = Literal["friend", "starter", "again"]
MAX_TEXT = 1900  # Discord allows 2000 characters; leave room for the header


class ReplayError(Exception):
    """The record cannot be replayed (incomplete, or does not reach its stored result)."""


@dataclass(frozen=True, slots=True)
class Reveal:
    """A called copy played (F4): by a new ``friend``, by the ``starter`` (the call is
    void), or ``again`` by a friend already known (it adds nobody)."""

    seat: int
    call: FriendCall
    kind: RevealKind


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a replay: what everybody could see at that moment."""

    kind: FrameKind
    view: PublicView
    trick: Trick | None = None
    """The trick shown (trick steps)."""
    reveals: tuple[Reveal, ...] = ()
    """Finding Friends: the called copies played since the previous step (F4)."""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """How a seat is named in the replay: ``mention`` in text, ``name`` on the image."""

    name: str
    mention: str
    computer: bool = False


# ---------------------------------------------------------------------------- replay


def _actions(record: HandRecord) -> list[Action]:
    actions: list[Action] = []
    for data in record.actions:
        try:
            actions.append(action_from_dict(dict(data)))
        except ValueError:
            continue  # bookkeeping entries that are not engine actions
    if not actions or not isinstance(actions[0], StartHand):
        actions.insert(0, StartHand(record.seed))
    return actions


def _before_settlement(view: PublicView, trick: Trick, previous: Trick | None) -> PublicView:
    """The settled view as it looked when the last trick was complete: no result, no kitty
    bonus, the old levels."""
    result = view.result
    assert result is not None
    return replace(
        view, phase=Phase.PLAYING, result=None, match_winner=None, levels=result.levels,
        opponent_points=result.opponent_points - result.kitty_scored, trick=trick,
        last_trick=previous, turn=None,
    )


def _run(match: Match, actions: Sequence[Action]) -> tuple[Frame, ...]:
    frames: list[Frame] = []
    previous: Trick | None = None
    reveals: list[Reveal] = []
    friends: set[int] = set()
    settled = False
    for action in actions:
        if settled:
            break  # a following hand's actions are not part of this one
        match, events = match.apply(action)
        view = match.public_view()
        for event in events:
            if isinstance(event, FriendRevealed):
                kind: RevealKind = ("starter" if event.seat == view.starter else
                                    "again" if event.seat in friends else "friend")
                friends.add(event.seat)
                reveals.append(Reveal(event.seat, view.friend_calls[event.call_index], kind))
        if not frames and view.phase is Phase.PLAYING and view.trick is None:
            frames.append(Frame("start", replace(view, turn=view.starter)))
        if not any(isinstance(e, TrickWon) for e in events):
            continue
        trick = view.last_trick
        assert trick is not None
        if any(isinstance(e, HandSettled) for e in events):
            frames.append(Frame("trick", _before_settlement(view, trick, previous), trick,
                                tuple(reveals)))
            frames.append(Frame("kitty", view, trick))
            settled = True
        else:
            frames.append(Frame("trick", replace(view, trick=trick, last_trick=previous,
                                                 turn=None), trick, tuple(reveals)))
        previous = trick
        reveals = []
    if not settled or frames[0].kind != "start":
        raise ReplayError("the actions do not play the hand to its end")
    return tuple(frames)


def levels_before(points: Sequence[LevelPoint], hand_no: int) -> tuple[str, ...] | None:
    """Every seat's level when hand ``hand_no`` started, from the match's level history
    (`Store.level_history`)."""
    earlier = [p for p in points if p.hands_played <= hand_no - 1]
    if not earlier:
        return None
    last = max(earlier, key=lambda p: (p.hands_played, p.at))
    return last.levels


def _matches_record(frames: Sequence[Frame], record: HandRecord) -> bool:
    result = frames[-1].view.result
    return result is not None and (result.side, result.opponent_points) == (
        record.result_side, record.opponent_points)


def _ranks(texts: Sequence[str]) -> tuple[Rank, ...] | None:
    try:
        return tuple(Rank.parse(text) for text in texts)
    except (TractorError, ValueError):
        return None


def _start_levels(record: HandRecord, level: Rank,
                  levels: Sequence[str] | None) -> list[tuple[Rank, ...]]:
    """Every seat's level before the hand, best guess first: as the hand recorded them,
    else ``levels`` (the match's level history, for hands recorded without them), if
    consistent with the hand's own level; then the hand's level for every seat (only the
    declarers' level matters for the play; the others show on the pictures)."""
    out: list[tuple[Rank, ...]] = []
    known = record.levels_before or levels
    ranks = _ranks(known) if known and len(known) == record.seats else None
    if ranks is not None and record.starter is not None and ranks[record.starter] == level:
        out.append(ranks)
    out.append((level,) * record.seats)
    return out


def _rules_for(record: HandRecord, rules: RuleSet | None) -> RuleSet:
    """The table's rules with the record's mode and seats (a table's options may have
    changed since the hand was played)."""
    rules = rules or RuleSet()
    if rules.mode != record.mode or rules.players != record.seats:
        return replace(rules, mode=Mode(record.mode), players=record.seats, decks=0)
    return rules


def replay_frames(record: HandRecord, rules: RuleSet | None = None,
                  levels: Sequence[str] | None = None) -> tuple[Frame, ...]:
    """The public steps of a settled hand (see the module docstring).

    The match is rebuilt as it stood before the hand: every seat's level as the hand
    recorded it (else ``levels``, see `levels_before`), the starter unless it is the
    match's first hand, when a declaration decides it. Raises
    `ReplayError` if the record is not settled or its actions do not play the hand to the
    end.
    """
    if record.result_side is None:
        raise ReplayError("the hand is not finished")
    try:
        level = Rank.parse(record.level)
        actions = _actions(record)
    except (TractorError, ValueError) as exc:
        raise ReplayError(str(exc)) from exc
    try:
        rules = _rules_for(record, rules)
    except (TractorError, ValueError) as exc:
        raise ReplayError(str(exc)) from exc
    first_hand = record.hand_no <= 1 or record.starter is None
    starters = [None, record.starter] if first_hand else [record.starter, None]
    fallback: tuple[Frame, ...] | None = None
    for both, starter in ((b, s) for b in _start_levels(record, level, levels)
                          for s in dict.fromkeys(starters)):
        match = Match(rules=rules, levels=both, hand_no=max(record.hand_no - 1, 0),
                      starter=starter)
        try:
            frames = _run(match, actions)
        except (TractorError, ValueError, ReplayError, AssertionError):
            continue
        if _matches_record(frames, record):
            return frames
        fallback = fallback or frames
    if fallback is None:
        raise ReplayError("the actions do not replay")
    return fallback  # played to the end under other rules: still the recorded plays


# ---------------------------------------------------------------------------- text


def _names(seats: Sequence[SeatInfo], which: Sequence[int]) -> str:
    return " & ".join(seats[seat].mention for seat in which)


def _reveal_lines(frame: Frame, seats: Sequence[SeatInfo], locale: str) -> list[str]:
    return [t(f"replay.reveal.{r.kind}", locale, player=seats[r.seat].mention,
              call=call_text(r.call, locale)) for r in frame.reveals]


def _trick_lines(trick: Trick, seats: Sequence[SeatInfo], locale: str) -> list[str]:
    lines = []
    failed = trick.failed_throw
    if failed is not None:
        lines.append(t("replay.failed_throw", locale, player=seats[failed.seat].mention,
                       cards=cards_text(failed.attempted), forced=cards_text(failed.forced)))
    winner = trick.winner if trick.winner is not None else trick.leader
    for seat, cards in zip(trick.seats, trick.plays, strict=True):
        mark = " ★" if seat == winner else ""
        lines.append(t("replay.play", locale, player=seats[seat].mention,
                       cards=cards_text(cards)) + mark)
    return lines


def _start_lines(view: PublicView, seats: Sequence[SeatInfo], lang: str) -> list[str]:
    starter = "?" if view.starter is None else seats[view.starter].mention
    lines = [t("replay.start", lang, trump=trump_text(view.trump, lang),
               level="?" if view.level is None else str(view.level), starter=starter)]
    if view.trump_seat is not None and view.standing is not None:
        lines.append(t("replay.declared", lang, player=seats[view.trump_seat].mention,
                       cards=cards_text(view.standing.cards)))
    elif view.revealed:
        lines.append(t("replay.trump_revealed", lang, cards=cards_text(view.revealed)))
    if view.friend_calls:  # none where sides are fixed
        lines.append(t("replay.calls", lang, player=starter, calls=", ".join(
            call_text(call, lang) for call in view.friend_calls)))
    elif view.variant.fixed_sides and view.starter is not None:
        lines.append(t("replay.declarers", lang, team=_names(seats, view.declarer_seats)))
    return lines


def _result_lines(view: PublicView, seats: Sequence[SeatInfo], lang: str) -> list[str]:
    result = view.result
    assert result is not None
    lines = kitty_lines(view, lang, "replay")
    if view.variant.calling(view.seats) and view.starter is not None:
        side = result.declarer_seats or view.declarer_seats
        others = [seat for seat in range(view.seats) if seat not in side]
        lines.append(t("replay.sides", lang, side=_names(seats, side),
                       opponents=_names(seats, others)))
    outcome = hand_outcome(result)
    if outcome == "declarers_up":
        lines.append(tn("replay.result.declarers", result.levels_gained, lang,
                        points=result.opponent_points))
    elif outcome == "opponents_up":
        lines.append(tn("replay.result.opponents_up", result.levels_gained, lang,
                        points=result.opponent_points))
    else:
        lines.append(t("replay.result.opponents", lang, points=result.opponent_points))
    if result.match_winner is not None:
        team = view.variant.partners(result.match_winner, view.seats)
        if len(team) == 1:
            lines.append(t("replay.match_won_by", lang, player=_names(seats, team)))
        else:
            lines.append(t("replay.match_won", lang, team=_names(seats, team)))
    return lines


def frame_text(frames: Sequence[Frame], step: int, seats: Sequence[SeatInfo], locale: str, *,
               hand_id: int) -> str:
    """The message shown with step `step` (0-based) of a replay, in `locale`.

    Built from the frame's public view only; the kitty appears in the last step alone.
    """
    lang = resolve_locale(locale)
    frame = frames[step]
    view = frame.view
    lines = [t("replay.title", lang, id=hand_id, number=view.hand_no, step=step + 1,
               steps=len(frames))]
    if frame.kind == "start":
        lines += _start_lines(view, seats, lang)
    elif frame.kind == "trick":
        trick = frame.trick
        assert trick is not None and trick.winner is not None
        lines.append(t("replay.trick", lang, number=trick.number,
                       leader=seats[trick.leader].mention, winner=seats[trick.winner].mention,
                       points=trick.points))
        lines += _trick_lines(trick, seats, lang)
        lines += _reveal_lines(frame, seats, lang)
        lines.append(t("table.points_taken", lang, points=view.opponent_points,
                       target=take_over_points(deal_shape(view.rules).decks)))
    else:
        lines += _result_lines(view, seats, lang)
    text = "\n".join(lines)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


# ---------------------------------------------------------------------------- images

@functools.cache
def _labels(lang: str) -> render.Labels:
    try:
        return render.Labels.from_lookup(lambda key: t(key, lang))
    except (KeyError, ValueError):
        return render.ENGLISH


def frame_png(frame: Frame, seats: Sequence[SeatInfo], locale: str, *,
              four_colour: bool = True, bottom: int = 0) -> bytes:
    """The image of a step: the table (every step but the last), then the hand summary with
    the kitty (the last), from the step's public view only."""
    lang = resolve_locale(locale)
    labels = _labels(lang)
    names = [render.SeatLabel(s.name, computer=s.computer) for s in seats]
    if frame.kind == "kitty":
        return render.render_summary(frame.view, names, four_colour=four_colour, labels=labels)
    return render.render_table(frame.view, names, four_colour=four_colour, labels=labels,
                               bottom=bottom)
