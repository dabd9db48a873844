"""Turning engine data into localized text (public messages, panels, announcements).

Public text is built from `PublicView` and public events only; a seat's own cards are
formatted only for that seat's panel. Cards are written as ``A♤`` (suits ♤ ♡ ♢ ♧, not
Discord's emoji suits: `legible`; read back by ``/tractor play``), jokers as ``RJ``/``BJ``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final, Literal

from bot.core.levels import LEVELS
from bot.core.options import options_text
from bot.core.table import TableDoc
from bot.i18n import DEFAULT, messages, t, tn
from bot.present.looks import look
from bot.present.markdown import escape_markdown
from bot.render.sides import kitty_to_opponents, two_teams
from engine.actions import Play
from engine.cards import ALL_CARDS, Card, Rank, Suit
from engine.deal import deal_shape, take_over_points
from engine.errors import TractorError
from engine.events import (
    Declared,
    Event,
    FriendRevealed,
    NoBidTrump,
    PlayTakenBack,
    Redealt,
    ThrowFailed,
    TrickWon,
    TrumpHow,
    TrumpSet,
)
from engine.friends import FriendCall
from engine.game import BATCHES, HandResult, Match, Phase, Trick
from engine.reasons import Reason, display_params, pretty_cards, template_key
from engine.trump import Trump
from engine.views import PublicView

EMOJI_SUITS: Final = "♠♥♦♣"
TEXT_SUITS: Final = "♤♡♢♧"
_LEGIBLE = str.maketrans(EMOJI_SUITS, TEXT_SUITS)
_PLAIN = str.maketrans(TEXT_SUITS, EMOJI_SUITS)


def legible(text: str) -> str:
    """`text` with the suits written ♤ ♡ ♢ ♧ (issue 31 item 9). Discord draws ♠ ♥ ♦ ♣ as
    emoji: ♠ ♣ near-black (contrast 1.05:1 on the dark theme), ♥ ♦ red (2.7:1); the outlined
    suits are no emoji and take the theme's text colour (9.4:1 dark, 12.6:1 light)."""
    return text.translate(_LEGIBLE)


def plain(text: str) -> str:
    """Typed or copied text with ♤ ♡ ♢ ♧ read as ♠ ♥ ♦ ♣ (the engine's notation)."""
    return text.translate(_PLAIN)


def suit_text(suit: Suit) -> str:
    """A suit's symbol in the bot's texts and labels (`legible`)."""
    return legible(suit.symbol)


SUIT_SYMBOLS = legible("♠♥♦♣")


PRETTY: tuple[str, ...] = tuple(legible(c.pretty)
                                for c in sorted(ALL_CARDS, key=lambda c: c.code))
"""`Card.pretty` by `Card.code` (0–53), worked out once, `legible`."""
assert [c.code for c in ALL_CARDS] == list(range(len(PRETTY)))


def pretty(card: Card) -> str:
    """``A♠``: `Card.pretty`."""
    return PRETTY[card.code]


def cards_text(cards: Sequence[Card]) -> str:
    """``A♠ A♠ 10♥ RJ``."""
    return " ".join([PRETTY[card.code] for card in cards])


def ruling_text(reason: str | TractorError, locale: str) -> str:
    """An engine ruling in `locale`: a `TractorError`, or a reason from `follow_error`,
    `lead_error`, `declaration_error` … (`engine.reasons.Reason`). Its ``engine.<key>``
    message with the parameters made readable (suits as ♤ ♥ ♦ ♧ or the trump word, cards
    with symbols, seats 1–4); the English text if it has no key in the catalog; `legible`."""
    if isinstance(reason, TractorError):
        reason = reason.ruling
    if not isinstance(reason, Reason) or not reason.key:
        return legible(str(reason))
    key = "engine." + template_key(reason.key, reason.params)
    if key not in messages(DEFAULT):
        return legible(str(reason))
    suits = dict(zip("SHDC", SUIT_SYMBOLS, strict=True)) | {"T": t("term.trump_suit", locale)}
    params = display_params(reason.params, suits, t("punct.list_separator", locale))
    for name, value in params.items():
        if name == "seat" and isinstance(value, int):
            params[name] = value + 1  # the bot numbers seats 1–4
        elif name == "notation":
            params[name] = pretty_cards(str(value))
        elif name == "token":
            params[name] = escape_markdown(str(value))
    return legible(t(key, locale, **params))


