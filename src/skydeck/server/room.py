"""One live match in memory: its state, its clients, its clocks and its AI seats.

The room is rebuilt from the stored record (header + action log + deadlines), so it
holds nothing that storage does not also hold.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from skydeck.core import Action, Agent, Event, Game
from skydeck.core.record import Entry, Match
from skydeck.server.messages import dumps
from skydeck.server.seats import public_seat
from skydeck.server.storage import Deadline, StoredMatch

#: Legal action lists longer than this are cut for the browser (the engine still
#: validates any action sent); parameterised games draw their own controls.
MAX_LEGAL_SENT = 3000
#: Encoded legal-action pieces kept per game and options (cleared when full).
MAX_PIECES = 20000
_PIECES: dict[tuple[str, str], Pieces] = {}
_NOTHING = object()
_NO_LEGAL = '{"actions":[],"truncated":false}'
_WHOLE, _CUT = '],"truncated":false}', '],"truncated":true}'
#: Log lines whose encoded pieces a room keeps (the newest), and the most pieces kept.
LOG_CACHE_LINES, LOG_CACHE_MAX = 8, 128


class Pieces:
    """Each legal action's encoded ``{"label", "action"}`` JSON, kept per game and
    options. Games hand out the same Action objects again and again (prebuilt tables),
    so a piece is found first by the object's id (an int, looked up in C for the whole
    list at once), then by value (the dataclass's hash, in Python). ``kept`` holds
    every object whose id is a key, so no id is reused while it is one: an id found
    is the same object."""

    __slots__ = ("by_id", "by_value", "kept")

    def __init__(self) -> None:
        self.by_id: dict[int, str] = {}
        self.by_value: dict[Action, str] = {}
        self.kept: list[Action] = []

    def encode(self, game: Game, acts: list[Action]) -> list[str]:
        found = list(map(self.by_id.get, map(id, acts)))
        if None not in found:
            return cast(list[str], found)
        return [p if p is not None else self._first(game, a) for p, a in zip(found, acts)]

    def _first(self, game: Game, a: Action) -> str:
        piece = self.by_value.get(a)
        if piece is None:
            if len(self.by_value) >= MAX_PIECES:
                self.by_value.clear()
                self.by_id.clear()
                self.kept.clear()
            piece = dumps({"label": game.describe(a), "action": a.to_json()})
            self.by_value[a] = piece
            # Only a first sighting goes in by id: a game that builds a fresh object
            # each time would otherwise churn this table for nothing.
            self.by_id[id(a)] = piece
            self.kept.append(a)
        return piece


def _encoded(data: Any, cache: dict[Any, Any]) -> str:
    """``data`` encoded, once per broadcast (``cache``) for an object several clients
    are sent (a shared patch or view: alive in the cache, so its id is its own)."""
    key = ("encoded", id(data))
    text = cache.get(key)
    if text is None:
        text = cache[key] = dumps(data)
    return text


def events_for(events: list[Event], seats: frozenset[int]) -> list[dict[str, Any]]:
    """Events as a client holding ``seats`` may see them (no seats: a spectator)."""
    out = []
    for e in events:
        if not seats:
            shown = e.for_seat(None)
        elif e.seats is None or e.seats & seats:
            shown = {"kind": e.kind, **e.data}
        else:
            shown = e.for_seat(None)
        if shown is not None:
            out.append(shown)
    return out


def diff_view(prev: dict[str, Any], view: dict[str, Any], deep: bool) -> dict[str, Any]:
    """What turns ``prev`` into ``view``: {"set": changed keys, "del": removed keys}, and
    with ``deep`` an object that is an object in both goes as its own such change in
    "sub" (only when something in it changed): a Stellium move that shows one more
    card sends that card, not the whole table of visible cards again."""
    get = prev.get
    changed: dict[str, Any] = {}
    sub: dict[str, Any] = {}
    for k, v in view.items():
        p = get(k, _NOTHING)
        # ``is`` first: parts a game shares between its views (fixed content) are not
        # compared value by value.
        if p is v or p == v:  # (an equal object is compared in C, no loop here)
            continue
        if deep and type(v) is dict and type(p) is dict:
            sub[k] = _diff_flat(p, v) or diff_view(p, v, True)
        else:
            changed[k] = v
    # Mostly the same keys: compared as key views, in C.
    gone = [] if prev.keys() == view.keys() else [k for k in prev if k not in view]
    out: dict[str, Any] = {"set": changed, "del": gone}
    if sub:
        out["sub"] = sub
    return out


def _diff_flat(prev: dict[str, Any], view: dict[str, Any]) -> dict[str, Any] | None:
    """``diff_view(prev, view)`` for objects whose values are all hashable (a Stellium
    board: space -> body), found by a difference of item sets, in C; None when a value
    is not hashable (it may be an object to diff inside)."""
    try:
        added = view.items() - prev.items()
    except TypeError:
        return None
    gone = [] if prev.keys() == view.keys() else [k for k in prev if k not in view]
    return {"set": dict(added), "del": gone}


@dataclass(eq=False)
class Client:
    """One browser connection: the seats it holds (several in hotseat) and its outbox."""

    seats: frozenset[int]
    queue: asyncio.Queue[dict[str, Any] | str | None] = field(default_factory=asyncio.Queue)
    sent_n: int = 0
    #: Once a match ends every move may be named, so the whole log is sent once again.
    told_end: bool = False
    #: The client asked for views as changes to the previous one: 1, changes of the
    #: top-level keys; 2, changes inside objects too (``diff_view``). 0: whole views.
    patches: int = 0
    #: The last view sent per seat ("public" for a spectator), when ``patches``.
    sent_views: dict[str, Any] = field(default_factory=dict)
    #: Sends an encoded message at once if that needs no waiting; False: queue it.
    send_now: Callable[[str], bool] | None = None
    #: The writer task holds a message (order: nothing may overtake it).
    writing: bool = False
    #: The task finishing a direct send that had to wait, if any.
    inflight: asyncio.Future[None] | None = None
    #: Per seat held, in order: (seat, its key in ``sent_views``, its key in a
    #: message's objects, encoded). Built once: every update names them.
    slots: tuple[tuple[int, str, str], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.slots = tuple((s, str(s), f'"{s}":') for s in sorted(self.seats))

    def _swap(self, key: str, view: dict[str, Any]) -> dict[str, Any] | None:
        """The view last sent under ``key``, now replaced by ``view``; None when the
        whole view is due (no patches wanted, or nothing sent yet)."""
        if not self.patches:
            return None
        prev = self.sent_views.get(key)
        self.sent_views[key] = view
        return prev

    def view_update(self, key: str, view: dict[str, Any]) -> tuple[str, Any]:
        """("full", view) or, for a client taking patches that has a previous view,
        ("patch", ``diff_view(previous, view)``)."""
        prev = self._swap(key, view)
        if prev is None:
            return "full", view
        return "patch", diff_view(prev, view, self.patches > 1)

    def patch_text(self, key: str, view: dict[str, Any], shared: dict[Any, Any]) -> str | None:
        """``view_update`` as a broadcast needs it: the patch already encoded, or None
        when the whole view is due. Clients that had the same previous view (several
        tabs, spectators kept in step, every seat of a game with public views) share
        one diff and one encoding through ``shared``, the broadcast's cache; its entry
        keeps that previous view alive, so its id stays its own while the cache lives."""
        prev = self._swap(key, view)
        if prev is None:
            return None
        k = (id(prev), id(view), self.patches)
        found = shared.get(k)
        if found is None:
            found = shared[k] = (prev, dumps(diff_view(prev, view, self.patches > 1)))
        return cast(str, found[1])

    #: A client this far behind is cut off (it reconnects and gets the current state).
    MAX_BACKLOG = 500

    def send(self, message: dict[str, Any] | str | None) -> None:
        """Queue a message (a dict, or a str already encoded); None closes."""
        if (
            self.send_now is not None
            and isinstance(message, str)
            and not self.writing
            and self.inflight is None
            and self.queue.empty()
            and self.send_now(message)
        ):
            return  # sent without a trip through the writer task
        if message is not None and self.queue.qsize() > self.MAX_BACKLOG:
            message = None
        self.queue.put_nowait(message)


class Room:
    """A live match: the core ``Match`` (state, record, events) plus what the server
    keeps beside it: per-seat bookkeeping for clocks and stale messages, clients,
    clock timers and agents."""

    def __init__(self, stored: StoredMatch, game: Game) -> None:
        self.id = stored.id
        self.stored = stored
        self.game = game
        self.seats = stored.seats
        self.settings = stored.settings
        self.status = stored.status
        self.match = Match(game, stored.seed, [s["name"] for s in stored.seats])
        self.turn_start: dict[int, int] = dict.fromkeys(self.match.state.to_move, 0)
        self.last_act: dict[int, int] = {}
        #: When a clock still waiting for its seat to connect starts counting (Hub's
        #: grace period), by deadline key; not stored: after a restart it just counts.
        self.clock_starts: dict[str, float] = {}
        #: Where each seat is moving the card it is playing, as its client last said
        #: (Hub.hold): read by a clock that reports cards, cleared when the seat moves.
        self.held: dict[int, tuple[int, int, int]] = {}
        #: game.describe() of every logged action, computed once.
        self.labels: list[str] = []
        #: Encoded log pieces of the last few lines, shared by every client that sees them
        #: alike (``log_text``): a line's head by (index, label shown), an event by (index,
        #: event, whole). Bounded: an old line (a reconnection's whole log) is encoded anew.
        self._log_heads: dict[tuple[int, bool], str] = {}
        self._log_events: dict[tuple[int, int, bool], str | None] = {}
        for seat, action_json, t in stored.actions:
            self.play(seat, game.action_from_json(action_json), t)
        self.deadlines: dict[str, Deadline] = {d.key: d for d in stored.deadlines}
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.clients: set[Client] = set()
        self.agents: dict[int, Agent] = {}
        self.ai_pending: set[int] = set()
        #: (move number, seat) of the last move if a player made it by hand (undoable).
        self.undoable: tuple[int, int] | None = None
        options_key = json.dumps(game.options, sort_keys=True, default=str)
        pieces = _PIECES.get((game.id, options_key))
        if pieces is None:
            pieces = _PIECES[(game.id, options_key)] = Pieces()
        self.pieces = pieces
        #: One view serves every client (``Game.public_views``).
        self.public_views = type(game).public_views
        #: Every seat sees every move's label as it is made (``Game.public_actions``): the
        #: log then reads the same during the match and after it.
        self.public_actions = type(game).public_actions

    # --- state -----------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.match.record.entries)

    @property
    def names_every_move(self) -> bool:
        """Whether every seat may read every move's label now: once the match is over,
        or all along where no choice is secret (``Game.public_actions``)."""
        return self.status != "live" or self.public_actions

    @property
    def human_seats(self) -> set[int]:
        return {i for i, s in enumerate(self.seats) if s["kind"] == "human"}

    def play(self, seat: int, action: Action, t: float | None = None) -> list[Event]:
        """Apply and log; keeps each seat's decision start (for clocks) and last move."""
        before = set(self.match.state.to_move)
        events = self.match.play(seat, action, t)
        self.labels.append(self.game.describe(action))
        n = self.n
        self.last_act[seat] = n - 1
        self.held.pop(seat, None)  # that card is down, or taken back
        for s in self.match.state.to_move:
            if s not in before or s == seat:
                self.turn_start[s] = n
        return events

    def rebuild_without_last(self) -> None:
        """Drop the last (not yet stored) action by replaying the log without it."""
        self.reset_to(self.match.record.entries[:-1])

    def reset_to(self, entries: list[Entry]) -> None:
        """Rebuild the match (and the per-seat bookkeeping) from a list of entries."""
        self.match = Match(self.game, self.stored.seed, self.match.record.seats)
        self.turn_start = dict.fromkeys(self.match.state.to_move, 0)
        self.last_act = {}
        self.held = {}
        self.labels = []
        self._log_heads = {}
        self._log_events = {}
        for e in entries:
            self.play(e.seat, e.action, e.t)

    def spectators(self) -> int:
        """Connections watching without a seat (capped by ``Settings.max_spectators``)."""
        return sum(1 for c in self.clients if not c.seats)

    # --- messages --------------------------------------------------------------------
    def header(self) -> dict[str, Any]:
        cls = type(self.game)
        return {
            "id": self.id,
            "game": self.game.id,
            "title": cls.title,
            "options": self.game.options,
            "seats": [public_seat(s, i) for i, s in enumerate(self.seats)],
            "settings": {k: v for k, v in self.settings.items() if k != "hotseat"},
            "status": self.status,
            "created": self.stored.created,
            "n": self.n,
        }

    def legal_json(self, seat: int) -> tuple[list[dict[str, Any]], bool]:
        acts = self.match.state.legal_actions(seat)
        cut = len(acts) > MAX_LEGAL_SENT
        describe = self.game.describe
        # No notation text: the browser writes it from the JSON (it is a quarter of the
        # cost of an update for games with many legal actions).
        return [{"label": describe(a), "action": a.to_json()} for a in acts[:MAX_LEGAL_SENT]], cut

    def legal_text(self, seat: int) -> str:
        """``legal_json(seat)`` already encoded: {"actions": [...], "truncated": ...}.
        Each action's piece is encoded once per game and options, then only joined."""
        acts = self.match.state.legal_actions(seat)
        if not acts:
            return _NO_LEGAL
        cut = len(acts) > MAX_LEGAL_SENT
        out = self.pieces.encode(self.game, acts[:MAX_LEGAL_SENT] if cut else acts)
        return "".join(('{"actions":[', ",".join(out), _CUT if cut else _WHOLE))

    def log_entries(self, seats: frozenset[int], start: int) -> list[dict[str, Any]]:
        over = self.names_every_move
        out = []
        entries = self.match.record.entries
        names = [s["name"] for s in self.seats]
        say = self.game.describe_event
        state = self.match.state
        for i in range(start, len(entries)):
            e = entries[i]
            mine = e.seat in seats
            out.append(
                {
                    "n": i + 1,
                    "seat": e.seat,
                    "t": e.t,
                    "label": self.labels[i] if (mine or over) else None,
                    # each event's sentence, told from what these seats see of it
                    "events": [
                        {**ev, "text": say(ev, names, state)}
                        for ev in events_for(self.match.events[i], seats)
                    ],
                }
            )
        return out

    def log_text(
        self, seats: frozenset[int], start: int, shared: dict[Any, Any] | None = None
    ) -> list[str]:
        """``log_entries(seats, start)``, each line already encoded (``_log_lines``)."""
        return self._log_lines(seats, start, shared)[0]

    def log_join(
        self, seats: frozenset[int], start: int, shared: dict[Any, Any] | None = None
    ) -> str:
        """``",".join(log_text(seats, start, shared))``. Where every label is shown (the
        match is over, or no choice is secret) and every event of these lines is public,
        every client with seats gets the same lines (and every spectator): joined once
        per broadcast (``shared``)."""
        shareable = shared is not None and self.names_every_move
        key = ("log", start, bool(seats))
        if shareable:
            assert shared is not None
            found = shared.get(key)
            if found is not None:
                return cast(str, found)
        lines, public = self._log_lines(seats, start, shared)
        text = ",".join(lines)
        if shareable and public:
            assert shared is not None
            shared[key] = text
        return text

    def _log_lines(
        self, seats: frozenset[int], start: int, shared: dict[Any, Any] | None = None
    ) -> tuple[list[str], bool]:
        """``log_entries(seats, start)``, each line already encoded, and whether every
        event in them is public. A line is put together from pieces encoded once per
        room: its head (number, seat, time, label or not) and each event as seats see it
        whole or as ``for_seat(None)`` shows it, with its sentence (which, by
        ``describe_event``'s contract, reads only what never changes once public). So the
        clients of a match share the sentences. The room keeps the pieces of its newest
        lines only; older ones (the whole log sent again at the end or on a
        reconnection) are shared through ``shared``, a broadcast's cache, if given."""
        over = self.names_every_move
        entries = self.match.record.entries
        all_events = self.match.events
        heads, pieces = self._log_heads, self._log_events
        if len(pieces) > LOG_CACHE_MAX or len(heads) > LOG_CACHE_MAX:
            heads.clear()
            pieces.clear()
        recent = len(entries) - LOG_CACHE_LINES  # older lines: in ``shared`` only
        old_heads: dict[tuple[int, bool], str] = {}
        old_pieces: dict[tuple[int, int, bool], str | None] = {}
        if shared is not None and start < recent:
            old_heads = shared.setdefault("log_heads", {})
            old_pieces = shared.setdefault("log_pieces", {})
        say = self.game.describe_event
        names: list[str] | None = None
        out = []
        all_public = True
        for i in range(start, len(entries)):
            e = entries[i]
            shown = over or e.seat in seats
            head = heads.get((i, shown)) if i >= recent else old_heads.get((i, shown))
            if head is None:
                line = {
                    "n": i + 1,
                    "seat": e.seat,
                    "t": e.t,
                    "label": self.labels[i] if shown else None,
                }
                head = dumps(line)[:-1] + ',"events":['
                (heads if i >= recent else old_heads)[(i, shown)] = head
            kept = pieces if i >= recent else old_pieces
            # A line whose events are all public reads the same for every client with
            # seats (and for every spectator): its events go in joined, found at once.
            joined_key = (i, -1, bool(seats))
            joined = kept.get(joined_key)
            if joined is None:
                parts = []
                public = True
                for j, ev in enumerate(all_events[i]):
                    if ev.seats is not None:
                        public = False
                    whole = bool(seats) and (ev.seats is None or bool(ev.seats & seats))
                    key = (i, j, whole)
                    piece = kept.get(key)
                    if piece is None and key not in kept:
                        seen = {"kind": ev.kind, **ev.data} if whole else ev.for_seat(None)
                        if seen is None:
                            piece = None
                        else:
                            if names is None:
                                names = [s["name"] for s in self.seats]
                            piece = dumps({**seen, "text": say(seen, names, self.match.state)})
                        kept[key] = piece
                    if piece is not None:
                        parts.append(piece)
                joined = ",".join(parts)
                if public:
                    kept[joined_key] = joined
                else:
                    all_public = False
            out.append(head + joined + "]}")
        return out, all_public

    def state_message(self, client: Client, cache: dict[Any, Any] | None = None) -> dict[str, Any]:
        """``state_text`` decoded (for callers that want the message as data)."""
        return dict(json.loads(self.state_text(client, cache)))

    def state_text(self, client: Client, cache: dict[Any, Any] | None = None) -> str:
        """The update ``client`` may see, encoded: its seats' views and legal actions (or
        the public view for a spectator), new log lines, clocks and the outcome.
        ``cache`` shares the views and legal actions between the clients of a broadcast."""
        cache = {} if cache is None else cache
        state = self.match.state
        n = self.n
        head = cache.get("head")
        if head is None:  # the same for every client: encoded once
            common = {
                "type": "state",
                "n": n,
                "status": self.status,
                "to_move": list(state.to_move) if self.status == "live" else [],
                # who owed the move when a match was abandoned (a correspondence match
                # lost on time: the page says whose clock ran out)
                "owed": list(state.to_move) if self.status == "abandoned" else [],
                "now": time.time(),
                "deadlines": [self._deadline_json(d) for d in self.deadlines.values()],
            }
            head = cache["head"] = dumps(common)[:-1] + ","
        # Each view or patch goes in encoded; a patch that several clients share (a
        # game with public views, several tabs, spectators) is encoded once.
        views: list[str] = []
        patches: list[str] = []
        legal: list[str] = []
        public = self.public_views
        for seat, name, label in client.slots:
            found = cache.get(seat)  # (view, legal actions) of a seat, once a broadcast
            if found is None:
                view = self._public_view(cache) if public else state.view(seat)
                # An abandoned match takes no more moves, though its state has some.
                acts = self.legal_text(seat) if self.status == "live" else _NO_LEGAL
                found = cache[seat] = (view, acts)
            view, acts = found
            patch = client.patch_text(name, view, cache)
            if patch is None:
                views.append(label + dumps({**view, "seat": seat} if public else view))
            else:
                patches.append(label + patch)
            if legal:
                legal.append(",")
            legal += (label, acts)
        # The message is put together from its encoded pieces in one join (a chain of
        # ``+`` would copy a long list of legal actions once per piece).
        parts = [head, '"views":{', ",".join(views), "}"]
        if patches:
            parts += [',"view_patches":{', ",".join(patches), "}"]
        if not client.seats:
            view = self._public_view(cache)
            patch = client.patch_text("public", view, cache)
            if patch is None:  # the same for every spectator: encoded once
                parts += [',"public":', _encoded(view, cache)]
            else:
                parts += [',"public_patch":', patch]
        entries = self.match.record.entries
        can_undo = (
            self.status == "live"
            and entries
            and entries[-1].seat in client.seats
            and self.undoable == (n, entries[-1].seat)
            and self.match.can_undo()
        )
        parts.append(',"can_undo":true' if can_undo else ',"can_undo":false')
        if state.is_over:
            parts += [',"scores":', dumps(list(state.scores))]
            parts += [',"winners":', dumps(list(state.winners))]
        # Once over every move may be named: the whole log goes again, with every label
        # (unless every label was shown all along).
        ended = self.status != "live" and not client.told_end and not self.public_actions
        if ended:
            client.told_end = True
        start = client.sent_n
        if start > n or ended:
            parts.append(',"log_reset":true')
            start = 0
        log = self.log_join(client.seats, start, cache)
        client.sent_n = n
        # The log lines and the legal actions go in already encoded (most of the bytes
        # of an update); the legal actions stay last (the bench's bots look for them).
        parts += [',"log":[', log, '],"legal":{', *legal, "}}"]
        return "".join(parts)

    def _public_view(self, cache: dict[Any, Any]) -> dict[str, Any]:
        """The spectator's view, built once per broadcast (``cache``). In a game with
        public views (``Game.public_views``) it is also every seat's, less its ``seat``:
        all clients then diff the same pair of views, so they share one patch."""
        view = cache.get("public")
        if view is None:
            view = cache["public"] = self.match.state.view(None)
        return view

    def _deadline_json(self, d: Deadline) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": d.seat, "due": d.due, "kind": d.key.split(":")[0]}
        start = self.clock_starts.get(d.key)
        if start is not None and start > time.time():
            out["start"] = start  # waiting for the seat to connect until then
        return out

    def broadcast(self) -> None:
        cache: dict[Any, Any] = {}
        for client in list(self.clients):
            client.send(self.state_text(client, cache))
