"""Messages the bot builds: the hand panel (a player's DM or an ephemeral reply) and the
public table message (docs/architecture.md).

Hand panel rows (classic components: at most 5 rows):

- declaring: ``♠ ♥ ♣ ♦ NT`` (always in these places, enabled when that bid is legal now),
  then ``Pass`` · ``Type…`` · a link to the table;
- burying (the starter): up to three card selects over the 33 cards (kitty cards marked),
  then ``Suggest`` · ``Bury (k/8)`` · ``Clear`` · ``Type…`` · link;
- playing: ``Quick plays`` (enabled on your turn), up to three card selects (one per suit
  group, in the hand's order; small groups share a select, a group above 25 is split), then
  ``Play (n)`` · ``Clear`` · ``Hint`` · ``Type…`` · and the table link, or ``Take back`` at
  a table with take-backs (R12; enabled while your last play may be taken back). The same
  components stay in the same places through the hand: the turn coming round enables and
  relabels them, it adds or moves no row (issue 38 item 1: a list open while the
  computers play is the same list when your turn comes).

Card select values are *instances* (bot/ui/selection.py); the selection is reflected in the
selects' default values, so a restarted bot reads it back from the message.

The components are built as the JSON Discord gets (bot/ui/rows.py), not as `discord.ui`
items (issue 16), the friend call's rows too (bot/ui/calling.py): one component model.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.options import house_rules_line
from bot.core.table import TableDoc
from bot.i18n import t
from bot.present.images import SeatLabel
from bot.present.text import (
    PRETTY,
    cards_text,
    deadline_text,
    header,
    lobby_content,
    lobby_prompt,
    ruling_text,
    seat_name,
    seat_short_forms,
    seat_title,
    shape_word,
    status_line,
    suit_text,
    table_content,
    trick_line,
)
from bot.runtime import offload
from bot.runtime.offload import Want, Workers
from bot.services.pictures import Pictures
from bot.services.players import QuickPlay, quick_plays
from bot.ui import rows
from bot.ui.calling import Calling, call_lines, call_rows, usable_calling
from bot.ui.edits import Picture
from bot.ui.ids import make_id
from bot.ui.replies import fit
from bot.ui.rows import Component, Rows
from bot.ui.selection import groups as card_groups
from bot.ui.selection import pool, pool_values
from engine.cards import Card, Suit
from engine.deal import deal_shape
from engine.entry import play_error
from engine.game import Phase
from engine.units import shape_of
from engine.views import PlayerView, PublicView

__all__ = [
    "DECLARE_SUITS",
    "Panel",
    "build_panel",
    "build_table_message",
    "fit_rows",
    "pack_groups",
    "past_table_text",
    "ready_view",
    "table_url",
]

MAX_OPTIONS = 25
CARD_SELECT_ROWS = 3
DECLARE_SUITS: tuple[tuple[str, Suit | None], ...] = (
    ("S", Suit.SPADES), ("H", Suit.HEARTS), ("C", Suit.CLUBS), ("D", Suit.DIAMONDS), ("N", None),
)


@dataclass(slots=True)
class Panel:
    """A message ready to send or edit."""

    content: str
    image: bytes | None
    filename: str
    view: Rows | None

    @property
    def picture(self) -> Picture | None:
        return None if self.image is None else Picture(self.image, self.filename)

    def file(self) -> discord.File | None:
        picture = self.picture
        return None if picture is None else picture.file()

    def files(self) -> list[discord.File]:
        file = self.file()
        return [] if file is None else [file]

    def view_kwargs(self) -> dict[str, Any]:
        """``{"view": ...}`` for ``send`` (which does not take ``view=None``)."""
        return {} if self.view is None else {"view": self.view}


def pack_groups(groups: list[list[Card]], rows: int = CARD_SELECT_ROWS,
                size: int = MAX_OPTIONS) -> list[list[int]]:
    """Indices into the flattened display order, packed into at most `rows` selects of at
    most `size` options: one select per group where possible, a group above `size` split,
    the smallest neighbours merged when there are too many groups."""
    chunks: list[list[int]] = []
    start = 0
    for group in groups:
        indices = list(range(start, start + len(group)))
        start += len(group)
        for offset in range(0, len(indices), size):
            chunks.append(indices[offset:offset + size])
    while len(chunks) > rows:
        best = min(range(len(chunks) - 1), key=lambda i: len(chunks[i]) + len(chunks[i + 1]))
        if len(chunks[best]) + len(chunks[best + 1]) > size:
            break
        chunks[best:best + 2] = [chunks[best] + chunks[best + 1]]
    return chunks[:rows]


def _group_name(cards: Sequence[Card], view: PlayerView, locale: str) -> str:
    trump = view.public.trump
    names: list[str] = []
    for card in cards:
        if trump is not None and trump.is_trump(card):
            name = t("term.trumps", locale)
        elif trump is None and (card.suit is None or card.rank == view.public.level):
            name = t("panel.group_top", locale)
        else:
            assert card.suit is not None
            name = suit_text(card.suit)
        if name not in names:
            names.append(name)
    return " · ".join(names)


# ---- the hand panel ------------------------------------------------------------------


def _selected_line(view: PlayerView, cards: list[Card], locale: str) -> str:
    public = view.public
    if public.phase is Phase.BURYING and view.to_move:
        text = cards_text(cards) if cards else t("panel.nothing_selected", locale)
        return t("panel.bury_selected", locale, cards=text, count=len(cards),
                 total=deal_shape(public.rules).kitty_size)
    if public.phase is not Phase.PLAYING:
        return ""
    if not cards:
        return t("panel.nothing_selected", locale)
    trump = public.trump
    assert trump is not None
    reason = play_error(view, cards)
    if reason is not None:
        return t("panel.selected_illegal", locale, cards=cards_text(cards),
                 reason=ruling_text(reason, locale))
    return t("panel.selected", locale, cards=cards_text(cards),
             shape=shape_word(shape_of(cards, trump, leading=view.lead is None), locale))


def forced_cards(view: PlayerView) -> tuple[frozenset[Card], frozenset[Card]]:
    """What the lead forces on this seat (R8): ``(must, led)``, the cards it must play
    (all it holds of the led suit when that is no more than the lead's size) and the cards
    of the led suit. Both empty when the seat leads or does not play now."""
    trump = view.public.trump
    lead = view.lead
    if view.public.phase is not Phase.PLAYING or not view.to_move or lead is None \
            or trump is None:
        return frozenset(), frozenset()
    suit = trump.suit_index(lead[0])
    led = [card for card in view.hand if trump.suit_index(card) == suit]
    must = frozenset(led) if len(led) <= len(lead) else frozenset()
    return must, frozenset(led)


def _hand_text(view: PlayerView) -> str:
    """The seat's cards by group (``A♠ K♠ | …``); as many copies of each kitty card marked
    ``*`` as the kitty holds while the starter buries."""
    groups = card_groups(view)
    if not groups:
        return "—"
    if view.public.phase is not Phase.BURYING or not view.to_move:
        return " | ".join([" ".join([PRETTY[card.code] for card in group])
                           for group in groups])
    kitty = Counter(view.kitty or ())
    parts = []
    for group in groups:
        marked = []
        for card in group:
            if kitty[card]:
                kitty[card] -= 1
                marked.append(f"{PRETTY[card.code]}*")
            else:
                marked.append(PRETTY[card.code])
        parts.append(" ".join(marked))
    return " | ".join(parts)


def panel_content(doc: TableDoc, table_id: int, view: PlayerView, selected: list[Card],
                  locale: str, table_url: str | None, call: Calling | None = None) -> str:
    public = view.public
    seat = view.seat
    lines = [header(doc, public, locale)]
    count = len(pool(view))  # the cards listed: 33 while the starter buries
    lines.append(t("panel.your_hand", locale, count=count, cards=_hand_text(view)))
    when = deadline_text(doc.deadline)
    phase = public.phase
    if phase is Phase.DECLARING:
        if public.declarations:
            last = public.declarations[-1]
            lines.append(t("table.standing_declaration", locale,
                           player=seat_name(doc, last.seat, locale),
                           cards=cards_text(last.cards)))
        if seat in public.awaiting:
            lines.append(t("panel.declare_prompt", locale, batch=public.batch,
                           deadline=when or "—"))
        else:
            lines.append(t("panel.declare_waiting", locale, batch=public.batch))
    elif phase is Phase.BURYING:
        if view.to_move:
            lines.append(t("panel.bury_prompt", locale, deadline=when or "—",
                           count=deal_shape(public.rules).kitty_size))
        else:
            lines.append(t("table.burying_status", locale,
                           player=seat_name(doc, public.turn or 0, locale),
                           deadline=when or "—"))
    elif phase is Phase.CALLING:
        if view.to_move and call is not None:
            lines += call_lines(view, call, locale)
        elif public.turn is not None:
            lines.append(status_line(doc, public, locale))
    elif phase is Phase.PLAYING:
        if public.trick is not None:
            lines.append(t("table.current_trick", locale, number=public.trick.number,
                           plays=trick_line(doc, public.trick, locale, public.trump)))
        if view.to_move:
            lines.append(t("panel.your_turn", locale, deadline=when or "—"))
        elif public.turn is not None:
            lines.append(t("table.waiting_for", locale,
                           player=seat_name(doc, public.turn, locale)))
    elif phase is Phase.BETWEEN_HANDS:
        lines.append(t("panel.hand_over", locale))
    elif phase is Phase.MATCH_OVER:
        lines.append(t("table.match_over", locale))
    entry = doc.seats[seat]
    if entry is not None and entry.autopilot:
        lines.append(t("panel.autopilot", locale))
    if doc.restored:
        lines.append(t("table.restored", locale))
    line = _selected_line(view, selected, locale)
    if line:
        lines.append(line)
    return fit("\n".join(lines))


def _quick_options(plays: list[QuickPlay], view: PlayerView, locale: str) -> list[Component]:
    options = []
    seen: set[str] = set()
    trump = view.public.trump
    leading = view.lead is None
    for play in plays:
        value = " ".join(str(c) for c in play.cards)
        if len(value) > 100 or value in seen:
            continue
        seen.add(value)
        label = f"{'★ ' if play.recommended else ''}{cards_text(play.cards)}"
        description = shape_word(shape_of(play.cards, trump, leading=leading), locale)
        if play.recommended:
            description = t("panel.recommended", locale, shape=description)
        options.append(rows.option(label[:100], value, description=description[:100]))
        if len(options) == MAX_OPTIONS:
            break
    return options


def _quick_select(custom_id: str, plays: list[QuickPlay], view: PlayerView,
                  locale: str) -> Component:
    """The Quick plays select, on every panel of the playing phase: its plays on your turn,
    else disabled with one stand-in option (a select lists at least one) and a
    placeholder saying when it opens."""
    options = _quick_options(plays, view, locale) if view.to_move else []
    if options:
        return rows.select(custom_id, options, placeholder=t("panel.quick_plays", locale))
    return rows.select(custom_id, [rows.option("—", "-")], disabled=True,
                       placeholder=t("panel.quick_plays_later", locale))


def panel_view(doc: TableDoc, table_id: int, view: PlayerView, selected: list[str],
               locale: str, table_url: str | None, plays: list[QuickPlay],
               call: Calling | None = None) -> Rows | None:
    """The components of a seat's panel (None when there is nothing to do)."""
    public = view.public
    seat = view.seat
    hand_no = public.hand_no
    step = doc.step

    def cid(verb: str, extra: str = "") -> str:
        return make_id(table_id, hand_no, step, verb, f"{seat}.{extra}" if extra else str(seat))

    phase = public.phase
    link = [rows.link(t("button.table", locale), table_url)] if table_url else []
    if phase is Phase.DECLARING:
        legal = view.legal_declarations
        declare = []
        for code, suit in DECLARE_SUITS:
            choice = _declaration_for(legal, suit)
            declare.append(rows.button(
                cid("decl", code), _declare_label(choice, public, seat, locale, code),
                style=rows.PRIMARY if choice else rows.SECONDARY, disabled=choice is None))
        return Rows([declare, [
            rows.button(cid("pass"), t("button.pass_declare", locale),
                        disabled=seat not in public.awaiting),
            rows.button(cid("type"), t("button.type", locale), disabled=not legal),
            rows.button(cid("refresh"), t("button.refresh", locale)),
            *link]])
    if phase is Phase.CALLING:
        if not view.to_move or call is None:
            return None
        return Rows([*call_rows(table_id, view, call, step, locale),
                     [rows.button(cid("refresh"), t("button.refresh", locale)), *link]])
    if phase not in (Phase.BURYING, Phase.PLAYING):
        return None
    burying = phase is Phase.BURYING
    if burying and not view.to_move:
        return None
    layout: list[list[Component]] = []
    if phase is Phase.PLAYING:
        layout.append([_quick_select(cid("quick"), plays, view, locale)])
    values = pool_values(view)
    by_value = dict(values)
    chosen = set(selected)
    kitty = _kitty_marks(view, values, locale)
    must_word, led_word = t("panel.must_play", locale), t("panel.led_suit", locale)
    must, led = forced_cards(view)
    count = len([v for v in selected if v in by_value])
    my_turn = view.to_move
    # Clear is pressable when something is picked (issue 38 walk: it looked pressable and
    # did nothing).
    clear = rows.button(cid("clear"), t("button.clear", locale), disabled=count == 0)
    if burying:
        kitty_size = deal_shape(public.rules).kitty_size
        buttons = [
            rows.button(cid("suggest"), t("button.suggest", locale)),
            rows.button(cid("bury"), t("button.bury", locale, count=count, total=kitty_size),
                        style=rows.SUCCESS, disabled=count != kitty_size),
            clear,
            rows.button(cid("type"), t("button.type", locale)),
            *link]
    else:
        picked = [by_value[v] for v in dict.fromkeys(selected) if v in by_value]
        illegal = play_error(view, picked) is not None
        buttons = [
            rows.button(cid("play"), t("button.play_illegal" if illegal else "button.play",
                                       locale, count=count),
                        style=rows.SECONDARY if illegal else rows.SUCCESS,
                        disabled=not my_turn or count == 0 or illegal),
            clear,
            rows.button(cid("hint"), t("button.hint", locale), disabled=not my_turn),
            rows.button(cid("type"), t("button.type", locale), disabled=not my_turn),
            # Take back in the link's place, there all hand long (disabled when there is
            # nothing to take back), so that no button comes and goes under the pointer.
            *([rows.button(cid("takeback"), t("button.take_back", locale),
                           style=rows.DANGER, disabled=public.take_back_seat != seat)]
              if public.rules.take_backs else link)]
    button_rows, chunks = fit_rows(buttons, card_groups(view), rows.MAX_ROWS - len(layout))
    for index, chunk in enumerate(chunks):
        options = []
        for i in chunk:
            value, card = values[i]
            mark = kitty.get(value)
            if card in must:
                options.append(rows.option(f"★ {PRETTY[card.code]}", value, value in chosen,
                                           mark or must_word))
            else:
                options.append(rows.option(PRETTY[card.code], value, value in chosen,
                                           mark or (led_word if card in led else None)))
        name = _group_name([values[i][1] for i in chunk], view, locale)
        # The led suit's select is named so (where a follow starts); it stays in its place.
        key = "panel.select_group_led" if any(values[i][1] in led for i in chunk) \
            else "panel.select_group"
        layout.append([rows.select(cid("sel", str(index)), options,
                                   placeholder=t(key, locale, group=name),
                                   min_values=0, max_values=len(options))])
    return Rows([*layout, *button_rows])


def fit_rows(buttons: list[Component], groups: list[list[Card]], free: int
             ) -> tuple[list[list[Component]], list[list[int]]]:
    """The button rows and the card selects (`pack_groups`) sharing `free` rows: the buttons
    on one row when they fit; else on two (the usual row, then the rest, so no button
    moves) when the cards still fit one select fewer; failing that the table link
    (navigation, not an action) gives way (issue 31 item 3: no action is pushed out)."""
    if len(buttons) > rows.MAX_PER_ROW:
        chunks = pack_groups(groups, rows=free - 2)
        if sum(map(len, chunks)) == sum(map(len, groups)):
            return [buttons[:rows.MAX_PER_ROW], buttons[rows.MAX_PER_ROW:]], chunks
        buttons = [b for b in buttons if "url" not in b]
    assert len(buttons) <= rows.MAX_PER_ROW
    return [buttons], pack_groups(groups, rows=free - 1)


def _kitty_marks(view: PlayerView, values: Sequence[tuple[str, Card]], locale: str
                 ) -> dict[str, str]:
    """While the starter buries, the kitty cards' options' description, by instance (the
    kitty cards are the last copies of each card in display order)."""
    if view.public.phase is not Phase.BURYING:
        return {}
    remaining = Counter(view.kitty or ())
    word = t("panel.kitty_card", locale)
    marks = {}
    for value, card in reversed(values):
        if remaining[card]:
            remaining[card] -= 1
            marks[value] = word
    return marks


def _declaration_for(options: Sequence[Sequence[Card]], suit: Suit | None
                     ) -> tuple[Card, ...] | None:
    """The declaration the suit's button makes: a pair when legal, else a single; for NT the
    weakest legal joker pair."""
    matching = [tuple(o) for o in options if o[0].suit == suit]
    if not matching:
        return None
    if suit is None:
        return matching[0]
    pairs = [o for o in matching if len(o) == 2]
    return pairs[-1] if pairs else matching[-1]


def declaration_for(view: PlayerView, code: str) -> tuple[Card, ...] | None:
    suit = dict(DECLARE_SUITS).get(code, "?")
    if suit == "?":
        return None
    return _declaration_for(view.legal_declarations, suit)  # type: ignore[arg-type]


def _declare_label(choice: tuple[Card, ...] | None, public: Any, seat: int, locale: str,
                   code: str) -> str:
    suit = dict(DECLARE_SUITS).get(code)
    symbol = None if suit is None else suit_text(suit)
    if choice is None:
        return symbol or t("declare.no_trump", locale)
    if symbol is None:
        return t("declare.no_trump_pair", locale, cards=cards_text(choice))
    standing = public.standing
    if standing is not None and standing.seat == seat:
        return t("declare.reinforce", locale, suit=symbol)
    if standing is not None:
        return t("declare.overturn", locale, suit=symbol)
    return t("declare.bid", locale, suit=symbol, count=len(choice))


async def build_panel(doc: TableDoc, table_id: int, seat: int, locale: str,
                      selected: list[str], *, pictures: Pictures,
                      four_colour: bool = True, call: Calling | None = None) -> Panel:
    """The hand panel of `seat` (its picture and Quick plays are made off the loop by
    `pictures`' workers, as a person's jobs; both missing: in one job); `call`: the friend
    call being made, when the click made it (else the table's `TableDoc.call_draft_now`)."""
    match = doc.get_match()
    assert match is not None
    view = match.view_for(seat)
    cards = tuple(selected_cards(view, selected))
    if known_plays(view) is None:  # and the picture too: both in one job
        await pictures.workers.warm(panel_wants(pictures, view, locale, cards, four_colour),
                                    offload.PEOPLE)
    image = await pictures.hand_picture(view, locale, cards, four_colour)
    plays = await panel_plays(view, pictures.workers)
    content, components = compose_panel(doc, table_id, view, selected, locale, plays, call)
    return Panel(content, image, f"hand-{table_id}-{seat}.png", components)


def selected_cards(view: PlayerView, selected: list[str]) -> list[Card]:
    """The cards of the selected instances the seat holds (each instance once)."""
    by_value = dict(pool_values(view))
    return [by_value[v] for v in dict.fromkeys(selected) if v in by_value]


def compose_panel(doc: TableDoc, table_id: int, view: PlayerView, selected: list[str],
                  locale: str, plays: list[QuickPlay], call: Calling | None = None
                  ) -> tuple[str, Rows | None]:
    """The text and components of a seat's hand panel (`plays`: its Quick plays; `call`:
    the friend call being made, else the table's draft is shown)."""
    if call is None and view.public.phase is Phase.CALLING and view.to_move:
        call = usable_calling(view, doc.call_draft_now())
    url = table_url(doc)
    content = panel_content(doc, table_id, view, selected_cards(view, selected), locale, url,
                            call)
    return content, panel_view(doc, table_id, view, selected, locale, url, plays, call)


_PLAYS: OrderedDict[PlayerView, list[QuickPlay]] = OrderedDict()
PLAYS_KEPT = 1024


def known_plays(view: PlayerView) -> list[QuickPlay] | None:
    """The panel's Quick plays when known without the worker (none, or computed before
    for this view), else None."""
    if view.public.phase is not Phase.PLAYING or not view.to_move:
        return []
    return _PLAYS.get(view)


async def panel_plays(view: PlayerView, workers: Workers) -> list[QuickPlay]:
    """The Quick plays of a panel: none unless the seat plays now; else computed once per
    view (off the loop), so the panel rebuilt for each card picked reuses them."""
    plays = known_plays(view)
    if plays is None:
        plays = await workers.run(quick_plays, view, priority=offload.PEOPLE)
        _keep_plays(view, plays)
    return plays


def _keep_plays(view: PlayerView, plays: list[QuickPlay]) -> None:
    _PLAYS[view] = plays
    while len(_PLAYS) > PLAYS_KEPT:
        _PLAYS.popitem(last=False)


def panel_wants(pictures: Pictures, view: PlayerView, locale: str, selected: Sequence[Card],
                four_colour: bool) -> list[Want]:
    """What the worker must make for a panel (its picture, its Quick plays) that it has
    not made already, to ask for ahead (`Workers.warm`; `selected`: the cards)."""
    wants = [pictures.hand_want(view, locale, selected, four_colour)]
    if known_plays(view) is None:
        wants.append(Want(quick_plays, (view,), lambda plays: _keep_plays(view, plays)))
    return [want for want in wants if want is not None]


def table_url(doc: TableDoc) -> str | None:
    """A link to the table message (None before it was posted)."""
    if doc.table_message is None:
        return None
    return f"https://discord.com/channels/{doc.guild_id}/{doc.channel_id}/{doc.table_message}"


# ---- the table message ----------------------------------------------------------------


def seat_labels(doc: TableDoc, locale: str) -> list[SeatLabel]:
    labels = []
    for seat in range(doc.seat_count):
        entry = doc.seats[seat]
        name = seat_title(doc, seat, locale).replace("\\", "")
        labels.append(SeatLabel(name, computer=entry is not None and entry.user_id is None,
                                autopilot=entry is not None and entry.autopilot,
                                forms=seat_short_forms(doc, seat, locale)))
    return labels


TABLE_STEP = 0
"""The step the table message's buttons carry in their ids: none of their verbs reads it,
so the buttons stay exactly the same while the game moves. With the step in them they
changed at every move, and a click made as a computer moved was lost ("the published
preview revision is stale" on the local page, issue 38)."""


def table_view(doc: TableDoc, table_id: int, locale: str) -> Rows:
    match = doc.get_match()
    hand_no = 0 if match is None else match.hand_no
    step = TABLE_STEP

    def cid(verb: str, arg: str = "") -> str:
        return make_id(table_id, hand_no, step, verb, arg)

    if match is None or match.phase is Phase.MATCH_OVER:  # the lobby
        return Rows([[
            rows.button(cid("join"), t("button.join", locale), style=rows.PRIMARY),
            rows.button(cid("leave"), t("button.leave", locale)),
            rows.button(cid("addbot"), t("button.add_bot", locale)),
            rows.button(cid("start"), t("button.start", locale), style=rows.SUCCESS,
                        disabled=not doc.full),
            rows.button(cid("rules"), t("button.rules", locale)),
        ], [] if match is None else [rows.button(cid("score"),
                                                 t("button.score_sheet", locale))]])
    first = [ready_button(table_id, hand_no, step, locale)] \
        if match.phase is Phase.BETWEEN_HANDS and doc.unready else []
    first += [
        my_hand_button(table_id, hand_no, locale),
        rows.button(cid("last"), t("button.last_trick", locale)),
        rows.button(cid("tricks"), t("button.tricks", locale)),
        rows.button(cid("score"), t("button.score_sheet", locale)),
    ]
    back = [rows.button(cid("back", str(seat)),
                        t("button.im_back_seat", locale,
                          name=seat_name(doc, seat, locale)[:60]), style=rows.DANGER)
            for seat, entry in enumerate(doc.seats)
            if entry is not None and entry.autopilot and entry.user_id is not None]
    return Rows([first, back[:min(10 - len(first), rows.MAX_PER_ROW)]])


def my_hand_button(table_id: int, hand_no: int, locale: str) -> Component:
    """The My hand button (the table message's, and a turn ping's in the channel)."""
    return rows.button(make_id(table_id, hand_no, TABLE_STEP, "myhand"),
                       t("button.my_hand", locale), style=rows.PRIMARY)


def my_hand_view(table_id: int, hand_no: int, locale: str) -> Rows:
    """A turn ping's My hand button: the table message may be far above it."""
    return Rows([[my_hand_button(table_id, hand_no, locale)]])


def ready_button(table_id: int, hand_no: int, step: int, locale: str) -> Component:
    """The Ready button (the summary's and the table message's between hands)."""
    return rows.button(make_id(table_id, hand_no, step, "ready"), t("button.ready", locale),
                       style=rows.SUCCESS)


def ready_view(table_id: int, hand_no: int, step: int, locale: str) -> Rows:
    return Rows([[ready_button(table_id, hand_no, step, locale)]])


async def build_table_message(doc: TableDoc, table_id: int, pictures: Pictures) -> Panel:
    """The public table message: text, the table image (public view only) and buttons."""
    locale = doc.locale
    match = doc.get_match()
    if match is None:
        return Panel(lobby_content(doc, locale), None, "table.png",
                     table_view(doc, table_id, locale))
    public = match.public_view()
    image = await pictures.table_picture(public, seat_labels(doc, locale), locale)
    return Panel(table_text(doc, public), image, f"table-{table_id}-{public.hand_no}.png",
                 table_view(doc, table_id, locale))


def table_text(doc: TableDoc, public: PublicView | None, *, live: bool = True) -> str:
    """The table message's text (`public`: the running match's public view); not `live`:
    once its moment has passed (`past_table_text`)."""
    locale = doc.locale
    if public is None:
        return lobby_content(doc, locale)
    content = table_content(doc, public, locale, live=live)
    house_rules = house_rules_line(doc.options, locale)
    if house_rules:  # the options in force that are not the defaults (issue 31 item 6)
        content = fit(f"{content}\n{house_rules}")
    if public.phase is Phase.MATCH_OVER and live:
        content = fit(f"{content}\n{lobby_prompt(doc, locale)}")
    return content


def past_table_text(doc: TableDoc) -> str | None:
    """What a hand's table message is to say once the next hand or match began and it
    stays above the new one (issue 38: it asked for Start, or Ready, or counted down to a
    deal that was made): its record without its prompts. None while a hand is played (a
    table message replaced then keeps its text)."""
    match = doc.get_match()
    if match is None or match.phase not in (Phase.BETWEEN_HANDS, Phase.MATCH_OVER) \
            or not match.hand_no:
        return None
    return table_text(doc, match.public_view(), live=False)