def trump_text(trump: Trump | None, locale: str) -> str:
    """``♥`` or the no-trump word; ``?`` before trump is set."""
    if trump is None:
        return "?"
    if trump.suit is None:
        return t("term.no_trump", locale)
    return suit_text(trump.suit)


def level_text(level: Rank | None) -> str:
    return "?" if level is None else str(level)


def seat_name(doc: TableDoc, seat: int, locale: str) -> str:
    """A seat's display name, markdown-escaped (``Bot 3`` for an unnamed computer)."""
    entry = doc.seats[seat]
    if entry is None:
        return t("lobby.seat_empty", locale)
    if entry.user_id is None and not entry.name:
        return t("seat.computer_name", locale, number=seat + 1)
    return escaped(entry.name)


@functools.lru_cache(maxsize=4096)
def escaped(name: str) -> str:
    """`escape_markdown` (a few regular expressions), once per name."""
    return escape_markdown(name)


def seat_title(doc: TableDoc, seat: int, locale: str) -> str:
    """A seat's name as the seat list and the table picture show it: a computer's with
    its level (``Bot 2 · strong``)."""
    name = seat_name(doc, seat, locale)
    entry = doc.seats[seat]
    if entry is None or entry.user_id is not None or not entry.level:
        return name
    return t("seat.computer_level", locale, name=name, level=level_text_of(entry.level, locale))


def seat_short_forms(doc: TableDoc, seat: int, locale: str) -> tuple[str, ...]:
    """A computer seat's shorter name for the table picture: its name without its level
    (``Bot 3`` for ``Bot 3 · strong``), drawn when its title does not fit the seat's plate,
    so a seat has one name in every text and picture; a person's: none (their name is drawn
    whole, on two lines if need be)."""
    entry = doc.seats[seat]
    if entry is None or entry.user_id is not None or not entry.level:
        return ()
    return (seat_name(doc, seat, locale).replace("\\", ""),)


def level_text_of(level: str, locale: str) -> str:
    """A computer level as players read it (a player name without a level as is)."""
    return t(f"level.{level}", locale) if level in LEVELS else level


def seat_label(doc: TableDoc, seat: int, locale: str) -> str:
    """``Alice (2)``: the name with the seat number (shown from 1)."""
    return t("seat.label", locale, name=seat_name(doc, seat, locale), number=seat + 1)


_SHAPE_TERMS = ("single", "pair", "triple", "quad", "tractor", "throw")
"""The shapes `engine.units.shape_of` names that have a word of their own
(``term.<shape>``)."""


def shape_word(shape: str, locale: str) -> str:
    """The word for a play's shape (`engine.units.shape_of`); ``mixed`` for any other."""
    return t(f"term.{shape}" if shape in _SHAPE_TERMS else "shape.mixed", locale)


def trick_line(doc: TableDoc, trick: Trick, locale: str, trump: Trump | None = None) -> str:
    winner = trick.winner if trump is None else trick.winning_seat(trump)
    parts = []
    for seat, play in zip(trick.seats, trick.plays, strict=True):
        mark = " ★" if seat == winner else ""
        parts.append(f"{seat_name(doc, seat, locale)} {cards_text(play)}{mark}")
    return " · ".join(parts)


def header(doc: TableDoc, public: PublicView, locale: str) -> str:
    """``**Hand 3** · Level 5 · Trump ♥ · Starter Alice``; before the first deal
    ``**Waiting for the first deal**`` (no hand, no level yet: issue 31 item 8)."""
    if public.hand_no == 0:
        return f"**{t('table.first_hand', locale)}**"
    bits = [f"**{t('table.hand_no', locale, number=public.hand_no)}**",
            t("table.level", locale, level=level_text(public.level))]
    if public.trump is not None:
        bits.append(t("table.trump", locale, trump=trump_text(public.trump, locale)))
        if public.trump_how is TrumpHow.FIXED:
            bits.append(t("table.trump_fixed", locale))
        if public.trump_seat is not None:
            bits.append(t("table.declared_by", locale,
                          player=seat_name(doc, public.trump_seat, locale)))
    if public.starter is not None:
        bits.append(t("table.starter", locale, player=seat_name(doc, public.starter, locale)))
    return " · ".join(bits)


