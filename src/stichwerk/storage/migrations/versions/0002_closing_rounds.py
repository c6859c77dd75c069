"""Tables keep their closing rounds (Schlussrunden): a list of deal types, empty for most.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_table", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("closing_rounds", sa.JSON(), nullable=False, server_default=sa.text("'[]'"))
        )


def downgrade() -> None:
    with op.batch_alter_table("game_table", schema=None) as batch_op:
        batch_op.drop_column("closing_rounds")
