"""The server's and the bench's fast paths give exactly what the plain ones give:
legal-action pieces found by object id, view patches with shared parts, the bench bots'
partial reading of a state update."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from skydeck.core import Action
from skydeck.registry import game_class, game_ids
from skydeck.server.bench import pick_legal, read_head
from skydeck.server.hub import Hub
from skydeck.server.room import LOG_CACHE_LINES, LOG_CACHE_MAX, MAX_PIECES, Client, Pieces, Room
from skydeck.server.storage import Storage
from tests.server.conftest import games, list_games


def _messages(db_url: str, game: str, matches: int, seed: int = 0) -> list[tuple[int, str]]:
    """(seat, text) of every state update two patch-taking clients got while random
    moves were played (no event loop: each move is committed and broadcast at once)."""
    hub = Hub(Storage(db_url), games=games, list_games=list_games, ai_delay=0)
    rng = random.Random(seed)
    out: list[tuple[int, str]] = []
    for k in range(matches):
        spec = {"game": game, "seed": seed + k, "seats": [{"kind": "human"}] * 2}
        room, _ = hub.create(spec)
        boxes: list[list[str]] = [[], []]
        for seat in (0, 1):
            client = Client(frozenset({seat}), patches=True)
            client.send_now = lambda text, box=boxes[seat]: box.append(text) is None
            room.clients.add(client)
            boxes[seat].append(room.state_text(client))
        for _ in range(400):
            if room.status != "live":
                break
            seat = room.match.state.to_move[0]
            hub.act(room, seat, rng.choice(room.match.state.legal_actions(seat)), room.n)
        out.extend((seat, text) for seat in (0, 1) for text in boxes[seat])
    return out


@pytest.mark.parametrize("game", ["toy", *[g for g in ("stellium",) if g in game_ids()]])
def test_the_bench_reads_the_head_and_one_legal_action_as_a_full_decode_would(db_url, game):
    rng = random.Random(3)
    seen_actions = 0
    for seat, text in _messages(db_url, game, 3):
        full = json.loads(text)
        head = read_head(text)
        for key in ("type", "n", "status", "to_move"):
            assert head[key] == full[key]
        legal = [a["action"] for a in full["legal"][str(seat)]["actions"]]
        for _ in range(3):
            chosen = pick_legal(text, seat, rng)
            if legal:
                assert chosen in legal
                seen_actions += 1
            else:
                assert chosen is None
    assert seen_actions > 50


def test_the_bench_picks_every_legal_action_in_turn():
    # Labels holding quotes, braces and the marker text itself cannot fool the count (an
    # action's own JSON holds no object: core actions are a kind and nested lists).
    actions = [
        {"label": 'say "{\\"label\\":" here', "action": {"kind": "a", "args": [1]}},
        {"label": "b", "action": {"kind": "b", "args": [["x", [2, "y"]], "{"]}},
        {"label": "c", "action": {"kind": "c", "args": []}},
    ]
    msg = {"type": "state", "n": 4, "status": "live", "to_move": [1], "now": 1.0}
    text = json.dumps(msg, separators=(",", ":"))[:-1]
    text += ',"legal":{"1":' + json.dumps({"actions": actions, "truncated": False}) + "}}"
    text = text.replace(", ", ",").replace(": ", ":")
    assert json.loads(text)["legal"]["1"]["actions"] == actions
    rng = random.Random(0)
    picked = {json.dumps(pick_legal(text, 1, rng)) for _ in range(200)}
    assert picked == {json.dumps(a["action"]) for a in actions}
    assert read_head(text) == {"type": "state", "n": 4, "status": "live", "to_move": [1]}
    assert read_head('{"type":"error","code":"stale"}')["code"] == "stale"


class _Describing:
    """The two Game methods a Pieces table uses."""

    def __init__(self) -> None:
        self.described = 0

    def describe(self, action: Action) -> str:
        self.described += 1
        return f"do {action}"


def test_pieces_found_by_id_or_by_value_are_the_same_text():
    game = _Describing()
    pieces = Pieces()
    shared = Action("place", ("a1", "n"))
    first = pieces.encode(game, [shared, Action("pass")])  # type: ignore[arg-type]
    again = pieces.encode(game, [shared, Action("pass")])  # a fresh equal object: by value
    assert first == again and game.described == 2
    assert json.loads(first[0]) == {"label": "do place a1 n", "action": shared.to_json()}
    assert id(shared) in pieces.by_id and len(pieces.by_id) == 2


def test_a_full_pieces_table_starts_again(monkeypatch):
    monkeypatch.setattr("skydeck.server.room.MAX_PIECES", 3)
    game = _Describing()
    pieces = Pieces()
    acts = [Action("mark", (i,)) for i in range(5)]
    texts = pieces.encode(game, acts)  # type: ignore[arg-type]
    assert [json.loads(t)["action"]["args"] for t in texts] == [[i] for i in range(5)]
    assert len(pieces.by_value) <= 3 and len(pieces.by_id) <= 3
    # Every id key's object is kept alive (so no other object can take its id).
    assert sorted(map(id, pieces.kept)) == sorted(pieces.by_id)
    assert MAX_PIECES > 3


def test_a_patch_skips_shared_parts_and_still_sees_every_change():
    client = Client(frozenset({0}), patches=True)
    fixed: dict[str, Any] = {"spaces": ["a1", "b1"]}
    assert client.view_update("0", {"universe": fixed, "board": {"a1": 1}, "x": 1})[0] == "full"
    how, patch = client.view_update("0", {"universe": fixed, "board": {"a1": 1}, "y": 2})
    assert how == "patch" and patch == {"set": {"y": 2}, "del": ["x"]}
    how, patch = client.view_update("0", {"universe": fixed, "board": {"a1": 2}, "y": 2})
    assert patch == {"set": {"board": {"a1": 2}}, "del": []}
    # An equal value in a new object is not resent; a changed one always is.
    how, patch = client.view_update("0", {"universe": dict(fixed), "board": {"a1": 2}, "y": 2})
    assert patch == {"set": {}, "del": []}


def test_patches_rebuild_every_view_exactly(db_url):
    game = "stellium" if "stellium" in game_ids() else "toy"
    hub = Hub(Storage(db_url), games=games, list_games=list_games, ai_delay=0)
    room, _ = hub.create({"game": game, "seed": 9, "seats": [{"kind": "human"}] * 2})
    client = Client(frozenset({0}), patches=True)
    known: dict[str, Any] = {}
    rng = random.Random(9)
    for _ in range(150):
        msg = json.loads(room.state_text(client))
        if "0" in msg["views"]:
            known = msg["views"]["0"]
        else:
            patch = msg["view_patches"]["0"]
            known = {**known, **patch["set"]}
            for k in patch["del"]:
                del known[k]
        assert json.dumps(known, sort_keys=True) == json.dumps(
            json.loads(json.dumps(room.match.state.view(0))), sort_keys=True
        )
        if room.status != "live":
            break
        seat = room.match.state.to_move[0]
        hub.act(room, seat, rng.choice(room.match.state.legal_actions(seat)), room.n)
    assert isinstance(room, Room) and game_class(game)


def _play_out(hub: Hub, room: Room, seed: int) -> None:
    rng = random.Random(seed)
    while room.status == "live":
        seat = room.match.state.to_move[0]
        hub.act(room, seat, rng.choice(room.match.state.legal_actions(seat)), room.n)


def test_a_finished_match_nobody_watches_leaves_memory_and_comes_back_from_storage(db_url):
    hub = Hub(Storage(db_url), games=games, list_games=list_games, ai_delay=0)
    room, _ = hub.create({"game": "toy", "seed": 2, "seats": [{"kind": "human"}] * 2})
    idle, _ = hub.create({"game": "toy", "seed": 3, "seats": [{"kind": "human"}] * 2})
    watcher = Client(frozenset({0, 1}), patches=True)
    watcher.send_now = lambda text: True
    hub.attach(room, watcher)
    _play_out(hub, room, 2)
    assert room.id in hub.rooms  # somebody still looks at it
    hub.detach(room, watcher)
    assert room.id not in hub.rooms and idle.id in hub.rooms  # a live match stays
    again = hub.room(room.id)
    assert again is not None and again is not room
    assert (again.status, again.n) == ("over", room.n)
    assert json.dumps(again.match.state.to_json()) == json.dumps(room.match.state.to_json())


def test_reading_many_finished_matches_keeps_only_the_last_few_in_memory(db_url, monkeypatch):
    """Records and replays of old matches rebuild their rooms; only the last
    FINISHED_KEPT stay (the 10-minute soak grew the server 469 -> 955 MB reading 2,767
    finished records when every rebuilt room stayed)."""
    monkeypatch.setattr("skydeck.server.hub.FINISHED_KEPT", 3)
    hub = Hub(Storage(db_url), games=games, list_games=list_games, ai_delay=0)
    ended = []
    for seed in range(6):
        room, _ = hub.create({"game": "toy", "seed": seed, "seats": [{"kind": "human"}] * 2})
        _play_out(hub, room, seed)
        ended.append((room.id, room.n))
    assert not hub.rooms
    for match_id, n in ended:
        again = hub.room(match_id)
        assert again is not None and (again.status, again.n) == ("over", n)
        assert hub.room(match_id) is again  # read twice in a row: rebuilt once
    assert not hub.rooms and list(hub._finished) == [m for m, _ in ended[-3:]]


def test_a_match_that_ends_with_nobody_connected_is_unloaded_after_its_commit(db_url):
    hub = Hub(Storage(db_url), games=games, list_games=list_games, ai_delay=0)
    room, _ = hub.create({"game": "toy", "seed": 4, "seats": [{"kind": "human"}] * 2})
    _play_out(hub, room, 4)
    assert room.id not in hub.rooms
    assert hub.storage.load(room.id).status == "over"  # type: ignore[union-attr]


def test_quiet_gc_freezes_what_start_up_left_and_raises_the_young_threshold():
    import gc

    from skydeck.server.app import GC_YOUNG_THRESHOLD, quiet_gc

    before = gc.get_threshold()
    try:
        quiet_gc()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (GC_YOUNG_THRESHOLD, before[1], before[2])
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_joining_another_match_leaves_the_batch_to_its_own_commit(db_url):
    import asyncio

    hub = Hub(Storage(db_url), games=games, list_games=list_games, ai_delay=0)
    busy, _ = hub.create({"game": "toy", "seed": 6, "seats": [{"kind": "human"}] * 2})
    other, _ = hub.create({"game": "toy", "seed": 7, "seats": [{"kind": "human"}] * 2})
    seen: list[int] = []

    async def scenario() -> None:
        await hub.start()
        seat = busy.match.state.to_move[0]
        hub.act(busy, seat, busy.match.state.legal_actions(seat)[0], 0)
        hub.attach(other, Client(frozenset()))  # a spectator of another match
        seen.append(hub.storage.action_count(busy.id))  # still waiting for the batch
        hub.attach(busy, Client(frozenset()))  # one of this match: committed first
        seen.append(hub.storage.action_count(busy.id))

    asyncio.run(scenario())
    assert seen == [0, 1]


class _Wire:
    """A transport stand-in that keeps what the bot writes."""

    def __init__(self) -> None:
        self.out: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.out.append(data)

    def take(self) -> bytes:
        data, self.out = b"".join(self.out), []
        return data


def test_the_bench_bot_speaks_websocket_and_answers_its_turn_even_in_fragments():
    import asyncio

    from websockets.frames import Frame, Opcode
    from websockets.server import ServerProtocol

    from skydeck.server.bench import Stats, _Bot

    async def scenario() -> tuple[Stats, list[dict[str, Any]], asyncio.Future[None]]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        stats = Stats()
        match = {"id": "m1", "tokens": ["t0", "t1"]}
        bot = _Bot("ws://127.0.0.1:9/ws/matches/m1", match, 1, stats, random.Random(1), True, done)
        wire = _Wire()
        bot.connection_made(wire)  # type: ignore[arg-type]
        server = ServerProtocol()
        server.receive_data(wire.take())
        server.send_response(server.accept(server.events_received()[0]))
        got: list[dict[str, Any]] = []
        closes: list[Opcode] = []

        def deliver() -> None:
            bot.data_received(b"".join(server.data_to_send()))
            server.receive_data(wire.take())
            for e in server.events_received():
                if e.opcode is Opcode.TEXT:
                    got.append(json.loads(e.data))
                else:
                    closes.append(e.opcode)

        deliver()  # the handshake answer: the bot says hello
        piece = '{"label":"a","action":{"kind":"a","args":[]}}'
        legal = '{"1":{"actions":[' + piece + '],"truncated":false}}'
        text = '{"type":"state","n":3,"status":"live","to_move":[1],"now":0,"legal":' + legal + "}"
        half = len(text) // 2
        server.send_frame(Frame(Opcode.TEXT, text[:half].encode(), fin=False))
        server.send_frame(Frame(Opcode.CONT, text[half:].encode()))
        deliver()  # its turn, in two fragments: it acts
        over = '{"type":"state","n":4,"status":"over","to_move":[],"now":0,"legal":{}}'
        server.send_text(over.encode())
        deliver()  # the update holding its move, and the end: it closes
        assert closes == [Opcode.CLOSE]
        return stats, got, done

    stats, got, done = asyncio.run(scenario())
    assert got[0] == {"type": "hello", "tokens": ["t1"], "patches": 2}
    assert got[1] == {"type": "act", "seat": 1, "action": {"kind": "a", "args": []}, "n": 3}
    assert stats.moves == 1 and len(stats.latencies) == 1 and stats.errors == 0
    assert done.done() and done.exception() is None


def _patched(base: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """What the browser does with a patch (match.js ``patched``)."""
    out = {**base, **patch["set"]}
    for k in patch["del"]:
        del out[k]
    for k, inner in patch.get("sub", {}).items():
        out[k] = _patched(out.get(k) or {}, inner)
    return out


def test_a_nested_patch_sends_only_what_changed_inside_an_object():
    client = Client(frozenset({0}), patches=2)
    fixed: dict[str, Any] = {"spaces": ["a1", "b1"]}
    cards = {"c1": fixed, "c2": {"points": 2}}
    first = {"universe": fixed, "board": {"a1": 1}, "cards": cards, "x": 1}
    assert client.view_update("0", first)[0] == "full"
    nxt = {
        "universe": fixed,
        "board": {"a1": 1, "b1": 3},
        "cards": {"c2": {"points": 2}, "c3": {"points": 1}},
        "x": [1],
    }
    how, patch = client.view_update("0", nxt)
    assert how == "patch"
    assert patch == {
        "set": {"x": [1]},
        "del": [],
        "sub": {
            "board": {"set": {"b1": 3}, "del": []},
            "cards": {"set": {"c3": {"points": 1}}, "del": ["c1"]},
        },
    }
    assert _patched(first, patch) == nxt
    # Nothing changed inside: no "sub" entry at all.
    how, patch = client.view_update("0", {**nxt, "board": dict(nxt["board"])})
    assert patch == {"set": {}, "del": []}
    # An object that becomes something else is sent whole.
    how, patch = client.view_update("0", {**nxt, "board": None})
    assert patch == {"set": {"board": None}, "del": []}


# Every real game (the toy game's view hands out its state's own lists, which a
# kept previous view would then see change in place).
@pytest.mark.parametrize("game", game_ids())
def test_nested_patches_rebuild_every_view_exactly(db_url, game):
    hub = Hub(Storage(db_url), games=games, list_games=list_games, ai_delay=0)
    options = {"players": 2} if "players" in game_class(game)().options else {}
    spec = {"game": game, "seed": 9, "options": options, "seats": [{"kind": "human"}] * 2}
    room, _ = hub.create(spec)
    clients = [Client(frozenset({0}), patches=2), Client(frozenset(), patches=2)]
    known: list[dict[str, Any]] = [{}, {}]
    nested = 0
    rng = random.Random(9)
    for _ in range(150):
        for i, client in enumerate(clients):
            msg = json.loads(room.state_text(client))
            key, whole, part = ("0", "views", "view_patches") if i == 0 else ("", "", "")
            if i == 0:
                if key in msg[whole]:
                    known[0] = msg[whole][key]
                else:
                    nested += "sub" in msg[part][key]
                    known[0] = _patched(known[0], msg[part][key])
                want = room.match.state.view(0)
            else:
                known[1] = (
                    msg["public"] if "public" in msg else _patched(known[1], msg["public_patch"])
                )
                want = room.match.state.view(None)
            assert known[i] == json.loads(json.dumps(want))
        if room.status != "live":
            break
        seat = room.match.state.to_move[0]
        hub.act(room, seat, rng.choice(room.match.state.legal_actions(seat)), room.n)
    assert nested > 0


@pytest.mark.parametrize("game", game_ids())
def test_the_encoded_log_is_the_plain_log_for_every_kind_of_client(db_url, game):
    """``log_text`` shares encoded pieces between clients, and ``log_join`` whole lines
    where every client gets the same: each client still gets exactly its own log (labels
    of its own moves, or every move's where no choice is secret; events as its seats see
    them), before and after the end, and after the room is rebuilt (an undo)."""
    hub = Hub(Storage(db_url), games=games, list_games=list_games, ai_delay=0)
    options = {"players": 2} if "players" in game_class(game)().options else {}
    spec = {"game": game, "seed": 4, "options": options, "seats": [{"kind": "human"}] * 2}
    room, _ = hub.create(spec)
    rng = random.Random(4)
    everyone = [frozenset(), frozenset({0}), frozenset({1}), frozenset({0, 1})]

    def same() -> None:
        shared: dict[Any, Any] = {}  # as one broadcast's clients share it
        joined: dict[Any, Any] = {}  # ``log_join``'s lines, shared where they are the same
        for seats in everyone:
            for start, cache in ((0, None), (0, shared), (max(0, room.n - 2), shared)):
                want = json.loads(json.dumps(room.log_entries(seats, start)))
                text = "[" + ",".join(room.log_text(seats, start, cache)) + "]"
                assert json.loads(text) == want
                assert json.loads("[" + room.log_join(seats, start, joined) + "]") == want

    for k in range(300):
        if room.status != "live":
            break
        seat = room.match.state.to_move[0]
        hub.act(room, seat, rng.choice(room.match.state.legal_actions(seat)), room.n)
        if k % 7 == 0:
            same()
        # What a room keeps stays small however long the match (the soak's memory).
        assert len(room._log_events) <= LOG_CACHE_MAX + LOG_CACHE_LINES * 64
    room.status = "over"  # every label shows now
    same()
    room.reset_to(room.match.record.entries[:-3])  # as an undo rebuilds it
    room.status = "live"
    same()


def test_clients_in_step_share_one_diff_and_each_rebuilds_its_views(db_url, monkeypatch):
    import skydeck.server.room as room_module

    calls: list[int] = []
    depth = [0]
    real = room_module.diff_view

    def counted(prev: dict[str, Any], view: dict[str, Any], deep: bool) -> dict[str, Any]:
        calls.extend([1] if depth[0] == 0 else [])  # whole views, not the objects inside
        depth[0] += 1
        try:
            return real(prev, view, deep)
        finally:
            depth[0] -= 1

    monkeypatch.setattr(room_module, "diff_view", counted)
    game = "stellium" if "stellium" in game_ids() else "conflict"
    hub = Hub(Storage(db_url), games=games, list_games=list_games, ai_delay=0)
    room, _ = hub.create({"game": game, "seed": 3, "seats": [{"kind": "human"}] * 2})
    boxes: list[list[str]] = [[], [], []]
    watchers = [Client(frozenset(), patches=2), Client(frozenset(), patches=2)]
    player = Client(frozenset({0}), patches=2)
    for client, box in zip([*watchers, player], boxes, strict=True):
        client.send_now = lambda text, box=box: box.append(text) is None
        hub.attach(room, client)
        while not client.queue.empty():  # the welcome, then the first state (queued)
            first = client.queue.get_nowait()
            if isinstance(first, str):
                box.append(first)
    rng = random.Random(3)
    for k in range(20):
        calls.clear()
        seat = room.match.state.to_move[0]
        hub.act(room, seat, rng.choice(room.match.state.legal_actions(seat)), room.n)
        # One diff for the watchers together, one for the player (after the first
        # move: each watcher joined with a view of its own); in a game whose views are
        # public (Stellium) the player's seat view is that same view: one diff for all.
        assert k == 0 or len(calls) == (1 if room.public_views else 2)
    known: list[dict[str, Any]] = [{}, {}]
    for i in (0, 1):
        for text in boxes[i]:
            msg = json.loads(text)
            known[i] = msg["public"] if "public" in msg else _patched(known[i], msg["public_patch"])
        assert known[i] == json.loads(json.dumps(room.match.state.view(None)))
    mine: dict[str, Any] = {}
    for text in boxes[2]:
        msg = json.loads(text)
        if "0" in msg.get("views", {}):
            mine = msg["views"]["0"]
        elif "0" in msg.get("view_patches", {}):
            mine = _patched(mine, msg["view_patches"]["0"])
    assert mine == json.loads(json.dumps(room.match.state.view(0)))  # its seat kept


def test_server_json_text_reads_back_as_the_standard_encoders():
    """``messages.dumps`` (orjson) writes what ``json`` would mean: integer keys as
    strings, tuples as lists, text outside ASCII kept; an integer beyond 64 bits goes
    through ``json`` rather than failing."""
    from skydeck.server.messages import dumps

    sample = {"a": [1, 2.5, None, True], 3: "é—x", "t": (1, "b"), "n": {"k": -7}}
    assert json.loads(dumps(sample)) == json.loads(json.dumps(sample))
    assert dumps({"x": 1}) == '{"x":1}'
    big = {"seed": 1 << 70}
    assert json.loads(dumps(big)) == big


@pytest.mark.parametrize(
    "text",
    [
        '{"type":"act","n":3,"seat":0,"action":{"kind":"place","args":["c3",[1,2]]}}',
        '{"a":NaN,"b":-Infinity}',  # json reads these; orjson refuses, so json does
        '"\\ud800"',  # a lone surrogate: the same
        '{"a":1,"a":2}',
        '  {"a":"\\u0000é"}  ',
        "[1,]",
        '{"a":1} x',
        "",
        "\ufeff{}",
    ],
)
def test_messages_read_as_json_reads_them_and_refuse_with_its_words(text):
    """``messages.loads`` (orjson first) accepts what ``json.loads`` accepts, as the
    same data, and refuses the rest with ``json``'s own message."""
    from skydeck.server.messages import loads

    try:
        expected: object = json.loads(text)
    except ValueError as exc:
        with pytest.raises(ValueError) as got:
            loads(text)
        assert str(got.value) == str(exc)
        return
    assert repr(loads(text)) == repr(expected)  # repr: NaN is not equal to itself


