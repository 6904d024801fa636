"""The engine contract, checked on any Game, shipped so that a new game can check
itself: ``python -m skydeck.conformance PACKAGE [--seeds N]`` runs every check on every
set-up the game declares (``conformance_configs``), the declared capabilities' checks
included. The test suite runs the same checks on every registered game and on the toy
game (which shows the checks can fail).

Each check raises AssertionError naming the step and what broke (run without ``-O``)."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable
from typing import Any

from skydeck.core import Action, Game, IllegalAction, Rng, State

MAX_STEPS = 20_000
SHORT = os.environ.get("SKYDECK_SOAK", "") == "short"


def dump(state: State) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def random_step(state: State, rng: Rng) -> tuple[int, Action]:
    seat = rng.choice(state.to_move)
    actions = state.legal_actions(seat)
    assert actions, f"seat {seat} is to move but has no legal action: {state!r}"
    return seat, rng.choice(actions)


def random_playout(game: Game, seed: int, max_steps: int = MAX_STEPS):
    """Play uniformly random legal actions; return (final state, log of (seat, action), events)."""
    state = game.new(seed)
    rng = Rng(seed ^ 0x5EED)
    log: list[tuple[int, Action]] = []
    events: list[Any] = []
    while not state.is_over:
        assert len(log) < max_steps, f"{game!r} seed {seed}: no end after {max_steps} steps"
        seat, action = random_step(state, rng)
        events.extend(e.to_json() for e in state.apply(action, seat))
        log.append((seat, action))
    return state, log, events


def check_playout_finishes(game: Game, seed: int) -> None:
    state, _log, _ = random_playout(game, seed)
    assert state.is_over and state.to_move == ()
    assert len(state.scores) == game.players
    assert set(state.winners) <= set(range(game.players))
    for seat in range(game.players):
        assert state.legal_actions(seat) == []
    json.dumps(state.view(None))


def check_determinism(game: Game, seed: int) -> None:
    state, log, events = random_playout(game, seed)
    again = game.new(seed)
    events2: list[Any] = []
    for seat, action in log:
        events2.extend(e.to_json() for e in again.apply(action, seat))
    assert dump(again) == dump(state)
    assert json.dumps(events2, sort_keys=True) == json.dumps(events, sort_keys=True)
    assert dump(game.new(seed)) == dump(game.new(seed))


def walk(game: Game, seed: int, every: int = 1, max_steps: int = MAX_STEPS):
    """Yield (step, state) along one random playout, every ``every`` steps, then the end."""
    state = game.new(seed)
    rng = Rng(seed ^ 0xC0FFEE)
    step = 0
    while not state.is_over and step < max_steps:
        if step % every == 0:
            yield step, state
        seat, action = random_step(state, rng)
        state.apply(action, seat)
        step += 1
    yield step, state


def check_round_trip(game: Game, seed: int, every: int = 1) -> None:
    for step, state in walk(game, seed, every):
        text = dump(state)
        back = game.restore(json.loads(text))
        assert dump(back) == text, f"step {step}: restore(to_json()) differs"
        assert back.to_move == state.to_move
        for seat in state.to_move:
            assert back.legal_actions(seat) == state.legal_actions(seat), f"step {step}"
        for seat in [None, *range(game.players)]:
            assert back.view(seat) == state.view(seat), f"step {step} seat {seat}"


def check_clone_independent(game: Game, seed: int, every: int = 3) -> None:
    rng = Rng(seed)
    for step, state in walk(game, seed, every):
        before = dump(state)
        copy = state.clone()
        assert dump(copy) == before, f"step {step}: clone differs from original"
        if copy.is_over:
            continue
        seat, action = random_step(copy, rng)
        copy.apply(action, seat)
        assert dump(state) == before, f"step {step}: applying to a clone changed the original"


def check_snapshot_independent(game: Game, seed: int, every: int = 3) -> None:
    """``to_json()`` is a snapshot: a dict taken earlier never changes as the state moves
    on (it shares no mutable object with the live state), and ``restore`` of it gives
    the earlier state back, even after the state has played on."""
    state = game.new(seed)
    rng = Rng(seed ^ 0x5A4E)
    taken: list[tuple[int, dict[str, Any], str]] = []
    step = 0
    while True:
        if step % every == 0 or state.is_over:
            snap = state.to_json()
            taken.append((step, snap, json.dumps(snap, sort_keys=True)))
        if state.is_over:
            break
        assert step < MAX_STEPS, f"{game!r} seed {seed}: no end after {MAX_STEPS} steps"
        seat, action = random_step(state, rng)
        state.apply(action, seat)
        step += 1
        last_step, last, text = taken[-1]
        assert json.dumps(last, sort_keys=True) == text, (
            f"step {last_step}: to_json() changed when the state moved on"
        )
    for snap_step, snap, text in taken:
        assert json.dumps(snap, sort_keys=True) == text, (
            f"step {snap_step}: to_json() changed when the state moved on"
        )
        back = game.restore(snap)
        assert dump(back) == text, f"step {snap_step}: restore(snapshot) is not the earlier state"


def check_views_and_resample(game: Game, seed: int, every: int = 2) -> None:
    rng = Rng(seed + 1)
    for step, state in walk(game, seed, every):
        before = dump(state)
        for seat in [None, *range(game.players)]:
            view = state.view(seat)
            json.dumps(view)  # JSON-ready
            for _ in range(2):
                sample = state.resample(seat, rng.spawn())
                assert sample.view(seat) == view, f"step {step}: resample({seat}) changed the view"
                assert sample.to_move == state.to_move
                if seat is not None and seat in state.to_move:
                    assert sample.legal_actions(seat) == state.legal_actions(seat)
        assert dump(state) == before, f"step {step}: view/resample mutated the state"


def check_public_views(game: Game, seed: int, every: int = 2) -> None:
    """``public_views`` (declared) holds at steps of a random playout: each seat's view
    is the spectator's with that seat, so one view may serve every client."""
    for step, state in walk(game, seed, every):
        public = state.view(None)
        for seat in range(game.players):
            assert state.view(seat) == {**public, "seat": seat}, (
                f"step {step}: view({seat}) is not view(None) with its seat"
            )


