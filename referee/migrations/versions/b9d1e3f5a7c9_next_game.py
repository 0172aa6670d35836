"""The next game at the same table: a game says which one it follows, at most one each

Revision ID: b9d1e3f5a7c9
Revises: a8b0c2d4e6f8
Create Date: 2026-12-05 08:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "b9d1e3f5a7c9"
down_revision = "a8b0c2d4e6f8"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # No game so far says which it follows: a finished game offers "Same table
    # again" until its next game exists. The unique index is what makes two taps
    # (or two phones) racing on one finished game make one next game.
    #
    # On SQLite, never through a batch (a copy of the table): the app's connections
    # enforce foreign keys, and dropping the old `game` table would delete every
    # deal and change in cascade. A column with a REFERENCES clause and a NULL
    # default, and an index, are added in place.
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            "ALTER TABLE game ADD COLUMN next_of INTEGER REFERENCES game (id) ON DELETE SET NULL"
        )
    else:
        op.add_column("game", sa.Column("next_of", sa.Integer(), nullable=True))
        op.create_foreign_key(
            "fk_game_next_of_game", "game", "game", ["next_of"], ["id"], ondelete="SET NULL"
        )
    op.create_index("ix_game_next_of", "game", ["next_of"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_game_next_of", table_name="game")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("ALTER TABLE game DROP COLUMN next_of")  # in place (SQLite 3.35+)
    else:
        op.drop_constraint("fk_game_next_of_game", "game", type_="foreignkey")
        op.drop_column("game", "next_of")
