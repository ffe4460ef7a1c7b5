"""Complaints about an evaluation or a person's record (Reklamation): the complaint with its
complainant, subject, text, state and to whom it was routed; its notes (each change of state
with who, when and why); and what was changed for it (a correction, a record change).

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-04 22:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "complaints",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("filed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("filer_kind", sa.String(length=8), nullable=False),
        sa.Column("filer_pkz", sa.BigInteger(), nullable=True),
        sa.Column("email", sa.String(length=254), nullable=True),
        sa.Column("filer_club", sa.String(length=5), nullable=True),
        sa.Column("filed_by", sa.String(length=100), nullable=False),
        sa.Column("subject", sa.String(length=10), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("person_pkz", sa.BigInteger(), nullable=True),
        sa.Column("text", sa.String(length=4000), nullable=False),
        sa.Column("state", sa.String(length=11), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("routed_to", sa.String(length=8), nullable=False),
        sa.Column("routed_scope", sa.String(length=5), nullable=True),
        sa.Column("routed_token_id", sa.Integer(), nullable=True),
        sa.Column("edition_id", sa.Integer(), nullable=True),
        sa.Column("late", sa.Boolean(), nullable=False),
        sa.Column("follow_hash", sa.String(length=64), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "filer_kind IN ('player', 'club', 'referee', 'office')", name=op.f("ck_complaints_filer_kind")
        ),
        sa.CheckConstraint("subject IN ('evaluation', 'record')", name=op.f("ck_complaints_subject")),
        sa.CheckConstraint(
            "state IN ('new', 'in_progress', 'resolved', 'dismissed')", name=op.f("ck_complaints_state")
        ),
        sa.CheckConstraint("routed_to IN ('referee', 'officer', 'office')", name=op.f("ck_complaints_routed_to")),
        sa.CheckConstraint(
            "subject = 'record' OR tournament_id IS NOT NULL", name=op.f("ck_complaints_evaluation_names_tournament")
        ),
        sa.CheckConstraint(
            "subject = 'evaluation' OR person_pkz IS NOT NULL", name=op.f("ck_complaints_record_names_person")
        ),
        sa.ForeignKeyConstraint(["filer_pkz"], ["players.pkz"], name=op.f("fk_complaints_filer_pkz_players")),
        sa.ForeignKeyConstraint(["person_pkz"], ["players.pkz"], name=op.f("fk_complaints_person_pkz_players")),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_complaints_tournament_id_tournaments")
        ),
        sa.ForeignKeyConstraint(
            ["routed_token_id"], ["api_tokens.id"], name=op.f("fk_complaints_routed_token_id_api_tokens")
        ),
        sa.ForeignKeyConstraint(
            ["edition_id"], ["list_editions.id"], name=op.f("fk_complaints_edition_id_list_editions")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_complaints")),
        sa.UniqueConstraint("follow_hash", name=op.f("uq_complaints_follow_hash")),
    )
    op.create_index("ix_complaints_tournament_id_state", "complaints", ["tournament_id", "state"], unique=False)
    op.create_index("ix_complaints_email_filed_at", "complaints", ["email", "filed_at"], unique=False)
    op.create_index("ix_complaints_state_filed_at", "complaints", ["state", "filed_at"], unique=False)
    op.create_table(
        "complaint_notes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("complaint_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.String(length=100), nullable=False),
        sa.Column("state", sa.String(length=11), nullable=True),
        sa.Column("text", sa.String(length=4000), nullable=True),
        sa.ForeignKeyConstraint(
            ["complaint_id"],
            ["complaints.id"],
            name=op.f("fk_complaint_notes_complaint_id_complaints"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_complaint_notes")),
    )
    op.create_index("ix_complaint_notes_complaint_id", "complaint_notes", ["complaint_id"], unique=False)
    op.create_table(
        "complaint_links",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("complaint_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("target", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("by", sa.String(length=100), nullable=False),
        sa.CheckConstraint("kind IN ('correction', 'record')", name=op.f("ck_complaint_links_kind")),
        sa.ForeignKeyConstraint(
            ["complaint_id"],
            ["complaints.id"],
            name=op.f("fk_complaint_links_complaint_id_complaints"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_complaint_links")),
    )
    op.create_index("ix_complaint_links_complaint_id", "complaint_links", ["complaint_id"], unique=False)


def downgrade() -> None:
    op.drop_table("complaint_links")
    op.drop_table("complaint_notes")
    op.drop_table("complaints")
