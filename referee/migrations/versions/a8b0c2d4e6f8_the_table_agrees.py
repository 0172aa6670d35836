"""The table agrees: a game may ask every deal to be confirmed by another phone;
changes say which phone made them (confirmations and signatures are changes too)

Revision ID: a8b0c2d4e6f8
Revises: f7a9b1c3d5e7
Create Date: 2026-12-01 20:25:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "a8b0c2d4e6f8"
down_revision = "f7a9b1c3d5e7"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every game so far asked no confirmation; no change said its phone.
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("confirm_deals", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("change", schema=None) as batch_op:
        batch_op.add_column(sa.Column("phone", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("change", schema=None) as batch_op:
        batch_op.drop_column("phone")
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("confirm_deals")
