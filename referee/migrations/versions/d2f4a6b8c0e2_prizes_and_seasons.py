"""A concours's prizes and language; a club's seasons (championships over concours)

Revision ID: d2f4a6b8c0e2
Revises: c1d3e5f7a9b1
Create Date: 2026-12-06 23:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "d2f4a6b8c0e2"
down_revision = "c1d3e5f7a9b1"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("event") as batch:
        batch.add_column(sa.Column("prizes", sa.JSON(), nullable=True))
        batch.add_column(
            sa.Column("language", sa.String(length=5), nullable=False, server_default="fr")
        )
    op.create_table(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("view_token", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("language", sa.String(length=5), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_season_token", "season", ["token"], unique=True)
    op.create_index("ix_season_view_token", "season", ["view_token"], unique=True)
    op.create_table(
        "season_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["season_id"], ["season.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("season_id", "event_id"),
    )
    op.create_index("ix_season_event_season_id", "season_event", ["season_id"])
    op.create_index("ix_season_event_event_id", "season_event", ["event_id"])


def downgrade() -> None:
    op.drop_table("season_event")
    op.drop_table("season")
    with op.batch_alter_table("event") as batch:
        batch.drop_column("language")
        batch.drop_column("prizes")
