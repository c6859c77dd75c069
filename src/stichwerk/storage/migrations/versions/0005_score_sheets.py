"""Score sheets for games played with real cards: each list and its append-only change log.

Revision ID: 0005
Revises: 0003
Create Date: 2026-12-02 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "score_list",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("scorer_token", sa.String(length=43), nullable=False),
        sa.Column("follower_token", sa.String(length=43), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_score_list")),
        sa.UniqueConstraint("scorer_token", name=op.f("uq_score_list_scorer_token")),
        sa.UniqueConstraint("follower_token", name=op.f("uq_score_list_follower_token")),
    )
    op.create_table(
        "score_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("list_id", sa.String(length=16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("change", sa.JSON(), nullable=False),
        sa.Column("link", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["list_id"], ["score_list.id"], name=op.f("fk_score_change_list_id_score_list")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_score_change")),
        sa.UniqueConstraint("list_id", "key", name=op.f("uq_score_change_list_id_key")),
        sa.UniqueConstraint("list_id", "seq", name=op.f("uq_score_change_list_id_seq")),
    )


def downgrade() -> None:
    op.drop_table("score_change")
    op.drop_table("score_list")
