"""Web sessions, and an index for the expiry of idempotency keys.

``web_sessions``: the referee pages' sign-in keeps a server-side session (the SHA-256 of its
id, the token it stands for, its expiry); the browser's cookie holds the session id, never the
token. ``ix_idempotency_keys_created_at``: keys older than the documented window are deleted,
by the writes and by the worker's beat, without reading the whole table.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02 21:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_sessions",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("token_id", sa.Integer(), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.text("(CURRENT_TIMESTAMP)"), nullable=False
        ),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["token_id"], ["api_tokens.id"], name=op.f("fk_web_sessions_token_id_api_tokens"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id_hash", name=op.f("pk_web_sessions")),
    )
    with op.batch_alter_table("web_sessions") as batch_op:
        batch_op.create_index(batch_op.f("ix_web_sessions_token_id"), ["token_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_web_sessions_expires_at"), ["expires_at"], unique=False)
    with op.batch_alter_table("idempotency_keys") as batch_op:
        batch_op.create_index(batch_op.f("ix_idempotency_keys_created_at"), ["created_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("idempotency_keys") as batch_op:
        batch_op.drop_index(batch_op.f("ix_idempotency_keys_created_at"))
    op.drop_table("web_sessions")
