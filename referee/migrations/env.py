"""Alembic environment: run migrations against the app's database (Flask-Migrate)."""

from __future__ import annotations

from alembic import context
from flask import current_app

config = context.config
target_metadata = current_app.extensions["migrate"].db.metadata


def run_offline() -> None:
    """Emit SQL without a connection (`flask db upgrade --sql`)."""
    url = current_app.extensions["migrate"].db.engine.url.render_as_string(hide_password=False)
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    """Migrate through the app's engine."""
    engine = current_app.extensions["migrate"].db.engine
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
