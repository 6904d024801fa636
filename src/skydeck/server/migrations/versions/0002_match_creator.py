"""Who created a match (a digest of the client's address), to cap its unfinished ones.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("ix_matches_creator_status", "matches", ["creator", "status"])


def downgrade() -> None:
    op.drop_index("ix_matches_creator_status", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("creator")
