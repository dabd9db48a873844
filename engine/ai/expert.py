"""The `expert` player: rules that plan across tricks, without search.

Plans (issue 10): declarers with trump length draw trumps (tractors and pairs first, then
singles); side suits are cashed only while no opponent is likely void (chances counted, not
only voids shown); opponents lead into the partner's void and attack with pairs and low
cards of suits the declarers still hold; points go to a partner whose win is sure or likely;
a trick is taken, ruffed or over-ruffed with the cheapest play that holds it; the strongest
trump is kept for the last trick when the kitty is worth it. The same rules answer from one
seat's tracking (`TrackedTable`, real decisions) and from a full deal (`ExactTable`,
Monte Carlo rollouts).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine.actions import Action, Bury, Declare, Pass, Play
from engine.ai.bidding import ai_bury, ai_declaration
from engine.ai.context import Knowledge
from engine.ai.moves import CardKey, follow_options, wins_now
from engine.ai.moves import discard_key as moves_discard_key
from engine.ai.sim import Sim
from engine.ai.tables import ExactTable, Table, TrackedTable
from engine.ai.view import seen_of
from engine.cards import ALL_CARDS, Card, card_points
from engine.game import BATCHES, Phase
from engine.trick import trick_winner
from engine.trump import Trump
from engine.units import decompose_suit, group_by_suit
from engine.views import PlayerView

TRUMP = 4
RISKY = 0.25
"""A side suit is not cashed when an opponent ruffs it with at least this chance."""
SURE = 0.15
"""A trick is as good as won when the later opponents take it with less than this chance."""
LIKELY = 0.3


_POINTS = tuple(card.points for card in ALL_CARDS)


def discard_key(hand: Sequence[Card], trump: Trump) -> CardKey:
    """`engine.ai.moves.discard_key` (the cheapest card to give away): the rules run
    thousands of times per decision in rollouts, so it counts the hand only when asked."""
    return moves_discard_key(hand, trump)


def follow_choices(hand: Sequence[Card], lead: Sequence[Card], trump: Trump,
                   key: CardKey) -> list[list[Card]]:
    """`engine.ai.moves.follow_options`, with a fast path for a single card led."""
    if len(lead) > 1:
        return follow_options(hand, lead, trump)
    suits = trump.suit_indexes
    suit = suits[lead[0].code]
    held = [c for c in hand if suits[c.code] == suit]
    if held:
        return [[c] for c in dict.fromkeys(held)]
    cheap = min(hand, key=key)
    feed = min(hand, key=lambda c: key(c) - _POINTS[c.code] * 250)
    options = [[cheap]] if cheap == feed else [[cheap], [feed]]
    if suit != TRUMP:
        options += [[c] for c in dict.fromkeys(c for c in hand if suits[c.code] == TRUMP)
                    if c not in (cheap, feed)]
    return options


def card_cost(card: Card, trump: Trump) -> float:
    """What a card is worth keeping for control, points aside."""
    strength = trump.strength(card)
    if trump.suit_index(card) == TRUMP:
        return 8 + strength * 1.5
    return strength * 0.6 + (6 if strength == 11 else 0)


def cost(cards: Sequence[Card], trump: Trump) -> float:
    return sum(card_cost(c, trump) for c in cards)


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


def opponents_of(seat: int) -> list[int]:
    return [(seat + 1) % 4, (seat + 3) % 4]


def later_seats(table: Table) -> list[int]:
    return [(table.leader + i) % 4 for i in range(len(table.plays) + 1, 4)]


def _flat(units: Sequence[Sequence[Card]]) -> list[Card]:
    return [c for unit in units for c in unit]


# --------------------------------------------------------------------------- leads


def _safe_units(table: Table, group: Sequence[Card]) -> list[list[Card]]:
    others = [s for s in range(4) if s != table.seat]
    return [list(u.cards) for u in decompose_suit(list(group), table.trump)
            if table.unit_safe(u.cards, others)]


def _keep_for_last(table: Table, groups: list[list[Card]]) -> Card | None:
    """The trump to keep for the last trick: declarers (or opponents who can win it) with
    few cards left and a kitty worth fighting for keep their strongest trump back."""
    trumps = groups[TRUMP]
    if not trumps or len(table.hand) > 4 or len(trumps) == len(table.hand):
        return None
    if table.kitty_value() < 10:
        return None
    return max(trumps, key=table.trump.strength)


def _draw_trumps(table: Table, trumps: list[Card], opp_trumps: float) -> list[Card] | None:
    """Declarers draw the opponents' trumps: trump tractors always (they pull pairs), safe
    pairs and the top single, then, with the side's trump length, other pairs and low
    singles."""
    trump = table.trump
    if opp_trumps < 0.5:
        return None
    units = decompose_suit(trumps, trump)
    big = [list(u.cards) for u in units if u.pairs >= 2]
    if big:
        return max(big, key=len)
    mine = len(trumps)
    if mine < 4:
        return None
    ours = mine + table.trumps_held([partner_of(table.seat)])
    long = ours >= 0.9 * opp_trumps and mine >= 5
    others = [s for s in range(4) if s != table.seat]
    pairs = [list(u.cards) for u in units if u.pairs == 1]
    safe_pairs = [p for p in pairs if table.unit_safe(p, others)]
    if safe_pairs:
        return max(safe_pairs, key=lambda p: trump.strength(p[0]))
    if not long:
        return None
    top = max(trumps, key=trump.strength)
    if table.unit_safe([top], others):
        return [top]
    if pairs and len(table.hand) >= 12:
        return max(pairs, key=lambda p: trump.strength(p[0]))
    counts = Counter(trumps)
    singles = [c for c in trumps if counts[c] == 1 and c.points == 0 and trump.strength(c) < 12]
    if singles and mine >= 7 and trump.strength(top) >= 12:  # low singles, with control
        return [min(singles, key=trump.strength)]
    return None


def expert_lead(table: Table) -> list[Card]:
    trump = table.trump
    seat = table.seat
    groups = group_by_suit(table.hand, trump)
    partner = partner_of(seat)
    opps = opponents_of(seat)
    declarer = seat % 2 == table.starter % 2
    ruff = [max(table.ruff_chance(o, s) for o in opps) if s != TRUMP else 0.0 for s in range(5)]
    keep = _keep_for_last(table, groups)
    if keep is not None:
        groups = [[c for c in g if c != keep] if s == TRUMP else g for s, g in enumerate(groups)]
    # 1. Declarers with trump length draw trumps (big units first).
    opp_trumps = table.trumps_held(opps)
    if declarer and groups[TRUMP]:
        draw = _draw_trumps(table, groups[TRUMP], opp_trumps)
        if draw is not None:
            return draw
    # 2. Cash what cannot be beaten in suits no opponent is likely to ruff.
    best: tuple[float, list[Card]] | None = None
    for suit in range(4):
        if not groups[suit]:
            continue
        safe = _safe_units(table, groups[suit])
        if safe:
            cards = _flat(safe)
            if ruff[suit] >= RISKY + (RISKY if card_points(cards) == 0 else 0):
                continue
            score = len(cards) * 10 + card_points(cards) - 40 * ruff[suit]
            if best is None or score > best[0]:
                best = (score, cards)
    if best is not None:
        return best[1]
    # 3. Lead into the partner's void, when the opponents follow.
    key = discard_key(table.hand, trump)
    for suit in range(4):
        group = groups[suit]
        if group and table.ruff_chance(partner, suit) >= 0.7 and ruff[suit] < 0.15:
            return [min(group, key=key)]
    # 4. Safe trump units (also for the opponents: they pull two trumps each).
    safe_trumps = [u for u in _safe_units(table, groups[TRUMP]) if len(u) >= 2]
    if safe_trumps:
        return max(safe_trumps, key=len)
    # 5. Attack: a low side pair, else a low card of a short suit the opponents still hold.
    counts = Counter(c for s in range(4) for c in groups[s])
    low_pairs = [c for c, n in counts.items() if n >= 2 and c.points == 0
                 and trump.strength(c) <= 8]
    if low_pairs:
        card = min(low_pairs, key=trump.strength)
        return [card, card]
    options: list[tuple[float, Card]] = []
    for suit in range(4):
        group = groups[suit]
        if not group:
            continue
        low = min(group, key=key)
        score = key(low) + len(group) * 1.5 + ruff[suit] * (20 + 10 * low.points)
        if table.ruff_chance(partner, suit) > 0.5:
            score -= 8
        if low.points and not table.unit_safe([low], opps):
            score += 15
        options.append((score, low))
    if options:
        return [min(options, key=lambda sc: (sc[0], sc[1].code))[1]]
    trumps = groups[TRUMP] or table.hand
    return [min(trumps, key=key)]


# --------------------------------------------------------------------------- follows


def expert_follow(table: Table) -> list[Card]:
    trump = table.trump
    plays = table.plays
    key = discard_key(table.hand, trump)
    options = follow_choices(table.hand, plays[0], trump, key)
    if len(options) == 1:
        return options[0]
    seat = table.seat
    winner = (table.leader + trick_winner(plays, trump, table.throw_ruff)) % 4
    later = later_seats(table)
    later_opps = [s for s in later if s % 2 != seat % 2]
    points = sum(card_points(p) for p in plays)
    last_trick = len(table.hand) == len(plays[0])
    stake = points + (table.kitty_value() * len(plays[0]) if last_trick else 0)

    def cheapness(option: Sequence[Card]) -> float:
        return sum(key(c) for c in option)

    if winner % 2 == seat % 2:
        risk = table.beat_chance(plays, later_opps) if later_opps else 0.0
        if risk < SURE:  # the partner's win is sure: feed it points
            return max(options, key=lambda o: (card_points(o), -cheapness(o)))
        if risk < LIKELY:  # likely: fives only
            fives = [o for o in options if all(c.points <= 5 for c in o)]
            return max(fives or options, key=lambda o: (card_points(o), -cheapness(o)))
        sure = [o for o in options if wins_now(plays, o, trump, table.throw_ruff)
                and table.beat_chance([*plays, o], later_opps) < SURE]
        if sure and stake >= 10:
            return min(sure, key=lambda o: cost(o, trump) - 3 * card_points(o))
        return min(options, key=cheapness)
    winning = [o for o in options if wins_now(plays, o, trump, table.throw_ruff)]
    holds = {cards_key(o): 1.0 - (table.beat_chance([*plays, o], later_opps) if later_opps else 0.0)
             for o in winning}
    sure = [o for o in winning if holds[cards_key(o)] > 1 - SURE]
    if sure:
        pick = min(sure, key=lambda o: cost(o, trump) - 2 * card_points(o))
        if stake + card_points(pick) > 0 or cost(pick, trump) < (16 if later_opps else 12):
            return pick
    if winning and stake >= 10:
        # Ruff or over-ruff with the play that most likely holds, the cheapest of those.
        best = max(holds[cards_key(o)] for o in winning)
        if best >= 0.5 or not later_opps or stake >= 15:
            return min((o for o in winning if holds[cards_key(o)] >= best - 0.05),
                       key=lambda o: cost(o, trump))
    return min(options, key=cheapness)


def cards_key(cards: Sequence[Card]) -> tuple[int, ...]:
    """The same key for the same cards in any order."""
    return tuple(sorted(c.code for c in cards))


def expert_play(table: Table) -> list[Card]:
    return expert_follow(table) if table.plays else expert_lead(table)


def expert_rollout(sim: Sim) -> int:
    """Play the hand out with the expert rules for every seat; the opponents' final points."""
    while not sim.done:
        sim.play(expert_play(ExactTable(sim)))
    return sim.opp_points


