"""The games removed by their players, remembered for the backups

Revision ID: e8f0a2c4d6b8
Revises: d2f4a6b8c0e2
Create Date: 2026-12-07 05:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "e8f0a2c4d6b8"
down_revision = "d2f4a6b8c0e2"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "removed_game",
        sa.Column("uid", sa.String(length=32), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("view_token", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("uid"),
    )


def downgrade() -> None:
    op.drop_table("removed_game")
