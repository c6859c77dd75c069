"""Owner secrets of the clubs' series, and club histories imported in batches.

- ``series_owner``: the SHA-256 of a series' owner secret (made with its first tournament,
  shown once to its director); adding a tournament, a history or a backup to the series needs
  the secret. A series made before this migration has none until its next write from the web
  claims it (or the operator sets one: ``stichwerk tournament series-secret``).
- ``tournament.series_key``: the secret's hash when the owner let the tournament in (made with
  the secret, or the series' first): its director adds history without typing the secret, until
  the secret is changed.
- ``history_import`` and ``ranking_row.import_id``: a history is written in short batches, each
  its own transaction, and its rows count only once its ``history_import`` row is ``done``.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05 04:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "series_owner",
        sa.Column("series", sa.String(length=120), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("series", name=op.f("pk_series_owner")),
    )
    op.create_table(
        "history_import",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("series", sa.String(length=120), nullable=False),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_history_import")),
    )
    # Added in place (SQLite's ALTER TABLE ... ADD COLUMN), never by copying the table.
    op.add_column("ranking_row", sa.Column("import_id", sa.String(length=16), nullable=True))
    op.add_column("tournament", sa.Column("series_key", sa.String(length=64), nullable=True))
    op.create_index(op.f("ix_ranking_row_import_id"), "ranking_row", ["import_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_ranking_row_import_id"), table_name="ranking_row")
    # Rows of an import never finished go with the column that told them apart.
    op.execute(
        "DELETE FROM ranking_row WHERE import_id IS NOT NULL AND import_id NOT IN "
        "(SELECT id FROM history_import WHERE done)"
    )
    with op.batch_alter_table("ranking_row", schema=None) as batch_op:
        batch_op.drop_column("import_id")
    with op.batch_alter_table("tournament", schema=None) as batch_op:
        batch_op.drop_column("series_key")
    op.drop_table("history_import")
    op.drop_table("series_owner")
