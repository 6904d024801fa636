"""Open tables: tables waiting for people to take their seats (``people_tables.open_tables``).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "open_tables",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("setup", sa.String(400), nullable=False),
        sa.Column("host", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("seats", sa.String(400), nullable=False),
        sa.Column("settings", sa.String(400), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("match_id", sa.String(40), nullable=True),
    )
    op.create_index("ix_open_tables_listed", "open_tables", ["match_id", "created"])


def downgrade() -> None:
    op.drop_index("ix_open_tables_listed", table_name="open_tables")
    op.drop_table("open_tables")
