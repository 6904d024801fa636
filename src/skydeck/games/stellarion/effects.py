"""What each action does to the state. Called with an already validated key (see
legal.py), so nothing here re-checks legality; every function leaves the state in a
consistent phase for legal.generate to read."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from skydeck.core import Event
from skydeck.games.stellarion.cards import DECKS, FACE_NAMES, OUTPOST_SOURCE, STAR_SOURCE
from skydeck.games.stellarion.legal import (
    END,
    LOOK,
    MAIN,
    OVER,
    POWER,
    THRUST,
    THRUSTERS,
    TRAVERSE,
    Key,
    traverse_targets,
)

if TYPE_CHECKING:
    from skydeck.games.stellarion.state import StellarionState

LAUNCH_SUN, MAJOR_SUN, MINOR_SUN = 4, 2, 1


# --- deck bookkeeping -----------------------------------------------------------------
def normalise(s: StellarionState, d: int) -> None:
    """Known cards sit in two runs (from the top, from the bottom); once at most one
    card is left between them the whole deck is known (its contents are public),
    recorded as one run from the top."""
    n = len(s.decks[d])
    if s.ktop[d] + s.kbot[d] >= n - 1:
        s.ktop[d], s.kbot[d] = n, 0


def pop_top(s: StellarionState, d: int) -> int:
    """Take the top card of deck d; the next card is face down (though maybe known)."""
    c = s.decks[d].pop()
    s.up[d] = 0
    if s.ktop[d]:
        s.ktop[d] -= 1
    normalise(s, d)
    return c


def shuffle_deck(s: StellarionState, d: int) -> None:
    """Shuffle: a revealed top goes back face down and every position is unknown."""
    s.rng.shuffle(s.decks[d])
    s.up[d] = 0
    s.ktop[d] = s.kbot[d] = 0
    if len(s.decks[d]) <= 1:
        normalise(s, d)


def take_source(s: StellarionState, src: int) -> int:
    """Remove a card from the Observatory (a deck's top) or the Outpost."""
    if src < OUTPOST_SOURCE:
        return pop_top(s, src)
    face = src - OUTPOST_SOURCE
    for i, c in enumerate(s.outpost):
        if c & 31 == face:
            return s.outpost.pop(i)
    raise AssertionError("validated source missing from the Outpost")


def discard(s: StellarionState, c: int) -> None:
    s.discards[c >> 5].append(c)


def remove_from_pile(s: StellarionState, d: int, face: int) -> int:
    pile = s.discards[d]
    for i in range(len(pile) - 1, -1, -1):
        if pile[i] & 31 == face:
            return pile.pop(i)
    raise AssertionError("validated card missing from its discard pile")


# --- voyages and outcome --------------------------------------------------------------
def acquire(s: StellarionState, v: int, seat: int) -> None:
    for col in s.columns:
        if col and col[-1] == v:
            col.pop()
            s.piles[seat].append(v)
            return
    raise AssertionError("validated voyage is not accessible")


def check_win(s: StellarionState, events: list[Event]) -> bool:
    if any(s.columns):
        return False
    if s.game.theories and s.theories:
        return False
    finish(s, 1, "all Voyages acquired" + (" and every Theory proven" if s.game.theories else ""))
    events.append(Event("won", {"reason": s.reason}))
    return True


def finish(s: StellarionState, outcome: int, reason: str) -> None:
    s.outcome = outcome
    s.reason = reason
    s.phase = OVER


def sun_forward(s: StellarionState, n: int, events: list[Event]) -> bool:
    """Move the Sun; True (and the game lost) if it reaches the final space."""
    final = s.game.sun_final
    s.sun = min(s.sun + n, final)
    events.append(Event("sun", {"position": s.sun}))
    if s.sun >= final:
        finish(s, -1, "the Glaucous Sun reached the final space")
        events.append(Event("lost", {"reason": s.reason}))
        return True
    return False


# --- turn structure -------------------------------------------------------------------
def start_turn(s: StellarionState, seat: int) -> None:
    s.turn = seat
    s.phase = MAIN
    s.turns += 1


def used_tops(s: StellarionState, key: Key) -> dict[str, str] | None:
    """The face-up deck tops a Launch, a Coordinate or a move to the Outpost takes, by
    deck ('beta' -> 'beta.nebula'), read before they go: the Observatory is public, so
    the log may name the cards (issue 49) where the action names only the decks."""
    code = key[0]
    if code == "L":
        sources: Any = key[2]
    elif code == "C":
        sources = key[1:]
    elif code == "O":
        sources = key[1]
    else:
        return None
    decks = s.decks
    return {DECKS[d]: FACE_NAMES[decks[d][-1] & 31] for d in sources if d < OUTPOST_SOURCE}


def apply_key(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    code = key[0]
    fn = HANDLERS[code]
    fn(s, key, seat, events)


def _launch(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    v, combo = key[1], key[2]
    for src in combo:
        if src == STAR_SOURCE:
            s.stars -= 1
        else:
            discard(s, take_source(s, src))
    acquire(s, v, seat)
    if check_win(s, events):
        return
    if s.game.glaucous_sun and sun_forward(s, LAUNCH_SUN, events):
        return
    s.phase = END


def uses_allowed(power: int, major: bool) -> int:
    """How many times a power's effect may be used (RULINGS 37): a Ship searches once
    (twice for the major), Stars look up to two (four) times; a Nebula retrieval and a
    Planet's move to the Outpost are one use, of up to 1 (minor) or 2 (major) cards."""
    if power == 0:
        return 2 if major else 1
    if power == 2:
        return 4 if major else 2
    return 1


def _coordinate(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    c1 = take_source(s, key[1])
    c2 = take_source(s, key[2])
    discard(s, c1)
    discard(s, c2)
    f1, f2 = c1 & 31, c2 & 31
    mirror = f1 >= 16 or f2 >= 16
    face = f2 if f1 >= 16 else f1
    s.p_type = face & 3
    s.p_major = (not mirror) and f1 == f2
    s.p_left = uses_allowed(s.p_type, bool(s.p_major))
    s.p_started = False
    s.p_deck = -1
    s.p_cards = [c1] if c1 == c2 else [c1, c2]
    if s.p_type == 0 and s.breakthrough == THRUSTERS:
        s.phase = THRUST
    else:
        s.phase = POWER


def _traverse(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    for d in key[1]:
        discard(s, pop_top(s, d))
    s.p_take = 3
    s.phase = TRAVERSE
    if not traverse_targets(s):
        s.phase = END


def _take(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    acquire(s, key[1], key[2])
    if check_win(s, events):
        return
    s.p_take -= 1
    if s.p_take == 0 or not traverse_targets(s):
        s.phase = END


def _prove(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    token = s.theories.pop()
    s.proven.append(token)
    if s.theories:
        s.reveals += 1  # the next token of the stack is turned up
    check_win(s, events)


def _meteor(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    """Two shared Meteors for a Voyage, into the pile of the player spending them (the
    seat to move, or the partner the key names)."""
    s.held -= 2
    acquire(s, key[1], key[2] if len(key) > 2 else seat)
    check_win(s, events)


def _bottom(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    """Reversible thrusters: one Ship used goes to the bottom of its deck, face down."""
    c = key[1]
    d = c >> 5
    remove_from_pile(s, d, c & 31)
    s.decks[d].insert(0, c)
    s.kbot[d] += 1
    normalise(s, d)
    s.phase = POWER


def _keep_discarded(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    s.phase = POWER


def _use_power(s: StellarionState, events: list[Event]) -> bool:
    """The first real choice of a power: the Sun moves forward. True if that lost."""
    s.p_started = True
    if s.game.glaucous_sun:
        return sun_forward(s, MAJOR_SUN if s.p_major else MINOR_SUN, events)
    return False


def _forfeit(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    n = key[1]
    if s.game.glaucous_sun:
        s.sun -= n
        events.append(Event("sun", {"position": s.sun}))
        if n and s.sun in s.meteors:
            s.meteors.remove(s.sun)
            s.held += 1
            events.append(Event("meteor_taken", {"space": s.sun}))
    s.phase = END


def _stop(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    s.phase = END


def _search(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    if not s.p_started and _use_power(s, events):
        return
    d, face = key[1], key[2]
    deck = s.decks[d]
    for i in range(len(deck) - 1, -1, -1):
        if deck[i] & 31 == face:
            c = deck.pop(i)
            break
    s.rng.shuffle(deck)
    deck.append(c)
    s.up[d] = 1
    s.ktop[d], s.kbot[d] = 1, 0
    normalise(s, d)
    s.p_deck = d
    s.p_left -= 1
    s.phase = POWER if s.p_left else END


def _retrieve(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    if _use_power(s, events):
        return
    d, faces, on_top = key[1], key[2], key[3]
    cards = [remove_from_pile(s, d, f) for f in faces]
    deck = s.decks[d]
    if on_top:  # Time shift radar: listed order is top first
        for c in reversed(cards):
            deck.append(c)
        s.up[d] = 1
        s.ktop[d] += len(cards)
        normalise(s, d)
    else:  # shuffled in; into an exhausted deck the cards become it, in random order
        deck.extend(cards)
        shuffle_deck(s, d)
    s.phase = END


def _stars(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    if not s.p_started and _use_power(s, events):
        return
    d = key[1]
    shuffle_deck(s, d)
    s.ktop[d] = min(2, len(s.decks[d]))
    s.kbot[d] = 0
    normalise(s, d)
    s.p_deck = d
    s.phase = LOOK
    events.append(
        Event("looked", {"deck": DECKS[d], "cards": [FACE_NAMES[c & 31] for c in s.decks[d][-2:]]})
    )


def _place(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    d = s.p_deck
    deck = s.decks[d]
    top, bottom = key[1], key[2]
    n = len(top) + len(bottom)
    del deck[-n:]
    for f in bottom:  # listed top-first: the last one ends at the very bottom
        deck.insert(0, d << 5 | f)
    for f in reversed(top):
        deck.append(d << 5 | f)
    s.up[d] = 1 if top else 0
    s.ktop[d], s.kbot[d] = len(top), len(bottom)
    normalise(s, d)
    s.p_left -= 1
    s.phase = POWER if s.p_left else END


def _outpost(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    if _use_power(s, events):
        return
    for d in key[1]:
        s.outpost.append(pop_top(s, d))
    s.phase = END


def _reveal(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    d = key[1]
    s.up[d] = 1
    if not s.ktop[d]:
        s.ktop[d] = 1
        normalise(s, d)
        s.reveals += 1
    events.append(Event("revealed", {"deck": DECKS[d], "card": FACE_NAMES[s.decks[d][-1] & 31]}))
    start_turn(s, (s.turn + 1) % s.game.players)


def _end(s: StellarionState, key: Key, seat: int, events: list[Event]) -> None:
    if s.game.reveal_all:  # the rulebook's rule: every face-down top is turned up
        for d in range(8):
            if s.decks[d] and not s.up[d]:
                s.up[d] = 1
                if not s.ktop[d]:
                    s.ktop[d] = 1
                    normalise(s, d)
                    s.reveals += 1
                events.append(
                    Event("revealed", {"deck": DECKS[d], "card": FACE_NAMES[s.decks[d][-1] & 31]})
                )
    start_turn(s, (s.turn + 1) % s.game.players)


HANDLERS = {
    "L": _launch,
    "C": _coordinate,
    "T": _traverse,
    "TK": _take,
    "P": _prove,
    "M": _meteor,
    "B": _bottom,
    "BD": _keep_discarded,
    "F": _forfeit,
    "S": _stop,
    "SE": _search,
    "N": _retrieve,
    "ST": _stars,
    "PL": _place,
    "O": _outpost,
    "R": _reveal,
    "E": _end,
}
assert MAIN == 0
