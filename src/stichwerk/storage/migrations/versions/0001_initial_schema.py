"""Initial schema: accounts, tables and seats, deals and their event log.

Revision ID: 0001
Revises: (none)
Create Date: 2026-11-30 05:40:39.018957
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "setting",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_setting")),
    )
    op.create_table(
        "user_account",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=40), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.Column("is_guest", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_user_account")),
        sa.UniqueConstraint("username", name=op.f("uq_user_account_username")),
    )
    op.create_table(
        "game_table",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("profile", sa.String(length=40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("series_length", sa.Integer(), nullable=False),
        sa.Column("time_limit", sa.Integer(), nullable=False),
        sa.Column("public", sa.Boolean(), nullable=False),
        sa.Column("invite", sa.String(length=32), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["created_by"], ["user_account.id"], name=op.f("fk_game_table_created_by_user_account")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_table")),
    )
    op.create_table(
        "deal",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("counts", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name=op.f("fk_deal_table_id_game_table")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deal")),
        sa.UniqueConstraint("table_id", "number", name=op.f("uq_deal_table_id_number")),
    )
    with op.batch_alter_table("deal", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_deal_table_id"), ["table_id"], unique=False)

    op.create_table(
        "table_seat",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("bot", sa.String(length=40), nullable=True),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name=op.f("fk_table_seat_table_id_game_table")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user_account.id"], name=op.f("fk_table_seat_user_id_user_account")
        ),
        sa.PrimaryKeyConstraint("table_id", "seat", name=op.f("pk_table_seat")),
    )
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("by_bot", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["deal_id"], ["deal.id"], name=op.f("fk_event_deal_id_deal")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event")),
        sa.UniqueConstraint("deal_id", "seq", name=op.f("uq_event_deal_id_seq")),
    )


def downgrade() -> None:
    op.drop_table("event")
    op.drop_table("table_seat")
    with op.batch_alter_table("deal", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_deal_table_id"))

    op.drop_table("deal")
    op.drop_table("game_table")
    op.drop_table("user_account")
    op.drop_table("setting")
