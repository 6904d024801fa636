"""Play now: the queue's places (``people_tables.queue_entries``).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "queue_entries",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("setup", sa.String(400), nullable=False),
        sa.Column("rating", sa.Integer, nullable=False),
        sa.Column("joined", sa.Float, nullable=False),
        sa.Column("polled", sa.Float, nullable=False),
        sa.Column("claim", sa.String(40), nullable=True),
        sa.Column("match_id", sa.String(40), nullable=True),
    )
    op.create_index(
        "ix_queue_waiting", "queue_entries", ["game", "players", "setup", "joined"]
    )


def downgrade() -> None:
    op.drop_index("ix_queue_waiting", table_name="queue_entries")
    op.drop_table("queue_entries")
