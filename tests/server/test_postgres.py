"""The storage and API suites again, against a real PostgreSQL started by the test run.

Each test gets a fresh database; the test functions are the same as for SQLite.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.server.people import CHEAP
from tests.server.postgres import PostgresServer, find_bindir
from tests.server.test_accounts import (
    test_a_guest_who_signs_up_claims_the_seats_its_browser_holds as test_pg_claim_seats,
)
from tests.server.test_accounts import (
    test_a_session_is_valid_on_every_worker as test_pg_session_on_every_worker,
)
from tests.server.test_accounts import (
    test_another_persons_seat_is_refused_in_a_rated_match as test_pg_seat_refused,
)
from tests.server.test_accounts import (
    test_deleted_account_cannot_sign_in_and_its_matches_stay as test_pg_deleted_account,
)
from tests.server.test_accounts import (
    test_name_rules_and_case_insensitive_uniqueness as test_pg_unique_names,
)
from tests.server.test_accounts import (
    test_sign_in_gives_a_fresh_token_no_fixation as test_pg_no_fixation,
)
from tests.server.test_accounts import (
    test_wrong_password_backs_off_per_name_even_for_the_right_one as test_pg_backoff,
)
from tests.server.test_analysis_api import (
    test_a_finished_analysis_survives_a_restart_and_a_half_one_is_not_done as test_pg_analysis,
)
from tests.server.test_analysis_api import (
    test_one_analysis_per_match_and_the_limit_of_the_server as test_pg_analysis_once,
)
from tests.server.test_api import (
    test_hotseat_one_socket_plays_both_seats_to_the_end as test_pg_hotseat_game,
)
from tests.server.test_api import test_refusals_change_nothing as test_pg_refusals
from tests.server.test_api import test_undo_takes_back_a_free_move_only as test_pg_undo
from tests.server.test_clocks import (
    test_conflict_timed_deployment_runs_one_table_clock_of_the_battle_size as test_pg_table_clock,
)
from tests.server.test_clocks import (
    test_stellium_draw_clock_draws_at_random_for_a_slow_player as test_pg_draw_clock,
)
from tests.server.test_faults import (
    test_a_move_the_database_refuses_is_not_applied as test_pg_storage_fault,
)
from tests.server.test_no_leaks import (
    test_each_seat_receives_exactly_its_own_view_and_events as test_pg_no_leaks,
)
from tests.server.test_queue import clock  # noqa: F401 (the fake clock fixture)
from tests.server.test_queue import (
    test_a_group_one_worker_claimed_is_not_taken_by_another as test_pg_queue_once,
)
from tests.server.test_queue import (
    test_people_who_reached_different_workers_meet as test_pg_queue_workers,
)
from tests.server.test_ratings import (
    test_a_rated_match_against_a_bot_moves_both_ratings_once as test_pg_rating,
)
from tests.server.test_ratings import (
    test_abandoned_rated_match_loses_for_the_seat_that_owed_a_move as test_pg_abandoned_rated,
)
from tests.server.test_ratings import (
    test_stellarion_counts_results_per_setup as test_pg_coop_stats,
)
from tests.server.test_storage import test_ai_seats_resume_after_a_restart as test_pg_ai_resume
from tests.server.test_storage import test_migrations_go_down_and_up_again as test_pg_migrations
from tests.server.test_storage import (
    test_restart_rebuilds_live_matches_views_tokens_and_clocks as test_pg_restart,
)
from tests.server.test_storage import (
    test_round_trip_of_header_actions_and_deadlines as test_pg_round_trip,
)
from tests.server.test_storage import test_sigkill_loses_no_acknowledged_move as test_pg_sigkill
from tests.server.test_storage import (
    test_upgrade_to_analyses_adds_their_table_and_keeps_every_match as test_pg_upgrade,
)
from tests.server.test_tables import (
    test_a_table_fills_then_its_match_starts_with_the_seats_held as test_pg_tables,
)

__all__ = [
    "test_pg_analysis",
    "test_pg_analysis_once",
    "test_pg_upgrade",
    "test_pg_abandoned_rated",
    "test_pg_backoff",
    "test_pg_claim_seats",
    "test_pg_coop_stats",
    "test_pg_deleted_account",
    "test_pg_no_fixation",
    "test_pg_queue_once",
    "test_pg_queue_workers",
    "test_pg_rating",
    "test_pg_tables",
    "test_pg_seat_refused",
    "test_pg_session_on_every_worker",
    "test_pg_unique_names",
    "test_pg_ai_resume",
    "test_pg_draw_clock",
    "test_pg_no_leaks",
    "test_pg_storage_fault",
    "test_pg_table_clock",
    "test_pg_hotseat_game",
    "test_pg_migrations",
    "test_pg_refusals",
    "test_pg_restart",
    "test_pg_round_trip",
    "test_pg_sigkill",
    "test_pg_undo",
]


@pytest.fixture(scope="module")
def pg_server() -> Iterator[str]:
    bindir = find_bindir()
    if bindir is None:
        pytest.skip("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    server = PostgresServer(bindir)
    try:
        url = server.start()
    except Exception:
        server.stop()
        raise
    yield url
    server.stop()


@pytest.fixture
def client(client_factory):
    """The suite's client, with cheap password hashes (the accounts tests' own)."""
    return client_factory(**CHEAP)


@pytest.fixture
def db_url(pg_server: str) -> str:
    """A new, empty database for this test."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    dsn = pg_server.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return pg_server.rsplit("/", 1)[0] + "/" + name
