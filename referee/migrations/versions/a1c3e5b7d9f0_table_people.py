"""A table's people given when it is made (the seats of its first game)

Revision ID: a1c3e5b7d9f0
Revises: f2b4c6d8e0a1
Create Date: 2026-12-10 18:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "a1c3e5b7d9f0"
down_revision = "f2b4c6d8e0a1"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Every table so far was made with its name alone.
    with op.batch_alter_table("card_table", schema=None) as batch_op:
        batch_op.add_column(sa.Column("people", sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("card_table", schema=None) as batch_op:
        batch_op.drop_column("people")
