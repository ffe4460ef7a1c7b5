"""Review by the responsible rating officer: the federations' review rules (inherited down the
tree, trusted referees may be exempt), the submissions waiting in review and their decisions,
the rating officers of the public directory, the trusted referees, and the messages of the
directory's contact form; and an announcement's cancellation.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-04 22:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # an announcement may be cancelled (kept for the record, out of the calendar)
    with op.batch_alter_table("tournament_announcements") as batch:
        batch.add_column(sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("cancelled_by", sa.String(length=100), nullable=True))
        batch.add_column(sa.Column("cancel_reason", sa.String(length=500), nullable=True))

    op.create_table(
        "review_settings",
        sa.Column("prefix", sa.String(length=4), nullable=False),
        sa.Column("review", sa.String(length=8), nullable=True),
        sa.Column("trusted_exempt", sa.Boolean(), nullable=True),
        sa.CheckConstraint("review IN ('off', 'required')", name=op.f("ck_review_settings_review")),
        sa.ForeignKeyConstraint(
            ["prefix"], ["federations.prefix"], name=op.f("fk_review_settings_prefix_federations"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("prefix", name=op.f("pk_review_settings")),
    )

    op.create_table(
        "rating_officers",
        sa.Column("prefix", sa.String(length=4), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("token_id", sa.Integer(), nullable=True),
        sa.Column("set_by", sa.String(length=100), nullable=False),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["prefix"], ["federations.prefix"], name=op.f("fk_rating_officers_prefix_federations"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(["token_id"], ["api_tokens.id"], name=op.f("fk_rating_officers_token_id_api_tokens")),
        sa.PrimaryKeyConstraint("prefix", name=op.f("pk_rating_officers")),
    )
    op.create_index(op.f("ix_rating_officers_token_id"), "rating_officers", ["token_id"], unique=False)

    op.create_table(
        "trusted_referees",
        sa.Column("token_id", sa.Integer(), nullable=False),
        sa.Column("set_by", sa.String(length=100), nullable=False),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["token_id"], ["api_tokens.id"], name=op.f("fk_trusted_referees_token_id_api_tokens"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("token_id", name=op.f("pk_trusted_referees")),
    )

    op.create_table(
        "reviews",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(length=10), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("correction", sa.Boolean(), nullable=False),
        sa.Column("federation_prefix", sa.String(length=4), nullable=False),
        sa.Column("responsible_prefix", sa.String(length=4), nullable=False),
        sa.Column("acronym", sa.String(length=3), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("end_date", sa.Date(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("submission", sa.JSON(), nullable=False),
        sa.Column("announcement_id", sa.Integer(), nullable=True),
        sa.Column("submitted_by", sa.String(length=100), nullable=False),
        sa.Column("submitter_token_id", sa.Integer(), nullable=True),
        sa.Column("submitted_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_by", sa.String(length=100), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reason", sa.String(length=1000), nullable=True),
        sa.CheckConstraint("state IN ('waiting', 'approved', 'rejected')", name=op.f("ck_reviews_state")),
        sa.CheckConstraint(
            "state = 'waiting' OR (decided_by IS NOT NULL AND decided_at IS NOT NULL)", name=op.f("ck_reviews_decided")
        ),
        sa.CheckConstraint("state <> 'rejected' OR reason IS NOT NULL", name=op.f("ck_reviews_rejected_reason")),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournaments.id"], name=op.f("fk_reviews_tournament_id_tournaments"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["federation_prefix"], ["federations.prefix"], name=op.f("fk_reviews_federation_prefix_federations")
        ),
        sa.ForeignKeyConstraint(
            ["announcement_id"],
            ["tournament_announcements.id"],
            name=op.f("fk_reviews_announcement_id_tournament_announcements"),
        ),
        sa.ForeignKeyConstraint(
            ["submitter_token_id"], ["api_tokens.id"], name=op.f("fk_reviews_submitter_token_id_api_tokens")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reviews")),
    )
    op.create_index("ix_reviews_state_responsible", "reviews", ["state", "responsible_prefix"], unique=False)
    op.create_index(op.f("ix_reviews_submitter_token_id"), "reviews", ["submitter_token_id"], unique=False)
    op.create_index(op.f("ix_reviews_tournament_id"), "reviews", ["tournament_id"], unique=False)

    op.create_table(
        "officer_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("prefix", sa.String(length=4), nullable=False),
        sa.Column("club_code", sa.String(length=5), nullable=True),
        sa.Column("sender_name", sa.String(length=200), nullable=False),
        sa.Column("sender_email", sa.String(length=254), nullable=False),
        sa.Column("subject", sa.String(length=200), nullable=False),
        sa.Column("text", sa.String(length=4000), nullable=False),
        sa.Column("sender_address", sa.String(length=64), nullable=False),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["prefix"], ["federations.prefix"], name=op.f("fk_officer_messages_prefix_federations"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_officer_messages")),
    )
    op.create_index("ix_officer_messages_prefix_sent_at", "officer_messages", ["prefix", "sent_at"], unique=False)
    op.create_index(
        "ix_officer_messages_sender_address_sent_at", "officer_messages", ["sender_address", "sent_at"], unique=False
    )


def downgrade() -> None:
    op.drop_table("officer_messages")
    op.drop_table("reviews")
    op.drop_table("trusted_referees")
    op.drop_table("rating_officers")
    op.drop_table("review_settings")
    with op.batch_alter_table("tournament_announcements") as batch:
        batch.drop_column("cancel_reason")
        batch.drop_column("cancelled_by")
        batch.drop_column("cancelled_at")
