"""The rating portal's OAuth2 clients and their tokens: ``portal_clients`` (client id, the
secret's SHA-256, scopes, an optional club-code prefix), ``portal_tokens`` (each token issued:
the hashes of its access and refresh token, its grant, scopes and expiry).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04 19:40:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "portal_clients",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client_id", sa.String(length=64), nullable=False),
        sa.Column("secret_hash", sa.String(length=64), nullable=False),
        sa.Column("scopes", sa.String(length=100), nullable=False),
        sa.Column("vkz", sa.String(length=5), nullable=True),
        sa.Column("label", sa.String(length=200), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.text("(CURRENT_TIMESTAMP)"), nullable=False
        ),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_portal_clients")),
        sa.UniqueConstraint("client_id", name=op.f("uq_portal_clients_client_id")),
    )
    op.create_table(
        "portal_tokens",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("client_pk", sa.Integer(), nullable=False),
        sa.Column("access_hash", sa.String(length=64), nullable=False),
        sa.Column("refresh_hash", sa.String(length=64), nullable=False),
        sa.Column("refresh_valid", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("grant_type", sa.String(length=20), nullable=False),
        sa.Column("scopes", sa.String(length=100), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint(
            "grant_type IN ('client_credentials', 'refresh_token')", name=op.f("ck_portal_tokens_grant_type")
        ),
        sa.ForeignKeyConstraint(
            ["client_pk"],
            ["portal_clients.id"],
            name=op.f("fk_portal_tokens_client_pk_portal_clients"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_portal_tokens")),
        sa.UniqueConstraint("access_hash", name=op.f("uq_portal_tokens_access_hash")),
        sa.UniqueConstraint("refresh_hash", name=op.f("uq_portal_tokens_refresh_hash")),
    )
    with op.batch_alter_table("portal_tokens") as batch_op:
        batch_op.create_index("ix_portal_tokens_client_issued", ["client_pk", "issued_at"], unique=False)


def downgrade() -> None:
    op.drop_table("portal_tokens")
    op.drop_table("portal_clients")
