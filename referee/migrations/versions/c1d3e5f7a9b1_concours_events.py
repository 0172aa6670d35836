"""A club's concours: players, rounds, tables (their games, accepted results), history

Revision ID: c1d3e5f7a9b1
Revises: b9d1e3f5a7c9
Create Date: 2026-12-06 15:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "c1d3e5f7a9b1"
down_revision = "b9d1e3f5a7c9"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=32), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("play_token", sa.String(length=64), nullable=False),
        sa.Column("view_token", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("format", sa.String(length=12), nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("rounds_planned", sa.Integer(), nullable=False),
        sa.Column("length_deals", sa.Integer(), nullable=True),
        sa.Column("length_minutes", sa.Integer(), nullable=True),
        sa.Column("entry_fee", sa.String(length=20), nullable=True),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("ranking", sa.JSON(), nullable=False),
        sa.Column("place", sa.String(length=80), nullable=True),
        sa.Column("played_on", sa.Date(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_event_play_token"), ["play_token"], unique=True)
        batch_op.create_index(batch_op.f("ix_event_token"), ["token"], unique=True)
        batch_op.create_index(batch_op.f("ix_event_uid"), ["uid"], unique=True)
        batch_op.create_index(batch_op.f("ix_event_view_token"), ["view_token"], unique=True)

    op.create_table(
        "event_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=12), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("table", sa.Integer(), nullable=True),
        sa.Column("reason", sa.String(length=200), nullable=True),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("event_change", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_event_change_event_id"), ["event_id"], unique=False)

    op.create_table(
        "event_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("joined", sa.Integer(), nullable=False),
        sa.Column("left", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "number"),
    )
    with op.batch_alter_table("event_player", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_event_player_event_id"), ["event_id"], unique=False)

    op.create_table(
        "event_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("byes", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "number"),
    )
    with op.batch_alter_table("event_round", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_event_round_event_id"), ["event_id"], unique=False)

    op.create_table(
        "event_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("accepted", sa.JSON(), nullable=True),
        sa.Column("accepted_by", sa.String(length=80), nullable=True),
        sa.Column("correcting", sa.String(length=200), nullable=True),
        sa.Column("table_token", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "round", "number"),
    )
    with op.batch_alter_table("event_table", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_event_table_event_id"), ["event_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_event_table_game_id"), ["game_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_event_table_table_token"), ["table_token"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("event_table", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_event_table_table_token"))
        batch_op.drop_index(batch_op.f("ix_event_table_game_id"))
        batch_op.drop_index(batch_op.f("ix_event_table_event_id"))

    op.drop_table("event_table")
    with op.batch_alter_table("event_round", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_event_round_event_id"))

    op.drop_table("event_round")
    with op.batch_alter_table("event_player", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_event_player_event_id"))

    op.drop_table("event_player")
    with op.batch_alter_table("event_change", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_event_change_event_id"))

    op.drop_table("event_change")
    with op.batch_alter_table("event", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_event_view_token"))
        batch_op.drop_index(batch_op.f("ix_event_uid"))
        batch_op.drop_index(batch_op.f("ix_event_token"))
        batch_op.drop_index(batch_op.f("ix_event_play_token"))

    op.drop_table("event")