def names_text(doc: TableDoc, seats: Sequence[int], locale: str) -> str:
    """``Ann & Bo & Cy``: some seats' names."""
    return " & ".join(seat_name(doc, seat, locale) for seat in seats)


def seat_levels_text(doc: TableDoc, levels: Sequence[Rank], locale: str) -> str:
    """``Ann 3 · Bo 2 · …``: every seat's own level (Finding Friends)."""
    return " · ".join(f"{seat_name(doc, seat, locale)} {level}"
                      for seat, level in enumerate(levels))


def copy_word(copy: int, locale: str) -> str:
    """``1st``: which copy of a called card counts (the pictures draw the same words)."""
    return t(f"friends.copy.{copy}", locale)


def call_text(call: FriendCall, locale: str) -> str:
    """``the 1st A♥``: a friend call, the copy-th `call.card` played (F4)."""
    return t("friends.call", locale, copy=copy_word(call.copy, locale), card=PRETTY[call.card.code])


def calls_line(doc: TableDoc, public: PublicView, locale: str) -> str:
    """The called cards, with the seat that played each once it has (public): nobody is
    named before their called card is played."""
    parts = []
    for index, call in enumerate(public.friend_calls):
        seat = public.call_seats[index] if index < len(public.call_seats) else None
        who = "?" if seat is None else seat_name(doc, seat, locale)
        parts.append(f"{call_text(call, locale)} → {who}")
    return t("table.friend_calls", locale, calls=" · ".join(parts))


def side_line(doc: TableDoc, public: PublicView, locale: str) -> str:
    """The starter's side as known now: the starter and the revealed friends."""
    return t("table.starter_side", locale, players=names_text(doc, public.declarer_seats,
                                                             locale))


def levels_line(doc: TableDoc, public: PublicView, locale: str) -> str:
    if not two_teams(public.variant, public.seats):
        return t("table.seat_levels", locale,
                 levels=seat_levels_text(doc, public.seat_levels, locale))
    a, b = public.variant.side_levels(public.levels)
    return t("table.team_levels", locale,
             team_a=f"{seat_name(doc, 0, locale)} & {seat_name(doc, 2, locale)}",
             level_a=str(a),
             team_b=f"{seat_name(doc, 1, locale)} & {seat_name(doc, 3, locale)}",
             level_b=str(b))


def seats_line(doc: TableDoc, public: PublicView, locale: str) -> str:
    parts = []
    for seat in range(public.seats):
        entry = doc.seats[seat]
        marks = ""
        if entry is not None and entry.user_id is None:
            marks = " 🤖"
        elif entry is not None and entry.autopilot:
            marks = " ⏸"
        count = public.cards_left[seat]
        left = f" ({tn('table.cards_left', count, locale)})" if public.hand_no else ""
        parts.append(f"{seat + 1}. {seat_title(doc, seat, locale)}{marks}{left}")
    return " · ".join(parts)


def deadline_text(deadline: float | None) -> str:
    return "" if deadline is None else f"<t:{int(deadline)}:R>"


def mention(doc: TableDoc, seat: int, locale: str) -> str:
    """A mention for a human (never pings: messages use AllowedMentions.none()), a name
    for a computer."""
    entry = doc.seats[seat]
    if entry is not None and entry.user_id is not None:
        return f"<@{entry.user_id}>"
    return seat_name(doc, seat, locale)


