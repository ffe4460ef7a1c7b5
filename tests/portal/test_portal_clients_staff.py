"""Staff create and revoke the portal's clients: on the staff page (an admin signed in; the
secret shown once, on the answer to the form; a referee refused) and with ``zdb portal-client``;
each change in the audit log, and a created client takes a token at once."""

from __future__ import annotations

import re

from click.testing import CliRunner

from tests.api.world import World
from tests.portal.portal import take_token
from tests.web.html_text import text_of
from tests.web.signed_in import audit_actions, signed_in
from zdb.cli import main

SAME_ORIGIN = {"Origin": "http://testserver"}


def test_an_admin_creates_and_revokes_a_client_on_the_staff_page(fresh: World) -> None:
    staff = signed_in(fresh, "admin")
    made = staff.post(
        "/staff/portal-clients",
        data={"client_id": "sk-musterstadt", "scope": ["dwz_liste"], "vkz": "C0327", "label": "Vereinsseite"},
        headers=SAME_ORIGIN,
    )
    assert made.status_code == 200, made.text
    secret = re.search(r'data-testid="secret">.*?<code>([^<]+)</code>', made.text, re.S)
    assert secret is not None
    assert take_token(fresh, "sk-musterstadt", secret.group(1), "dwz_liste").status_code == 200
    page = staff.get("/staff/portal-clients")
    assert "sk-musterstadt" in text_of(page.text) and secret.group(1) not in page.text
    revoked = staff.post("/staff/portal-clients/sk-musterstadt/revocation", headers=SAME_ORIGIN)
    assert revoked.status_code == 303
    assert take_token(fresh, "sk-musterstadt", secret.group(1), "dwz_liste").status_code == 401
    assert audit_actions(fresh, "portal client sk-musterstadt") == [
        "portal.client.create",
        "portal.token.issue",
        "portal.client.revoke",
        "portal.token.refuse",
    ]


def test_a_bad_client_is_refused_naming_the_field_and_a_referee_is_refused(fresh: World) -> None:
    staff = signed_in(fresh, "admin")
    bad = staff.post("/staff/portal-clients", data={"client_id": "x", "scope": ["dwz_liste"]}, headers=SAME_ORIGIN)
    assert bad.status_code == 422 and "client_id" in text_of(bad.text)
    referee = signed_in(fresh, "referee_c")
    assert referee.get("/staff/portal-clients").status_code == 403


def test_the_command_creates_lists_and_revokes_a_client(fresh: World) -> None:
    runner = CliRunner()
    url = ["--database-url", fresh.url]
    made = runner.invoke(main, ["portal-client", "create", "vereinsapp", "--scope", "dsb_tournament", *url])
    assert made.exit_code == 0, made.output
    secret = made.output.strip().splitlines()[-1]
    assert take_token(fresh, "vereinsapp", secret, "dsb_tournament").status_code == 200
    listed = runner.invoke(main, ["portal-client", "list", *url])
    assert "vereinsapp  dsb_tournament" in listed.output
    assert runner.invoke(main, ["portal-client", "revoke", "vereinsapp", *url]).exit_code == 0
    again = runner.invoke(main, ["portal-client", "revoke", "vereinsapp", *url])
    assert again.exit_code != 0 and "already revoked" in again.output