def check_public_actions(game: Game, seed: int, every: int = 3) -> None:
    """``public_actions`` (declared) holds at steps of a random playout: no choice is
    secret. Two legal actions of a seat that leave the same public view (``view(None)``)
    either have the same label or leave the same whole state (a choice without effect,
    such as two ways of pushing that end alike). So showing every seat a move's label
    at once tells it nothing the table does not show it anyway."""
    for step, state in walk(game, seed, every):
        for seat in state.to_move:
            by_view: dict[str, tuple[str, Action, str]] = {}
            for action in state.legal_actions(seat):
                after = state.clone()
                after.apply(action, seat)
                key = json.dumps(after.view(None), sort_keys=True, default=str)
                label, whole = game.describe(action), dump(after)
                seen = by_view.setdefault(key, (label, action, whole))
                assert seen[0] == label or seen[2] == whole, (
                    f"step {step}: {seen[1]} and {action} leave the same public view but "
                    f"different states, and their labels ({seen[0]!r}, {label!r}) tell which"
                )


def _hidden_dump(state: State) -> str:
    """The full state with its generator blanked: what two inversions of one view may
    differ in besides the fresh RNG each of them draws."""
    copy = state.clone()
    copy.rng = Rng(0)
    return dump(copy)


def _play_on(state: State, rng: Rng, what: str) -> None:
    """Random legal actions to the end; any failure is the inversion's fault."""
    steps = 0
    try:
        while not state.is_over:
            assert steps < MAX_STEPS, f"no end after {MAX_STEPS} steps"
            seat, action = random_step(state, rng)
            state.apply(action, seat)
            steps += 1
    except Exception as exc:
        raise AssertionError(f"{what} cannot play on to the end: {exc!r}") from exc


