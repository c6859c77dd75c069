"""Alembic environment: migrations run on a connection the application hands over.

Only ``stichwerk.storage.db.Database.migrate`` runs migrations; imported any other way (a test
collector, say) this module does nothing.
"""

from alembic import context

from stichwerk.storage.models import Base


def run() -> None:
    """Run the pending migrations on the connection in ``config.attributes``."""
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through stichwerk.storage.db.Database.migrate()")
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


try:
    _in_alembic = context.config is not None
except AttributeError:
    _in_alembic = False
if _in_alembic:
    run()
