"""A memo of each game's outcome, for a table's statistics (derived, never the truth)

Revision ID: f7a9b1c3d5e7
Revises: e5f7a9b1c3d5
Create Date: 2026-12-01 19:40:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "f7a9b1c3d5e7"
down_revision = "e5f7a9b1c3d5"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Empty for every game so far: derived again from the deals when first needed.
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("outcome", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("outcome")
