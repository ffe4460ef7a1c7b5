"""``zdb portal-client``: the rating portal's OAuth2 clients (client id and secret) are created,
listed and revoked by staff on the server's command line (or on the staff page)."""

from __future__ import annotations

import click

from zdb.cli.database import DATABASE_URL, migrated
from zdb.cli.errors import fail

__all__ = ["register"]


@click.group("portal-client")
def portal_client_group() -> None:
    """Clients of the rating portal's interface (/dsbwertungsportal/rs/auth/token)."""


@portal_client_group.command("create")
@click.argument("client_id")
@click.option(
    "--scope",
    "scopes",
    multiple=True,
    default=("dsb_tournament", "dwz_liste"),
    show_default=True,
    type=click.Choice(["dsb_tournament", "dwz_liste"]),
    help="A scope granted to the client (repeat for several).",
)
@click.option("--vkz", default=None, help="Limit the client to this club-code prefix (a club's own code).")
@click.option("--label", default="", help="Who or what the client is for.")
@DATABASE_URL
def create_command(client_id: str, scopes: tuple[str, ...], vkz: str | None, label: str, url: str | None) -> None:
    """Create a client and print its secret: it is shown this once, never again."""
    from zdb.auth.portal_tokens import create_client
    from zdb.db import unit_of_work
    from zdb.errors import DomainError

    try:
        with unit_of_work(migrated(url)) as session:
            created = create_client(session, client_id, list(scopes), vkz, label)
    except DomainError as error:
        fail("portal-client", str(error))
    client = created.client
    click.echo(f"client {client.client_id} ({client.scopes}{'' if client.vkz is None else ', vkz ' + client.vkz})")
    click.echo(created.secret)


@portal_client_group.command("revoke")
@click.argument("client_id")
@DATABASE_URL
def revoke_command(client_id: str, url: str | None) -> None:
    """Revoke a client: its secret and its tokens stop working at once."""
    from zdb.auth.portal_tokens import revoke_client
    from zdb.db import unit_of_work
    from zdb.errors import DomainError

    try:
        with unit_of_work(migrated(url)) as session:
            revoke_client(session, client_id)
    except DomainError as error:
        fail("portal-client", str(error))
    click.echo(f"client {client_id} revoked")


@portal_client_group.command("list")
@DATABASE_URL
def list_command(url: str | None) -> None:
    """Every client: id, scopes, vkz, created, label, revoked."""
    from zdb.auth.portal_tokens import list_clients
    from zdb.db import unit_of_work

    with unit_of_work(migrated(url)) as session:
        rows = list_clients(session)
    for c in rows:
        revoked = "" if c.revoked_at is None else f"  revoked {c.revoked_at:%Y-%m-%d %H:%M}"
        click.echo(f"{c.client_id}  {c.scopes}  {c.vkz or '-'}  {c.created_at:%Y-%m-%d}  {c.label}{revoked}")


def register(group: click.Group) -> None:
    group.add_command(portal_client_group)
