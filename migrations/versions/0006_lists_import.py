"""A federation moving in: its imports (with an upload's bytes and progress), the epoch and last
evaluation of every person a rating list brought in, and FIDE's list as dated editions.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 21:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "list_imports",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=4), nullable=False),
        sa.Column("file_name", sa.String(length=200), nullable=False),
        sa.Column("list_date", sa.Date(), nullable=True),
        sa.Column("encoding", sa.String(length=20), nullable=True),
        sa.Column("dry_run", sa.Boolean(), nullable=False),
        sa.Column("skip_problems", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=8), nullable=False),
        sa.Column("progress_done", sa.Integer(), nullable=False),
        sa.Column("progress_total", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.Column("payload", sa.LargeBinary(), nullable=True),
        sa.Column("actor_token_id", sa.Integer(), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.text("(CURRENT_TIMESTAMP)"), nullable=False
        ),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("kind IN ('list', 'fide')", name=op.f("ck_list_imports_kind")),
        sa.CheckConstraint(
            "status IN ('waiting', 'running', 'done', 'refused', 'failed')", name=op.f("ck_list_imports_status")
        ),
        sa.ForeignKeyConstraint(
            ["actor_token_id"], ["api_tokens.id"], name=op.f("fk_list_imports_actor_token_id_api_tokens")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_list_imports")),
    )
    op.create_table(
        "list_baselines",
        sa.Column("player_pkz", sa.BigInteger(), nullable=False),
        sa.Column("epoch", sa.Date(), nullable=False),
        sa.Column("last_evaluation", sa.String(length=6), nullable=True),
        sa.Column("import_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["import_id"], ["list_imports.id"], name=op.f("fk_list_baselines_import_id_list_imports")
        ),
        sa.ForeignKeyConstraint(
            ["player_pkz"], ["players.pkz"], name=op.f("fk_list_baselines_player_pkz_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("player_pkz", name=op.f("pk_list_baselines")),
    )
    op.create_table(
        "fide_ratings",
        sa.Column("fide_id", sa.BigInteger(), nullable=False),
        sa.Column("edition", sa.Date(), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("federation", sa.String(length=3), nullable=False),
        sa.Column("sex", sa.String(length=1), nullable=True),
        sa.Column("title", sa.String(length=3), nullable=True),
        sa.Column("women_title", sa.String(length=3), nullable=True),
        sa.Column("other_titles", sa.String(length=60), nullable=True),
        sa.Column("standard", sa.SmallInteger(), nullable=True),
        sa.Column("standard_games", sa.SmallInteger(), nullable=False),
        sa.Column("standard_k", sa.SmallInteger(), nullable=True),
        sa.Column("rapid", sa.SmallInteger(), nullable=True),
        sa.Column("rapid_games", sa.SmallInteger(), nullable=False),
        sa.Column("rapid_k", sa.SmallInteger(), nullable=True),
        sa.Column("blitz", sa.SmallInteger(), nullable=True),
        sa.Column("blitz_games", sa.SmallInteger(), nullable=False),
        sa.Column("blitz_k", sa.SmallInteger(), nullable=True),
        sa.Column("birth_year", sa.SmallInteger(), nullable=True),
        sa.Column("flags", sa.String(length=4), nullable=False),
        sa.PrimaryKeyConstraint("fide_id", "edition", name=op.f("pk_fide_ratings")),
    )


def downgrade() -> None:
    op.drop_table("fide_ratings")
    op.drop_table("list_baselines")
    op.drop_table("list_imports")
