"""One full Stellar Conflict state from a seat's view (the inverse of ``view``).

Search agents and servers only hold views; ``ConflictGame.from_view`` rebuilds a state
that shows the seat exactly that view and offers it the same legal actions. Everything
public is copied: the phase, who is ready or done, every card on the table (placement,
damage, cubes, Delay tokens, fired), the kill piles, the cubes in the box, the battle's
step and last shots, the deck sizes and who holds a card. What the view hides is drawn
with the ``rng`` passed in, and only with it:

- **Other seats' fleets.** A fleet is a legal purchase: distinct regular ships of the
  seat's race whose cost fits the scale's credits, and it always contains the regular
  ships the seat has already deployed. Once Deployment has started, a seat that still
  deploys has as many unseen ships as its deck and hand hold (the deck count is public),
  so exactly that many are drawn among the race's undeployed ships within the credits
  left (random sets, then random cost-keeping swaps from the cheapest set when random
  sets keep failing). A seat that has deployed its Flagship has drawn its whole deck:
  its fleet is exactly its deployed ships. Where nothing public bounds the count
  (Preparation, a seat that said ``done``, decks returned to the box after a stop),
  the fleet is a random maximal purchase: ships in random order, each bought while the
  credits allow, so most of the credits are spent. A seat still choosing in
  Preparation has bought a random first part of such a purchase.
- **Decks and hands.** A deck is the Cargo ship on top (not with the Meteor variant),
  the bought ships in shuffled order, the Flagship at the bottom; cards are drawn from
  the top, so a seat's deployed cards are the first of its deck in the order they went
  down, the card in hand is the next, then the deck. The hidden ships take the shuffled
  middle in random order. One's own fleet and hand are copied from the view; only the
  order of one's own deck is drawn.
- **The state's generator** is fresh (``Rng(rng.next64())``): the true one decides future
  draws and is hidden from everybody.
- **Damage-token tallies** (``dealt`` / ``returned`` per colour, never shown) are rebuilt
  from the tokens on the cards; tokens removed by regeneration earlier are not visible,
  so both tallies leave them out (they only serve the conservation check).

A view that no state could show (another game's, options that differ, a fleet over
budget, deck counts the deck rule cannot give) is refused with ValueError.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from skydeck.core import Rng
from skydeck.games.conflict.state import DEPLOY, PHASES, PREP, ConflictState

if TYPE_CHECKING:
    from skydeck.games.conflict.content import ShipCard
    from skydeck.games.conflict.game import ConflictGame

#: random k-subsets tried before falling back on swaps from the cheapest set
SUBSET_TRIES = 8


def from_view(
    game: ConflictGame, view: dict[str, Any], seat: int | None, rng: Rng
) -> ConflictState:
    """A full state whose ``view(seat)`` is ``view``; hidden parts drawn with ``rng``."""
    _check_matches(game, view, seat)
    st = ConflictState(game, Rng(rng.next64()))
    _copy_public(st, view)
    for o in range(game.players):
        _deal_seat(st, view, o, o == seat, rng)
    return st


# --- the public part -------------------------------------------------------------------
def _check_matches(game: ConflictGame, view: dict[str, Any], seat: int | None) -> None:
    """ValueError unless ``view`` is this game's view for ``seat``."""
    if not isinstance(view, dict) or view.get("game") != "conflict":
        raise ValueError("conflict: from_view needs a Stellar Conflict view")
    opts = game.options
    want = {
        "players": game.players,
        "scale": opts["scale"],
        "deployment": opts["deployment"],
        "variants": list(opts["variants"]),
    }
    for key, value in want.items():
        if view.get(key) != value:
            raise ValueError(
                f"conflict: the view's {key} is {view.get(key)!r}, this game's is {value!r}"
            )
    races = [s.get("race") for s in view.get("seats", [])]
    if races != list(game.races):
        raise ValueError(f"conflict: the view's races are {races}, this game's {list(game.races)}")
    if view.get("seat") != seat:
        raise ValueError(f"conflict: this view is seat {view.get('seat')!r}'s, not seat {seat!r}'s")
    if view.get("phase") not in PHASES:
        raise ValueError(f"conflict: unknown phase {view.get('phase')!r} in the view")