def check_from_view(game: Game, seed: int, every: int = 3) -> None:
    """``game.from_view`` (declared by ``has_from_view``) inverts ``view``: at steps of a
    random playout, for every seat and the spectator, the state rebuilt from the view
    (as a client would send it: through JSON) shows that seat the same view, has the
    same seats to move and the same legal actions, is the same for the same rng, leaves
    the true state and the view untouched, and plays on to the end; somewhere in the
    playout two rngs must draw different hidden parts."""
    varied = False
    k = 0
    seats: list[int | None] = [None, *range(game.players)]
    for turn, (step, state) in enumerate(walk(game, seed, every)):
        before = dump(state)
        player = seats[turn % len(seats)]  # the seat whose rebuilt state plays out
        for seat in seats:
            k += 1
            view = state.view(seat)
            sent = json.loads(json.dumps(view))
            text = json.dumps(sent, sort_keys=True)
            what = f"step {step}: from_view(view({seat}))"
            s2 = game.from_view(sent, seat, Rng(k))
            assert json.dumps(sent, sort_keys=True) == text, f"{what} mutated the view"
            assert s2.view(seat) == view, f"{what}: its view({seat}) differs from the view"
            assert s2.to_move == state.to_move, f"{what}: to_move {s2.to_move}"
            if seat is not None:
                assert s2.legal_actions(seat) == state.legal_actions(seat), (
                    f"{what}: other legal actions"
                )
            assert dump(game.from_view(sent, seat, Rng(k))) == dump(s2), (
                f"{what}: the same rng gave another state (randomness not from rng?)"
            )
            if not varied:
                other = game.from_view(sent, seat, Rng(k + 1_000_003))
                varied = _hidden_dump(other) != _hidden_dump(s2)
            if seat == player:
                _play_on(s2, Rng(k), what)
        assert dump(state) == before, f"step {step}: from_view mutated the true state"
    assert varied, (
        f"{game!r}: from_view drew the same hidden parts for every rng at every step "
        "(is anything hidden drawn from rng?)"
    )


def check_action_round_trips(game: Game, seed: int, every: int = 1) -> None:
    for step, state in walk(game, seed, every):
        for seat in state.to_move:
            view = state.view(seat)
            for action in state.legal_actions(seat):
                assert game.parse_action(str(action)) == action, f"step {step}: text {action}"
                obj = json.loads(json.dumps(action.to_json()))
                assert game.action_from_json(obj) == action, f"step {step}: json {action}"
                hash(action)
                # the one description: a log's (no view) and a menu's (the seat's view)
                assert isinstance(game.describe(action), str)
                assert isinstance(game.describe(action, view), str)


def _expect_illegal(state: State, action: Any, seat: Any) -> None:
    before = dump(state)
    try:
        state.apply(action, seat)
    except IllegalAction as exc:
        assert str(exc), "IllegalAction must say what was wrong"
    else:
        raise AssertionError(f"{action!r} by seat {seat!r} was accepted")
    assert dump(state) == before, f"refused {action!r} changed the state"


GARBAGE_TEXT = ["", "   ", "(((", "launch (", "1abc", "zz_no_such_action 1 2", "x )", "a ,b"]


