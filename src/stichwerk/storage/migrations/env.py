"""Alembic environment: migrations run on a connection the application hands over."""

from alembic import context

from stichwerk.storage.models import Base

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
