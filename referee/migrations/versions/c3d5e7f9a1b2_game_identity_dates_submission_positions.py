"""A game's lasting identity and day; what each form key recorded; unusable names mended

Revision ID: c3d5e7f9a1b2
Revises: b7c1f0e2a9d4
Create Date: 2026-12-01 10:00:00
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "c3d5e7f9a1b2"
down_revision = "b7c1f0e2a9d4"
branch_labels = None
depends_on = None


def _usable(name: object) -> object:
    """A name as text that can be encoded: lone surrogates become U+FFFD."""
    if not isinstance(name, str):
        return name
    return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in name)


def upgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("uid", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("played_on", sa.Date(), nullable=True))
    # Every existing game gets its identity, which survives link rotations; a name
    # that an old import let in with a lone surrogate is mended so its pages render.
    game = sa.table(
        "game",
        sa.column("id", sa.Integer),
        sa.column("uid", sa.String),
        sa.column("players", sa.JSON),
    )
    connection = op.get_bind()
    for game_id, players in connection.execute(sa.select(game.c.id, game.c.players)).all():
        mended = [_usable(name) for name in players or []]
        connection.execute(
            game.update()
            .where(game.c.id == game_id)
            .values(uid=secrets.token_hex(16), players=mended)
        )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.alter_column("uid", existing_type=sa.String(length=32), nullable=False)
        batch_op.create_index(batch_op.f("ix_game_uid"), ["uid"], unique=True)

    with op.batch_alter_table("submission", schema=None) as batch_op:
        batch_op.add_column(sa.Column("position", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("undone", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("submission", schema=None) as batch_op:
        batch_op.drop_column("undone")
        batch_op.drop_column("position")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_uid"))
        batch_op.drop_column("played_on")
        batch_op.drop_column("uid")
