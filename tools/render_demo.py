"""`python -m tools.render_demo --demo DIR`: draw the demo pictures into DIR.

The four-seat game (a seeded hand): hand.png (seat 1 mid-hand, two cards selected),
hand_burying.png (the starter's 33 cards, kitty marked), table.png (a trick in progress) and
summary.png (the settled hand). Finding Friends, for 6 and 8 seats (fixed crowded
positions): friends6_table.png (a trick in progress), friends6_table_full.png (every seat
has played), friends6_hand_burying.png (the starter's hand and kitty) and
friends6_summary.png; the same for friends8_*.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bot.render.hand import render_hand
from bot.render.labels import ENGLISH, Labels
from bot.render.summary import render_summary
from bot.render.table import render_table
from tools.demo_friends import eight_seats, six_seats
from tools.demo_positions import DEMO_SEED, SEATS, positions


def _catalog_labels(locale: str) -> Labels:
    from bot.i18n import messages  # the bot's catalog (imports discord; fine for a command line)

    return Labels.from_messages(messages(locale))


def write_demo(directory: Path, *, seed: int = DEMO_SEED, four_colour: bool = True,
               labels: Labels = ENGLISH) -> dict[str, int]:
    """Write the demo PNGs into `directory`; returns their sizes in bytes."""
    directory.mkdir(parents=True, exist_ok=True)
    pos = positions(seed)
    playing = pos.playing
    selected = playing.hand[:2]
    images = {
        "hand.png": render_hand(playing, selected=selected, four_colour=four_colour,
                                labels=labels),
        "hand_burying.png": render_hand(pos.burying, four_colour=four_colour, labels=labels),
        "table.png": render_table(playing.public, SEATS, four_colour=four_colour, labels=labels),
        "summary.png": render_summary(pos.settled.public_view(), SEATS,
                                      four_colour=four_colour, labels=labels),
    }
    for players, friends in ((6, six_seats()), (8, eight_seats())):
        seats = friends.seats
        images |= {
            f"friends{players}_table.png": render_table(
                friends.playing, seats, four_colour=four_colour, labels=labels),
            f"friends{players}_table_full.png": render_table(
                friends.full_trick, seats, four_colour=four_colour, labels=labels,
                bottom=friends.playing.starter or 0),
            f"friends{players}_hand_burying.png": render_hand(
                friends.burying, four_colour=four_colour, labels=labels),
            f"friends{players}_summary.png": render_summary(
                friends.summary, seats, four_colour=four_colour, labels=labels),
        }
    for name, data in images.items():
        (directory / name).write_bytes(data)
    return {name: len(data) for name, data in images.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.render", description=__doc__)
    parser.add_argument("--demo", metavar="DIR", type=Path, required=True,
                        help="directory to write the demo PNGs into")
    parser.add_argument("--seed", type=int, default=DEMO_SEED, help="the hand's seed")
    parser.add_argument("--two-colour", action="store_true", help="♠♣ black, ♥♦ red")
    parser.add_argument("--locale", default="en", help="en, zh_Hans or zh_Hant labels")
    args = parser.parse_args(argv)
    labels = ENGLISH if args.locale == "en" else _catalog_labels(args.locale)
    sizes = write_demo(args.demo, seed=args.seed, four_colour=not args.two_colour,
                       labels=labels)
    for name, size in sizes.items():
        print(f"{args.demo / name}  {size / 1024:.1f} KB")


if __name__ == "__main__":
    main()
