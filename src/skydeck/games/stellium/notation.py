"""Action notation: every Stellium decision as a short, readable Action.

    draw planet | draw comet | draw star | draw supernova     choose a body by touch
    timeout                                                    the 5 seconds ran out
    place e3                 put the drawn body on empty space e3
    place e3 ne              Comet: hit the body on e3, pushing the line towards ne
                             (directions e se sw w nw ne: the triangular lattice)
    swap f2 h2               Swap: the body on f2 trades places with its neighbour on h2
    push ne                  Collision (blue token): the placed body pushes towards ne
    rotate 60|120|...|300    Rotation: turn the placed body's Galaxy clockwise by sixths
    pull d4 c3               Attraction: Black Hole d4 pulls in the body on c3
    skip                     the mandatory effect has no target (only then)
    complete m01 (b2,d2,f2)  complete Mission m01 with the bodies on those spaces
    keep d2                  the one body of that Mission that stays on the board
    done                     stop completing Missions
    refill star e3           empty-Galaxy refill: place a drawn Star on e3
    take m12                 take Available Mission m12
    take m12 m03             ... discarding m03 from a full hand (3) to the box
    pass                     keep a full hand and take nothing

Actions are precomputed where the set is finite and small, so legal_actions allocates
little on the hot path.
"""

from __future__ import annotations

from skydeck.core import Action
from skydeck.core.action import shared
from skydeck.games.stellium.content import BODIES
from skydeck.games.stellium.universe import Universe, played

EFFECTS = ("", "swap", "push", "rotate", "pull")  # by the body code whose effect it is
EFFECT_BODY = {name: i for i, name in enumerate(EFFECTS) if name}

TIMEOUT = shared("timeout")
SKIP = shared("skip")
DONE = shared("done")
PASS = shared("pass")
DRAW = tuple(shared("draw", (b,)) if b else TIMEOUT for b in BODIES)
_PLAYED = played()
#: push[d] and rotate[k] on the board the game is played on (Notation has them for any)
PUSH = tuple(shared("push", (d,)) for d, _, _ in _PLAYED.dirs)
ROTATE = (
    TIMEOUT,
    *(shared("rotate", (k * _PLAYED.turn_degrees,)) for k in range(1, _PLAYED.full_turn)),
)


class Notation:
    """Precomputed actions for one Universe."""

    def __init__(self, u: Universe) -> None:
        names = u.names
        self.place = tuple(shared("place", (n,)) for n in names)
        dirs = u.dirs
        self.place_dir = tuple(tuple(shared("place", (n, d)) for d, _, _ in dirs) for n in names)
        #: push[d]: the blue-token Collision towards the board's direction d
        self.push = tuple(shared("push", (d,)) for d, _, _ in dirs)
        #: rotate[k]: k turns clockwise (k = 1 .. full turn - 1; index 0 is unused)
        turns = [shared("rotate", (k * u.turn_degrees,)) for k in range(1, u.full_turn)]
        self.rotate = (TIMEOUT, *turns)
        self.dir_index = {name: i for i, (name, _, _) in enumerate(dirs)}
        self.keep = tuple(shared("keep", (n,)) for n in names)
        self.refill = tuple(
            tuple(shared("refill", (b, n)) if b else SKIP for n in names) for b in BODIES
        )
        self.swap: dict[tuple[int, int], Action] = {}
        self.pull: dict[tuple[int, int], Action] = {}
        for a in u.spaces:
            for b in u.neighbours[a]:
                self.swap[a, b] = shared("swap", (names[a], names[b]))
                if u.is_hole[a]:
                    self.pull[a, b] = shared("pull", (names[a], names[b]))
