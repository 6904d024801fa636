"""Match records: headers, action logs and clock deadlines.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("updated", sa.Float, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
    )
    op.create_index("ix_matches_status", "matches", ["status"])
    op.create_table(
        "actions",
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.JSON, nullable=False),
        sa.Column("t", sa.Float, nullable=False),
    )
    op.create_table(
        "deadlines",
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("key", sa.String(120), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("due", sa.Float, nullable=False),
        sa.Column("action", sa.JSON, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("deadlines")
    op.drop_table("actions")
    op.drop_index("ix_matches_status", "matches")
    op.drop_table("matches")
