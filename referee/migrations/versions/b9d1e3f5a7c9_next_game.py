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
    # again" until its next game exists. The unique constraint is what makes two
    # taps (or two phones) racing on one finished game make one next game.
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("next_of", sa.Integer(), nullable=True))
        batch_op.create_unique_constraint("uq_game_next_of", ["next_of"])
        batch_op.create_foreign_key(
            "fk_game_next_of_game", "game", ["next_of"], ["id"], ondelete="SET NULL"
        )


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_constraint("fk_game_next_of_game", type_="foreignkey")
        batch_op.drop_constraint("uq_game_next_of", type_="unique")
        batch_op.drop_column("next_of")
