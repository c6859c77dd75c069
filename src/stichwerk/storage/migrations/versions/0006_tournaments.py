"""Tournaments: players known by name, tournaments, registrations, rounds, tables and their
results, the change log, the ranking rows of every club or series; a tournament table's list
rules on online tables.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-05 09:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _when(name: str, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    with op.batch_alter_table("game_table", schema=None) as batch_op:
        batch_op.add_column(sa.Column("list_rules", sa.JSON(), nullable=True))
    op.create_table(
        "person",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        _when("created_at"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_person")),
        sa.UniqueConstraint("name", name=op.f("uq_person_name")),
    )
    op.create_table(
        "tournament",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("format", sa.String(length=40), nullable=False),
        sa.Column("profile", sa.String(length=40), nullable=False),
        sa.Column("held_on", sa.Date(), nullable=False),
        sa.Column("place", sa.String(length=120), nullable=False),
        sa.Column("series", sa.String(length=120), nullable=False),
        sa.Column("seed", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("director_token", sa.String(length=43), nullable=False),
        sa.Column("public_token", sa.String(length=43), nullable=False),
        _when("created_at"),
        _when("finished_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament")),
        sa.UniqueConstraint("director_token", name=op.f("uq_tournament_director_token")),
        sa.UniqueConstraint("public_token", name=op.f("uq_tournament_public_token")),
    )
    op.create_table(
        "tournament_player",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("withdrawn_after", sa.Integer(), nullable=True),
        _when("registered_at"),
        sa.ForeignKeyConstraint(
            ["person_id"], ["person.id"], name=op.f("fk_tournament_player_person_id_person")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_player_tournament_id_tournament"),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_tournament_player")),
        sa.UniqueConstraint(
            "tournament_id", "person_id", name=op.f("uq_tournament_player_tournament_id_person_id")
        ),
    )
    op.create_table(
        "tournament_round",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("final", sa.Boolean(), nullable=False),
        sa.Column("by_lot", sa.JSON(), nullable=False),
        _when("drawn_at"),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_round_tournament_id_tournament"),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_tournament_round")),
    )
    op.create_table(
        "tournament_table",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seating", sa.JSON(), nullable=False),
        sa.Column("duty_owed", sa.JSON(), nullable=False),
        sa.Column("mode", sa.String(length=8), nullable=False),
        sa.Column("list_id", sa.String(length=16), nullable=True),
        sa.Column("web_table_id", sa.String(length=16), nullable=True),
        sa.Column("online", sa.JSON(), nullable=True),
        sa.Column("results", sa.JSON(), nullable=True),
        sa.Column("source", sa.String(length=8), nullable=True),
        _when("entered_at", nullable=True),
        sa.ForeignKeyConstraint(
            ["list_id"], ["score_list.id"], name=op.f("fk_tournament_table_list_id_score_list")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_table_tournament_id_tournament"),
        ),
        sa.ForeignKeyConstraint(
            ["web_table_id"],
            ["game_table.id"],
            name=op.f("fk_tournament_table_web_table_id_game_table"),
        ),
        sa.PrimaryKeyConstraint(
            "tournament_id", "round", "number", name=op.f("pk_tournament_table")
        ),
    )
    op.create_table(
        "tournament_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("op", sa.String(length=24), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("source", sa.String(length=12), nullable=False),
        _when("created_at"),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_change_tournament_id_tournament"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_change")),
        sa.UniqueConstraint(
            "tournament_id", "seq", name=op.f("uq_tournament_change_tournament_id_seq")
        ),
    )
    op.create_table(
        "ranking_row",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("series", sa.String(length=120), nullable=False),
        sa.Column("held_on", sa.Date(), nullable=False),
        sa.Column("tournament", sa.String(length=120), nullable=False),
        sa.Column("person_id", sa.Integer(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("participants", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.String(length=16), nullable=True),
        _when("created_at"),
        sa.ForeignKeyConstraint(
            ["person_id"], ["person.id"], name=op.f("fk_ranking_row_person_id_person")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_ranking_row_tournament_id_tournament"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ranking_row")),
        sa.UniqueConstraint(
            "series",
            "held_on",
            "tournament",
            "person_id",
            name=op.f("uq_ranking_row_series_held_on_tournament_person_id"),
        ),
    )
    op.create_index(op.f("ix_ranking_row_series"), "ranking_row", ["series"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_ranking_row_series"), table_name="ranking_row")
    op.drop_table("ranking_row")
    op.drop_table("tournament_change")
    op.drop_table("tournament_table")
    op.drop_table("tournament_round")
    op.drop_table("tournament_player")
    op.drop_table("tournament")
    op.drop_table("person")
    with op.batch_alter_table("game_table", schema=None) as batch_op:
        batch_op.drop_column("list_rules")