# --------------------------------------------------------------------------- burying


def bury_value(card: Card, trump: Trump, counts: Counter[Card]) -> float:
    """How costly burying `card` is: trumps, aces, points and pairs stay in the hand."""
    if trump.is_trump(card):
        return 100 + trump.strength(card)
    value = trump.strength(card) * 1.0 + card.points * 6.0
    if counts[card] >= 2:
        value += 25
    if trump.strength(card) == 11:  # the side ace (or king at level A): top of its suit
        value += 60
    elif trump.strength(card) == 10:
        value += 8
    return value


def expert_bury(cards: Sequence[Card], trump: Trump, void_bonus: float = 24.0) -> list[Card]:
    """Void short side suits without aces or points; keep aces, points, pairs and trumps."""
    return ai_bury(cards, trump, void_bonus, value=bury_value)


class ExpertPlayer:
    """Rule-based player with plans across tricks (see the module docstring)."""

    def __init__(self, seed: int) -> None:
        del seed  # deterministic without chance

    def decide(self, view: PlayerView) -> Action:
        public = view.public
        if public.phase is Phase.DECLARING:
            return declare(view)
        trump = public.trump
        assert trump is not None
        if public.phase is Phase.BURYING:
            assert view.kitty is not None
            return Bury(view.seat, tuple(expert_bury(view.hand + view.kitty, trump)))
        table = TrackedTable(Knowledge.of(seen_of(view)))
        return Play(view.seat, tuple(expert_play(table)))


def declare(view: PlayerView) -> Action:
    """Declare or pass (the `ai1` declaring rules: declaring was not the weak spot)."""
    public = view.public
    level = public.level
    assert level is not None
    standing = public.standing
    option = ai_declaration(view.hand, view.legal_declarations, level,
                            None if standing is None else standing.seat, view.seat,
                            public.starter, public.batch == BATCHES)
    return Pass(view.seat) if option is None else Declare(view.seat, option)