def status_line(doc: TableDoc, public: PublicView, locale: str) -> str:
    """Who the table is waiting for, with the countdown."""
    when = deadline_text(doc.deadline)
    if public.phase is Phase.DECLARING:
        waiting = ", ".join(mention(doc, s, locale) for s in public.awaiting)
        return t("table.declaring_status", locale, batch=public.batch, total=BATCHES,
                 players=waiting or "—", deadline=when or "—")
    if public.phase is Phase.BURYING and public.turn is not None:
        return t("table.burying_status", locale, player=mention(doc, public.turn, locale),
                 deadline=when or "—")
    if public.phase is Phase.CALLING and public.turn is not None:
        return t("table.calling_status", locale, player=mention(doc, public.turn, locale),
                 count=deal_shape(public.rules).friends, deadline=when or "—")
    if public.phase is Phase.PLAYING and public.turn is not None:
        if when:
            return t("table.waiting_for_until", locale,
                     player=mention(doc, public.turn, locale), deadline=when)
        return t("table.waiting_for", locale, player=mention(doc, public.turn, locale))
    if public.phase is Phase.BETWEEN_HANDS:
        waiting = ", ".join(mention(doc, s, locale) for s in doc.unready)
        if not waiting:
            return t("table.next_hand", locale, deadline=when or "—")
        if public.hand_no == 0:
            return t("table.first_deal", locale, deadline=when or "—", players=waiting)
        if when:
            return t("table.next_hand_ready", locale, deadline=when, players=waiting)
        return t("table.next_hand_ready_nolimit", locale, players=waiting)
    if public.phase is Phase.MATCH_OVER:
        return t("table.match_over", locale)
    return ""


def table_content(doc: TableDoc, public: PublicView, locale: str, *,
                  live: bool = True) -> str:
    """The table message text (public); not `live`: once its moment has passed (the next
    hand or match began), without its status line and the notes that ask for an action."""
    lines = [header(doc, public, locale), levels_line(doc, public, locale),
             seats_line(doc, public, locale)]
    if public.declarations and public.phase is Phase.DECLARING:
        last = public.declarations[-1]
        lines.append(t("table.standing_declaration", locale,
                       player=seat_name(doc, last.seat, locale), cards=cards_text(last.cards)))
    if public.friend_calls:  # none where sides are fixed
        lines.append(calls_line(doc, public, locale))
        lines.append(side_line(doc, public, locale))
    if public.phase in (Phase.PLAYING, Phase.BETWEEN_HANDS, Phase.MATCH_OVER) \
            and public.hand_no:  # nothing dealt yet: no points
        lines.append(t("table.points_taken", locale, points=public.opponent_points,
                       target=take_over_points(deal_shape(public.rules).decks)))
    if public.trick is not None:
        lines.append(t("table.current_trick", locale, number=public.trick.number,
                       plays=trick_line(doc, public.trick, locale, public.trump)))
    if public.last_trick is not None:
        lines.append(t("table.last_trick_line", locale, number=public.last_trick.number,
                       plays=trick_line(doc, public.last_trick, locale, public.trump),
                       player=seat_name(doc, public.last_trick.winner or 0, locale),
                       points=public.last_trick.points))
    notes = doc.notes[-4:] if live else [
        note for note in doc.notes[-4:] if note != t("note.match_over", locale)]
    if notes:
        lines.append("")
        lines.extend(f"› {note}" for note in notes)
    for seat, entry in enumerate(doc.seats):
        if entry is not None and entry.user_id is not None and entry.autopilot:
            lines.append(t("table.autopilot", locale, player=seat_name(doc, seat, locale)))
    if doc.has_computers:
        lines.append(t("table.computer_seats", locale))
    if doc.restored:
        lines.append(t("table.restored", locale))
    status = status_line(doc, public, locale)
    if status and (live or public.phase is Phase.MATCH_OVER):
        lines.append("")
        lines.append(status)
    return fit("\n".join(lines))


def lobby_content(doc: TableDoc, locale: str) -> str:
    lines = [f"**{t('lobby.title', locale)}**",
             t("lobby.opened_by", locale, player=f"<@{doc.creator_id}>")]
    looks = look(doc.rules.variant)
    for seat in range(doc.seat_count):
        entry = doc.seats[seat]
        team = team_letter(doc.rules.variant.team_of(seat) or 0)
        if entry is None:
            who = t("lobby.seat_empty", locale)
        elif entry.user_id is None:
            who = f"{seat_title(doc, seat, locale)} 🤖"
        else:
            who = f"<@{entry.user_id}>"
        lines.append(t(looks.lobby_seat, locale,
                       number=seat + 1, team=team, player=who))
    lines.append("")
    lines.append(t("lobby.options_title", locale))
    lines.append(options_text(doc.options, locale))
    if doc.notes:
        lines.append("")
        lines.extend(f"› {note}" for note in doc.notes[-3:])
    if doc.restored:
        lines.append(t("table.restored", locale))
    lines.append("")
    lines.append(lobby_prompt(doc, locale))
    lines.extend(t(key, locale, players=doc.seat_count) for key in looks.lobby_notes)
    return fit("\n".join(lines))


