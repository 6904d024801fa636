"""Rematches: a finished match's one rematch (``people_tables.rematches``).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rematches",
        sa.Column("match_id", sa.String(40), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("new_match_id", sa.String(40), nullable=True),
        sa.Column("t", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rematches")
