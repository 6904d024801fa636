"""Every event of every game reads as a plain sentence (``Game.describe_event``), the
same words the web log and ``skydeck replay`` show: never an id ("wiss.halo_1",
"bronze_07"), never a raw list or JSON; and a sentence never tells more than the seat
it is told to may see."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import skydeck
from skydeck.core import Game, Rng, State
from skydeck.registry import game_class

GAMES = ["conflict", "expedition", "stellarion", "stellium"]
NAMES = ["Player 1", "Player 2", "Player 3", "Player 4"]
#: snake_case ids, dotted ids, and the marks of raw lists or JSON
ID = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b|\b[a-z]+\.[a-z0-9_]+\b|[\[\]{}\"]")
STEPS = 400  # per match: enough to reach every phase of each set-up, a few seconds a game
SEEDS = 2

#: Events a short random match seldom meets, as the engines write them.
RARE: dict[str, list[dict[str, Any]]] = {
    "stellium": [
        {"kind": "timeout", "seat": 1},
        {
            "kind": "refill_drawn",
            "seat": 0,
            "galaxy": "north-west",
            "bodies": {"planet": 2, "star": 1},
            "order": [1, 0],
        },
        {"kind": "refilled", "seat": 1, "body": "planet", "space": "b2"},
        {"kind": "refill_returned", "bodies": {"star": 1}},
        {"kind": "refill_impossible", "galaxy": "south-east"},
        {
            "kind": "effect",
            "seat": 0,
            "effect": "collision",
            "from": "c3",
            "direction": "ne",
            "off_edge": "comet",
        },
    ],
    "stellarion": [
        {"kind": "won", "reason": "all Voyages acquired"},
        {"kind": "meteor_taken", "space": 5},
        {"kind": "action", "seat": 0, "action": "retrieve alpha (alpha.ship,beta.ship) top"},
        {"kind": "action", "seat": 1, "action": "take beta3 1"},
        {"kind": "action", "seat": 0, "action": "place (alpha.stars) (delta.stars)"},
        {"kind": "action", "seat": 0, "action": "forfeit 2"},
    ],
    "conflict": [
        {"kind": "stop", "why": "timeout", "seat": None},
        {"kind": "removed", "seat": 1, "why": "it touches another card"},
        {"kind": "time_up", "seat": 0, "cards": 4},
        {"kind": "cubes", "from_card": 0, "to_card": None, "cubes": 2, "why": "destroyed"},
        {"kind": "cubes", "from_card": 0, "to_card": 1, "cubes": 2, "why": "final_blow"},
        {"kind": "cubes", "from_card": 0, "to_card": None, "cubes": 1, "why": "own"},
        {"kind": "regenerated", "card": 1, "removed": 1},
        # the alarm's frozen card: only the server's clock sends the reported hold
        {"kind": "frozen", "seat": 0, "x": 300, "y": 220, "angle": 45},
    ],
    "expedition": [
        # collecting with the ship (not only at round end) comes late in a random game
        {"kind": "collected", "seat": 0, "rm": 3, "crystal": 1},
        {"kind": "secret_expedition", "seat": 1, "tier": "gold"},
        {"kind": "artifact", "seat": 0, "artifact": "artifact_forge"},
        {"kind": "prevented", "seat": 0, "harm": "injury"},
        {"kind": "stolen", "seat": 0, "by": 1, "rm": 2},
        {"kind": "drone_drain", "rm": 2, "crystal": 0},
        {"kind": "hazard_roll", "seat": 0, "tile": "hazard_plague_moon", "roll": 6},
    ],
}


def _options(gid: str) -> list[dict[str, Any]]:
    return game_class(gid).conformance_configs()


def _is_fallback(game: Game, event: dict[str, Any], state: State | None) -> bool:
    names = NAMES[: game.players]
    return game.describe_event(event, names, state) == Game.describe_event(
        game, event, names, state
    )


def _check(game: Game, event: dict[str, Any], state: State | None, where: str) -> str:
    text = game.describe_event(event, NAMES[: game.players], state)
    assert isinstance(text, str) and text.strip(), f"{where}: no sentence for {event}"
    assert not ID.search(text), f"{where}: an id or raw data in {text!r} (from {event})"
    assert not _is_fallback(game, event, state), f"{where}: no sentence of its own: {text!r}"
    return text


def _kinds_in_source(gid: str) -> set[str]:
    """Event kinds a game's code writes literally (Event("kind", ...) and the like)."""
    folder = Path(skydeck.__file__).parent / "games" / gid
    found: set[str] = set()
    for path in folder.glob("*.py"):
        found |= set(_KIND.findall(path.read_text(encoding="utf-8")))
    return found


_KIND = re.compile(r"\b(?:Event|private|public_events)\(\s*\"([a-z_]+)\"")


@pytest.mark.parametrize("gid", GAMES)
def test_every_event_of_random_matches_reads_as_a_sentence(gid: str) -> None:
    """Random matches of every declared set-up (all options), every seat's and the
    spectator's version of each event; legal moves' labels too. Every kind the game's
    code can write is met here or among the rare samples (a new kind needs words)."""
    kinds: set[str] = set()
    for options in _options(gid):
        game = skydeck.load(gid, **options)
        for seed in range(SEEDS):
            state = game.new(seed)
            rng = Rng(seed + 17)
            for step in range(STEPS):
                if state.is_over:
                    break
                seat = rng.choice(state.to_move)
                legal = state.legal_actions(seat)
                for a in legal[:40]:
                    label = game.describe(a)
                    assert not ID.search(label), f"{options} seed {seed}: label {label!r}"
                events = state.apply(rng.choice(legal), seat)
                for e in events:
                    kinds.add(e.kind)
                    for viewer in (None, *range(game.players)):
                        shown = e.for_seat(viewer)
                        if shown is not None:
                            _check(game, shown, state, f"{options} seed {seed} step {step}")
    assert kinds, "no events at all"
    rare = {e["kind"] for e in RARE[gid]}
    unmet = _kinds_in_source(gid) - kinds - rare
    assert not unmet, f"{gid}: event kinds never described here: {sorted(unmet)}"


