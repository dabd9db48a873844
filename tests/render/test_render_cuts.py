"""Labels the pictures used to cut (issue 38 item 7): a role badge beside a seat's
three-digit points ("Star…"), a team's word in the result picture, and the last trick's
index tiles, where a 10 under another tile read "1010". Each is measured with the font or
the pixels drawn."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest
from drawn import drawn_words
from PIL import Image
from test_render_names import friends_view, labels_of

from bot.i18n import SUPPORTED
from bot.render import SeatLabel, render_table, ring
from bot.render.draw import tile_offsets, width_of
from bot.render.faces import INDEX_W, RANK_STEP, card_tile
from bot.render.summary import team_line
from bot.render.table import TILE_CARDS, last_trick_tiles
from engine.cards import ALL_CARDS, Card, parse_cards
from engine.game import Trick
from tools.demo_positions import SEATS, positions


@pytest.mark.parametrize("locale", SUPPORTED)
def test_a_role_badge_stays_whole_beside_three_digit_points(monkeypatch: pytest.MonkeyPatch,
                                                            locale: str) -> None:
    labels = labels_of(locale)
    words = {labels.starter, labels.friend, labels.opponent}
    drawn = drawn_words(monkeypatch, ring, "pill")
    for seats in (6, 8):
        view = replace(friends_view(seats), call_seats=(2, 3),
                       points_by_seat=(105, 240, 195, 100, 155, 110, 185, 300)[:seats])
        render_table(view, [SeatLabel(f"Player {n}") for n in range(seats)], labels=labels)
    badges = [value for value in drawn if value in words or value.endswith("…")]
    assert labels.starter in badges and labels.friend in badges, drawn
    assert not [value for value in badges if value.endswith("…")], badges


def test_a_team_keeps_its_word_and_its_players_their_agreed_names() -> None:
    long = SeatLabel("Bernadette the Bold of the North")
    bot = SeatLabel("Bot 3 · strong", computer=True, forms=("Bot 3",))
    for room in (400.0, 480.0, 560.0):  # the room beside a level change, "10 → J"
        line = team_line("Team A", (long, bot), room)
        assert line.startswith("Team A (") and line.endswith(" & Bot 3)"), line
        assert width_of(line, 28, bold=True) <= room, (room, line)
    assert team_line("Team B", (SeatLabel("Al"), SeatLabel("Bo")), 300) == "Team B (Al & Bo)"


def rank_ink(card: Card, width: int) -> int:
    """The rightmost column of the rank's ink in `card`'s index tile (the top half)."""
    tile = card_tile(card, width).convert("RGB")
    pixels = tile.load()
    right = 0
    for y in range(round(tile.height * 0.08), tile.height // 2):
        for x in range(3, tile.width - 3):
            if sum(pixels[x, y]) < 450:  # ink, not the white card or its grey edge
                right = max(right, x)
    return right


@pytest.mark.parametrize("width", TILE_CARDS)
def test_every_rank_fits_in_the_rank_step(width: int) -> None:
    """`RANK_STEP` is what the widest rank, 10, needs: at that step no rank is cut."""
    ranks = {card.rank: card for card in ALL_CARDS if not card.rank.is_joker}
    widest = max(rank_ink(card, width) for card in ranks.values())
    assert widest < width * RANK_STEP <= widest + 6


PAIRS = ("10C 10C JC JC", "10C 10C 3C 3C", "7C 7C 8C 8C", "AC AC 5D 6D")
THROWS = ("10C 10C JC JC QC QC", "10C 10C 3C 3C 4C 4C", "7C 7C 8C 8C 9C 9C",
          "AC AC 5D 6D 7D 7D")


@pytest.mark.parametrize("specs", [PAIRS, THROWS])
def test_the_last_trick_shows_every_rank_whole(specs: tuple[str, ...]) -> None:
    """Every tile under another shows its rank whole, or is a copy of the card on top of it
    (stacked: its edge shows, the copy shows the rank)."""
    plays = [tuple(parse_cards(spec)) for spec in specs]
    width, stack, step = last_trick_tiles(plays, 560)
    assert step >= width * RANK_STEP
    for cards in plays:
        offsets = tile_offsets(cards, width, step, stack=stack)
        for i in range(len(cards) - 1):
            shown = offsets[i + 1] - offsets[i]
            assert shown >= width * RANK_STEP or (stack and cards[i + 1] == cards[i])
    if specs == PAIRS:  # pairs all round: smaller tiles, nothing stacked
        assert not stack and width < TILE_CARDS[0]


def test_the_phone_strip_draws_the_tiles_where_it_says(monkeypatch: pytest.MonkeyPatch) -> None:
    """The picture pastes the last trick's tiles at `last_trick_tiles`' width and step."""
    public = positions(17).playing.public
    plays = tuple(tuple(parse_cards(spec)) for spec in PAIRS)
    pasted: list[tuple[float, int]] = []
    real = Image.Image.paste

    def spy(self: Image.Image, tile: Any, box: Any = None, mask: Any = None) -> None:
        if isinstance(tile, Image.Image) and box is not None and tile.height < 80:
            pasted.append((box[0], tile.width))
        real(self, tile, box, mask)

    monkeypatch.setattr(Image.Image, "paste", spy)
    render_table(replace(public, last_trick=Trick(5, 0, plays, winner=0)), SEATS)
    strip = pasted[-16:]
    widths = {w for _, w in strip}
    assert len(widths) == 1
    card = next(w for w in TILE_CARDS if round(w * INDEX_W) in widths)
    assert card < TILE_CARDS[0]  # smaller tiles, every rank whole
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(strip) if b[0] > a[0]]
    assert min(gaps) >= card * RANK_STEP - 1
