"""A tournament's life in the federation: the fingerprints that find a tournament submitted twice,
the announcements of the public calendar and the federations' rules about them, and each
tournament's changes of state (who, when, why).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-04 19:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournament_fingerprints",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_fingerprints_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_tournament_fingerprints")),
        sa.UniqueConstraint("fingerprint", name=op.f("uq_tournament_fingerprints_fingerprint")),
    )

    op.create_table(
        "federation_settings",
        sa.Column("prefix", sa.String(length=4), nullable=False),
        sa.Column("announcement", sa.String(length=8), nullable=True),
        sa.Column("announcement_days", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "announcement IN ('off', 'warn', 'required')", name=op.f("ck_federation_settings_announcement")
        ),
        sa.CheckConstraint(
            "announcement_days BETWEEN 0 AND 365", name=op.f("ck_federation_settings_announcement_days")
        ),
        sa.ForeignKeyConstraint(
            ["prefix"],
            ["federations.prefix"],
            name=op.f("fk_federation_settings_prefix_federations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("prefix", name=op.f("pk_federation_settings")),
    )
    op.create_table(
        "tournament_announcements",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=12), nullable=False),
        sa.Column("federation_prefix", sa.String(length=4), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("place", sa.String(length=100), nullable=False),
        sa.Column("start_date", sa.Date(), nullable=False),
        sa.Column("end_date", sa.Date(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("mode", sa.String(length=12), nullable=False),
        sa.Column("time_control", sa.String(length=100), nullable=False),
        sa.Column("organiser", sa.String(length=200), nullable=False),
        sa.Column("referee", sa.String(length=200), nullable=False),
        sa.Column("fide_rated", sa.Boolean(), nullable=False),
        sa.Column("announced_by", sa.String(length=100), nullable=False),
        sa.Column("announced_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.CheckConstraint("start_date <= end_date", name=op.f("ck_tournament_announcements_dates")),
        sa.CheckConstraint("rounds BETWEEN 1 AND 99", name=op.f("ck_tournament_announcements_rounds")),
        sa.CheckConstraint(
            "mode IN ('swiss', 'round_robin', 'team', 'other')", name=op.f("ck_tournament_announcements_mode")
        ),
        sa.ForeignKeyConstraint(
            ["federation_prefix"],
            ["federations.prefix"],
            name=op.f("fk_tournament_announcements_federation_prefix_federations"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_announcements_tournament_id_tournaments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_announcements")),
        sa.UniqueConstraint("code", name=op.f("uq_tournament_announcements_code")),
        sa.UniqueConstraint("tournament_id", name=op.f("uq_tournament_announcements_tournament_id")),
    )
    op.create_index(
        "ix_tournament_announcements_dates", "tournament_announcements", ["start_date", "end_date"], unique=False
    )
    op.create_index(
        op.f("ix_tournament_announcements_federation_prefix"),
        "tournament_announcements",
        ["federation_prefix"],
        unique=False,
    )
    op.create_table(
        "tournament_states",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=12), nullable=False),
        sa.Column("version", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.String(length=100), nullable=False),
        sa.Column("why", sa.String(length=1000), nullable=True),
        sa.CheckConstraint(
            "state IN ('submitted', 'corrected', 'withdrawn', 'in_review', 'approved', 'rejected')",
            name=op.f("ck_tournament_states_state"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_states_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_states")),
    )
    op.create_index("ix_tournament_states_tournament_id_at", "tournament_states", ["tournament_id", "at"], unique=False)


def downgrade() -> None:
    op.drop_table("tournament_states")
    op.drop_table("tournament_announcements")
    op.drop_table("federation_settings")
    op.drop_table("tournament_fingerprints")
