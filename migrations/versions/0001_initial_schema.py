"""Initial schema: federations, clubs, players, tournaments, games, evaluations, history.

Revision ID: 0001
Revises:
Create Date: 2026-11-29 21:57:51.121248
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "federations",
        sa.Column("prefix", sa.String(length=4), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("level", sa.Integer(), nullable=False),
        sa.Column("parent_prefix", sa.String(length=4), nullable=True),
        sa.CheckConstraint("length(prefix) <= 4", name=op.f("ck_federations_prefix_length")),
        sa.CheckConstraint("level BETWEEN 0 AND 3", name=op.f("ck_federations_level")),
        sa.ForeignKeyConstraint(
            ["parent_prefix"], ["federations.prefix"], name=op.f("fk_federations_parent_prefix_federations")
        ),
        sa.PrimaryKeyConstraint("prefix", name=op.f("pk_federations")),
    )
    with op.batch_alter_table("federations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_federations_parent_prefix"), ["parent_prefix"], unique=False)

    op.create_table(
        "players",
        sa.Column("pkz", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("external_id", sa.String(length=64), nullable=True),
        sa.Column("surname", sa.String(length=100), nullable=False),
        sa.Column("given_name", sa.String(length=100), nullable=False),
        sa.Column("search_name", sa.String(length=210), nullable=False),
        sa.Column("sex", sa.String(length=1), nullable=True),
        sa.Column("birth_year", sa.Integer(), nullable=True),
        sa.Column("birth_date", sa.Date(), nullable=True),
        sa.Column("fide_id", sa.BigInteger(), nullable=True),
        sa.Column("nation", sa.String(length=3), nullable=True),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.text("(CURRENT_TIMESTAMP)"), nullable=False
        ),
        sa.CheckConstraint("sex IN ('M', 'F', 'D')", name=op.f("ck_players_sex")),
        sa.CheckConstraint("birth_year BETWEEN 1850 AND 2200", name=op.f("ck_players_birth_year")),
        sa.PrimaryKeyConstraint("pkz", name=op.f("pk_players")),
        sa.UniqueConstraint("external_id", name=op.f("uq_players_external_id")),
        sa.UniqueConstraint("fide_id", name=op.f("uq_players_fide_id")),
    )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_players_search_name"), ["search_name"], unique=False)

    op.create_table(
        "recalc_state",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("generation", sa.BigInteger(), nullable=False),
        sa.Column("dirty_date", sa.Date(), nullable=True),
        sa.Column("dirty_phase", sa.SmallInteger(), nullable=True),
        sa.Column("dirty_text", sa.String(length=40), nullable=True),
        sa.Column("dirty_id", sa.Integer(), nullable=True),
        sa.Column("running_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("progress_done", sa.Integer(), nullable=False),
        sa.Column("progress_total", sa.Integer(), nullable=False),
        sa.Column("last_started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("last_generation", sa.BigInteger(), nullable=True),
        sa.Column("last_evaluated", sa.Integer(), nullable=True),
        sa.Column("last_changed_players", sa.Integer(), nullable=True),
        sa.Column("last_duration_ms", sa.Integer(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.CheckConstraint("id = 1", name=op.f("ck_recalc_state_single_row")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_recalc_state")),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("current_version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("evaluated_version", sa.Integer(), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.text("(CURRENT_TIMESTAMP)"), nullable=False
        ),
        sa.Column("created_by", sa.String(length=100), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("withdrawn_by", sa.String(length=100), nullable=True),
        sa.CheckConstraint("status IN ('received', 'evaluated', 'withdrawn')", name=op.f("ck_tournaments_status")),
        sa.CheckConstraint("current_version >= 1", name=op.f("ck_tournaments_version")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(
            "ix_tournaments_pending", ["status", "current_version", "evaluated_version"], unique=False
        )

    op.create_table(
        "clubs",
        sa.Column("code", sa.String(length=5), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("federation_prefix", sa.String(length=4), nullable=False),
        sa.CheckConstraint("length(code) = 5", name=op.f("ck_clubs_code_length")),
        sa.ForeignKeyConstraint(
            ["federation_prefix"], ["federations.prefix"], name=op.f("fk_clubs_federation_prefix_federations")
        ),
        sa.PrimaryKeyConstraint("code", name=op.f("pk_clubs")),
    )
    with op.batch_alter_table("clubs", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_clubs_federation_prefix"), ["federation_prefix"], unique=False)

    op.create_table(
        "initial_states",
        sa.Column("player_pkz", sa.BigInteger(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("rating_index", sa.SmallInteger(), nullable=False),
        sa.Column("leftover", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["player_pkz"], ["players.pkz"], name=op.f("fk_initial_states_player_pkz_players")),
        sa.PrimaryKeyConstraint("player_pkz", name=op.f("pk_initial_states")),
    )
    op.create_table(
        "player_ratings",
        sa.Column("player_pkz", sa.BigInteger(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=True),
        sa.Column("rating_index", sa.SmallInteger(), nullable=False),
        sa.Column("leftover", sa.JSON(), nullable=True),
        sa.Column(
            "changed_at", sa.DateTime(timezone=True), server_default=sa.text("(CURRENT_TIMESTAMP)"), nullable=False
        ),
        sa.ForeignKeyConstraint(["player_pkz"], ["players.pkz"], name=op.f("fk_player_ratings_player_pkz_players")),
        sa.PrimaryKeyConstraint("player_pkz", name=op.f("pk_player_ratings")),
    )
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_player_ratings_changed_at"), ["changed_at"], unique=False)
        batch_op.create_index(batch_op.f("ix_player_ratings_rating"), ["rating"], unique=False)

    op.create_table(
        "rating_history",
        sa.Column("event_date", sa.Date(), nullable=False),
        sa.Column("event_phase", sa.SmallInteger(), nullable=False),
        sa.Column("event_text", sa.String(length=40), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("player_pkz", sa.BigInteger(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=True),
        sa.Column("tournament_version", sa.Integer(), nullable=True),
        sa.Column("old_rating", sa.Integer(), nullable=True),
        sa.Column("old_index", sa.SmallInteger(), nullable=False),
        sa.Column("old_leftover", sa.JSON(), nullable=True),
        sa.Column("new_rating", sa.Integer(), nullable=True),
        sa.Column("new_index", sa.SmallInteger(), nullable=False),
        sa.Column("new_leftover", sa.JSON(), nullable=True),
        sa.Column("evaluated", sa.Boolean(), nullable=True),
        sa.CheckConstraint("event_phase IN (0, 1, 2)", name=op.f("ck_rating_history_phase")),
        sa.ForeignKeyConstraint(["player_pkz"], ["players.pkz"], name=op.f("fk_rating_history_player_pkz_players")),
        sa.PrimaryKeyConstraint(
            "event_date", "event_phase", "event_text", "event_id", "player_pkz", name=op.f("pk_rating_history")
        ),
    )
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.create_index(
            "ix_rating_history_player",
            ["player_pkz", "event_date", "event_phase", "event_text", "event_id"],
            unique=False,
        )
        batch_op.create_index("ix_rating_history_tournament", ["tournament_id"], unique=False)

    op.create_table(
        "start_ratings",
        sa.Column("player_pkz", sa.BigInteger(), nullable=False),
        sa.Column("rating_date", sa.Date(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("rating_index", sa.SmallInteger(), nullable=False),
        sa.Column("evaluated", sa.Boolean(), nullable=False),
        sa.Column("set_by", sa.String(length=100), nullable=False),
        sa.Column("set_at", sa.DateTime(timezone=True), server_default=sa.text("(CURRENT_TIMESTAMP)"), nullable=False),
        sa.CheckConstraint("rating_index >= 0", name=op.f("ck_start_ratings_index")),
        sa.ForeignKeyConstraint(["player_pkz"], ["players.pkz"], name=op.f("fk_start_ratings_player_pkz_players")),
        sa.PrimaryKeyConstraint("player_pkz", "rating_date", name=op.f("pk_start_ratings")),
    )
    op.create_table(
        "tournament_versions",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("acronym", sa.String(length=3), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("federation_prefix", sa.String(length=4), nullable=True),
        sa.Column("start_date", sa.Date(), nullable=True),
        sa.Column("end_date", sa.Date(), nullable=False),
        sa.Column("round_dates", sa.JSON(), nullable=True),
        sa.Column("time_control", sa.String(length=100), nullable=True),
        sa.Column("kind", sa.String(length=12), nullable=False),
        sa.Column("submitted_by", sa.String(length=100), nullable=False),
        sa.Column(
            "submitted_at", sa.DateTime(timezone=True), server_default=sa.text("(CURRENT_TIMESTAMP)"), nullable=False
        ),
        sa.CheckConstraint("kind IN ('individual', 'team_season')", name=op.f("ck_tournament_versions_kind")),
        sa.CheckConstraint("length(acronym) = 3", name=op.f("ck_tournament_versions_acronym")),
        sa.CheckConstraint("start_date IS NULL OR start_date <= end_date", name=op.f("ck_tournament_versions_dates")),
        sa.ForeignKeyConstraint(
            ["federation_prefix"],
            ["federations.prefix"],
            name=op.f("fk_tournament_versions_federation_prefix_federations"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_versions_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "version", name=op.f("pk_tournament_versions")),
    )
    with op.batch_alter_table("tournament_versions", schema=None) as batch_op:
        batch_op.create_index("ix_tournament_versions_order", ["end_date", "acronym", "tournament_id"], unique=False)

    op.create_table(
        "memberships",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_pkz", sa.BigInteger(), nullable=False),
        sa.Column("club_code", sa.String(length=5), nullable=False),
        sa.Column("member_no", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=7), nullable=False),
        sa.Column("valid_from", sa.Date(), nullable=False),
        sa.Column("valid_until", sa.Date(), nullable=True),
        sa.CheckConstraint("status IN ('active', 'passive')", name=op.f("ck_memberships_status")),
        sa.CheckConstraint("valid_until IS NULL OR valid_until >= valid_from", name=op.f("ck_memberships_period")),
        sa.ForeignKeyConstraint(["club_code"], ["clubs.code"], name=op.f("fk_memberships_club_code_clubs")),
        sa.ForeignKeyConstraint(
            ["player_pkz"], ["players.pkz"], name=op.f("fk_memberships_player_pkz_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memberships")),
    )
    with op.batch_alter_table("memberships", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_memberships_club_code"), ["club_code"], unique=False)
        batch_op.create_index(batch_op.f("ix_memberships_player_pkz"), ["player_pkz"], unique=False)
        batch_op.create_index(
            "uq_memberships_current_number",
            ["club_code", "member_no"],
            unique=True,
            postgresql_where=sa.text("valid_until IS NULL"),
            sqlite_where=sa.text("valid_until IS NULL"),
        )

    op.create_table(
        "participants",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("player_pkz", sa.BigInteger(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("birth_year", sa.Integer(), nullable=True),
        sa.Column("member", sa.Boolean(), nullable=False),
        sa.Column("fide_rating", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["player_pkz"], ["players.pkz"], name=op.f("fk_participants_player_pkz_players")),
        sa.ForeignKeyConstraint(
            ["tournament_id", "version"],
            ["tournament_versions.tournament_id", "tournament_versions.version"],
            name=op.f("fk_participants_tournament_id_version_tournament_versions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "version", "player_pkz", name=op.f("pk_participants")),
        sa.UniqueConstraint(
            "tournament_id", "version", "position", name=op.f("uq_participants_tournament_id_version_position")
        ),
    )
    with op.batch_alter_table("participants", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_participants_player_pkz"), ["player_pkz"], unique=False)

    op.create_table(
        "evaluations",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("player_pkz", sa.BigInteger(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("rule_set", sa.String(length=20), nullable=False),
        sa.Column("member", sa.Boolean(), nullable=False),
        sa.Column("stage", sa.String(length=11), nullable=False),
        sa.Column("fide_start", sa.Boolean(), nullable=False),
        sa.Column("r0", sa.Integer(), nullable=True),
        sa.Column("i0", sa.Integer(), nullable=True),
        sa.Column("w", sa.Numeric(precision=6, scale=1, asdecimal=False), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.Column("unrated_games", sa.Integer(), nullable=False),
        sa.Column("we", sa.Float(), nullable=True),
        sa.Column("e", sa.Integer(), nullable=True),
        sa.Column("k", sa.Numeric(precision=4, scale=1, asdecimal=False), nullable=True),
        sa.Column("rh", sa.Integer(), nullable=True),
        sa.Column("sonder", sa.Boolean(), nullable=False),
        sa.Column("rn", sa.Integer(), nullable=True),
        sa.Column("i_new", sa.Integer(), nullable=True),
        sa.Column("stored", sa.Boolean(), nullable=False),
        sa.Column("leftover_used", sa.Integer(), nullable=False),
        sa.Column("leftover_stored", sa.Integer(), nullable=False),
        sa.CheckConstraint(
            "stage IN ('established', 'stage1', 'stage2', 'unrated')", name=op.f("ck_evaluations_stage")
        ),
        sa.CheckConstraint("e IS NULL OR k IS NULL", name=op.f("ck_evaluations_e_or_k")),
        sa.ForeignKeyConstraint(
            ["tournament_id", "version", "player_pkz"],
            ["participants.tournament_id", "participants.version", "participants.player_pkz"],
            name=op.f("fk_evaluations_tournament_id_version_player_pkz_participants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "version", "player_pkz", name=op.f("pk_evaluations")),
    )
    with op.batch_alter_table("evaluations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_evaluations_player_pkz"), ["player_pkz"], unique=False)

    op.create_table(
        "games",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("board", sa.Integer(), nullable=True),
        sa.Column("white_pkz", sa.BigInteger(), nullable=False),
        sa.Column("black_pkz", sa.BigInteger(), nullable=False),
        sa.Column("result", sa.String(length=7), nullable=False),
        sa.CheckConstraint(
            "result IN ('1-0', '0-1', '1/2-1/2', '+-', '-+', '--', '0-0', '1/2-0', '0-1/2')",
            name=op.f("ck_games_result"),
        ),
        sa.CheckConstraint("white_pkz <> black_pkz", name=op.f("ck_games_not_self")),
        sa.ForeignKeyConstraint(
            ["tournament_id", "version", "black_pkz"],
            ["participants.tournament_id", "participants.version", "participants.player_pkz"],
            name=op.f("fk_games_tournament_id_version_black_pkz_participants"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "version", "white_pkz"],
            ["participants.tournament_id", "participants.version", "participants.player_pkz"],
            name=op.f("fk_games_tournament_id_version_white_pkz_participants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "version", "seq", name=op.f("pk_games")),
    )
    # The recalculation state is a single row from the start.
    op.execute("INSERT INTO recalc_state (id, generation, progress_done, progress_total) VALUES (1, 0, 0, 0)")


def downgrade() -> None:
    op.drop_table("games")
    with op.batch_alter_table("evaluations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_evaluations_player_pkz"))

    op.drop_table("evaluations")
    with op.batch_alter_table("participants", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_participants_player_pkz"))

    op.drop_table("participants")
    with op.batch_alter_table("memberships", schema=None) as batch_op:
        batch_op.drop_index(
            "uq_memberships_current_number",
            postgresql_where=sa.text("valid_until IS NULL"),
            sqlite_where=sa.text("valid_until IS NULL"),
        )
        batch_op.drop_index(batch_op.f("ix_memberships_player_pkz"))
        batch_op.drop_index(batch_op.f("ix_memberships_club_code"))

    op.drop_table("memberships")
    with op.batch_alter_table("tournament_versions", schema=None) as batch_op:
        batch_op.drop_index("ix_tournament_versions_order")

    op.drop_table("tournament_versions")
    op.drop_table("start_ratings")
    with op.batch_alter_table("rating_history", schema=None) as batch_op:
        batch_op.drop_index("ix_rating_history_tournament")
        batch_op.drop_index("ix_rating_history_player")

    op.drop_table("rating_history")
    with op.batch_alter_table("player_ratings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_player_ratings_rating"))
        batch_op.drop_index(batch_op.f("ix_player_ratings_changed_at"))

    op.drop_table("player_ratings")
    op.drop_table("initial_states")
    with op.batch_alter_table("clubs", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_clubs_federation_prefix"))

    op.drop_table("clubs")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index("ix_tournaments_pending")

    op.drop_table("tournaments")
    op.drop_table("recalc_state")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_players_search_name"))

    op.drop_table("players")
    with op.batch_alter_table("federations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_federations_parent_prefix"))

    op.drop_table("federations")
