"""FIDE registrations of announced tournaments, the federations' rule about late registrations,
fee schedules, the fees computed for each evaluated tournament, and invoices.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-04 22:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("federation_settings") as batch:
        batch.add_column(sa.Column("fide_registration", sa.String(length=8), nullable=True))
        batch.create_check_constraint(
            op.f("ck_federation_settings_fide_registration"), "fide_registration IN ('warn', 'refuse')"
        )
    op.create_table(
        "fide_registrations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("announcement_id", sa.Integer(), nullable=False),
        sa.Column("chief_arbiter_fide_id", sa.BigInteger(), nullable=False),
        sa.Column("chief_arbiter_name", sa.String(length=120), nullable=False),
        sa.Column("deputy_arbiter_fide_id", sa.BigInteger(), nullable=True),
        sa.Column("deputy_arbiter_name", sa.String(length=120), nullable=True),
        sa.Column("rate_of_play", sa.String(length=100), nullable=False),
        sa.Column("category", sa.String(length=8), nullable=False),
        sa.Column("system", sa.String(length=12), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("registered_by", sa.String(length=100), nullable=False),
        sa.Column("days_before", sa.Integer(), nullable=False),
        sa.Column("warnings", sa.JSON(), nullable=False),
        sa.CheckConstraint("category IN ('standard', 'rapid', 'blitz')", name=op.f("ck_fide_registrations_category")),
        sa.CheckConstraint("system IN ('swiss', 'round_robin', 'team')", name=op.f("ck_fide_registrations_system")),
        sa.CheckConstraint("rounds BETWEEN 1 AND 99", name=op.f("ck_fide_registrations_rounds")),
        sa.ForeignKeyConstraint(
            ["announcement_id"],
            ["tournament_announcements.id"],
            name=op.f("fk_fide_registrations_announcement_id_tournament_announcements"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fide_registrations")),
        sa.UniqueConstraint("announcement_id", name=op.f("uq_fide_registrations_announcement_id")),
    )
    op.create_table(
        "fee_schedules",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("federation_prefix", sa.String(length=4), nullable=False),
        sa.Column("valid_from", sa.Date(), nullable=False),
        sa.Column("valid_until", sa.Date(), nullable=True),
        sa.Column("dwz_tournament_cents", sa.BigInteger(), nullable=False),
        sa.Column("dwz_game_cents", sa.BigInteger(), nullable=False),
        sa.Column("dwz_non_member_cents", sa.BigInteger(), nullable=False),
        sa.Column("fide_player_cents", sa.BigInteger(), nullable=False),
        sa.Column("fide_round_robin_tiers", sa.JSON(), nullable=False),
        sa.Column("fide_late_cents", sa.BigInteger(), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed_by", sa.String(length=100), nullable=False),
        sa.CheckConstraint("valid_until IS NULL OR valid_from <= valid_until", name=op.f("ck_fee_schedules_dates")),
        sa.CheckConstraint(
            "dwz_tournament_cents >= 0 AND dwz_game_cents >= 0 AND dwz_non_member_cents >= 0"
            " AND fide_player_cents >= 0 AND fide_late_cents >= 0",
            name=op.f("ck_fee_schedules_amounts"),
        ),
        sa.ForeignKeyConstraint(
            ["federation_prefix"], ["federations.prefix"], name=op.f("fk_fee_schedules_federation_prefix_federations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fee_schedules")),
    )
    op.create_index("ix_fee_schedules_federation", "fee_schedules", ["federation_prefix", "valid_from"], unique=False)
    op.create_table(
        "fee_assessments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=10), nullable=False),
        sa.Column("payer", sa.String(length=200), nullable=False),
        sa.Column("schedule_id", sa.Integer(), nullable=True),
        sa.Column("end_date", sa.Date(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("non_members", sa.Integer(), nullable=False),
        sa.Column("fide_system", sa.String(length=12), nullable=True),
        sa.Column("average_elo", sa.Integer(), nullable=True),
        sa.Column("days_late", sa.Integer(), nullable=True),
        sa.Column("computed_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("reason IN ('evaluation', 'withdrawal')", name=op.f("ck_fee_assessments_reason")),
        sa.ForeignKeyConstraint(
            ["schedule_id"], ["fee_schedules.id"], name=op.f("fk_fee_assessments_schedule_id_fee_schedules")
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_fee_assessments_tournament_id_tournaments")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fee_assessments")),
        sa.UniqueConstraint(
            "tournament_id", "version", "reason", name=op.f("uq_fee_assessments_tournament_id_version_reason")
        ),
    )
    op.create_index(op.f("ix_fee_assessments_tournament_id"), "fee_assessments", ["tournament_id"], unique=False)
    op.create_table(
        "fee_invoices",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("number", sa.String(length=12), nullable=False),
        sa.Column("payer", sa.String(length=200), nullable=False),
        sa.Column("period_from", sa.Date(), nullable=False),
        sa.Column("period_to", sa.Date(), nullable=False),
        sa.Column("total_cents", sa.BigInteger(), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("issued_by", sa.String(length=100), nullable=False),
        sa.CheckConstraint("period_from <= period_to", name=op.f("ck_fee_invoices_period")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fee_invoices")),
        sa.UniqueConstraint("number", name=op.f("uq_fee_invoices_number")),
    )
    op.create_index(op.f("ix_fee_invoices_payer"), "fee_invoices", ["payer"], unique=False)
    op.create_table(
        "fee_lines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("assessment_id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("payer", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("quantity", sa.Integer(), nullable=False),
        sa.Column("unit_cents", sa.BigInteger(), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("credit_of", sa.Integer(), nullable=True),
        sa.Column("booked_on", sa.Date(), nullable=False),
        sa.Column("invoice_id", sa.Integer(), nullable=True),
        sa.CheckConstraint(
            "kind IN ('dwz_tournament', 'dwz_game', 'dwz_non_member', 'fide_player', 'fide_round_robin', 'fide_late')",
            name=op.f("ck_fee_lines_kind"),
        ),
        sa.ForeignKeyConstraint(
            ["assessment_id"], ["fee_assessments.id"], name=op.f("fk_fee_lines_assessment_id_fee_assessments")
        ),
        sa.ForeignKeyConstraint(["credit_of"], ["fee_lines.id"], name=op.f("fk_fee_lines_credit_of_fee_lines")),
        sa.ForeignKeyConstraint(["invoice_id"], ["fee_invoices.id"], name=op.f("fk_fee_lines_invoice_id_fee_invoices")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fee_lines")),
        sa.UniqueConstraint("credit_of", name=op.f("uq_fee_lines_credit_of")),
    )
    op.create_index(op.f("ix_fee_lines_assessment_id"), "fee_lines", ["assessment_id"], unique=False)
    op.create_index(op.f("ix_fee_lines_invoice_id"), "fee_lines", ["invoice_id"], unique=False)
    op.create_index(op.f("ix_fee_lines_tournament_id"), "fee_lines", ["tournament_id"], unique=False)
    op.create_index("ix_fee_lines_open", "fee_lines", ["payer", "invoice_id", "booked_on"], unique=False)


def downgrade() -> None:
    op.drop_table("fee_lines")
    op.drop_table("fee_invoices")
    op.drop_table("fee_assessments")
    op.drop_table("fee_schedules")
    op.drop_table("fide_registrations")
    with op.batch_alter_table("federation_settings") as batch:
        batch.drop_constraint(op.f("ck_federation_settings_fide_registration"), type_="check")
        batch.drop_column("fide_registration")
