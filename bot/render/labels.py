"""The words drawn into images, so the bot can localize them.

`Labels()` is English. The bot builds localized labels from its catalog, where every field
`name` is the message `render.<name>` (all three .po files carry them), except the words the
table texts share (`SHARED_KEYS`: a called copy's ordinal is `friends.copy.<n>`). Pass the *raw*
templates (the renderers fill the placeholders), e.g.::

    from bot.i18n import messages, resolve_locale
    labels = Labels.from_messages(messages(resolve_locale(locale)))   # cache one per locale

Fields are `str.format` templates; the placeholders each one takes are in its comment.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Final

KEY_PREFIX: Final = "render."

SHARED_KEYS: Final = {f"nth_{copy}": f"friends.copy.{copy}" for copy in range(1, 5)}
"""Fields read from the keys the bot's texts use (`bot.present.text.copy_word`), not `render.*`."""


def catalog_key(name: str) -> str:
    """The catalog key of the field `name`."""
    return SHARED_KEYS.get(name, KEY_PREFIX + name)


@dataclass(frozen=True, slots=True)
class Labels:
    """Every label the renderers draw; the defaults are English."""

    joker_big: str = "RJ"  # index printed on the big (red) joker card
    joker_small: str = "BJ"  # index printed on the small (black) joker card
    trump_badge: str = "T"  # the badge on every trump card (中文: 主)
    kitty_badge: str = "K"  # the badge on the kitty cards while burying (中文: 底)
    level: str = "Level {rank}"
    trump: str = "Trump {trump}"  # {trump}: the suit, drawn as a symbol chip
    no_trump: str = "No trump"
    trump_not_set: str = "Trump not set"
    trump_so_far: str = "Trump {trump} so far"  # while dealing: the standing declaration's
    no_trump_so_far: str = "No trump so far"  # while dealing: jokers declared
    cards: str = "{count} cards"
    selected: str = "{count} selected"
    bury_hint: str = "Bury {count} · K = from the kitty"  # {count}: the kitty size
    hand_number: str = "Hand {number}"
    first_deal: str = "Waiting for the first deal"  # the header's line before the first deal
    team_a: str = "Team A"
    team_b: str = "Team B"
    team_level: str = "{team}: {rank}"
    computer: str = "computer"
    autopilot: str = "autopilot"
    starter: str = "Starter"
    declarer: str = "Partner"  # teams: the starter's partner (not the player who declared)
    declared_by: str = "declared by {name}"  # trump declared with one card
    declared_by_many: str = "declared by {name} with {count} cards"  # {count}: 2 or more
    trump_from_kitty: str = "turned up from the kitty"
    to_play: str = "to play"
    throw_failed: str = "Throw failed"
    last_trick: str = "Last trick"
    opponents_points: str = "Opponents {points} / {threshold}"  # {threshold}: 40 per deck
    phase_dealing: str = "Dealing {batch}/5"  # {batch}: batches dealt so far
    phase_burying: str = "Burying"
    phase_playing: str = "Trick {number}"
    phase_settled: str = "Hand over"
    phase_waiting: str = "Not dealt"  # before the first hand is dealt
    result_title: str = "Hand {number} result"
    kitty: str = "Kitty"
    kitty_scored: str = "Kitty {points} × {multiplier} = {total} to the opponents"
    kitty_not_scored: str = "Kitty {points}: declarers won the last trick, no count"
    opponents_total: str = "Opponents' points: {points}"
    result_declarers: str = "Declarers +{levels}"
    result_swap: str = "Opponents take over"
    result_swap_up: str = "Opponents take over, +{levels}"
    new_levels: str = "New levels"
    match_won: str = "{team} wins the match!"
    next_starter: str = "Next starter: {name}"
    # Finding Friends (issue 14)
    seat_level: str = "Lv {rank}"  # a seat's own level on its name plate
    seat_points: str = "{points} pts"  # points a seat won this hand
    friend: str = "Friend"  # badge: a revealed friend of the starter
    opponent: str = "Foe"  # badge (short): known to be against the starter
    friends_heading: str = "Friends"  # over the called cards
    call_open: str = "{nth} {card} ?"  # a called card not played yet; {card}: e.g. A♥
    call_found: str = "{nth} {card} → {name}"  # {name}: who played it (the friend)
    seat_ref: str = "seat {number}"  # a friend too long to name in the centre: its plate's number
    call_void: str = "{nth} {card}: void"  # the starter played their own called card
    nth_1: str = "1st"  # which copy of a called card counts (friends.copy.1 …)
    nth_2: str = "2nd"
    nth_3: str = "3rd"
    nth_4: str = "4th"
    phase_calling: str = "Calling friends"  # the starter is choosing the called cards

    def nth(self, copy: int) -> str:
        """"1st" … "4th" (a called card's copy, 1–4)."""
        return (self.nth_1, self.nth_2, self.nth_3, self.nth_4)[min(max(copy, 1), 4) - 1]

    @classmethod
    def from_lookup(cls, lookup: Callable[[str], str]) -> Labels:
        """Labels from a catalog: `lookup("render.level")` → the localized *unformatted*
        template (`"级牌 {rank}"`), not a formatted message."""
        return cls(**{f.name: lookup(catalog_key(f.name)) for f in fields(cls)})

    @classmethod
    def from_messages(cls, messages: Mapping[str, str]) -> Labels:
        """Labels from a `{key: template}` catalog (`bot.i18n.messages(locale)`); a key
        missing from it keeps its English label."""
        english = cls()
        return cls(**{f.name: messages.get(catalog_key(f.name), getattr(english, f.name))
                      for f in fields(cls)})

    @classmethod
    def catalog_keys(cls) -> tuple[str, ...]:
        """The catalog keys `from_lookup` asks for."""
        return tuple(catalog_key(f.name) for f in fields(cls))


ENGLISH: Final = Labels()
