"""People on the server: the accounts, sessions, seats held and ratings put together
for the routes and the hub (``app.state.people``).

The hub calls ``match_ended`` once a match's last move is committed (or it is
abandoned); the results are counted in the hub's writer thread, after that commit, so
a match is counted once and never before its end is stored. A guest's match costs one
read there, at its end, and nothing while it is played.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, and_, exists, select

from skydeck.server import backoff as bo
from skydeck.server.accounts import DELETED_NAME, Account, Accounts, bot_name, check_name, name_key
from skydeck.server.ai import available_specs
from skydeck.server.backoff import Backoff
from skydeck.server.guard import Refused
from skydeck.server.holders import Holders
from skydeck.server.matchmaking import Matchmaking
from skydeck.server.messages import ProtocolError
from skydeck.server.passwords import Hasher, check_new
from skydeck.server.people_tables import match_outcomes, match_players
from skydeck.server.ratings import cooperative, outcome, record_end
from skydeck.server.rematch import Rematches
from skydeck.server.sessions import Session, Sessions
from skydeck.server.settings import Settings
from skydeck.server.storage import matches
from skydeck.server.tables import Tables

if TYPE_CHECKING:
    from skydeck.server.hub import Hub
    from skydeck.server.room import Room

log = logging.getLogger("skydeck.server")


def rename_seats(room: Room, seats: list[int], name: str) -> None:
    """Seats of a room in memory shown under a new name (header and record alike)."""
    for seat in seats:
        if 0 <= seat < len(room.seats):
            room.seats[seat]["name"] = name
            names = room.match.record.seats
            if seat < len(names):
                names[seat] = name


class SignInError(ValueError):
    """Wrong name or password (one answer for both: it does not tell which names exist)."""


class People:
    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings
        self.accounts = Accounts(engine)
        self.sessions = Sessions(engine, settings.session_days)
        self.backoff = Backoff(engine)
        self.holders = Holders(engine)
        self.hasher = Hasher(settings.password_memory)
        self.queue = Matchmaking(engine, settings)
        self.rematches = Rematches(engine)
        self.tables = Tables(engine)

    # --- accounts and sessions (called from a thread: Argon2 takes tens of ms) ---------
    def sign_up(self, name: Any, password: Any, replacing: str | None = None) -> Session:
        name = check_name(name)
        pw = check_new(password, name)
        account = self.accounts.create(name, self.hasher.hash(pw))
        log.info("account %s created", account.id)
        return self.sessions.start(account, replacing)

    def sign_in(
        self, name: Any, password: Any, address: str, replacing: str | None = None
    ) -> Session:
        """A fresh session for the right name and password; SignInError otherwise, and
        Refused while the name or the address is backing off (checked first)."""
        if not isinstance(name, str) or not isinstance(password, str):
            raise ValueError("send 'name' and 'password' as strings")
        keys = [bo.name_key(name_key(name.strip())), bo.address_key(address)]
        now = time.time()
        wait = self.backoff.closed_for(keys, now)
        if wait > 0:
            raise Refused(
                f"too many failed sign-ins for this name or from your address: "
                f"{bo.retry_text(wait)}",
                wait,
            )
        account = self.accounts.by_name(name)
        stored = account.password if account is not None else None
        if account is None or not self.hasher.verify(stored, password):
            self.backoff.fail([(keys[0], bo.FREE_BY_NAME), (keys[1], bo.FREE_BY_ADDRESS)], now)
            raise SignInError("wrong name or password")
        assert stored is not None
        self.backoff.forget(keys[0])
        if self.hasher.needs_rehash(stored):
            self.accounts.set_password(account.id, self.hasher.hash(password))
        return self.sessions.start(account, replacing)

    def change_password(self, session: Session, old: Any, new: Any) -> Session:
        """A new password: every session of the account ends, a fresh one starts here."""
        if not isinstance(old, str) or not self.hasher.verify(session.account.password, old):
            raise SignInError("the current password is wrong")
        pw = check_new(new, session.account.name)
        self.accounts.set_password(session.account.id, self.hasher.hash(pw))
        self.sessions.end_all(session.account.id)
        fresh = self.accounts.by_id(session.account.id)
        assert fresh is not None
        return self.sessions.start(fresh)

    def delete(self, session: Session, password: Any) -> list[tuple[str, int]]:
        if not isinstance(password, str) or not self.hasher.verify(
            session.account.password, password
        ):
            raise SignInError("the password is wrong")
        log.info("account %s deleted", session.account.id)
        return self.accounts.delete(session.account.id)

    # --- matches made by someone signed in --------------------------------------------
    def prepare_match(
        self, spec: Any, account: Account | None
    ) -> tuple[Any, dict[int, int], bool]:
        """A lobby request with ``me`` seats or ``rated`` made ready for the hub: the
        names of the seats held filled in, bot accounts found; (spec, seat -> account,
        rated). ValueError names what is wrong; PermissionError: not signed in."""
        if not isinstance(spec, dict) or not isinstance(spec.get("seats"), list):
            return spec, {}, False
        rated = spec.get("rated", False)
        if not isinstance(rated, bool):
            raise ValueError("'rated' must be true or false")
        seats = spec["seats"]
        me = [i for i, s in enumerate(seats) if isinstance(s, dict) and s.get("me") is True]
        if not rated and not me:
            return spec, {}, False
        if account is None:
            raise PermissionError("sign in to take a seat as yourself or to play rated")
        if len(me) > 1:
            raise ValueError("you may take one seat of a match ('me': true on one seat)")
        held: dict[int, int] = {}
        out = [dict(s) if isinstance(s, dict) else s for s in seats]
        for i in me:
            if out[i].get("kind") != "human":
                raise ValueError(f"seats[{i}]: the seat you take ('me') is a human seat")
            out[i]["name"] = account.name
            held[i] = account.id
        game = spec.get("game")
        if rated:
            if cooperative(str(game)):
                raise ValueError(f"{game} is co-operative: its matches are not rated")
            if len(seats) < 2:
                raise ValueError("a rated match has two players or more")
            if spec.get("hotseat"):
                raise ValueError("a rated match is not played hotseat")
            if not me:
                raise ValueError("a rated match's creator takes a seat ('me': true)")
            offered = available_specs(str(game), self.settings.models)
            for i, s in enumerate(out):
                if isinstance(s, dict) and s.get("kind") == "ai":
                    agent = str(s.get("agent", "random")).strip()
                    levels = [a for a in offered if not a.startswith("policy:")]
                    if agent not in levels:
                        raise ValueError(
                            f"seats[{i}]: a rated match's AI plays at one of the lobby's "
                            f"levels ({', '.join(levels)}), not {agent!r}"
                        )
                    s["agent"] = agent
                    s["name"] = bot_name(agent)
                    held[i] = self.accounts.bot(agent).id
        return {**spec, "seats": out}, held, rated

    def hold_created(self, room: Room, held: dict[int, int], rated: bool) -> None:
        if held:
            self.holders.hold_many(room.id, room.game.id, dict(room.game.options), rated, held)

    async def socket_seats(
        self, room: Room, seats: frozenset[int], cookie: str | None
    ) -> frozenset[int]:
        """The seats a match socket opens: those of its tokens, plus (signed in) the
        seats the account holds, the token-opened ones claimed for it. A rated match's
        seat opens only for the account that holds it; ProtocolError otherwise."""
        rated = bool(room.settings.get("rated"))
        session = await asyncio.to_thread(self.sessions.find, cookie) if cookie else None
        if session is None:
            if rated and seats:
                raise ProtocolError(
                    "sign_in", "sign in to play a seat of a rated match (anybody may watch)"
                )
            return seats
        mine, problems, taken = await asyncio.to_thread(
            self.holders.claim, session.account.id, room.id, seats, rated, session.account.name
        )
        if rated and seats - mine:
            raise ProtocolError("bad_token", problems[0] if problems else "not your seat")
        rename_seats(room, taken, session.account.name)
        return seats | mine

    def rename_deleted(self, hub: Hub, renamed: list[tuple[str, int]]) -> None:
        """The rooms in this worker's memory read "deleted player" at once too."""
        for match_id, seat in renamed:
            room = hub.rooms.get(match_id)
            if room is not None:
                rename_seats(room, [seat], DELETED_NAME)

    def rename_claimed(self, hub: Hub, claimed: list[dict[str, Any]], name: str) -> None:
        """Seats claimed at sign-in carry the account's name in the rooms in this
        worker's memory too (another worker's room reads it when it is rebuilt)."""
        for item in claimed:
            room = hub.rooms.get(item["match"])
            if room is not None:
                rename_seats(room, item.pop("taken", []), name)
            else:
                item.pop("taken", None)

    # --- the end of a match ------------------------------------------------------------
    def match_ended(self, hub: Hub, room: Room) -> None:
        """Called on the loop once a match's end is stored: its result counted in the
        writer thread (after that commit, in order)."""
        state = room.match.state
        args = (
            room.id,
            room.game.id,
            bool(room.settings.get("rated")),
            outcome(room.game.id, room.status, list(state.scores), tuple(state.winners),
                    tuple(state.to_move), len(room.seats)),
            room.n,
        )
        if hub.loop is None:
            self._count(*args)
        else:
            hub.writer.submit(self._count, *args)

    def _count(self, *args: Any) -> None:
        try:
            note = record_end(self.engine, *args)
        except Exception:
            log.exception("the result of match %s could not be counted", args[0])
            return
        if note is not None and args[2]:
            log.info("match %s ends unrated: %s", args[0], note)

    def uncounted(self) -> list[str]:
        """Finished matches with seats held whose result is not counted yet (the server
        stopped between their end and the count)."""
        held = exists().where(match_players.c.match_id == matches.c.id)
        counted = exists().where(match_outcomes.c.match_id == matches.c.id)
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(matches.c.id).where(
                    and_(matches.c.status != "live", held, ~counted)
                ).order_by(matches.c.updated)
            )
            return [r[0] for r in rows]

    def count_uncounted(self, hub: Hub) -> None:
        for match_id in self.uncounted():
            try:
                room = hub.room(match_id)
            except Exception:
                log.exception("match %s could not be rebuilt to count it", match_id)
                continue
            if room is not None:
                self.match_ended(hub, room)
