"""The transactional outbox (``outbox_messages``, ``zdb.outbox``) and the notifications to club
software: subscriptions, deliveries and the log of their attempts (``zdb.notifications``).

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-04 23:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

_MOMENT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "outbox_messages",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(60), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("created_at", _MOMENT, nullable=False),
        sa.Column("due_at", _MOMENT, nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("taken_until", _MOMENT, nullable=True),
        sa.Column("done_at", _MOMENT, nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox_messages")),
    )
    op.create_index("ix_outbox_messages_due", "outbox_messages", ["done_at", "due_at"])
    op.create_table(
        "notification_subscriptions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("token_id", sa.Integer(), nullable=False),
        sa.Column("owner_role", sa.String(10), nullable=False),
        sa.Column("scope", sa.String(20), nullable=False),
        sa.Column("url", sa.String(2000), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("description", sa.String(200), nullable=False),
        sa.Column("secret", sa.String(100), nullable=False),
        sa.Column("previous_secret", sa.String(100), nullable=True),
        sa.Column("previous_until", _MOMENT, nullable=True),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("paused_reason", sa.String(500), nullable=True),
        sa.Column("paused_at", _MOMENT, nullable=True),
        sa.Column("created_at", _MOMENT, nullable=False),
        sa.CheckConstraint("status IN ('active', 'paused')", name=op.f("ck_notification_subscriptions_status")),
        sa.CheckConstraint(
            "owner_role IN ('club', 'referee', 'admin')", name=op.f("ck_notification_subscriptions_owner_role")
        ),
        sa.ForeignKeyConstraint(
            ["token_id"],
            ["api_tokens.id"],
            name=op.f("fk_notification_subscriptions_token_id_api_tokens"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notification_subscriptions")),
    )
    op.create_index(op.f("ix_notification_subscriptions_token_id"), "notification_subscriptions", ["token_id"])
    op.create_table(
        "notification_deliveries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.Column("source", sa.BigInteger(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(40), nullable=False),
        sa.Column("event_type", sa.String(60), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("created_at", _MOMENT, nullable=False),
        sa.Column("next_attempt_at", _MOMENT, nullable=False),
        sa.Column("retry_since", _MOMENT, nullable=False),
        sa.Column("taken_until", _MOMENT, nullable=True),
        sa.Column("delivered_at", _MOMENT, nullable=True),
        sa.CheckConstraint(
            "status IN ('pending', 'delivered', 'failed')", name=op.f("ck_notification_deliveries_status")
        ),
        sa.ForeignKeyConstraint(
            ["subscription_id"],
            ["notification_subscriptions.id"],
            name=op.f("fk_notification_deliveries_subscription_id_notification_subscriptions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notification_deliveries")),
        sa.UniqueConstraint(
            "subscription_id", "source", "seq", name=op.f("uq_notification_deliveries_subscription_id_source_seq")
        ),
        sa.UniqueConstraint("event_id", name=op.f("uq_notification_deliveries_event_id")),
    )
    op.create_index("ix_notification_deliveries_due", "notification_deliveries", ["status", "next_attempt_at"])
    op.create_index(op.f("ix_notification_deliveries_subscription_id"), "notification_deliveries", ["subscription_id"])
    op.create_table(
        "notification_attempts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("delivery_id", sa.Integer(), nullable=False),
        sa.Column("at", _MOMENT, nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=True),
        sa.Column("latency_ms", sa.Integer(), nullable=False),
        sa.Column("ok", sa.Boolean(), nullable=False),
        sa.Column("error", sa.String(500), nullable=True),
        sa.ForeignKeyConstraint(
            ["delivery_id"],
            ["notification_deliveries.id"],
            name=op.f("fk_notification_attempts_delivery_id_notification_deliveries"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notification_attempts")),
    )
    op.create_index(op.f("ix_notification_attempts_delivery_id"), "notification_attempts", ["delivery_id"])


def downgrade() -> None:
    op.drop_table("notification_attempts")
    op.drop_table("notification_deliveries")
    op.drop_table("notification_subscriptions")
    op.drop_table("outbox_messages")