@pytest.mark.parametrize("gid", GAMES)
def test_rare_events_read_as_sentences(gid: str) -> None:
    game = skydeck.load(gid, **_options(gid)[-1])
    state = game.new(0)
    if gid == "conflict":  # a table with two ships, so card numbers have names
        rng = Rng(5)
        while state.view(None)["phase"] != "battle" and not state.is_over:
            seat = rng.choice(state.to_move)
            state.apply(rng.choice(state.legal_actions(seat)), seat)
    for event in RARE[gid]:
        _check(game, event, state, "rare")


def test_the_generic_sentence_is_plain_words() -> None:
    """The fallback for an event a game does not name: its kind and plain values."""
    game = skydeck.load("stellium", players=2)
    text = Game.describe_event(game, {"kind": "odd_thing", "seat": 1, "n": 3, "xs": [1]}, NAMES)
    assert text == "Player 2: odd thing (n 3)"


def test_a_sentence_tells_no_more_than_the_event_filter() -> None:
    """Hidden picks and draws: the others' sentence names no card."""
    game = skydeck.load("expedition", players=2)
    state = game.new(3)
    while not any(a.kind == "draft" for a in state.legal_actions(state.to_move[0])):
        state.apply(state.legal_actions(state.to_move[0])[0], state.to_move[0])  # set-up
    seat = state.to_move[0]
    act = next(a for a in state.legal_actions(seat) if a.kind == "draft")
    (head, *_) = state.apply(act, seat)
    mine = game.describe_event(head.for_seat(seat), NAMES[:2], state)
    theirs = game.describe_event(head.for_seat(1 - seat), NAMES[:2], state)
    exp_name = game.content.expeditions[game.content.expedition_index[str(act.args[0])]].name
    assert exp_name in mine and exp_name not in theirs
    assert theirs == f"Player {seat + 1} made a secret choice"

    game = skydeck.load("conflict", players=2)
    state = game.new(1)
    rng = Rng(2)
    while True:
        seat = rng.choice(state.to_move)
        events = state.apply(rng.choice(state.legal_actions(seat)), seat)
        drew = [e for e in events if e.kind == "drew"]
        if drew:
            break
    e = drew[0]
    owner = e.data["seat"]
    ship = game.content.ships[game.content.by_id[e.data["ship"]]].name
    assert ship in game.describe_event(e.for_seat(owner), NAMES[:2], state)
    other = game.describe_event(e.for_seat(1 - owner), NAMES[:2], state)
    assert ship not in other and other.startswith(f"Player {owner + 1} draws a card")


def test_expedition_moves_name_their_cards() -> None:
    """'play Ensign Okoro (L1: Pilot)', not 'play ensign_okoro'; 'keep Expedition Lost
    Survey (Bronze · 1 point)', not 'draft bronze_01'."""
    game = skydeck.load("expedition", players=2)
    assert game.describe(game.parse_action("play ensign_okoro")) == "play Ensign Okoro (L1: Pilot)"
    assert game.describe(game.parse_action("draft bronze_01")).startswith(
        "keep Expedition Lost Survey (Bronze"
    )
    assert game.describe(game.parse_action("buy upgrade_01")) == "buy Command Bridge for 2 RM"


def test_skydeck_replay_prints_the_same_sentences(tmp_path, capsys) -> None:
    """`skydeck replay` names the movers Player 1..N and prints describe_event's words."""
    from skydeck.cli import main
    from skydeck.core.record import Match

    game = skydeck.load("conflict", players=2, scale="dispute")
    match = Match(game, 3, ["a", "b"])
    rng = Rng(1)
    while not match.state.is_over:
        seat = rng.choice(match.state.to_move)
        match.play(seat, rng.choice(match.state.legal_actions(seat)), 0.0)
    path = tmp_path / "rec.json"
    match.record.save(str(path))
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    out = " ".join(capsys.readouterr().out.split())  # rich wraps long lines
    assert "Player 1 is ready" in out and "The battle is over" in out
    state = game.new(3)
    for entry, events in zip(match.record.entries, match.events):
        state.apply(entry.action, entry.seat)
        for e in events:
            shown = e.for_seat(None)
            if shown is not None:
                text = " ".join(game.describe_event(shown, NAMES[:2], state).split())
                assert text in out, text
    assert not ID.search(out.split("scores:")[0]), "an id in the replay"


def test_stellarion_sentences_name_decks_and_faces() -> None:
    game = skydeck.load("stellarion", players=1)
    say = lambda e: game.describe_event(e, NAMES[:1])  # noqa: E731
    assert say({"kind": "revealed", "deck": "beta", "card": "beta.nebula"}) == (
        "The Beta deck turns up Beta Nebula"
    )
    assert say({"kind": "action", "seat": 0, "action": "search alpha alpha.planet"}) == (
        "Player 1 searches the Alpha deck for Alpha Planet"
    )