def lobby_prompt(doc: TableDoc, locale: str) -> str:
    """How to fill the seats, or that the match can start."""
    return t("lobby.ready" if doc.full else "lobby.how_to", locale, count=doc.seat_count)


def event_lines(doc: TableDoc, events: Sequence[Event], locale: str) -> list[str]:
    """Public one-line notes for the table message (the ones worth a line)."""
    lines: list[str] = []
    for event in events:
        if isinstance(event, Declared):
            lines.append(t("note.declared", locale, player=seat_name(doc, event.seat, locale),
                           cards=cards_text(event.cards)))
        elif isinstance(event, ThrowFailed):
            key = "note.throw_failed_penalty" if event.penalty else "note.throw_failed"
            lines.append(t(key, locale, player=seat_name(doc, event.seat, locale),
                           attempted=cards_text(event.attempted),
                           forced=cards_text(event.forced), penalty=abs(event.penalty)))
        elif isinstance(event, TrickWon):
            lines.append(t("note.trick_won", locale, player=seat_name(doc, event.seat, locale),
                           number=event.trick_no, points=event.points))
        elif isinstance(event, Redealt):
            lines.append(t("announce.redeal", locale))
        elif isinstance(event, TrumpSet) and event.how is TrumpHow.FIXED:
            lines.append(t("note.trump_fixed", locale, trump=trump_text(event.trump, locale)))
        elif isinstance(event, PlayTakenBack):
            lines.append(t("note.taken_back", locale, player=seat_name(doc, event.seat, locale),
                           cards=cards_text(event.cards)))
        elif isinstance(event, NoBidTrump):
            lines.append(t("announce.no_bid", locale, cards=cards_text(event.revealed),
                           trump=trump_text(event.trump, locale)))
        elif isinstance(event, FriendRevealed):
            lines.append(reveal_text(doc, event, locale))
    return lines


def taken_back_lines(doc: TableDoc, match: Match, event: PlayTakenBack,
                     locale: str) -> list[str]:
    """The table lines the play `event` took back had added ("Bo won trick 3", issue 38):
    that play made again on `match`, which is as it was before it (R12)."""
    try:
        _, events = match.apply(Play(event.seat, event.cards))
    except TractorError:
        return []
    return event_lines(doc, [e for e in events if not isinstance(e, PlayTakenBack)], locale)


def reveal_text(doc: TableDoc, event: FriendRevealed, locale: str) -> str:
    """``Bo played the 1st A♥ — Bo is Ann's friend`` (`FriendRevealed`, public from the
    moment the card is played); the starter's own called card makes the call void."""
    match = doc.get_match()
    assert match is not None
    public = match.public_view()
    seat = event.seat
    call = public.friend_calls[event.call_index]
    starter = public.starter
    assert starter is not None
    card = call_text(call, locale)
    if seat == starter:
        return t("note.friend_void", locale, player=seat_name(doc, seat, locale), call=card)
    return t("note.friend_revealed", locale, player=seat_name(doc, seat, locale), call=card,
             starter=seat_name(doc, starter, locale))


def summary_text(doc: TableDoc, public: PublicView, locale: str) -> str:
    """The end-of-hand announcement (public: the kitty is revealed at settlement)."""
    result = public.result
    assert result is not None and public.starter is not None
    lines = [f"**{t('summary.title', locale, number=public.hand_no)}**"]
    lines += kitty_lines(public, locale, "summary")
    lines.append(t("summary.opponents_total", locale, points=result.opponent_points))
    if not two_teams(public.variant, public.seats):  # per seat
        lines += _friends_outcome(doc, public, result, locale)
        lines.append(t("summary.seed", locale, seed=result.seed))
        return fit("\n".join(lines))
    declarers = public.rules.variant.team_of(public.starter)
    assert declarers is not None  # two fixed teams (per seat returned above)
    outcome = hand_outcome(result)
    if outcome == "declarers_up":
        lines.append(t("summary.declarers_up", locale, team=_team(doc, declarers, locale),
                       levels=result.levels_gained))
    elif outcome == "opponents_up":
        lines.append(t("summary.opponents_up", locale, team=_team(doc, 1 - declarers, locale),
                       levels=result.levels_gained))
    else:
        lines.append(t("summary.opponents_take_over", locale,
                       team=_team(doc, 1 - declarers, locale)))
    a, b = public.variant.side_levels(result.new_levels)
    lines.append(t("summary.levels", locale, team_a=_team(doc, 0, locale), level_a=str(a),
                   team_b=_team(doc, 1, locale), level_b=str(b)))
    if result.match_winner is None:
        lines.append(t("summary.next_starter", locale,
                       player=seat_name(doc, result.next_starter, locale)))
    lines.append(t("summary.seed", locale, seed=result.seed))
    return fit("\n".join(lines))


