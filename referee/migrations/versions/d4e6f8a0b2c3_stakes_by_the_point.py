"""What a game's stake is paid for: by the game's rulings, or by the point

Revision ID: d4e6f8a0b2c3
Revises: c3d5e7f9a1b2
Create Date: 2026-12-01 16:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "d4e6f8a0b2c3"
down_revision = "c3d5e7f9a1b2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every game so far paid its stakes by the game's rulings.
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("stake_per", sa.String(length=8), nullable=False, server_default="game")
        )


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("stake_per")