def _copy_public(st: ConflictState, view: dict[str, Any]) -> None:
    by_id = st.game.content.by_id
    n = st.game.players
    seats = view["seats"]
    st.phase = view["phase"]
    st.ready = [bool(s["ready"]) for s in seats]
    st.done = [bool(s["done"]) for s in seats]
    st.kills = [[int(u) for u in s["kill_pile"]] for s in seats]
    try:
        st.cards = [
            [
                by_id[c["ship"]],
                -1 if c["owner"] is None else int(c["owner"]),
                int(c["x"]),
                int(c["y"]),
                int(c["angle"]),
                int(bool(c["on_table"])),
                int(c["cubes"]),
                int(c["delays"]),
                int(bool(c["fired"])),
                tuple(int(s) for s in c["damage"]),
            ]
            for c in view["cards"]
        ]
    except KeyError as exc:
        raise ValueError(f"conflict: the view names an unknown ship {exc}") from None
    dealt, returned = [0] * n, [0] * n
    for c in st.cards:
        for colour in c[9]:
            dealt[colour] += 1
            if not c[5]:
                returned[colour] += 1
    st.dealt, st.returned = dealt, returned
    st.supply, st.vaporised = int(view["cubes"]["box"]), int(view["cubes"]["vaporised"])
    battle = view["battle"]
    st.step = int(battle["step"])
    st.initiative = -1 if battle["initiative"] is None else int(battle["initiative"])
    st.last_shots = [dict(shot) for shot in battle["shots"]]
    st.stopped_by = -1 if view["stopped_by"] is None else int(view["stopped_by"])
    frozen = [s.get("frozen") for s in seats]
    st.frozen = [None if f is None else (int(f[0]), int(f[1]), int(f[2])) for f in frozen]


# --- one seat's hidden part ------------------------------------------------------------
def _deal_seat(st: ConflictState, view: dict[str, Any], o: int, own: bool, rng: Rng) -> None:
    game = st.game
    content = game.content
    ships = content.ships
    race = game.races[o]
    row = view["seats"][o]
    if own:
        fleet = _own_fleet(st, row, o, race)
    if st.phase == PREP:
        if own:
            st.fleets[o] = fleet
        else:
            bought = _fill(ships, list(content.regulars_of(race)), game.credits, rng)
            st.fleets[o] = bought if row["ready"] else bought[: rng.below(len(bought) + 1)]
        return
    placed = [c[0] for c in st.cards if c[1] == o]
    placed_regulars = [i for i in placed if ships[i].role == "ship"]
    budget = game.credits - sum(ships[i].cost for i in placed_regulars)
    if budget < 0:
        raise ValueError(f"conflict: seat {o}'s deployed ships cost more than {game.credits}")
    hand = -1
    if own:
        middle = [i for i in fleet if i not in placed_regulars]
        if len(middle) + len(placed_regulars) != len(fleet):
            raise ValueError(f"conflict: seat {o} deployed ships that are not in its fleet")
        if row["hand"] is not None:
            hand = content.by_id.get(row["hand"], -2)
        rng.shuffle(middle)
        if hand in middle:  # the card in hand was drawn first of what is left
            middle.remove(hand)
            middle.insert(0, hand)
    else:
        pool = [i for i in content.regulars_of(race) if i not in placed_regulars]
        if content.flagship_of(race) in placed:  # the whole deck was drawn: no more ships
            middle = []
        elif st.phase == DEPLOY and not row["done"]:
            fixed = len(_sequence(game, race, placed_regulars, [])) - len(placed)
            count = int(row["holding"]) + int(row["deck"]) - fixed
            middle = _pick(ships, pool, count, budget, rng, o)
        else:  # the unseen rest went back to the box: any purchase will do
            middle = _fill(ships, pool, budget, rng)
    st.fleets[o] = placed_regulars + middle
    _deal_deck(st, row, o, placed, _sequence(game, race, placed_regulars, middle), hand)


