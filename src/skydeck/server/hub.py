"""The hub: every live room, the only place where matches change.

Everything runs on the event loop thread except the agents' thinking (a thread pool)
and the database writes (ONE writer thread, so writes keep their order). A move is
validated and applied at once; the moves of every match handled in one turn of the
event loop are then committed to storage in ONE transaction (group commit: one commit
for many moves is what lets the server keep up with many matches), and only after that
commit is any of them acknowledged (the new state sent). The commit (its fsync is
most of a move's wait) runs in the writer thread while the loop goes on applying the
next moves, which form the next batch: one commit in flight at a time, so the slower
the disk, the more moves each fsync carries. Under load that next batch may wait a
few milliseconds for company (``_next_commit``), so that each commit's fixed cost is
shared by most of the matches in play::

    act -> pending batch --(no commit in flight)--> writer thread: append_actions
                 ^                                          |
                 +------ next batch waits ------------------+--> loop: acknowledge
                                                                (broadcast) or put back

A failed commit puts every room of the batch back as it was (with the moves of those
rooms applied since, which stood on it) and sends each mover the error.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError

from skydeck.core import Action, Game, IllegalAction, Rng, player_name
from skydeck.core.record import RECORD_VERSION
from skydeck.registry import game_class, game_ids
from skydeck.server.ai import make_agent, network_spec
from skydeck.server.clocks import Wanted, wanted_clocks, with_reports
from skydeck.server.guard import Refused
from skydeck.server.messages import ProtocolError
from skydeck.server.room import Client, Room
from skydeck.server.seats import check_name, digest, new_match_id, new_token, token_matches
from skydeck.server.settings import Settings
from skydeck.server.storage import ClockWrite, Deadline, PendingWrite, Storage, StoredMatch

log = logging.getLogger("skydeck.server")


async def wake(front: tuple[str, int], match_id: str) -> None:
    """Ask HAProxy for a match's header: the worker its id is routed to rebuilds it."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection(*front), 5)
        request = (
            f"GET /api/matches/{match_id} HTTP/1.1\r\nHost: skydeck\r\n"
            "X-Skydeck-Internal: 1\r\nConnection: close\r\n\r\n"
        )
        writer.write(request.encode())
        await asyncio.wait_for(reader.read(), 10)
        writer.close()
    except (OSError, TimeoutError) as exc:
        log.warning("could not wake the owner of match %s: %s", match_id, exc)


def storage_error_text(exc: BaseException, what: str = "move") -> str:
    """The refusal a mover (``what="match"``: a lobby request) reads when the commit
    failed: a database that cannot be reached is named as such (nothing was stored;
    the request may be sent again once the database is back), anything else carries
    the database's own words."""
    undone = "the move was not played" if what == "move" else "the match was not created"
    if isinstance(exc, DBAPIError) and (
        exc.connection_invalidated or isinstance(exc, OperationalError | InterfaceError)
    ):
        first = str(exc.orig).strip().splitlines()[0] if exc.orig else type(exc).__name__
        return (
            f"the database is unreachable, so {undone}; send it again "
            f"once the database is back ({first})"
        )
    return f"the {what} could not be stored: {exc}"


T = TypeVar("T")


def _duration(seconds: float) -> str:
    """"24 hours", "90 minutes", "45 seconds"."""
    if seconds >= 7200 and seconds % 3600 == 0:
        return f"{int(seconds // 3600)} hours"
    if seconds >= 120:
        return f"{round(seconds / 60)} minutes"
    return f"{seconds:g} seconds"

#: A move applied in memory and waiting for its commit: room, write, the mover's
#: error callback (told if the commit fails).
Pending = tuple[Room, PendingWrite, Callable[[ProtocolError], None] | None]


@dataclass(eq=False)
class Batch:
    """Moves committed together, and per room of the batch what it was before its
    first move of the batch: (room, moves, status, deadlines, undoable). Matches
    created and clocks started meanwhile go in the same commit: a new match is only
    opened once it returns (``created``: each with the future its request awaits); a
    clock change is kept at its place among the moves (``clocks``: how many moves
    came before it)."""

    moves: list[Pending] = field(default_factory=list)
    before: dict[str, tuple[Room, int, str, dict[str, Deadline], Any]] = field(default_factory=dict)
    created: list[tuple[StoredMatch, asyncio.Future[None]]] = field(default_factory=list)
    clocks: list[tuple[int, ClockWrite]] = field(default_factory=list)
    future: Future[None] | None = None
    finished: bool = False

    def empty(self) -> bool:
        return not (self.moves or self.created or self.clocks)

    def writes(self) -> list[PendingWrite | ClockWrite | StoredMatch]:
        """What the commit stores, in order: the new matches, then the moves and the
        clock changes as they came."""
        moves: list[PendingWrite | ClockWrite | StoredMatch] = [w for _, w, _ in self.moves]
        if not (self.created or self.clocks):
            return moves  # the common case
        out: list[PendingWrite | ClockWrite | StoredMatch] = [m for m, _ in self.created]
        at = 0
        for pos, change in self.clocks:
            out += moves[at:pos]
            out.append(change)
            at = pos
        out += moves[at:]
        return out


MIN_MOVE_SECONDS, MAX_MOVE_SECONDS = 5, 14 * 24 * 3600
#: A move clock this long or longer makes a correspondence match: played over hours or
#: days, never abandoned for idling (its clock ends it), lost on time by the seat whose
#: clock runs out (PROTOCOL.md "Correspondence").
CORRESPONDENCE_SECONDS = 3600


