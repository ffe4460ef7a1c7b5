"""``zdb token``: API tokens are created, listed and revoked on the server's command line only."""

from __future__ import annotations

import click

from zdb.cli.database import DATABASE_URL, migrated
from zdb.cli.errors import fail

__all__ = ["register"]


@click.group("token")
def token_group() -> None:
    """API tokens (Authorization: Bearer …)."""


@token_group.command("create")
@click.option("--role", required=True, type=click.Choice(["admin", "referee", "club"]))
@click.option("--scope", default=None, help="A club-code prefix (referee) or a club code (club).")
@click.option("--label", default="", help="Who or what the token is for.")
@DATABASE_URL
def create_command(role: str, scope: str | None, label: str, url: str | None) -> None:
    """Create a token and print its secret: it is shown this once, never again."""
    from zdb.auth.service import create_token
    from zdb.db import unit_of_work
    from zdb.errors import DomainError

    try:
        with unit_of_work(migrated(url)) as session:
            created = create_token(session, role, scope, label)
    except DomainError as error:
        fail("token", str(error))
    token = created.token
    click.echo(
        f"token {token.id} ({token.role}{'' if token.scope is None else ' ' + token.scope}), prefix {token.prefix}"
    )
    click.echo(created.secret)


@token_group.command("revoke")
@click.argument("prefix_or_id")
@DATABASE_URL
def revoke_command(prefix_or_id: str, url: str | None) -> None:
    """Revoke a token, named by its id or its prefix."""
    from zdb.auth.service import revoke_token
    from zdb.db import unit_of_work
    from zdb.errors import DomainError

    try:
        with unit_of_work(migrated(url)) as session:
            token = revoke_token(session, prefix_or_id)
    except DomainError as error:
        fail("token", str(error))
    click.echo(f"token {token.id} ({token.prefix}) revoked")


@token_group.command("list")
@DATABASE_URL
def list_command(url: str | None) -> None:
    """Every token: id, prefix, role, scope, label, created, revoked."""
    from zdb.auth.token_queries import tokens
    from zdb.db import unit_of_work

    with unit_of_work(migrated(url)) as session:
        rows = tokens(session)
    for t in rows:
        revoked = "" if t.revoked_at is None else f"  revoked {t.revoked_at:%Y-%m-%d %H:%M}"
        click.echo(
            f"{t.id:>5}  {t.prefix}  {t.role:<7}  {t.scope or '-':<5}  {t.created_at:%Y-%m-%d}  {t.label}{revoked}"
        )


def register(group: click.Group) -> None:
    group.add_command(token_group)
