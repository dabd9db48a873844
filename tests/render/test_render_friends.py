"""Finding Friends pictures (issue 14): the table for 4–8 seats, hands up to 34 cards (and a
fallback for 60), the summary for N seats; goldens for 6 and 8 seats; nothing hidden drawn."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageDraw
from test_render_images import check_limits, match_golden, suit_hand
from zh_labels import ZH

from bot.render import (
    ENGLISH,
    Labels,
    SeatLabel,
    draw,
    hand,
    render_hand,
    render_summary,
    render_table,
    ring,
    summary,
)
from bot.render.faces import RANK_STEP
from bot.render.hand import layout, tuple_groups
from bot.render.ring import SLOTS, cells, fitted_call, play_rows
from bot.render.sides import Call, Role, sides_of
from bot.render.table import table_image
from engine.ai.random_agent import RandomAgent
from engine.cards import Card, Rank, Suit, parse_cards
from engine.game import Match, Phase, Trick
from engine.rules import Mode, RuleSet
from engine.views import PlayerView, PublicView
from tools.demo_friends import (
    FriendsPositions,
    eight_seats,
    seat_labels,
    six_seats,
    with_friends,
)
from tools.demo_positions import SEATS
from tools.selfplay import play_hand

MAX_BYTES = 64 * 1024  # the 8-seat table holds up to 64 cards and 32 tiles
LEAST_ASPECT = 0.72  # taller than the four-seat table: at most 1000 px
PHONE_SCALE = 0.5


@cache
def six() -> FriendsPositions:
    return six_seats()


@cache
def eight() -> FriendsPositions:
    return eight_seats()


def _limits(data: bytes) -> Image.Image:
    return check_limits(data, max_bytes=MAX_BYTES, least_aspect=LEAST_ASPECT)


CASES: dict[str, Callable[[], bytes]] = {
    "friends6_table": lambda: render_table(six().playing, six().seats),
    "friends6_table_full_zh_two_colour": lambda: render_table(
        six().full_trick, six().seats, labels=ZH, four_colour=False, bottom=3),
    "friends8_table": lambda: render_table(eight().playing, eight().seats),
    "friends8_table_full": lambda: render_table(eight().full_trick, eight().seats, bottom=2),
    "friends8_hand_burying_34": lambda: render_hand(eight().burying),
    "friends6_hand_burying_zh": lambda: render_hand(six().burying, labels=ZH),
    "friends6_summary": lambda: render_summary(six().summary, six().seats),
    "friends8_summary_zh": lambda: render_summary(eight().summary, eight().seats, labels=ZH),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    data = CASES[name]()
    match_golden(name, data, _limits(data))


# --- the board ---------------------------------------------------------------------------

RIM = (ring.B, ring.BR, ring.R, ring.TR, ring.T, ring.TL, ring.L, ring.BL)


@pytest.mark.parametrize("seats", range(4, 9))
def test_seats_go_counter_clockwise_from_the_viewer_and_mirror(seats: int) -> None:
    slots = SLOTS[seats]
    assert len(set(slots)) == seats and slots[0] == ring.B
    assert [RIM.index(s) for s in slots] == sorted(RIM.index(s) for s in slots)
    assert {(2 - c, r) for c, r in slots} == set(slots)  # left–right symmetric
    assert ring.CENTRE not in slots


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("seats", range(4, 9))
def test_cells_fit_the_picture_and_never_overlap(seats: int) -> None:
    heights = ring.board_rows({(1, 0): 8, (0, 2): 3})  # a wrapped throw on the top row
    assert heights[0] > heights[1] == heights[2]
    for bottom in range(seats):
        where = cells(seats, bottom, heights)
        assert where[bottom].plate[3] == max(c.plate[3] for c in where.values())
        boxes = [box for cell in where.values() for box in (cell.plate, cell.play)]
        boxes.append(ring.centre_box(heights))
        for box in boxes:
            assert 0 < box[0] < box[2] < ring.WIDTH and ring.HEADER <= box[1] < box[3]
        for a, b in itertools.combinations(boxes, 2):
            assert not _overlap(a, b), (seats, bottom, a, b)


def test_plays_up_to_a_tractor_of_triples_stay_on_one_readable_row() -> None:
    assert play_rows(4) == play_rows(6) == 1  # a tractor of pairs, of triples
    assert play_rows(8) == play_rows(12) == 2  # a tractor of quadruples, a long throw
    assert play_rows(13) == 3
    assert 0.30 * ring.CARD_W * PHONE_SCALE >= 11  # the rank's ink at phone size
    step = draw.row_step(6, ring.CARD_W, ring.PLAY_ROOM, ring.CARD_STEP)
    assert step >= ring.MIN_STEP and ring.MIN_STEP >= 0.35 * ring.CARD_W


def test_every_seat_throwing_twelve_cards_still_draws() -> None:
    view = eight().full_trick
    throw = tuple(parse_cards("AH AH AH AH KH KH KH KH QH QH QH QH"))
    image = check_limits(render_table(replace(view, trick=Trick(6, 3, (throw,) * 8,
                                                                seat_count=8)),
                                      eight().seats), max_bytes=MAX_BYTES, least_aspect=0.6)
    heights = ring.board_rows({slot: 12 for slot in SLOTS[8]})
    assert image.height > 1000 and min(heights) == ring.PLATE_H + ring.PLAY_GAP \
        + ring.play_height(12)


def test_the_last_trick_wraps_rather_than_hide_ranks() -> None:
    public = eight().full_trick
    tractors = Trick(1, 0, tuple(tuple(parse_cards("8H 8H 9H 9H")) for _ in range(8)),
                     seat_count=8)
    rows = ring._last_rows(tractors, 8, public.trump, Rank.SEVEN)
    assert len(rows) == 2 and all(row.step >= ring.TILE_MIN_STEP for row in rows)
    assert ring.TILE_MIN_STEP == ring.TILE_CARD * RANK_STEP  # a 10 whole (issue 38)
    assert all(row.stack for row in rows)  # 8♥ over 8♥, each rank whole
    pairs = Trick(1, 0, tuple(tuple(parse_cards("8H 8H")) for _ in range(6)), seat_count=6)
    assert len(ring._last_rows(pairs, 6, public.trump, Rank.SEVEN)) == 1
    mixed = Trick(1, 0, tuple(tuple(parse_cards("10H JH")) for _ in range(6)))
    assert len(ring._last_rows(mixed, 6, public.trump, Rank.SEVEN)) == 2  # never a cut 10


@pytest.mark.parametrize("labels", [ENGLISH, ZH], ids=["en", "zh"])
def test_plate_lines_stay_inside_and_apart(labels: Labels) -> None:
    pos = six()
    view = pos.full_trick
    sides = sides_of(view)
    image = Image.new("RGB", (ring.WIDTH, 1000))
    canvas = ImageDraw.Draw(image)
    for seat in range(6):
        for label in (SeatLabel("Bernadette the Bold", computer=True),
                      SeatLabel("龍" * 20, autopilot=True), SeatLabel("A")):
            lines = len(ring.plate_name(seat, label, sides, labels).lines)  # a name on two:
            box = (12, 100, 12 + ring.CELL_W,  # the plate a line taller
                   100 + ring.PLATE_H + ring.NAME_LINE * (lines - 1))
            drawn = ring.draw_plate(canvas, box, seat, label, view, sides, labels)
            for b in drawn:
                assert box[0] < b[0] and b[2] < box[2] and box[1] < b[1] and b[3] < box[3]
            for a, b in itertools.combinations(drawn, 2):
                assert not _overlap(a, b), (seat, label, a, b)


def test_called_cards_read_and_fit_the_centre() -> None:
    seats = (SeatLabel("Bo"), SeatLabel("Bernadette the Bold of the Northern Marches"),
             SeatLabel("Chen"))
    ace = Card(Rank.ACE, Suit.HEARTS)
    assert fitted_call(Call(ace, 1, 0, False), seats, ENGLISH, 300) == (
        ["1st A", Suit.HEARTS, " → Bo"], ring.CALL)
    assert fitted_call(Call(ace, 2, None, False), seats, ENGLISH, 300) == (
        ["2nd A", Suit.HEARTS, " ?"], ring.CALL)
    assert fitted_call(Call(ace, 3, 0, True), seats, ENGLISH, 300) == (
        ["3rd A", Suit.HEARTS, ": void"], ring.CALL)
    room = ring.CELL_W - 8
    assert fitted_call(Call(ace, 2, 2, False), seats, ZH, room) == (  # smaller, whole
        ["第二张A", Suit.HEARTS, " → Chen"], ring.CALL_SMALL)
    long, size = fitted_call(Call(ace, 4, 1, False), seats, ENGLISH, room)
    assert draw.rich_width(long, size, bold=True) <= room
    assert long == ["4th A", Suit.HEARTS, " → seat 2"]  # the number on its plate, whole


COMPUTER_NAMES = {"en": ("Bot {n}", "Bot {n} · strong", "Bernadette the Bold"),
                  "zh": ("电脑 {n}", "电脑 {n} · 强", "龍" * 12)}


@pytest.mark.parametrize("seats", range(4, 9))
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_friend_in_the_centre_is_named_whole_or_by_its_plate(seats: int,
                                                                   lang: str) -> None:
    """Issue 31 item 7: the centre read "1st A♦ → Comp…". Measured at the centre's width,
    every found friend reads in full: its whole name, or the seat number its plate shows."""
    labels = ENGLISH if lang == "en" else ZH
    room = ring.CELL_W - 8
    card = Card(Rank.ACE, Suit.DIAMONDS)
    for template in COMPUTER_NAMES[lang]:
        names = [SeatLabel(template.format(n=n + 1), computer=True) for n in range(seats)]
        for seat in range(seats):
            for copy in range(1, 5):
                parts, size = fitted_call(Call(card, copy, seat, False), names, labels, room)
                assert draw.rich_width(parts, size, bold=True) <= room
                last = str(parts[-1])
                assert "…" not in last, (template, seat, parts)
                assert last.endswith((names[seat].name, labels.seat_ref.format(
                    number=seat + 1))), parts


def test_sides_known_unknown_and_void() -> None:
    eight_sides = sides_of(eight().playing)  # one of three calls found
    assert eight_sides.roles[2] is Role.STARTER and eight_sides.roles[5] is Role.FRIEND
    assert {eight_sides.roles[s] for s in (0, 1, 3, 4, 6, 7)} == {Role.UNKNOWN}
    assert eight_sides.threshold == 160 and eight_sides.levels[5] == Rank.TEN
    six_sides = sides_of(six().playing)  # both settled, the second void: opponents known
    assert [c.void for c in six_sides.calls] == [False, True]
    assert six_sides.roles == (Role.STARTER, Role.OPPONENT, Role.OPPONENT, Role.FRIEND,
                               Role.OPPONENT, Role.OPPONENT)
    teams = sides_of(suit_hand().playing.public)  # teams mode reads as before
    assert not teams.friends and teams.seats == 4 and teams.calls == ()  # points: per seat
    assert teams.roles.count(Role.FRIEND) == 1 and teams.roles.count(Role.OPPONENT) == 2


@pytest.mark.parametrize("seats", range(4, 9))
def test_every_seat_count_draws_in_every_phase(seats: int) -> None:
    base = eight().playing if seats == 8 else six().playing
    rules = replace(base.rules, players=seats)
    view = with_friends(replace(
        base, rules=rules, levels=(base.levels * 2)[:seats], cards_left=(10,) * seats,
        declarations=(),
        starter=1, turn=0, trick=Trick(3, 1, tuple(tuple(parse_cards("QC QC QC KC KC KC"))
                                                  for _ in range(seats - 1))),
        last_trick=None), friend_calls=base.friend_calls[:1], call_seats=(None,),
        points_by_seat=(5,) * seats)
    names = seat_labels(seats)
    for bottom in range(seats):
        _limits(render_table(view, names, bottom=bottom))
    for phase_view in (replace(view, trick=None), replace(view, trick=None, turn=None,
                                                          friend_calls=(), call_seats=())):
        _limits(render_table(phase_view, names))
    with pytest.raises(ValueError, match=f"{seats} seats"):
        render_table(view, SEATS if seats != 4 else SEATS[:3])


# --- the hand --------------------------------------------------------------------------------

def test_a_34_card_bury_is_readable() -> None:
    view = eight().burying
    assert len(view.hand) + len(view.kitty or ()) == 34
    plan = layout([34], kitty=True, room=hand.MAX_HEIGHT - 2 * hand.LINE - 2 - hand.BOTTOM)
    assert 0.30 * plan.card * PHONE_SCALE >= 14 and len(plan.rows) <= 4
    image = _limits(render_hand(view))
    assert image.height <= hand.MAX_HEIGHT


def test_sixty_cards_get_a_taller_picture_still_readable() -> None:
    """Four players with four decks: 52 cards and a kitty of 8 while burying."""
    pack = [card for card in parse_cards("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S "
                                         "AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H "
                                         "AC KC QC JC 10C 9C 8C 7C 6C 5C 4C 3C 2C") * 2]
    view = eight().burying
    big = PlayerView(view.seat, view.public, tuple(pack[:52]), tuple(pack[52:60]))
    image = _limits(render_hand(big))
    assert hand.MAX_HEIGHT < image.height <= hand.TALL_HEIGHT
    for sizes in ((15, 15, 15, 15), (60,)):
        plan = layout(sizes, kitty=True, room=hand.TALL_HEIGHT - 2 * hand.LINE - 2
                      - hand.BOTTOM, even=True)
        assert 0.30 * plan.card * PHONE_SCALE >= 14


def test_triples_and_quadruples_stand_apart_pairs_do_not() -> None:
    groups = [parse_cards("AS KS KS KS QS QS 9S"), parse_cards("AH AH AH AH 3H")]
    sizes, ties = tuple_groups(groups)
    assert sizes == [1, 3, 3, 4, 1]
    assert ties == {1, 4, 11}  # around K♠K♠K♠, after A♥A♥A♥A♥ (before it: a suit start)
    two_decks = [parse_cards("AS AS KS QS QS"), parse_cards("9H 9H")]
    assert tuple_groups(two_decks) == ([5, 2], frozenset())


def test_the_bury_hint_names_the_kitty_size() -> None:
    assert hand.bury_hint(8, ZH) == "扣 8 张 · 底 = 底牌"  # the four-seat game's words, unchanged
    assert hand.bury_hint(6, ENGLISH) == "Bury 6 · K = from the kitty"
    assert hand.bury_hint(12, ZH) == "扣 12 张 · 底 = 底牌"


# --- the summary -------------------------------------------------------------------------

def test_result_rows_scale_with_the_decks() -> None:
    assert summary.result_rows(95, ENGLISH) == summary.result_rows(95, ENGLISH, 40)
    rows = summary.result_rows(130, ENGLISH, 60)  # three decks: 120 take over
    current = [(span, result) for span, result, now in rows if now]
    assert current == [("120–175", ENGLISH.result_swap)]
    assert summary.result_rows(400, ENGLISH, 80)[-1] == ("400–475", "Opponents take over, +3",
                                                         True)


def test_summary_marks_the_final_sides_and_fits_every_seat_count() -> None:
    base = eight().summary
    for seats in range(4, 9):
        result = replace(base.result, levels=base.result.levels[:seats],
                         new_levels=base.result.new_levels[:seats], next_starter=0,
                         match_winner=3 if seats == 5 else None)
        small = replace(base, result=result, declarer_seats=(2,))
        image = _limits(render_summary(small, seat_labels(seats), labels=ZH))
        assert image.height == summary.friends_height(seats)


# --- hidden information ---------------------------------------------------------------------

@contextmanager
def drawn_cards() -> Iterator[Counter[Card]]:
    """Every card whose face or index tile the table picture draws."""
    seen: Counter[Card] = Counter()
    face, tile = draw.card_face, draw.card_tile

    def record(real: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(card: Card, *args: Any, **kwargs: Any) -> Any:
            seen[card] += 1
            return real(card, *args, **kwargs)
        return wrapper

    draw.card_face, draw.card_tile = record(face), record(tile)  # type: ignore[assignment]
    try:
        yield seen
    finally:
        draw.card_face, draw.card_tile = face, tile  # type: ignore[assignment]


def public_cards(view: PublicView) -> Counter[Card]:
    """The cards the public view shows: the trick, the last trick, the declarations, the
    kitty cards turned up and, once settled, the kitty."""
    cards: Counter[Card] = Counter()
    for trick in (view.trick, view.last_trick):
        if trick is not None:
            cards.update(card for play in trick.plays for card in play)
    shown: Counter[Card] = Counter()
    for declaration in view.declarations:
        shown |= Counter(declaration.cards)
    cards.update(shown)
    cards.update(view.revealed)
    if view.result is not None:
        cards.update(view.result.kitty)
    return cards


def _views() -> Iterator[tuple[PublicView, tuple[SeatLabel, ...]]]:
    pos = suit_hand()
    for player in (pos.declaring, pos.burying, pos.playing):
        yield player.public, SEATS
    yield pos.settled.public_view(), SEATS
    for friends in (six(), eight()):
        yield friends.playing, friends.seats
        yield friends.full_trick, friends.seats
        yield friends.burying.public, friends.seats


def test_no_hidden_card_can_be_drawn_from_a_public_view() -> None:
    """The table takes the public view only (no hands, no kitty before settlement): every
    card it draws is one that view shows, whoever sits at the bottom."""
    for view, seats in _views():
        for bottom in range(len(seats)):
            with drawn_cards() as seen:
                table_image(view, seats, bottom=bottom) if not sides_of(view).friends else \
                    ring.ring_image(view, seats, bottom=bottom)
            assert not seen - public_cards(view), (view.phase, seen - public_cards(view))
    burying = eight().burying
    hidden = Counter(burying.hand) + Counter(burying.kitty or ())
    with drawn_cards() as seen:
        ring.ring_image(burying.public, eight().seats)
    assert not seen & hidden



@pytest.mark.parametrize("players", [4, 5, 6, 8])
def test_real_friends_hands_draw_only_what_is_public(players: int) -> None:
    """A whole hand of random legal play through the engine (declaring, burying, calling,
    every trick, settlement): the table at every few steps, from every seat, draws only
    cards its public view shows; each seat's hand and the summary fit the limits."""
    rules = RuleSet(mode=Mode.FRIENDS, players=players)
    rng = random.Random(players)
    agents = [RandomAgent(random.Random(players * 10 + s)) for s in range(players)]
    names = seat_labels(players)
    match = Match.new(rules)
    phases = set()
    for k, (_, _, after, _) in enumerate(play_hand(match, players, agents, rng)):
        match = after
        view = match.public_view()
        phases.add(view.phase)
        if k % 11 and view.phase is not Phase.CALLING:
            continue
        with drawn_cards() as seen:
            ring.ring_image(view, names, bottom=k % players)
        assert not seen - public_cards(view), (view.phase, seen - public_cards(view))
        if view.turn is not None:
            _limits(render_hand(match.view_for(view.turn)))
    assert {Phase.DECLARING, Phase.BURYING, Phase.CALLING, Phase.PLAYING} <= phases
    settled = match.public_view()
    assert settled.result is not None and len(settled.result.declarer_seats) >= 1
    roles = sides_of(settled).roles  # the final sides: nobody unknown any more
    assert Role.UNKNOWN not in roles
    assert {s for s, role in enumerate(roles) if role is not Role.OPPONENT} == \
        set(settled.result.declarer_seats)
    for bottom in range(players):
        _limits(render_table(settled, names, bottom=bottom))
    summary_of = summary.HandSummary.from_view(settled)
    assert summary_of.friends and summary_of.declarer_seats == settled.result.declarer_seats
    _limits(render_summary(settled, names, labels=ZH))
