"""Sessions the server can end, invited viewers of a table, and deal ids nobody can guess.

- ``user_session``: one row per login (the hash of the cookie's random token), so logout,
  a password change and "log out everywhere" end a session on the server, not only in the
  browser. Cookies from before this migration name no session and are logged out.
- ``table_viewer``: who redeemed a table's invite link to watch it (a private table shows its
  play only to its players, its creator and these).
- ``deal.public_id``: the id a deal is known by outside the server (URLs, frames, file names);
  random, so the sequential primary key never leaves the server. Existing deals get one here.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02 01:00:00.000000
"""

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "user_session",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user_account.id"], name=op.f("fk_user_session_user_id_user_account")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_user_session")),
    )
    with op.batch_alter_table("user_session", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_user_session_user_id"), ["user_id"], unique=False)
    op.create_table(
        "table_viewer",
        sa.Column("table_id", sa.String(length=16), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"], ["game_table.id"], name=op.f("fk_table_viewer_table_id_game_table")
        ),
        sa.ForeignKeyConstraint(
            ["user_id"], ["user_account.id"], name=op.f("fk_table_viewer_user_id_user_account")
        ),
        sa.PrimaryKeyConstraint("table_id", "user_id", name=op.f("pk_table_viewer")),
    )
    with op.batch_alter_table("deal", schema=None) as batch_op:
        batch_op.add_column(sa.Column("public_id", sa.String(length=24), nullable=True))
    deal = sa.table("deal", sa.column("id", sa.Integer()), sa.column("public_id", sa.String()))
    connection = op.get_bind()
    ids = connection.execute(sa.select(deal.c.id)).scalars().all()
    for deal_id in ids:
        connection.execute(
            sa.update(deal).where(deal.c.id == deal_id).values(public_id=secrets.token_urlsafe(12))
        )
    with op.batch_alter_table("deal", schema=None) as batch_op:
        batch_op.alter_column("public_id", existing_type=sa.String(length=24), nullable=False)
        batch_op.create_unique_constraint(batch_op.f("uq_deal_public_id"), ["public_id"])


def downgrade() -> None:
    with op.batch_alter_table("deal", schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f("uq_deal_public_id"), type_="unique")
        batch_op.drop_column("public_id")
    op.drop_table("table_viewer")
    with op.batch_alter_table("user_session", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_user_session_user_id"))
    op.drop_table("user_session")
