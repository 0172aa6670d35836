"""Spectator links and rate limits

Revision ID: b7c1f0e2a9d4
Revises: ed6db92a6f27
Create Date: 2026-11-30 08:05:00
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "b7c1f0e2a9d4"
down_revision = "ed6db92a6f27"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("view_token", sa.String(length=64), nullable=True))
    # Every existing game gets its own spectator link.
    game = sa.table("game", sa.column("id", sa.Integer), sa.column("view_token", sa.String))
    connection = op.get_bind()
    for (game_id,) in connection.execute(sa.select(game.c.id)).all():
        connection.execute(
            game.update().where(game.c.id == game_id).values(view_token=secrets.token_urlsafe(18))
        )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.alter_column("view_token", existing_type=sa.String(length=64), nullable=False)
        batch_op.create_index(batch_op.f("ix_game_view_token"), ["view_token"], unique=True)

    op.create_table(
        "rate_limit",
        sa.Column("key", sa.String(length=128), nullable=False),
        sa.Column("window", sa.Integer(), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("key", "window"),
    )


def downgrade() -> None:
    op.drop_table("rate_limit")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_view_token"))
        batch_op.drop_column("view_token")