def _friends_outcome(doc: TableDoc, public: PublicView, result: HandResult,
                     locale: str) -> list[str]:
    """Finding Friends: the final sides, who went up, every seat's level, the next starter."""
    side = list(result.declarer_seats)
    others = [s for s in range(public.seats) if s not in side]
    lines = [t("summary.starter_side", locale, players=names_text(doc, side, locale))]
    outcome = hand_outcome(result)
    if outcome == "declarers_up":
        lines.append(t("summary.declarers_up", locale, team=names_text(doc, side, locale),
                       levels=result.levels_gained))
    elif outcome == "opponents_up":
        lines.append(t("summary.opponents_up", locale, team=names_text(doc, others, locale),
                       levels=result.levels_gained))
    else:
        lines.append(t("summary.opponents_take_over", locale,
                       team=names_text(doc, others, locale)))
    lines.append(t("summary.seat_levels", locale,
                   levels=seat_levels_text(doc, result.new_levels, locale)))
    if result.match_winner is None:
        lines.append(t("summary.next_starter", locale,
                       player=seat_name(doc, result.next_starter, locale)))
    return lines


HandOutcome = Literal["declarers_up", "opponents_up", "take_over"]
"""Which of R10's three outcomes a settled hand had."""


def hand_outcome(result: HandResult) -> HandOutcome:
    """The declarers go up, or the opponents take over and go up, or only take over."""
    if result.side == "declarers":
        return "declarers_up"
    return "opponents_up" if result.levels_gained else "take_over"


def kitty_lines(view: PublicView, locale: str, prefix: str) -> list[str]:
    """The kitty turned up and what became of it, with the ``{prefix}.kitty`` message and one
    of ``.kitty_scored`` (the opponents won the last trick and the kitty had points),
    ``.kitty_empty`` (they won it, the kitty had none) and ``.kitty_not_scored`` (the
    declarers won it): ``summary`` for the end-of-hand announcement, ``replay`` for a
    replay's last step (their wording differs). `view` is the settled public view."""
    result = view.result
    assert result is not None
    lines = [t(f"{prefix}.kitty", locale, cards=cards_text(result.kitty),
               points=result.kitty_points)]
    if not kitty_to_opponents(view):
        lines.append(t(f"{prefix}.kitty_not_scored", locale))
    elif result.kitty_points:
        lines.append(t(f"{prefix}.kitty_scored", locale, points=result.kitty_points,
                       multiplier=result.kitty_multiplier, total=result.kitty_scored))
    else:
        lines.append(t(f"{prefix}.kitty_empty", locale))
    return lines


def team_letter(team: int) -> str:
    """A fixed team's letter: ``A``, ``B``, … (`Variant.team_of`)."""
    return chr(ord("A") + team)


def _team(doc: TableDoc, team: int, locale: str) -> str:
    """A fixed team as its seats' names, ``Alice & Carol`` (`Variant.team_of`)."""
    variant = doc.rules.variant
    return " & ".join(seat_name(doc, seat, locale) for seat in range(doc.seat_count)
                      if variant.team_of(seat) == team)


def team_names(doc: TableDoc, team: int, locale: str) -> str:
    return _team(doc, team, locale)


CONTENT_LIMIT = 2000
"""Discord: characters in a message's content."""


def fit(text: str, limit: int = CONTENT_LIMIT) -> str:
    """`text` cut to `limit` characters (the last one "…" when cut): every message the bot
    sends passes through here."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