def correspondence(settings: dict[str, Any]) -> bool:
    """Whether a match's settings make it a correspondence match."""
    move = settings.get("move_seconds")
    return isinstance(move, int | float) and move >= CORRESPONDENCE_SECONDS
#: Finished matches kept in memory after a reader rebuilt them (records, replays).
FINISHED_KEPT = 32
#: Seconds a clock of a human seat waits for that seat to connect before it starts.
CLOCK_GRACE = 60.0
#: Group commit under load (``Hub._next_commit``): the moves that came in while a commit
#: was under way wait up to this long for company, unless GROUP_COMMIT_SHARE of the
#: matches in memory already have one waiting. MySQL's binlog group commit has the
#: same pair (``binlog_group_commit_sync_delay``, ``..._no_delay_count``).
GROUP_COMMIT_WAIT = 0.004
GROUP_COMMIT_SHARE = 0.9


class Hub:
    def __init__(
        self,
        storage: Storage,
        games: Callable[[str], type[Game]] = game_class,
        list_games: Callable[[], list[str]] = game_ids,
        ai_delay: float | None = None,
        executor: Executor | None = None,
        clock_scale: float = 1.0,
        clock_grace: float | None = None,
        worker: str | None = None,
        front: tuple[str, int] | None = None,
        commit_wait: float = GROUP_COMMIT_WAIT,
        settings: Settings | None = None,
    ) -> None:
        """``settings``: the server's (``Settings()`` if None); ``ai_delay`` and
        ``clock_grace``, when given, override theirs (tests)."""
        self.settings = settings = settings or Settings()
        ai_delay = settings.ai_delay if ai_delay is None else ai_delay
        clock_grace = settings.clock_grace if clock_grace is None else clock_grace
        self.storage = storage
        #: This server's name when it is one of several workers behind HAProxy (``skydeck
        #: serve --workers N``): a match then lives in the worker HAProxy routes its id to
        #: and is rebuilt there from the log on its first request, so this worker neither
        #: rebuilds every live match at start nor keeps the matches it creates.
        self.worker = worker
        #: HAProxy's address, for waking the owner of a match created here.
        self.front = front
        self.game_class = games
        self.list_games = list_games
        self.ai_delay = ai_delay
        #: Multiplies every clock's length (tests run a 30 s deployment in a few seconds).
        self.clock_scale = clock_scale
        #: A clock of a human seat nobody has opened starts only after this many
        #: seconds (or as soon as the seat connects): nobody loses a draw to a link
        #: not yet opened.
        self.clock_grace = clock_grace
        self.executor = executor or ThreadPoolExecutor(max_workers=2, thread_name_prefix="ai")
        #: The one thread that writes to the database (in order) while a loop runs.
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="commit")
        self.rooms: dict[str, Room] = {}
        #: Finished matches rebuilt for readers, oldest first (``room``).
        self._finished: dict[str, Room] = {}
        #: Moves applied in memory and waiting for the group commit, in order.
        self._batch = Batch()
        #: The batch being committed in the writer thread, if any (one at a time).
        self._inflight: Batch | None = None
        self._flush: asyncio.Handle | None = None
        #: Longest wait of a batch for company (``_next_commit``); 0: never waits.
        self.commit_wait = commit_wait
        #: Moves that let the pending batch go at once (``_next_commit``, ``_commit_soon``).
        self._quorum = 1
        #: The pending batch is waiting for company (``_next_commit``).
        self._waiting = False
        self.loop: asyncio.AbstractEventLoop | None = None
        #: The periodic task that abandons idle matches (``_sweep``).
        self._sweeper: asyncio.Task[None] | None = None
        #: Told of each match whose end (its last move, or its abandonment) is stored:
        #: the people's results and ratings (``People.match_ended``).
        self.on_end: Callable[[Hub, Room], None] | None = None

    # --- life cycle ------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every live match and its clocks from storage; restart its AI seats."""
        self.loop = asyncio.get_running_loop()
        # Import every game now, not in the first player's request (0.4 s of CPU).
        self.list_games()
        if self.settings.idle_expiry > 0:
            self._sweeper = self.loop.create_task(self._sweep())
        if self.worker is not None:
            return  # each match is rebuilt by its owner on its first request
        # (a cluster's launcher abandons its idle matches before its workers start)
        self.abandon_stored_idle()
        for match_id in self.storage.live_ids():
            try:
                room = self.room(match_id)
            except Exception:  # a record that no longer replays must not stop the server
                log.exception("match %s could not be rebuilt", match_id)
                continue
            assert room is not None
            self._arm_clocks(room)
            self._schedule_ai(room)

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        self.commit_pending()
        self.writer.shutdown(wait=True)
        for room in self.rooms.values():
            for handle in room.timers.values():
                handle.cancel()
            room.timers.clear()
            for client in list(room.clients):
                client.send(None)
        self.executor.shutdown(wait=False, cancel_futures=True)

    def room(self, match_id: str) -> Room | None:
        """The room of a match, rebuilt from storage on first use. A finished match
        rebuilt for a reader (its record, a replay, a late visitor) is kept among the
        last ``FINISHED_KEPT`` only: browsing old matches must not grow the server."""
        room = self.rooms.get(match_id) or self._finished.get(match_id)
        if room is not None:
            return room
        stored = self.storage.load(match_id)
        if stored is None:
            return None
        game = self.game_class(stored.game)(**stored.options)
        room = Room(stored, game)
        if room.status != "live":
            self._finished[match_id] = room
            if len(self._finished) > FINISHED_KEPT:
                del self._finished[next(iter(self._finished))]  # the first rebuilt
            return room
        self.rooms[match_id] = room
        if self.loop is not None:  # a live match taken up here: its clocks and AI run
            self._arm_clocks(room)
            self._schedule_ai(room)
        return room

    # --- creating a match ------------------------------------------------------------
    def create(self, spec: Any, creator: str | None = None) -> tuple[Room, list[str | None]]:
        """Validate a lobby request and store the new match; ValueError names the fault.
        ``creator``: who asks (``seats.creator_key``), whose unfinished matches are capped
        (Refused); None: a tool, not capped."""
        room, tokens = self._new_match(spec, creator)
        self._write_now(self.storage.create_match, room.stored)
        return self._opened(room), tokens

    def validate(self, spec: Any) -> None:
        """ValueError naming what is wrong with a lobby request, nothing made or stored
        (an open table checks the match it will start)."""
        self._new_match(spec)

    async def create_async(
        self, spec: Any, creator: str | None = None
    ) -> tuple[Room, list[str | None]]:
        """``create`` for a request on the loop: the match is stored by the next group
        commit, with the moves of other matches (no transaction, no fsync of its own),
        and opened once that commit has returned."""
        room, tokens = self._new_match(spec, creator)
        if self.loop is None:  # not started: stored on its own
            await asyncio.wrap_future(self.writer.submit(self.storage.create_match, room.stored))
        else:
            stored: asyncio.Future[None] = self.loop.create_future()
            self._batch.created.append((room.stored, stored))
            self._commit_soon()
            try:
                await stored
            except Exception as exc:
                log.error("could not store the new match %s", room.id, exc_info=exc)
                raise ProtocolError("storage", storage_error_text(exc, "match")) from exc
        return self._opened(room), tokens

    def _check_unfinished(self, creator: str) -> None:
        """Refused when ``creator`` already has ``max_unfinished`` live matches (stored,
        or waiting for the group commit that stores them)."""
        cap = self.settings.max_unfinished
        waiting = [m for m, _ in self._batch.created]
        if self._inflight is not None:
            waiting += [m for m, _ in self._inflight.created]
        mine = sum(m.creator == creator for m in waiting) + self.storage.unfinished_by(creator)
        if mine >= cap:
            raise Refused(
                f"you have {mine} unfinished matches, the most one address may have at once "
                f"is {cap}: finish one (or let it be abandoned) before you start another"
            )

    def _new_match(self, spec: Any, creator: str | None = None) -> tuple[Room, list[str | None]]:
        """The room of a valid lobby request, not stored yet; ValueError names the fault,
        Refused a creator over its cap."""
        if creator is not None and self.settings.limits:
            self._check_unfinished(creator)
        if not isinstance(spec, dict):
            raise ValueError("the request must be a JSON object")
        game_id = spec.get("game")
        if not isinstance(game_id, str) or game_id not in self.list_games():
            raise ValueError(f"unknown game {game_id!r}; known games: {self.list_games()}")
        options = spec.get("options", {})
        if not isinstance(options, dict):
            raise ValueError("'options' must be an object")
        cls = self.game_class(game_id)
        game = cls(**{**cls.capabilities.live_options, **options})
        seats_in = spec.get("seats")
        if not isinstance(seats_in, list) or len(seats_in) != game.players:
            raise ValueError(f"'seats' must list {game.players} seats (one per player)")
        seed = spec.get("seed")
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 62)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 63:
            raise ValueError(f"'seed' must be a non-negative integer below 2**63, got {seed!r}")
        move_seconds = spec.get("move_seconds")
        if move_seconds is not None and (
            isinstance(move_seconds, bool)
            or not isinstance(move_seconds, int | float)
            or not MIN_MOVE_SECONDS <= move_seconds <= MAX_MOVE_SECONDS
        ):
            raise ValueError(
                f"'move_seconds' must be between {MIN_MOVE_SECONDS} and {MAX_MOVE_SECONDS}"
            )
        if move_seconds is not None and move_seconds >= CORRESPONDENCE_SECONDS:
            realtime = [ta.label for ta in cls.capabilities.timed_actions
                        if ta.scope == "table" and ta.seconds(game.options) is not None]
            if realtime:
                raise ValueError(
                    f"{cls.title} is played against a real-time table clock with these "
                    f"options ({', '.join(realtime)}): no correspondence move clock "
                    f"(at most {CORRESPONDENCE_SECONDS - 1} s)"
                )
        hotseat = bool(spec.get("hotseat", False))
        private = spec.get("private", False)
        if not isinstance(private, bool):
            raise ValueError("'private' must be true or false (true: not listed in the lobby)")
        seats: list[dict[str, Any]] = []
        tokens: list[str | None] = []
        for i, s in enumerate(seats_in):
            where = f"{player_name(i)} (seats[{i}])"
            if not isinstance(s, dict) or s.get("kind") not in ("human", "ai"):
                raise ValueError(f"{where}: 'kind' must be 'human' or 'ai'")
            name = s.get("name") or ""
            if not isinstance(name, str):
                raise ValueError(f"{where}: 'name' must be a string")
            try:
                name = check_name(name)
            except ValueError as exc:
                raise ValueError(f"{where}: {exc}") from None
            name = name or (f"Player {i + 1}" if s["kind"] == "human" else "")
            if s["kind"] == "ai":
                try:
                    # Only what the lobby offers, within the server's budget limits.
                    agent = network_spec(s.get("agent", "random"), game_id, self.settings)
                except ValueError as exc:
                    raise ValueError(f"{where}: {exc}") from None
                try:
                    make_agent(agent, game, seed + i, self.settings.models)
                except Exception as exc:
                    raise ValueError(f"{where}: agent {agent!r} cannot play: {exc}") from None
                name = name or f"{player_name(i)} (AI: {agent})"
                seats.append({"kind": "ai", "name": name, "agent": agent})
                tokens.append(None)
            else:
                token = new_token()
                seats.append({"kind": "human", "name": name, "token": digest(token)})
                tokens.append(token)
        now = time.time()
        stored = StoredMatch(
            id=new_match_id(),
            game=game_id,
            options=dict(game.options),
            seed=seed,
            seats=seats,
            settings={
                "move_seconds": move_seconds,
                "hotseat": hotseat,
                **({"rated": True} if spec.get("rated") is True else {}),
                **({"private": True} if private else {}),
            },
            status="live",
            created=now,
            updated=now,
            version=RECORD_VERSION,
            creator=creator,
        )
        room = Room(stored, game)
        if room.match.state.is_over:
            room.status = stored.status = "over"
        stored.deadlines = self._deadlines(room)
        room.deadlines = {d.key: d for d in stored.deadlines}
        return room, tokens

    def _opened(self, room: Room) -> Room:
        """A stored new match starts: here, or in the worker that owns it."""
        if self.worker is not None:
            # The match lives in the worker its id is routed to: ask for it there, so it
            # starts (clocks, AI seats) even if nobody opens it.
            if self.loop is not None and self.front is not None:
                self.loop.create_task(wake(self.front, room.id))
            return room
        self.rooms[room.id] = room
        if self.loop is not None:
            self._arm_clocks(room)
            self._schedule_ai(room)
        return room

    # --- seats -----------------------------------------------------------------------
    @staticmethod
    def claim(room: Room, tokens: Any) -> frozenset[int]:
        """The seats these tokens open; ProtocolError on any token that opens none."""
        if tokens is None:
            return frozenset()
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise ProtocolError("bad_message", "'tokens' must be a list of strings")
        if len(tokens) > len(room.seats):
            raise ProtocolError("bad_token", "more tokens than seats")
        seats = set()
        for token in tokens:
            found = [
                i
                for i, s in enumerate(room.seats)
                if s["kind"] == "human" and token_matches(token, s.get("token"))
            ]
            if not found:
                raise ProtocolError("bad_token", "a seat token is wrong (no seat of this match)")
            seats.update(found)
        return frozenset(seats)

    def attach(self, room: Room, client: Client) -> None:
        self.settle(room)  # nobody sees a move before it is committed
        if self._start_waiting_clocks(room, client.seats):
            room.broadcast()  # the others see the clock start
        room.clients.add(client)
        client.send(
            {
                "type": "welcome",
                "match": room.header(),
                "seats": sorted(client.seats),
                "spectator": not client.seats,
            }
        )
        client.send(room.state_text(client))

    def detach(self, room: Room, client: Client) -> None:
        room.clients.discard(client)
        self._unload_if_done(room)

    def _unload_if_done(self, room: Room) -> None:
        """A finished match that nobody is connected to leaves memory: storage holds all
        of it and ``room()`` rebuilds it on demand (replays, late visitors). This keeps
        the server's memory, and the garbage collector's work, to the live matches."""
        if (
            room.status != "live"
            and not room.clients
            and not room.ai_pending
            and not self._unsettled(room)
            and self.rooms.get(room.id) is room
        ):
            del self.rooms[room.id]

    # --- idle matches ----------------------------------------------------------------
    def ended_text(self, room: Room) -> str:
        """Why a match takes no more moves, in words."""
        if room.status == "abandoned" and correspondence(room.settings):
            return "the match ended on time: a move clock ran out"
        if room.status == "abandoned":
            idle = _duration(self.settings.idle_expiry)
            return f"the match was abandoned after {idle} without a move"
        return "the match is over"

    def abandon_stored_idle(self) -> list[str]:
        """Abandon, in storage, every live match idle for longer than ``idle_expiry``
        (at start: they are then not rebuilt)."""
        if self.settings.idle_expiry <= 0:
            return []
        ids = self.storage.abandon_idle(time.time() - self.settings.idle_expiry,
                                        spare=correspondence)
        if ids:
            log.info("%d idle matches abandoned", len(ids))
        return ids

    @staticmethod
    def last_active(room: Room) -> float:
        """When something last happened in a match: its last move, else its creation."""
        entries = room.match.record.entries
        return entries[-1].t if entries else room.stored.created

    async def _sweep(self) -> None:
        """Abandon the matches in memory that have had no move for ``idle_expiry``,
        looking every tenth of that (at most every minute, at least every second)."""
        expiry = self.settings.idle_expiry
        every = min(60.0, max(1.0, expiry / 10))
        while True:
            await asyncio.sleep(every)
            cutoff = time.time() - expiry
            for room in list(self.rooms.values()):
                if correspondence(room.settings):
                    continue  # its own clock ends it
                if room.status == "live" and self.last_active(room) < cutoff:
                    try:
                        self.abandon(room)
                    except Exception:
                        log.exception("match %s could not be abandoned", room.id)

    def abandon(self, room: Room, timed_out: int | None = None) -> None:
        """A live match becomes ``abandoned``: stored so (its record kept, its clocks
        dropped), its clocks and AI seats stopped, its players told; it then leaves
        memory as a finished match does. ``timed_out``: the seat whose correspondence
        clock ran out (it owes the move, so a rated match is its loss)."""
        if self._unsettled(room):
            return  # a move has just come: not idle after all
        if timed_out is not None:
            log.info("match %s: seat %d ran out of time", room.id, timed_out)
        self._write_now(self.storage.abandon, room.id)
        room.status = room.stored.status = "abandoned"
        for handle in room.timers.values():
            handle.cancel()
        room.timers.clear()
        room.deadlines = {}
        room.undoable = None
        log.info("match %s abandoned (idle)", room.id)
        self._ended(room)
        room.broadcast()
        self._unload_if_done(room)

    # --- moves -----------------------------------------------------------------------
    def act(
        self,
        room: Room,
        seat: int,
        action_obj: Any,
        n: int,
        source: str = "client",
        on_error: Callable[[ProtocolError], None] | None = None,
    ) -> None:
        """Apply one action for ``seat`` seen at move ``n``; ProtocolError, with the room
        and storage untouched, on anything wrong. The move is committed with the others
        of this turn of the event loop (group commit); if that commit fails, the room is
        put back and ``on_error`` gets the error."""
        if room.status != "live":
            raise ProtocolError("over", self.ended_text(room))
        if not 0 <= seat < len(room.seats):
            raise ProtocolError(
                "bad_seat", f"there is no seat {seat} (seats are 0-{len(room.seats) - 1})"
            )
        current = room.n
        if n > current:
            raise ProtocolError("stale", f"move {n} has not happened yet (now at {current})")
        if n < current and room.last_act.get(seat, -1) >= n:
            raise ProtocolError(
                "stale",
                f"stale or replayed message: {player_name(seat)} has moved since move {n} "
                f"(now at {current})",
            )
        try:
            try:
                action = (
                    action_obj
                    if isinstance(action_obj, Action)
                    else room.game.action_from_json(action_obj)
                )
            except RecursionError:  # a client's action JSON hundreds of levels deep
                raise IllegalAction("the action is nested too deeply") from None
            room.play(seat, action)
        except IllegalAction as exc:
            raise ProtocolError("illegal", str(exc)) from None
        except Exception as exc:  # an engine fault: leave the match as it was
            log.exception("engine fault in match %s", room.id)
            # The state may be half-changed: rebuild it from the stored log.
            room.reset_to(room.match.record.entries[:current])
            raise ProtocolError("engine_error", f"the rules engine failed: {exc}") from None
        entry = room.match.record.entries[-1]
        status = "over" if room.match.state.is_over else "live"
        deadlines = self._deadlines(room) if status == "live" else []
        # Deadline is a dataclass: == compares key, seat, due and action, as stored.
        clocks_changed = deadlines != list(room.deadlines.values())
        batch = self._batch
        if room.id not in batch.before:
            # What the room was before its first move of this batch (for a failed commit).
            batch.before[room.id] = (room, current, room.status, room.deadlines, room.undoable)
        write = PendingWrite(
            room.id,
            current,
            seat,
            entry.action.to_json(),
            entry.t,
            status,
            deadlines if clocks_changed else None,
            status != room.status,
        )
        batch.moves.append((room, write, on_error))
        room.status = status
        # Only a seat's own move may be taken back, never one the clock or an AI made.
        room.undoable = (room.n, seat) if source == "client" else None
        room.deadlines = {d.key: d for d in deadlines}
        if self.loop is None:
            # No event loop (a synchronous caller): commit now, errors raised here.
            failed = self.commit_pending()
            if failed is not None:
                raise failed
        else:
            self._commit_soon()

    def _commit_soon(self) -> None:
        """Group commit: every move (new match, clock change) handled in this turn of
        the event loop is committed together right after it; each move is
        acknowledged only then. While a commit is in flight the batch grows, and goes
        when that commit is done (``_next_commit``: at once, or after a short wait for
        company, cut short when the quorum's worth of moves has come)."""
        if self._inflight is not None:
            return
        if self._flush is None:
            assert self.loop is not None
            self._flush = self.loop.call_soon(self._flush_pending)
        elif self._waiting and len(self._batch.moves) >= self._quorum:
            self._flush.cancel()  # company enough: the batch waits no longer
            self._flush_pending()

    def _quorum_now(self) -> int:
        """Moves that are company enough: GROUP_COMMIT_SHARE of the matches in memory
        (the live ones, and finished ones whose players are still connected: counted
        in O(1), and they leave when their players do)."""
        return max(1, int(GROUP_COMMIT_SHARE * len(self.rooms)))

    def _next_commit(self) -> None:
        """After a commit: the batch that grew meanwhile goes at once if it holds the
        quorum's worth of moves (or no move: a new match, a clock), else when the
        quorum is reached or ``commit_wait`` has passed, whichever comes first.

        Why: under load every commit costs much the same fixed work (the writer's
        statements and fsync, the GIL handed back and forth, waking the loop, a
        broadcast per room), so a commit of 45 moves costs little more than one of 25
        (PROTOCOL.md has the figures). A quiet server never waits: a lone move finds
        no commit in flight and goes at the end of its turn of the event loop."""
        waiting = len(self._batch.moves)
        if waiting and self.commit_wait > 0:
            self._quorum = self._quorum_now()
            if waiting < self._quorum:
                assert self.loop is not None
                self._flush = self.loop.call_later(self.commit_wait, self._flush_pending)
                self._waiting = True
                return
        self._start_commit()

    def _unsettled(self, room: Room) -> bool:
        """Whether a move of ``room`` is applied but not yet committed."""
        inflight = self._inflight
        return room.id in self._batch.before or (
            inflight is not None and room.id in inflight.before
        )

    def settle(self, room: Room) -> None:
        """Commit now every move of ``room`` not yet committed (before anything of that
        room is shown), waiting for the commit in flight if it holds one; other rooms'
        moves do not concern it and keep waiting for their batch's own commit."""
        if self._unsettled(room):
            self.commit_pending()

    def _flush_pending(self) -> None:
        self._flush = None
        self._waiting = False
        self._start_commit()

    def _start_commit(self) -> None:
        """Hand the pending batch to the writer thread (if none is in flight); its end
        comes back to the loop (``_commit_done``)."""
        if self._inflight is not None or self._batch.empty():
            return
        loop = self.loop
        assert loop is not None
        batch, self._batch = self._batch, Batch()
        self._inflight = batch
        batch.future = self.writer.submit(self.storage.append_actions, batch.writes())
        batch.future.add_done_callback(
            lambda _f: loop.call_soon_threadsafe(self._commit_done, batch)
        )

    def _commit_done(self, batch: Batch) -> ProtocolError | None:
        """On the loop, once ``batch``'s commit has returned: acknowledge its moves, or
        put its rooms back. The next batch then goes. A batch finished already (by
        ``commit_pending``, which waited for it) is left alone."""
        if batch.finished:
            return None
        assert batch.future is not None
        exc = batch.future.exception()
        if self._inflight is batch:
            self._inflight = None
        error = self._finish(batch, exc)
        if self.loop is not None and self._flush is None:
            self._next_commit()
        return error

    def commit_pending(self) -> ProtocolError | None:
        """Commit every applied move now (the loop waits: the commit in flight first,
        then the pending batch), then tell the clients (an acknowledgement only ever
        follows the commit). On failure every room of a failed batch is put back as it
        was before it, each mover gets the error (the returned ProtocolError), and
        storage holds none of that batch."""
        if self._flush is not None:
            self._flush.cancel()
            self._flush = None
            self._waiting = False
        error = None
        inflight = self._inflight
        if inflight is not None:
            assert inflight.future is not None
            wait_futures([inflight.future])
            self._inflight = None
            error = self._finish(inflight, inflight.future.exception())
        batch, self._batch = self._batch, Batch()
        if not batch.empty():
            try:
                # In the writer thread when there is one: every write keeps its order.
                self._write_now(self.storage.append_actions, batch.writes())
            except Exception as exc:
                return self._finish(batch, exc)
            self._finish(batch, None)
        return error

    def _write_now(self, write: Callable[..., T], *args: Any) -> T:
        """Run a write of storage and wait for it: in the writer thread while a loop
        runs (after the commit in flight, in order), else here."""
        if self.loop is None:
            return write(*args)
        return self.writer.submit(write, *args).result()

    def _finish(self, batch: Batch, exc: BaseException | None) -> ProtocolError | None:
        batch.finished = True
        # The future holds the callback that holds the batch: dropping it here lets
        # reference counting free the batch (its moves, rooms' snapshots, the movers'
        # callbacks) at once instead of at the collector's next full pass.
        batch.future = None
        for _, stored in batch.created:  # each request learns whether its match exists
            if not stored.done():
                if exc is None:
                    stored.set_result(None)
                else:
                    stored.set_exception(exc)
        if exc is not None and batch.clocks:
            # Not a move: a crash or a failure here only restarts a grace period.
            log.error("could not store the clocks of %d matches", len(batch.clocks), exc_info=exc)
        pending, before = batch.moves, batch.before
        if not pending:
            return None
        if exc is not None:
            log.error("could not store %d moves", len(pending), exc_info=exc)
            error = ProtocolError("storage", storage_error_text(exc))
            for room, n, status, deadlines, undoable in before.values():
                room.reset_to(room.match.record.entries[:n])
                room.status = status
                room.deadlines = deadlines
                room.undoable = undoable
            for _, _, on_error in pending:
                if on_error is not None:
                    on_error(error)
            # Moves applied since on top of a room put back stood on what was not
            # stored: they go too, and their movers are told.
            later = self._batch
            if later is not batch and any(rid in later.before for rid in before):
                kept: list[Pending] = []
                for item in later.moves:
                    if item[0].id in before:
                        if item[2] is not None:
                            item[2](error)
                    else:
                        kept.append(item)
                later.moves = kept
                for rid in before:
                    later.before.pop(rid, None)
            if isinstance(exc, IntegrityError):
                self._drop_stale([room for room, *_ in before.values()])
            for room, *_ in before.values():
                if self.rooms.get(room.id) is room:
                    self._schedule_ai(room)  # an AI seat whose move was not stored tries again
            return error
        done: dict[str, Room] = {}
        for room, write, _ in pending:
            done[room.id] = room
            if write.status_changed and write.status == "over":
                self._ended(room)
        waiting = self._batch.before
        for room in done.values():
            self._arm_clocks(room)
            if room.id in waiting:
                # Moves of this room applied since are not committed yet: nobody may
                # see them, so this room is told after the next commit.
                continue
            room.broadcast()
            self._schedule_ai(room)
            self._unload_if_done(room)
        return None

    def _ended(self, room: Room) -> None:
        if self.on_end is not None:
            try:
                self.on_end(self, room)
            except Exception:
                log.exception("match %s: its end could not be counted", room.id)

    def _drop_stale(self, rooms: list[Room]) -> None:
        """Rooms whose log in storage has moved past them (another worker took the
        match over while this one was cut off: the action log's primary key refused a
        second move of the same number) leave memory; their clients are closed and
        reconnect to whichever worker owns the match now, which rebuilds it from the
        log. The key is the fence: two workers can never both extend one log."""
        for room in rooms:
            stored = self.storage.action_count(room.id)
            if stored == room.n:
                continue  # this room was not the stale one
            log.warning(
                "match %s moved on elsewhere (%d moves stored, %d here): dropped",
                room.id,
                stored,
                room.n,
            )
            for handle in room.timers.values():
                handle.cancel()
            room.timers.clear()
            if self.rooms.get(room.id) is room:
                del self.rooms[room.id]
            for client in list(room.clients):
                client.send(None)
            room.clients.clear()

    def hold(self, room: Room, seat: int, n: int, at: Any) -> None:
        """Where ``seat`` is moving the card it is playing, seen at move ``n`` (a client's
        report while dragging; None: back in hand). Not a move: nothing is stored or
        sent; the clock whose action reports cards reads it when it expires (Stellar
        Conflict's alarm). A report about an earlier card (the seat has moved since
        ``n``) or from a seat playing none is dropped."""
        if not room.game.capabilities.takes_reports():
            raise ProtocolError(
                "bad_message", f"{type(room.game).title} takes no report of a card being moved"
            )
        if at is not None and not (
            isinstance(at, list)
            and len(at) == 3
            and all(isinstance(v, int) and not isinstance(v, bool) for v in at)
        ):
            raise ProtocolError(
                "bad_message", f"'at' must be [x, y, angle] in whole numbers or null, got {at!r}"
            )
        if n > room.n:
            raise ProtocolError("stale", f"move {n} has not happened yet (now at {room.n})")
        stale = n < room.n and room.last_act.get(seat, -1) >= n
        if at is None or stale or room.status != "live" or seat not in room.match.state.to_move:
            if not stale:
                room.held.pop(seat, None)
            return
        room.held[seat] = (at[0], at[1], at[2])

    def undo(self, room: Room, seats: frozenset[int], n: int) -> None:
        self.commit_pending()  # the log in storage must end where the room does
        if room.status != "live":
            raise ProtocolError("over", self.ended_text(room))
        entries = room.match.record.entries
        if n != room.n:
            raise ProtocolError("stale", f"undo refers to move {n}, the match is at {room.n}")
        if not entries or entries[-1].seat not in seats or room.undoable != (n, entries[-1].seat):
            raise ProtocolError(
                "undo",
                "only the player who made the last move may take it back, and only "
                "a move made by hand (not by a clock or an AI)",
            )
        taken_back = entries[-1]
        try:
            room.match.undo()
        except IllegalAction as exc:
            raise ProtocolError("undo", str(exc)) from None
        room.reset_to(list(room.match.record.entries))
        deadlines = self._deadlines(room)
        try:
            self._write_now(self.storage.remove_last_action, room.id, room.n, "live", deadlines)
        except Exception as exc:
            log.exception("could not store an undo of match %s", room.id)
            room.reset_to([*room.match.record.entries, taken_back])
            raise ProtocolError("storage", f"the undo could not be stored: {exc}") from None
        room.undoable = None
        self._replace_clocks(room, deadlines)
        room.broadcast()
        self._schedule_ai(room)

    # --- clocks ----------------------------------------------------------------------
    def _wanted(self, room: Room) -> list[Wanted]:
        return wanted_clocks(
            room.match.state,
            room.turn_start,
            room.human_seats,
            room.settings.get("move_seconds"),
        )

    @staticmethod
    def _absent(room: Room, w: Wanted, present: frozenset[int] = frozenset()) -> bool:
        """Whether a human seat this clock times has no connection open (``present``:
        seats of a client about to join)."""
        connected = set(present).union(*(c.seats for c in room.clients))
        return any(
            room.seats[s]["kind"] == "human" and s not in connected for s in w.seats or (w.seat,)
        )

    def _deadlines(self, room: Room) -> list[Deadline]:
        now = time.time()
        out = []
        for w in self._wanted(room):
            old = room.deadlines.get(w.key)
            if old is None:
                seconds = w.seconds * self.clock_scale
                if self._absent(room, w) and self.clock_grace > 0:
                    # It starts when the seat connects, or when the grace period ends.
                    room.clock_starts[w.key] = now + self.clock_grace
                    seconds += self.clock_grace
                old = Deadline(w.key, w.seat, now + seconds, w.action)
            out.append(old)
        if room.clock_starts:  # forget the grace of clocks that have gone
            keys = {d.key for d in out}
            room.clock_starts = {k: t for k, t in room.clock_starts.items() if k in keys}
        return out

    def _start_waiting_clocks(self, room: Room, joining: frozenset[int]) -> bool:
        """Start now the clocks still in their grace period whose seats are all present
        once ``joining`` has connected; True if any started."""
        if room.status != "live" or not joining or not room.deadlines:
            return False
        now = time.time()
        changed = False
        for w in self._wanted(room):
            d = room.deadlines.get(w.key)
            run = w.seconds * self.clock_scale
            if d is None or d.due - now <= run or self._absent(room, w, joining):
                continue
            room.deadlines[w.key] = Deadline(w.key, d.seat, now + run, d.action)
            room.clock_starts.pop(w.key, None)
            timer = room.timers.pop(w.key, None)
            if timer is not None:
                timer.cancel()
            changed = True
        if changed:
            # Not a move: nothing waits for this write, which goes with the next group
            # commit; a crash before it only restarts the grace period.
            now_running = list(room.deadlines.values())
            if self.loop is None:
                self.storage.set_deadlines(room.id, now_running)
            else:
                batch = self._batch
                batch.clocks.append((len(batch.moves), ClockWrite(room.id, now_running)))
                self._commit_soon()
            self._arm_clocks(room)
        return changed

    def _replace_clocks(self, room: Room, deadlines: list[Deadline]) -> None:
        room.deadlines = {d.key: d for d in deadlines}
        self._arm_clocks(room)

    def _arm_clocks(self, room: Room) -> None:
        loop = self.loop
        if loop is None:
            return
        for key in list(room.timers):
            if key not in room.deadlines:
                room.timers.pop(key).cancel()
        for key, d in room.deadlines.items():
            if key not in room.timers:
                delay = max(0.0, d.due - time.time())
                room.timers[key] = loop.call_later(delay, self._expire, room, key)

    def _expire(self, room: Room, key: str) -> None:
        room.timers.pop(key, None)
        d = room.deadlines.get(key)
        if d is None or room.status != "live":
            return
        try:
            to_move = room.match.state.to_move
            if d.action is not None:
                # A table clock acts through any seat still in the phase.
                seat = d.seat if d.seat in to_move or not to_move else to_move[0]
                action = with_reports(room.game.capabilities, key, d.action, room.held, to_move)
                self.act(room, seat, action, room.n, "clock", self._log_error(room, key))
            elif correspondence(room.settings):
                self.abandon(room, timed_out=d.seat)  # lost on time
            else:
                legal = room.match.state.legal_actions(d.seat)
                if not legal:
                    raise ProtocolError("illegal", "no legal action left")
                rng = Rng(room.stored.seed ^ (room.n * 0x9E3779B1) ^ d.seat)
                self.act(
                    room, d.seat, rng.choice(legal), room.n, "clock", self._log_error(room, key)
                )
        except ProtocolError as exc:
            self.commit_pending()
            log.warning("clock %s of match %s could not act: %s", key, room.id, exc.message)
            room.deadlines.pop(key, None)
            self._write_now(self.storage.set_deadlines, room.id, list(room.deadlines.values()))
            room.broadcast()

    @staticmethod
    def _log_error(room: Room, who: str) -> Callable[[ProtocolError], None]:
        def report(exc: ProtocolError) -> None:
            log.warning("%s of match %s could not act: %s", who, room.id, exc.message)

        return report

    # --- AI seats --------------------------------------------------------------------
    def _schedule_ai(self, room: Room) -> None:
        """Start the thinking of every AI seat to move, once the room's moves are all
        committed (``_finish`` calls this again then): each AI move is told to the
        clients before the next is made (Stellar Conflict's battle shows every step)."""
        if self.loop is None or room.status != "live" or self._unsettled(room):
            return
        for seat in room.match.state.to_move:
            if room.seats[seat]["kind"] == "ai" and seat not in room.ai_pending:
                room.ai_pending.add(seat)
                self.loop.create_task(self._ai_move(room, seat))

    async def _ai_move(self, room: Room, seat: int) -> None:
        action: Action | None = None
        n = room.n
        try:
            if self.ai_delay:
                await asyncio.sleep(self.ai_delay)
            if room.status == "live" and seat in room.match.state.to_move:
                agent = room.agents.get(seat)
                if agent is None:
                    spec = room.seats[seat].get("agent") or "random"
                    agent = make_agent(
                        spec, room.game, room.stored.seed + seat, self.settings.models
                    )
                    room.agents[seat] = agent
                n = room.n
                view = room.match.state.view(seat)
                legal = room.match.state.legal_actions(seat)
                assert self.loop is not None
                action = await self.loop.run_in_executor(
                    self.executor, agent.choose, view, legal, seat
                )
        except Exception:
            log.exception("AI seat %s of match %s failed", seat, room.id)
        finally:
            room.ai_pending.discard(seat)
        if action is not None:
            try:
                self.act(room, seat, action, n, "ai", self._log_error(room, f"AI seat {seat}"))
            except ProtocolError as exc:
                log.info("AI seat %s of match %s: %s", seat, room.id, exc.message)
        self._schedule_ai(room)
