import asyncio
import subprocess
import sys

import httpx
from werkzeug.test import Client

ADMIN = ("admin", "geoserver")


def test_asgi(geoserver_asgi_app):
    async def main():
        transport = httpx.ASGITransport(app=geoserver_asgi_app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test/geoserver") as c:
            return await c.get("/__emulator/health", auth=ADMIN)

    assert asyncio.run(main()).json()["status"] == "ok"


def test_wsgi_with_httpx(geoserver_wsgi_app):
    transport = httpx.WSGITransport(app=geoserver_wsgi_app)
    with httpx.Client(transport=transport, base_url="http://test/geoserver", auth=ADMIN) as c:
        assert c.get("/__emulator/health").status_code == 200


def test_wsgi_with_werkzeug(geoserver_wsgi_app):
    r = Client(geoserver_wsgi_app).get("/geoserver/rest/workspaces.json")
    assert r.status_code == 401


def test_async_client(geoserver_async_client):
    async def main():
        return await geoserver_async_client.get("/__emulator/health")

    assert asyncio.run(main()).json()["clock"] == "manual"


def test_requests(geoserver_requests):
    assert geoserver_requests.get("/__emulator/health").json()["scenario"] == "stock"


def test_any_process(geoserver_url):
    script = (
        f"import httpx; print(httpx.get('{geoserver_url}/__emulator/health', auth={ADMIN}).json())"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert "'status': 'ok'" in out.stdout