def check_illegal_actions(game: Game, seed: int, every: int = 5) -> None:
    for text in GARBAGE_TEXT:
        try:
            action = game.parse_action(text)
        except IllegalAction:
            continue
        _expect_illegal(game.new(seed), action, game.new(seed).to_move[0])
    malformed: list[Any] = [None, 5, {"kind": 3}, {"kind": "x", "args": "no"}, {"args": []}, [1, 2]]
    for bad in malformed:
        try:
            game.action_from_json(bad)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"action_from_json accepted {bad!r}")
    seen: list[Action] = []
    for _step, state in walk(game, seed, every):
        if state.is_over:
            for a in seen[-5:]:
                _expect_illegal(state, a, 0)
            continue
        mover = state.to_move[0]
        legal = state.legal_actions(mover)
        _expect_illegal(state, Action("zz_no_such_action", (1, "x")), mover)
        _expect_illegal(state, "not an action", mover)
        for other in range(game.players):
            if other not in state.to_move and legal:
                _expect_illegal(state, legal[0], other)
        for seat in (-1, game.players, "0", None):
            if legal:
                _expect_illegal(state, legal[0], seat)
        stale = [a for a in seen if a not in legal]
        for a in stale[-3:]:
            try:
                state.validate(a, mover)
            except IllegalAction:
                _expect_illegal(state, a, mover)
        seen.extend(legal[:4])


def _validates(state: State, action: Action, seat: int) -> bool:
    try:
        state.validate(action, seat)
    except IllegalAction:
        return False
    return True


def check_accepts(game: Game, seed: int, every: int = 2) -> None:
    """``accepts`` answers as ``validate`` does, along a random playout: for the legal
    actions, actions legal earlier, an unknown kind and the server's timed actions (the
    clocks' question after every move, which games may answer without ``validate``)."""
    timed = [Action(kind) for kind in ("timeout", "stop", "pass", "done")]
    seen: list[Action] = []
    for step, state in walk(game, seed, every):
        for seat in state.to_move or (0,):
            legal = state.legal_actions(seat)
            unknown = Action("zz_no_such_action", (1,))
            for a in [*legal[:6], *seen[-6:], unknown, *timed]:
                assert state.accepts(a, seat) == _validates(state, a, seat), (
                    f"step {step}: accepts({a}, {seat}) disagrees with validate"
                )
            seen.extend(legal[:3])


#: The checks every game takes whatever it declares (the suite adds the declared ones).
CONTRACT = (
    check_playout_finishes,
    check_determinism,
    check_round_trip,
    check_clone_independent,
    check_views_and_resample,
    check_action_round_trips,
    check_illegal_actions,
    check_accepts,
)


def declared(cls: type[Game]) -> tuple[Callable[[Game, int], None], ...]:
    """The checks of what ``cls`` declares (a capability is a promise to keep)."""
    out: list[Callable[[Game, int], None]] = []
    if cls.has_from_view:
        out.append(check_from_view)
    if cls.public_views:
        out.append(check_public_views)
    if cls.public_actions:
        out.append(check_public_actions)
    return tuple(out)


def run(cls: type[Game], seeds: int = 3) -> list[str]:
    """Every check on every declared set-up and seed; the failures, as lines."""
    failures = []
    for config in cls.conformance_configs():
        game = cls(**config)
        for check in (*CONTRACT, *declared(cls)):
            for seed in range(seeds):
                try:
                    check(game, seed)
                except AssertionError as exc:
                    failures.append(f"{check.__name__} {config} seed {seed}: {exc}")
                    break
    return failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m skydeck.conformance", description="check a game against the contract"
    )
    parser.add_argument("package", help="the game's package, e.g. skydeck.games.stellium")
    parser.add_argument("--seeds", type=int, default=3, help="seeds per set-up (default 3)")
    args = parser.parse_args(argv)
    module = importlib.import_module(args.package)
    cls = getattr(module, "GAME", None)
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        print(f"{args.package} exposes no GAME (a Game subclass)", file=sys.stderr)
        return 2
    failures = run(cls, args.seeds)
    checks = len(CONTRACT) + len(declared(cls))
    sets = len(cls.conformance_configs())
    for line in failures:
        print(f"FAIL {line}")
    print(
        f"{cls.id}: {checks} checks x {sets} set-ups x {args.seeds} seeds: "
        f"{'all passed' if not failures else f'{len(failures)} failed'}"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