def _own_fleet(st: ConflictState, row: dict[str, Any], o: int, race: str) -> list[int]:
    content = st.game.content
    ids = row["fleet"]
    if ids is None:
        raise ValueError(f"conflict: the view does not show seat {o}'s own fleet")
    try:
        fleet = [content.by_id[i] for i in ids]
    except KeyError as exc:
        raise ValueError(f"conflict: seat {o}'s fleet names an unknown ship {exc}") from None
    ships = content.ships
    if any(ships[i].race != race or ships[i].role != "ship" for i in fleet):
        raise ValueError(f"conflict: seat {o}'s fleet holds ships that are not {race} ships")
    left = st.game.credits - sum(ships[i].cost for i in fleet)
    if len(set(fleet)) != len(fleet) or left < 0 or left != row["credits_left"]:
        raise ValueError(
            f"conflict: seat {o}'s fleet {ids} is not a purchase leaving "
            f"{row['credits_left']!r} of {st.game.credits} credits"
        )
    return fleet


def _sequence(
    game: ConflictGame, race: str, placed_regulars: list[int], middle: list[int]
) -> list[int]:
    """A deck from top to bottom as it was dealt: Cargo ship (unless Meteors replace it),
    the bought ships (those already deployed first, in order), the Flagship."""
    content = game.content
    head = [] if "meteor" in game.options["variants"] else [content.cargo_of(race)]
    return [*head, *placed_regulars, *middle, content.flagship_of(race)]


def _deal_deck(
    st: ConflictState,
    row: dict[str, Any],
    o: int,
    placed: list[int],
    sequence: list[int],
    hand: int,
) -> None:
    """Hand and deck from the drawing order; the deployed cards must be its start and
    ``hand`` (one's own card in hand; -1 unknown) the next."""
    k = len(placed)
    if sequence[:k] != placed:
        raise ValueError(f"conflict: seat {o}'s deployed cards break the deck order")
    rest = sequence[k:]
    holding, size = bool(row["holding"]), int(row["deck"])
    if holding + size > len(rest):
        raise ValueError(f"conflict: seat {o} cannot hold a card and {size} more in its deck")
    if hand != -1 and (not holding or rest[0] != hand):
        raise ValueError(f"conflict: seat {o}'s card in hand {row['hand']!r} cannot be next")
    st.hands[o] = rest[0] if holding else -1
    st.decks[o] = rest[holding : holding + size][::-1]  # top card last


# --- fleets ------------------------------------------------------------------------------
def _fill(ships: Sequence[ShipCard], pool: list[int], budget: int, rng: Rng) -> list[int]:
    """A random maximal purchase: ``pool`` in random order, each ship bought if it fits."""
    order = list(pool)
    rng.shuffle(order)
    out = []
    for i in order:
        cost = ships[i].cost
        if cost <= budget:
            out.append(i)
            budget -= cost
    return out


def _pick(
    ships: Sequence[ShipCard], pool: list[int], count: int, budget: int, rng: Rng, seat: int
) -> list[int]:
    """``count`` distinct ships of ``pool`` costing ``budget`` or less together, in
    random order; ValueError if even the cheapest ``count`` cost more."""
    if count == 0:
        return []
    if not 0 < count <= len(pool):
        raise ValueError(f"conflict: seat {seat}'s deck count needs {count} unseen ships")
    for _ in range(SUBSET_TRIES):
        pick = rng.sample(pool, count)
        if sum(ships[i].cost for i in pick) <= budget:
            return pick
    by_cost = sorted(pool, key=lambda i: (ships[i].cost, i))
    pick, rest = by_cost[:count], by_cost[count:]
    total = sum(ships[i].cost for i in pick)
    if total > budget:
        raise ValueError(
            f"conflict: seat {seat} cannot have {count} more ships within {budget} credits"
        )
    for _ in range(4 * count if rest else 0):  # wander away from the cheapest set
        a, b = rng.below(count), rng.below(len(rest))
        delta = ships[rest[b]].cost - ships[pick[a]].cost
        if total + delta <= budget:
            pick[a], rest[b] = rest[b], pick[a]
            total += delta
    rng.shuffle(pick)
    return pick
