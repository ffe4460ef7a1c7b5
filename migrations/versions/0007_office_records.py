"""The rating office's records: a dissolved club or federation keeps its row with the day it
was dissolved, a person number absorbed by a merge names the surviving one, and published
editions of the rating list keep their rows; every recalculation run records its impact (the
tournaments it re-evaluated, each person's rating and index before and after); a person's
objection to publication withholds his name from public lists.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 21:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "recalc_runs",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "finished_at", sa.DateTime(timezone=True), server_default=sa.text("(CURRENT_TIMESTAMP)"), nullable=False
        ),
        sa.Column("generation", sa.BigInteger(), nullable=False),
        sa.Column("from_scratch", sa.Boolean(), nullable=False),
        sa.Column("tournaments", sa.Integer(), nullable=False),
        sa.Column("moved", sa.Integer(), nullable=False),
        sa.Column("largest_change", sa.Integer(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_recalc_runs")),
    )
    with op.batch_alter_table("recalc_runs") as batch:
        batch.create_index(batch.f("ix_recalc_runs_finished_at"), ["finished_at"], unique=False)
    op.create_table(
        "recalc_run_tournaments",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["recalc_runs.id"],
            name=op.f("fk_recalc_run_tournaments_run_id_recalc_runs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("run_id", "tournament_id", name=op.f("pk_recalc_run_tournaments")),
    )
    with op.batch_alter_table("recalc_run_tournaments") as batch:
        batch.create_index(batch.f("ix_recalc_run_tournaments_tournament_id"), ["tournament_id"], unique=False)
    op.create_table(
        "recalc_run_changes",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("player_pkz", sa.BigInteger(), nullable=False),
        sa.Column("old_rating", sa.Integer(), nullable=True),
        sa.Column("old_index", sa.SmallInteger(), nullable=True),
        sa.Column("new_rating", sa.Integer(), nullable=True),
        sa.Column("new_index", sa.SmallInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["run_id"], ["recalc_runs.id"], name=op.f("fk_recalc_run_changes_run_id_recalc_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("run_id", "player_pkz", name=op.f("pk_recalc_run_changes")),
    )
    with op.batch_alter_table("recalc_run_changes") as batch:
        batch.create_index(batch.f("ix_recalc_run_changes_player_pkz"), ["player_pkz"], unique=False)
    op.create_table(
        "list_editions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=20), nullable=False),
        sa.Column("as_of", sa.Date(), nullable=False),
        sa.Column(
            "published_at", sa.DateTime(timezone=True), server_default=sa.text("(CURRENT_TIMESTAMP)"), nullable=False
        ),
        sa.Column("published_by", sa.String(length=200), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_list_editions")),
        sa.UniqueConstraint("name", name=op.f("uq_list_editions_name")),
    )
    with op.batch_alter_table("list_editions") as batch:
        batch.create_index(batch.f("ix_list_editions_as_of"), ["as_of"], unique=False)
    op.create_table(
        "list_edition_ratings",
        sa.Column("edition_id", sa.Integer(), nullable=False),
        sa.Column("player_pkz", sa.BigInteger(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("rating_index", sa.SmallInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["edition_id"],
            ["list_editions.id"],
            name=op.f("fk_list_edition_ratings_edition_id_list_editions"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_pkz"], ["players.pkz"], name=op.f("fk_list_edition_ratings_player_pkz_players")
        ),
        sa.PrimaryKeyConstraint("edition_id", "player_pkz", name=op.f("pk_list_edition_ratings")),
    )
    with op.batch_alter_table("list_edition_ratings") as batch:
        batch.create_index(batch.f("ix_list_edition_ratings_player_pkz"), ["player_pkz"], unique=False)
    with op.batch_alter_table("clubs") as batch:
        batch.add_column(sa.Column("dissolved_on", sa.Date(), nullable=True))
    with op.batch_alter_table("federations") as batch:
        batch.add_column(sa.Column("dissolved_on", sa.Date(), nullable=True))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("merged_into", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("objects_to_publication", sa.Boolean(), server_default=sa.false(), nullable=False))
        batch.create_foreign_key(op.f("fk_players_merged_into_players"), "players", ["merged_into"], ["pkz"])


def downgrade() -> None:
    with op.batch_alter_table("recalc_run_changes") as batch:
        batch.drop_index(batch.f("ix_recalc_run_changes_player_pkz"))
    op.drop_table("recalc_run_changes")
    with op.batch_alter_table("recalc_run_tournaments") as batch:
        batch.drop_index(batch.f("ix_recalc_run_tournaments_tournament_id"))
    op.drop_table("recalc_run_tournaments")
    with op.batch_alter_table("recalc_runs") as batch:
        batch.drop_index(batch.f("ix_recalc_runs_finished_at"))
    op.drop_table("recalc_runs")
    with op.batch_alter_table("list_edition_ratings") as batch:
        batch.drop_index(batch.f("ix_list_edition_ratings_player_pkz"))
    op.drop_table("list_edition_ratings")
    with op.batch_alter_table("list_editions") as batch:
        batch.drop_index(batch.f("ix_list_editions_as_of"))
    op.drop_table("list_editions")
    with op.batch_alter_table("players") as batch:
        batch.drop_constraint(op.f("fk_players_merged_into_players"), type_="foreignkey")
        batch.drop_column("objects_to_publication")
        batch.drop_column("merged_into")
    with op.batch_alter_table("federations") as batch:
        batch.drop_column("dissolved_on")
    with op.batch_alter_table("clubs") as batch:
        batch.drop_column("dissolved_on")
