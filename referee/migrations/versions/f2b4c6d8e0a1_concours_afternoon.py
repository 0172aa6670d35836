"""A concours's afternoon: the club's time zone, who may accept at a table, the
TV's slides, players' paid fees and missed rounds, a table's overtime, a season's
merged names

Revision ID: f2b4c6d8e0a1
Revises: e8f0a2c4d6b8
Create Date: 2026-12-07 11:45:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "f2b4c6d8e0a1"
down_revision = "e8f0a2c4d6b8"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("event") as batch:
        batch.add_column(
            sa.Column(
                "time_zone", sa.String(length=40), nullable=False, server_default="Europe/Paris"
            )
        )
        batch.add_column(
            sa.Column("self_accept", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("screen", sa.JSON(), nullable=True))
    with op.batch_alter_table("event_player") as batch:
        batch.add_column(sa.Column("missed", sa.JSON(), nullable=False, server_default="[]"))
        batch.add_column(sa.Column("paid", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("event_table") as batch:
        batch.add_column(
            sa.Column("overtime", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("season") as batch:
        batch.add_column(sa.Column("aliases", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("season") as batch:
        batch.drop_column("aliases")
    with op.batch_alter_table("event_table") as batch:
        batch.drop_column("overtime")
    with op.batch_alter_table("event_player") as batch:
        batch.drop_column("paid")
        batch.drop_column("missed")
    with op.batch_alter_table("event") as batch:
        batch.drop_column("screen")
        batch.drop_column("self_accept")
        batch.drop_column("time_zone")
