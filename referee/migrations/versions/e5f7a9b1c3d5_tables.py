"""Tables: people who play together, and the table each game was played at

Revision ID: e5f7a9b1c3d5
Revises: d4e6f8a0b2c3
Create Date: 2026-12-01 19:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "e5f7a9b1c3d5"
down_revision = "d4e6f8a0b2c3"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "card_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("uid", sa.String(length=32), nullable=False),
        sa.Column("token", sa.String(length=64), nullable=False),
        sa.Column("view_token", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("aliases", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("card_table", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_card_table_uid"), ["uid"], unique=True)
        batch_op.create_index(batch_op.f("ix_card_table_token"), ["token"], unique=True)
        batch_op.create_index(batch_op.f("ix_card_table_view_token"), ["view_token"], unique=True)
    # Every game so far stood alone.
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("table_id", sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f("ix_game_table_id"), ["table_id"], unique=False)
        batch_op.create_foreign_key(
            "fk_game_table_id", "card_table", ["table_id"], ["id"], ondelete="SET NULL"
        )


def downgrade() -> None:
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_constraint("fk_game_table_id", type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_game_table_id"))
        batch_op.drop_column("table_id")
    op.drop_table("card_table")
