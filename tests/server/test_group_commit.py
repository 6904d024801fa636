"""Group commit: the moves of one turn of the event loop are stored in one transaction,
and none is acknowledged before that transaction is committed; a failed commit puts
every room of the batch back and tells every mover."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from skydeck.server.hub import Hub
from skydeck.server.messages import ProtocolError
from skydeck.server.room import Client, Room
from skydeck.server.storage import ClockWrite, Deadline, PendingWrite, Storage, StoredMatch
from tests.server.conftest import games, list_games


def _write(mid: str, idx: int, seat: int = 0, **kw: Any) -> PendingWrite:
    return PendingWrite(
        mid,
        idx,
        seat,
        {"kind": "mark", "args": [idx]},
        float(idx),
        kw.get("status", "live"),
        kw.get("deadlines"),
        kw.get("status_changed", False),
    )


def _hub(db_url: str, **kw: Any) -> Hub:
    return Hub(Storage(db_url), games=games, list_games=list_games, ai_delay=0, **kw)


def _new(hub: Hub, seed: int) -> Room:
    spec = {"game": "toy", "seed": seed, "seats": [{"kind": "human"}, {"kind": "human"}]}
    room, _ = hub.create(spec)
    return room


def test_one_batch_stores_several_matches_with_their_last_clocks(db_url):
    hub = _hub(db_url)
    a, b = _new(hub, 1), _new(hub, 2)
    clock = Deadline("move:1:1", 1, 99.0, None)
    hub.storage.append_actions(
        [
            _write(a.id, 0, deadlines=[Deadline("move:0:0", 0, 5.0, None)]),
            _write(b.id, 0),
            _write(a.id, 1, seat=1, deadlines=[clock]),
            _write(b.id, 1, status="over", status_changed=True, deadlines=[]),
        ]
    )
    sa, sb = hub.storage.load(a.id), hub.storage.load(b.id)
    assert sa is not None and sb is not None
    assert [x[0] for x in sa.actions] == [0, 1] and sa.deadlines == [clock]
    assert len(sb.actions) == 2 and sb.status == "over" and sb.deadlines == []


def test_a_batch_is_stored_whole_or_not_at_all(db_url):
    hub = _hub(db_url)
    a, b = _new(hub, 1), _new(hub, 2)
    hub.storage.append_actions([_write(a.id, 0)])
    with pytest.raises(IntegrityError):
        # b's move is fine, a's #0 is already there: neither may be stored.
        hub.storage.append_actions([_write(b.id, 0), _write(a.id, 0)])
    assert hub.storage.action_count(a.id) == 1
    assert hub.storage.action_count(b.id) == 0


async def _committed(hub: Hub) -> None:
    """Wait until no move waits for its commit (they run in the hub's writer thread)."""
    for _ in range(2000):
        if hub._inflight is None and hub._batch.empty():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("the group commit never finished")


def _first_legal(room: Room) -> tuple[int, dict[str, Any]]:
    seat = room.match.state.to_move[0]
    return seat, room.match.state.legal_actions(seat)[0].to_json()


def _drain(client: Client) -> list[Any]:
    out = []
    while not client.queue.empty():
        m = client.queue.get_nowait()
        out.append(json.loads(m) if isinstance(m, str) else m)
    return out


def test_moves_of_one_loop_turn_share_one_commit_and_are_acknowledged_after_it(db_url):
    hub = _hub(db_url)
    batches: list[list[PendingWrite]] = []
    real = hub.storage.append_actions

    def spy(moves: list[PendingWrite]) -> None:
        # Nobody has been told about these moves yet.
        assert all(m["type"] != "state" for c in clients for m in _drain(c))
        batches.append(list(moves))
        real(moves)

    hub.storage.append_actions = spy  # type: ignore[method-assign]

    async def scenario() -> None:
        await hub.start()
        for room, client in zip(rooms, clients, strict=True):
            hub.attach(room, client)
            _drain(client)
        for room in rooms:
            seat, action = _first_legal(room)
            hub.act(room, seat, action, 0)
        assert batches == []  # applied in memory, not yet committed nor acknowledged
        await _committed(hub)  # the group commit runs after this turn of the loop

    rooms = [_new(hub, 1), _new(hub, 2), _new(hub, 3)]
    clients = [Client(frozenset({0, 1})) for _ in rooms]
    asyncio.run(scenario())
    assert len(batches) == 1 and sorted(w.match_id for w in batches[0]) == sorted(
        r.id for r in rooms
    )
    for room, client in zip(rooms, clients, strict=True):
        assert hub.storage.action_count(room.id) == 1
        states = [m for m in _drain(client) if m["type"] == "state"]
        assert [m["n"] for m in states] == [1]


def test_a_failed_group_commit_puts_every_room_back_and_tells_every_mover(db_url):
    hub = _hub(db_url)
    errors: list[tuple[str, str]] = []

    def broken(moves: list[PendingWrite]) -> None:
        raise OSError("disk full")

    hub.storage.append_actions = broken  # type: ignore[method-assign]
    rooms = [_new(hub, 1), _new(hub, 2)]
    before = [json.dumps(r.match.state.to_json()) for r in rooms]
    clients = [Client(frozenset({0, 1})) for _ in rooms]

    async def scenario() -> None:
        await hub.start()
        for room, client in zip(rooms, clients, strict=True):
            hub.attach(room, client)
            _drain(client)
            seat, action = _first_legal(room)
            hub.act(room, seat, action, 0, on_error=lambda e, r=room: errors.append((r.id, e.code)))
            seat, action = _first_legal(room)  # a second move of the same room, same batch
            hub.act(room, seat, action, 1, on_error=lambda e, r=room: errors.append((r.id, e.code)))
        await _committed(hub)

    asyncio.run(scenario())
    assert sorted(errors) == sorted([(r.id, "storage") for r in rooms for _ in range(2)])
    for room, client, was in zip(rooms, clients, before, strict=True):
        assert room.n == 0 and room.undoable is None
        assert json.dumps(room.match.state.to_json()) == was
        assert all(m["type"] != "state" for m in _drain(client))


def test_without_an_event_loop_a_move_is_committed_at_once(db_url):
    hub = _hub(db_url)
    room = _new(hub, 4)
    seat, action = _first_legal(room)
    hub.act(room, seat, action, 0)
    assert hub.storage.action_count(room.id) == 1


class _SlowSocket:
    """A WebSocket stand-in whose send waits while ``gate`` is an unfinished future."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.gate: asyncio.Future[None] | None = None

    async def send_text(self, text: str) -> None:
        if self.gate is not None:
            await self.gate
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.sent.append(f"closed {code}")


def test_direct_sends_keep_their_order_when_a_send_has_to_wait():
    from skydeck.server.routes.websocket import _sender, _write

    async def scenario() -> list[str]:
        ws = _SlowSocket()
        client = Client(frozenset({0}))
        client.send_now = _sender(ws, client)  # type: ignore[arg-type]
        writer = asyncio.create_task(_write(ws, client))  # type: ignore[arg-type]
        client.send("a")
        assert ws.sent == ["a"] and client.queue.empty()  # sent at once, no task switch
        ws.gate = asyncio.get_running_loop().create_future()
        client.send("b")  # its send has to wait: a task finishes it
        client.send("c")  # and nothing may overtake it
        client.send({"type": "pong"})
        await asyncio.sleep(0)
        assert ws.sent == ["a"] and client.inflight is not None
        ws.gate.set_result(None)
        ws.gate = None
        for _ in range(10):
            await asyncio.sleep(0)
        client.send(None)
        await writer
        return ws.sent

    assert asyncio.run(scenario()) == ["a", "b", "c", '{"type":"pong"}', "closed 1013"]


def test_a_client_joining_before_the_group_commit_sees_only_committed_moves(db_url):
    hub = _hub(db_url)
    room = _new(hub, 5)
    late = Client(frozenset())

    async def scenario() -> None:
        await hub.start()
        seat, action = _first_legal(room)
        hub.act(room, seat, action, 0)
        assert hub.storage.action_count(room.id) == 0  # not yet committed
        hub.attach(room, late)  # a spectator arrives in the same turn of the loop
        assert hub.storage.action_count(room.id) == 1  # the join committed it first

    asyncio.run(scenario())
    states = [m for m in _drain(late) if m["type"] == "state"]
    assert states[0]["n"] == 1


def test_a_room_whose_log_moved_on_elsewhere_is_dropped_and_its_clients_closed(db_url):
    """Two workers holding one match (one took it over while the other was cut off):
    the action log's key refuses the second move of the same number, and the stale
    room leaves memory so its clients reconnect to the owner."""
    owner, stale = _hub(db_url), _hub(db_url)
    room = _new(owner, 5)
    old_room = stale.room(room.id)
    assert old_room is not None
    watcher = Client(frozenset({0, 1}))
    old_room.clients.add(watcher)
    seat, action = _first_legal(room)
    owner.act(room, seat, action, 0)  # the owner moves first and commits
    seat, action = _first_legal(old_room)
    with pytest.raises(ProtocolError) as refused:
        stale.act(old_room, seat, action, 0)
    assert refused.value.code == "storage"
    assert room.id not in stale.rooms and not old_room.clients
    assert watcher.queue.get_nowait() is None  # closed: it reconnects
    assert stale.storage.action_count(room.id) == 1
    again = stale.room(room.id)  # rebuilt from the log, the owner's move included
    assert again is not None and again.n == 1


async def _move_during_a_held_commit(hub: Hub, rooms: list[Room], commits: list[Any]) -> None:
    """rooms[0] moves and its commit starts and is held in the writer; the loop is free
    meanwhile, and the other rooms move, into the next batch."""
    seat, action = _first_legal(rooms[0])
    hub.act(rooms[0], seat, action, 0)
    for _ in range(2000):  # at most 10 s, on a slow machine
        await asyncio.sleep(0.005)
        if commits:
            break
    for room in rooms[1:]:
        seat, action = _first_legal(room)
        hub.act(room, seat, action, 0)


def test_the_commit_runs_in_the_writer_thread_and_acknowledgements_still_follow_it(db_url):
    """While one commit is held in the writer thread, the loop goes on: moves of other
    matches are applied and wait, together, for the next commit; nobody is told of any
    move before the commit that holds it has returned."""
    hub = _hub(db_url)
    real = hub.storage.append_actions
    gate = threading.Event()
    commits: list[tuple[int, list[str]]] = []
    seen_during: list[list[str]] = []

    def held(moves: list[PendingWrite]) -> None:
        commits.append((threading.get_ident(), [w.match_id for w in moves]))
        if len(commits) == 1:
            assert gate.wait(10)
        real(moves)

    hub.storage.append_actions = held  # type: ignore[method-assign]
    rooms = [_new(hub, 1), _new(hub, 2), _new(hub, 3)]
    clients = [Client(frozenset({0, 1})) for _ in rooms]

    async def scenario() -> None:
        await hub.start()
        for room, client in zip(rooms, clients, strict=True):
            hub.attach(room, client)
            _drain(client)
        await _move_during_a_held_commit(hub, rooms, commits)
        for _ in range(5):
            await asyncio.sleep(0.005)
        seen_during.extend([m["type"] for m in _drain(c)] for c in clients)
        assert len(commits) == 1  # one commit in flight at a time
        assert [hub.storage.action_count(r.id) for r in rooms] == [0, 0, 0]
        gate.set()
        await _committed(hub)

    asyncio.run(scenario())
    assert seen_during == [[], [], []]  # nobody told before the commit
    assert [c[1] for c in commits] == [[rooms[0].id], [rooms[1].id, rooms[2].id]]
    assert all(ident != threading.get_ident() for ident, _ in commits)  # not the loop's
    for room, client in zip(rooms, clients, strict=True):
        assert hub.storage.action_count(room.id) == 1
        assert [m["n"] for m in _drain(client) if m["type"] == "state"] == [1]


def test_a_move_applied_while_its_room_is_committing_is_told_after_its_own_commit(db_url):
    """A second move of a room whose first move is in the writer thread: the first
    commit's acknowledgement must not show it (it is not stored yet); the room is told
    once the second commit has returned."""
    hub = _hub(db_url)
    real = hub.storage.append_actions
    gate = threading.Event()
    sent: list[str] = []
    told_at_commit: list[list[int]] = []

    def held(moves: list[PendingWrite]) -> None:
        told_at_commit.append([json.loads(t)["n"] for t in list(sent) if '"state"' in t[:20]])
        if len(told_at_commit) == 1:
            assert gate.wait(10)
        real(moves)

    hub.storage.append_actions = held  # type: ignore[method-assign]
    room = _new(hub, 4)
    client = Client(frozenset({0, 1}))
    client.send_now = lambda text: sent.append(text) is None  # sent at once, kept

    async def scenario() -> None:
        await hub.start()
        hub.attach(room, client)
        _drain(client)  # the welcome (queued) and the first state
        sent.clear()
        seat, action = _first_legal(room)
        hub.act(room, seat, action, 0)
        for _ in range(100):
            await asyncio.sleep(0.005)
            if told_at_commit:
                break
        seat, action = _first_legal(room)
        hub.act(room, seat, action, 1)  # stands on the move being committed
        gate.set()
        await _committed(hub)

    asyncio.run(scenario())
    assert hub.storage.action_count(room.id) == 2
    # When the second commit began, the first had returned, yet nothing was told:
    # the room's state held the second move, not stored yet.
    assert told_at_commit == [[], []]
    assert [json.loads(t)["n"] for t in sent] == [2]


def test_a_failed_commit_in_flight_also_drops_the_moves_that_stood_on_it(db_url):
    hub = _hub(db_url)
    gate = threading.Event()
    calls: list[int] = []
    errors: list[str] = []
    real = hub.storage.append_actions

    def broken_first(moves: list[PendingWrite]) -> None:
        calls.append(len(moves))
        if len(calls) == 1:
            assert gate.wait(10)
            raise OSError("disk full")
        real(moves)

    hub.storage.append_actions = broken_first  # type: ignore[method-assign]
    room, other = _new(hub, 5), _new(hub, 6)
    was = json.dumps(room.match.state.to_json())

    async def scenario() -> None:
        await hub.start()
        seat, action = _first_legal(room)
        hub.act(room, seat, action, 0, on_error=lambda e: errors.append(e.code))
        for _ in range(100):
            await asyncio.sleep(0.005)
            if calls:
                break
        seat, action = _first_legal(room)
        hub.act(room, seat, action, 1, on_error=lambda e: errors.append(e.code))
        seat, action = _first_legal(other)
        hub.act(other, seat, action, 0, on_error=lambda e: errors.append("other " + e.code))
        gate.set()
        await _committed(hub)

    asyncio.run(scenario())
    assert errors == ["storage", "storage"]  # both moves of the room; not the other's
    assert room.n == 0 and json.dumps(room.match.state.to_json()) == was
    assert hub.storage.action_count(room.id) == 0
    assert other.n == 1 and hub.storage.action_count(other.id) == 1


def test_each_ai_move_is_told_before_the_next_one_is_made(db_url):
    """Two AI seats: the next AI move waits for the previous one's commit and its
    acknowledgement, so a watcher sees every move as its own update (Stellar Conflict's
    page plays each battle step)."""
    hub = _hub(db_url)
    real = hub.storage.append_actions

    def slow(moves: list[PendingWrite]) -> None:
        threading.Event().wait(0.02)  # a slow disk: the AIs think faster than it writes
        real(moves)

    hub.storage.append_actions = slow  # type: ignore[method-assign]
    watcher = Client(frozenset())
    seen: list[int] = []

    async def scenario() -> None:
        await hub.start()
        spec = {"game": "toy", "seed": 8, "seats": [{"kind": "ai"}, {"kind": "ai"}]}
        room, _ = hub.create(spec)
        hub.attach(room, watcher)
        for _ in range(400):
            await asyncio.sleep(0.01)
            seen.extend(m["n"] for m in _drain(watcher) if m["type"] == "state")
            if room.status != "live" and not room.ai_pending:
                break
        await _committed(hub)
        seen.extend(m["n"] for m in _drain(watcher) if m["type"] == "state")

    asyncio.run(scenario())
    assert len(seen) > 3 and seen == list(range(seen[0], seen[0] + len(seen)))


def test_a_committed_batch_is_freed_without_the_cycle_collector(db_url):
    """A batch (its moves, the rooms' snapshots, the movers' callbacks that hold their
    clients) must not wait for a full garbage collection: the soak's memory grew."""
    import gc
    import weakref

    hub = _hub(db_url)
    room = _new(hub, 7)
    refs: list[weakref.ref[Any]] = []

    async def scenario() -> None:
        await hub.start()
        for n in range(3):
            refs.append(weakref.ref(hub._batch))
            seat, action = _first_legal(room)
            hub.act(room, seat, action, n, on_error=lambda e: None)
            await _committed(hub)

    gc.disable()
    try:
        asyncio.run(scenario())
        assert [r() for r in refs] == [None, None, None]
    finally:
        gc.enable()


_TOY = {"game": "toy", "seats": [{"kind": "human"}, {"kind": "human"}]}


def _record_commits(hub: Hub) -> list[list[Any]]:
    """Every group commit's writes, in order, as the storage receives them."""
    batches: list[list[Any]] = []
    real = hub.storage.append_actions

    def spy(writes: list[Any]) -> None:
        batches.append(list(writes))
        real(writes)

    hub.storage.append_actions = spy  # type: ignore[method-assign]
    return batches


def test_a_match_created_while_others_play_is_stored_by_their_group_commit(db_url):
    """A new match takes no transaction of its own: it goes with the moves of the same
    turn of the loop, and its request is answered (the room opened) only after that
    commit has returned."""
    hub = _hub(db_url)
    batches = _record_commits(hub)
    playing = _new(hub, 1)
    created: list[Room] = []

    async def scenario() -> None:
        await hub.start()
        task = asyncio.ensure_future(hub.create_async({**_TOY, "seed": 2}))
        seat, action = _first_legal(playing)
        hub.act(playing, seat, action, 0)
        await asyncio.sleep(0)  # the request has run up to its wait for the commit
        assert not task.done()
        room, _ = await task
        created.append(room)
        await _committed(hub)

    asyncio.run(scenario())
    [room] = created
    assert len(batches) == 1
    kinds = sorted(type(w).__name__ for w in batches[0])
    assert kinds == ["PendingWrite", "StoredMatch"]
    assert [w.id for w in batches[0] if isinstance(w, StoredMatch)] == [room.id]
    assert hub.storage.load(room.id) is not None and hub.room(room.id) is room
    assert hub.storage.action_count(playing.id) == 1


def test_a_failed_group_commit_refuses_the_match_created_with_it(db_url):
    """The commit that was to store a new match failed: its request gets the error,
    nothing of it is stored and no room is opened; the mover of that batch is told."""
    hub = _hub(db_url)
    playing = _new(hub, 1)
    errors: list[str] = []
    outcome: list[BaseException] = []

    def broken(writes: list[Any]) -> None:
        raise IntegrityError("INSERT", {}, Exception("disk says no"))

    hub.storage.append_actions = broken  # type: ignore[method-assign]

    async def scenario() -> None:
        await hub.start()
        seat, action = _first_legal(playing)
        hub.act(playing, seat, action, 0, on_error=lambda e: errors.append(e.message))
        try:
            await hub.create_async({**_TOY, "seed": 2})
        except ProtocolError as exc:
            outcome.append(exc)
        await _committed(hub)

    rooms_before = set(hub.rooms)
    asyncio.run(scenario())
    [refusal] = outcome
    assert isinstance(refusal, ProtocolError) and refusal.code == "storage"
    assert refusal.message.startswith("the match could not be stored")
    assert "disk says no" in refusal.message
    assert set(hub.rooms) == rooms_before  # no room opened for it
    assert [m.id for m in hub.storage.recent()] == [playing.id]
    assert len(errors) == 1 and "disk says no" in errors[0]
    assert playing.n == 0 and hub.storage.action_count(playing.id) == 0


def test_a_clock_that_waited_for_its_seat_is_stored_by_the_next_group_commit(db_url):
    """A move clock waits (its grace period) while its seat is away; when the seat
    connects it starts, and the new deadline goes with the next group commit, after
    the moves that came before it and before those after it (the last one wins)."""
    hub = _hub(db_url)
    batches = _record_commits(hub)
    room, _ = hub.create({**_TOY, "seed": 3, "move_seconds": 30})
    [waiting] = hub.storage.load(room.id).deadlines  # type: ignore[union-attr]
    assert waiting.due - time.time() > 60  # 30 s and the grace period
    started: list[float] = []

    async def scenario() -> None:
        await hub.start()
        t = time.time()
        hub.attach(room, Client(frozenset({0, 1})))
        started.append(t)
        await _committed(hub)

    asyncio.run(scenario())
    assert len(batches) == 1 and [type(w) for w in batches[0]] == [ClockWrite]
    [clock] = hub.storage.load(room.id).deadlines  # type: ignore[union-attr]
    assert clock.key == waiting.key and 29 < clock.due - started[0] <= 31
    assert room.deadlines[clock.key] == clock


def test_clock_changes_keep_their_place_among_the_moves_of_a_batch(db_url):
    """``Batch.writes``: new matches first, then moves and clock changes in the order
    they came, so a match's stored clocks are the last ones set."""
    from skydeck.server.hub import Batch

    hub = _hub(db_url)
    a = _new(hub, 1)
    stored = hub.storage.load(a.id)
    assert stored is not None
    first, second = Deadline("move:0:0", 0, 5.0, None), Deadline("move:0:0", 0, 9.0, None)
    loop = asyncio.new_event_loop()
    try:
        batch = Batch()
        batch.moves.append((a, _write(a.id, 0, deadlines=[first]), None))
        batch.clocks.append((1, ClockWrite(a.id, [second])))
        batch.moves.append((a, _write(a.id, 1, seat=1), None))
        fresh = StoredMatch(**{**stored.__dict__, "id": "fresh", "deadlines": []})
        batch.created.append((fresh, loop.create_future()))
        writes = batch.writes()
    finally:
        loop.close()
    assert [type(w).__name__ for w in writes] == [
        "StoredMatch",
        "PendingWrite",
        "ClockWrite",
        "PendingWrite",
    ]
    hub.storage.append_actions(writes)
    again = hub.storage.load(a.id)
    assert again is not None and again.deadlines == [second]
    assert hub.storage.load("fresh") is not None


def _held_hub(
    db_url: str, wait: float, matches: int
) -> tuple[Hub, list[Room], Any, list[list[str]]]:
    """A hub of ``matches`` live matches whose first commit is held in the writer until
    ``gate`` is set; ``commits`` records each commit's matches."""
    hub = _hub(db_url, commit_wait=wait)
    real = hub.storage.append_actions
    gate = threading.Event()
    commits: list[list[str]] = []

    def held(moves: list[PendingWrite]) -> None:
        commits.append([w.match_id for w in moves])
        if len(commits) == 1:
            assert gate.wait(10)
        real(moves)

    hub.storage.append_actions = held  # type: ignore[method-assign]
    return hub, [_new(hub, k) for k in range(matches)], gate, commits


def test_moves_that_came_during_a_commit_wait_for_company_then_go(db_url):
    """Under load, the batch that grew while a commit was under way waits a moment for
    more moves (GROUP_COMMIT_SHARE of the matches in memory) before its own commit, and
    goes when the wait is over even if they never come."""
    hub, rooms, gate, commits = _held_hub(db_url, 0.4, 10)  # quorum: 9 moves
    timeline: list[tuple[float, int]] = []

    async def scenario() -> None:
        await hub.start()
        await _move_during_a_held_commit(hub, rooms[:3], commits)  # 2 moves wait
        start = time.monotonic()
        gate.set()
        while len(commits) < 2:
            timeline.append((time.monotonic() - start, hub.storage.action_count(rooms[1].id)))
            await asyncio.sleep(0.02)
            assert time.monotonic() - start < 5, "the waiting batch was never committed"
        await _committed(hub)
        timeline.append((time.monotonic() - start, hub.storage.action_count(rooms[1].id)))

    asyncio.run(scenario())
    assert commits == [[rooms[0].id], [rooms[1].id, rooms[2].id]]
    # Not committed as soon as the first commit returned, but within the wait.
    assert any(t > 0.15 and n == 0 for t, n in timeline)
    assert timeline[-1][0] < 3 and timeline[-1][1] == 1


def test_a_waiting_batch_goes_as_soon_as_the_quorum_has_moved(db_url):
    hub, rooms, gate, commits = _held_hub(db_url, 60.0, 4)  # quorum: 3 moves, wait 60 s
    elapsed: list[float] = []

    async def scenario() -> None:
        await hub.start()
        await _move_during_a_held_commit(hub, rooms[:3], commits)  # 2 moves wait
        gate.set()
        for _ in range(2000):  # at most 10 s, on a slow machine
            await asyncio.sleep(0.005)
            if hub._inflight is None and hub._waiting:
                break
        assert hub._waiting and len(commits) == 1  # waiting for a third move
        start = time.monotonic()
        seat, action = _first_legal(rooms[3])
        hub.act(rooms[3], seat, action, 0)  # the quorum: the batch goes now
        await _committed(hub)
        elapsed.append(time.monotonic() - start)

    asyncio.run(scenario())
    assert commits[1] == [rooms[1].id, rooms[2].id, rooms[3].id]
    assert elapsed[0] < 5  # not the 60 s wait
    assert [hub.storage.action_count(r.id) for r in rooms] == [1, 1, 1, 1]


def test_a_quiet_server_never_waits_for_company(db_url):
    """A move that finds no commit under way is committed after its own turn of the
    event loop, however long the wait for company is set."""
    hub = _hub(db_url, commit_wait=60.0)
    rooms = [_new(hub, k) for k in range(10)]
    elapsed: list[float] = []

    async def scenario() -> None:
        await hub.start()
        for k in range(3):  # one move at a time, each after the last was stored
            start = time.monotonic()
            seat, action = _first_legal(rooms[k])
            hub.act(rooms[k], seat, action, 0)
            await _committed(hub)
            elapsed.append(time.monotonic() - start)

    asyncio.run(scenario())
    assert max(elapsed) < 5 and not hub._waiting
    assert [hub.storage.action_count(r.id) for r in rooms[:3]] == [1, 1, 1]
