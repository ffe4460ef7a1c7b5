"""The proxy of ``docker-compose.yml`` (``deploy/nginx/zdb.conf``), run with Debian's nginx in
front of two API processes of the test's PostgreSQL: a public answer is served from its cache,
a token's or a session's answer never is, and neither is a refusal or an error; while the API
processes are away, what the cache holds is still answered. Its access log, like the API's, holds
paths only: no query string, and a complainant's private link with its key withheld."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from tests.api.world import World, build_world
from tests.databases import database_copy
from tests.deploy.services import NGINX, Api, Nginx, wait
from zdb.db import engine_for

pytestmark = [pytest.mark.slow, pytest.mark.skipif(NGINX is None, reason="Debian's nginx is not installed")]


@dataclass
class Proxied:
    world: World
    apis: list[Api]
    nginx: Nginx

    def get(self, path: str, token: str | None = None, **headers: str) -> httpx.Response:
        if token is not None:
            headers["Authorization"] = f"Bearer {self.world.tokens[token]}"
        return httpx.get(f"{self.nginx.url}{path}", headers=headers, timeout=30)


@pytest.fixture(scope="module")
def proxied(
    postgres_server: str,
    postgres_template: str,
    redis_url: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Proxied]:
    folder = tmp_path_factory.mktemp("proxy")
    with database_copy(postgres_server, postgres_template, "zdb_proxy") as url:
        world = build_world(url)
        world.client.close()
        engine_for(url).dispose()
        environment = {"ZDB_DATABASE_URL": url, "ZDB_BROKER_URL": redis_url, "ZDB_RATE_LIMITS": "off"}
        apis = [Api(environment, folder / "api.log") for _ in range(2)]
        nginx = Nginx(folder / "nginx", [api.port for api in apis])
        try:
            for api in apis:
                api.start()
            nginx.start()
            yield Proxied(world, apis, nginx)
        finally:
            nginx.stop()
            for api in apis:
                api.stop()
            print((folder / "api.log").read_text(errors="replace")[-3000:])


def test_a_public_answer_is_served_from_the_cache(proxied: Proxied) -> None:
    path = f"/api/v1/players/{proxied.world.pkz['A']}"
    first = proxied.get(path)
    assert first.status_code == 200 and first.headers["x-cache-status"] == "MISS"
    second = proxied.get(path)
    assert second.status_code == 200 and second.headers["x-cache-status"] == "HIT"
    assert second.content == first.content and second.headers["etag"] == first.headers["etag"]
    page = f"/players/{proxied.world.pkz['A']}"
    assert proxied.get(page).headers["x-cache-status"] == "MISS"
    assert proxied.get(page).headers["x-cache-status"] == "HIT"


def test_a_token_is_never_answered_from_the_cache_nor_its_answer_kept(proxied: Proxied) -> None:
    path = "/api/v1/clubs/C0327/ratings"
    public = proxied.get(path)
    assert proxied.get(path).headers["x-cache-status"] == "HIT"
    for _ in range(2):  # the public copy is there; the token's request passes it by
        mine = proxied.get(path, token="club_c0327")
        assert mine.status_code == 200 and mine.headers["x-cache-status"] == "BYPASS"
        assert mine.headers["cache-control"] == "private, no-cache"
    # the club sees more of its members than the public (the full birth date): not the cached bytes
    assert mine.content != public.content
    again = proxied.get(path)
    assert again.headers["x-cache-status"] == "HIT" and again.content == public.content


def test_a_token_s_first_answer_is_not_kept_for_the_public(proxied: Proxied) -> None:
    path = "/api/v1/clubs/D0001/ratings"
    assert proxied.get(path, token="club_d0001").headers["x-cache-status"] == "BYPASS"
    assert proxied.get(path).headers["x-cache-status"] == "MISS"  # nothing of the token's was stored


def test_a_session_s_pages_are_never_cached(proxied: Proxied) -> None:
    path = "/clubs/C0327"
    assert proxied.get(path).status_code == 200
    signed = proxied.get(path, Cookie="zdb_session=anything")
    assert signed.headers["x-cache-status"] == "BYPASS"


def test_refusals_are_never_kept(proxied: Proxied) -> None:
    for path in ("/api/v1/players/999999999", "/api/v1/clubs/C0327/ratings?limit=many", "/api/v1/health"):
        for _ in range(2):
            answer = proxied.get(path)
            assert answer.headers["x-cache-status"] != "HIT", path
    assert proxied.get("/metrics").status_code == 404  # the internal network's, never the proxy's
    wrong = proxied.get("/api/v1/players/1", Authorization="Bearer nonsense")
    assert wrong.status_code == 401 and wrong.headers["x-cache-status"] == "BYPASS"


def test_a_published_edition_is_kept_and_the_api_s_absence_survived(proxied: Proxied) -> None:
    admin = {"Authorization": f"Bearer {proxied.world.tokens['admin']}"}
    made = httpx.post(
        f"{proxied.nginx.url}/api/v1/editions", json={"date": "2026-09-30", "name": "2026-Q3"}, headers=admin
    )
    assert made.status_code == 201, made.text
    edition = "/api/v1/editions/2026-Q3/ratings"
    first = proxied.get(edition)
    assert first.headers["cache-control"].endswith("immutable")
    assert proxied.get(edition).headers["x-cache-status"] == "HIT"
    never_asked = "/api/v1/clubs/C0101/ratings"
    for api in proxied.apis:
        api.stop()
    try:
        held = proxied.get(edition)
        assert held.status_code == 200 and held.content == first.content
        gone = proxied.get(never_asked)
        assert gone.status_code == 502  # nginx's own: nothing to answer with
        assert proxied.get(never_asked).status_code == 502  # and never kept
    finally:
        proxied.apis[0].start()
    back = proxied.get(never_asked)
    assert back.status_code == 200 and back.headers["x-cache-status"] == "MISS"


def test_the_logs_hold_paths_without_queries_or_a_private_link_s_key(proxied: Proxied) -> None:
    body = {
        "subject": "evaluation",
        "tournament": 1,
        "person": proxied.world.pkz["A"],
        "pkz": proxied.world.pkz["A"],
        "email": "anna.mueller@example.org",
        "text": "Meine Partie in Runde 2 endete remis.",
    }
    filed = httpx.post(f"{proxied.nginx.url}/api/v1/complaints", json=body, timeout=30)
    assert filed.status_code == 201, filed.text
    link = filed.json()["follow"]
    secret = link.rsplit("/", 1)[-1]
    assert proxied.get(link).status_code == 200
    assert proxied.get(f"/api/v1{link}").status_code == 200
    assert proxied.get("/api/v1/players?name=Schmidtbauer").status_code == 200
    access = proxied.nginx.folder / "logs" / "access.log"
    wait(lambda: "/api/v1/players " in access.read_text(), 10, "the proxy's access line")
    proxy_log = access.read_text()
    assert '"GET /complaints/follow/<withheld> HTTP/1.1" 200' in proxy_log
    assert '"GET /api/v1/complaints/follow/<withheld> HTTP/1.1" 200' in proxy_log
    api_log = (proxied.nginx.folder.parent / "api.log").read_text(errors="replace")
    assert "GET /complaints/follow/<withheld> 200" in api_log
    for log in (proxy_log, api_log):
        assert secret not in log and "Schmidtbauer" not in log