@pytest.mark.parametrize("game", ["toy", *[g for g in ("stellium",) if g in game_ids()]])
def test_the_whole_log_goes_again_at_the_end_only_where_labels_were_hidden(db_url, game):
    """Once a match is over every move may be named, so the whole log is sent again
    (``log_reset``), unless every seat saw every label as it happened
    (``Game.public_actions``: Stellium): then the lines already sent stand, and together
    they are the whole log as every seat may read it at the end."""
    hub = Hub(Storage(db_url), games=games, list_games=list_games, ai_delay=0)
    room, _ = hub.create({"game": game, "seed": 5, "seats": [{"kind": "human"}] * 2})
    boxes: list[list[str]] = [[], []]
    for seat in (0, 1):
        client = Client(frozenset({seat}), patches=2)
        client.send_now = lambda text, box=boxes[seat]: box.append(text) is None
        room.clients.add(client)
        boxes[seat].append(room.state_text(client))
    rng = random.Random(5)
    for _ in range(2000):
        if room.status != "live":
            break
        seat = room.match.state.to_move[0]
        hub.act(room, seat, rng.choice(room.match.state.legal_actions(seat)), room.n)
    assert room.status == "over"
    public = type(room.game).public_actions
    for seat in (0, 1):
        msgs = [json.loads(t) for t in boxes[seat]]
        assert msgs[-1]["status"] == "over"
        assert bool(msgs[-1].get("log_reset")) is not public
        if public:
            sent = [line for m in msgs for line in m["log"]]
            want = room.log_entries(frozenset({seat}), 0)
            assert sent == json.loads(json.dumps(want))
