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
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # A batch migration copies a table, drops the old one and renames the
            # copy: with foreign keys enforced (the app's connections turn them on),
            # dropping `game` deleted every deal and change in cascade. Off for the
            # migrations (outside a transaction, the only place SQLite takes it),
            # then checked and on again.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=sqlite,
        )
        with context.begin_transaction():
            context.run_migrations()
        if sqlite:
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()
            if broken:
                raise RuntimeError(f"the migrations left rows without their parent: {broken[:5]}")


if context.is_offline_mode():
    run_offline()
else:
    run_online()
