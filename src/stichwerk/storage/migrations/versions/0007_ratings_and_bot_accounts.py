"""Ratings (current, history, which deals are taken in) and bot accounts with API tokens.

- ``rating``: each player's current openskill rating per game and profile;
- ``rating_history``: the rating after every rated deal, in rating order;
- ``rated_deal``: every finished deal the ratings have taken in, with its place in the order;
- ``user_account.bot_owner_id``: a bot account (a program hosted elsewhere) and who owns it;
- ``bot_token``: the SHA-256 of a bot account's API token (revoked by deleting the row).

The ratings are derived data: ``stichwerk.storage.ratings.rebuild`` fills them from the deals
already finished (``python -m stichwerk.server.ratings rebuild``); the server catches up with
any deal not yet taken in when it starts, so an upgraded database gets its ratings at once.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Added in place (SQLite's ALTER TABLE ... ADD COLUMN), never by copying the table that
    # every other table refers to.
    op.add_column("user_account", sa.Column("bot_owner_id", sa.Integer(), nullable=True))
    op.create_index(op.f("ix_user_account_bot_owner_id"), "user_account", ["bot_owner_id"])
    op.create_table(
        "bot_token",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("hint", sa.String(length=12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user_account.id"], name=op.f("fk_bot_token_user_id_user_account")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bot_token")),
        sa.UniqueConstraint("user_id", name=op.f("uq_bot_token_user_id")),
    )
    op.create_table(
        "rating",
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("profile", sa.String(length=40), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("game", "profile", "player", name=op.f("pk_rating")),
    )
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("profile", sa.String(length=40), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["deal_id"], ["deal.id"], name=op.f("fk_rating_history_deal_id_deal")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_history")),
    )
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_rating_history_deal_id"), ["deal_id"])
        batch_op.create_index(
            "ix_rating_history_player", ["game", "profile", "player", "id"], unique=False
        )
    op.create_table(
        "rated_deal",
        sa.Column("deal_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("profile", sa.String(length=40), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["deal_id"], ["deal.id"], name=op.f("fk_rated_deal_deal_id_deal")),
        sa.PrimaryKeyConstraint("deal_id", name=op.f("pk_rated_deal")),
    )
    with op.batch_alter_table("rated_deal", schema=None) as batch_op:
        batch_op.create_index(
            "ix_rated_deal_order", ["game", "profile", "finished_at", "deal_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("rated_deal", schema=None) as batch_op:
        batch_op.drop_index("ix_rated_deal_order")
    op.drop_table("rated_deal")
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_history_player")
        batch_op.drop_index(batch_op.f("ix_rating_history_deal_id"))
    op.drop_table("rating_history")
    op.drop_table("rating")
    op.drop_table("bot_token")
    op.drop_index(op.f("ix_user_account_bot_owner_id"), table_name="user_account")
    with op.batch_alter_table("user_account", schema=None) as batch_op:
        batch_op.drop_column("bot_owner_id")
