"""The floor review served to browsers (tablets on the floor): the page and its websocket at the
address each browser came by (not the one the server listens on, which may be 0.0.0.0), over
HTTPS and WSS when given a certificate and its key (PINs cross the network), everything the page
needs served from here (no font from elsewhere), and an export downloaded to the tablet."""

from __future__ import annotations

import ipaddress
import re
import ssl
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.server import Server

from dealer_tui.language import N_, _, current, language, language_of

PAGE = Path(__file__).with_name("serve_page")
HOST_HEADER = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$")
"""A Host header as a browser sends it: a name or an address, and a port."""


def loopback(host: str) -> bool:
    """Whether `host` is this machine only (nothing on the network reaches it)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def tls_context(certificate: Path, key: Path) -> ssl.SSLContext:
    """The server's TLS from a PEM certificate (its chain) and key; `ssl.SSLError` or OSError when
    they do not load."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(certificate, key)
    return context


PAGE_WORDS = {"start": N_("Start"), "ended": N_("Session ended."), "restart": N_("Restart")}
"""The page's own words around the floor (its buttons before and after a session)."""


def page_language(accepted: str, fallback: str) -> str:
    """The language a browser's page is written in: the first of those its `Accept-Language`
    header asks for (by their weights) that the terminal speaks, else `fallback` (the server's)."""
    asked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accepted.split(",")[:32]):
        tag, _sep, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        code = language_of(tag.strip())
        if code is not None and weight > 0:
            asked.append((-weight, i, code))
    return min(asked)[2] if asked else fallback


class FloorServer(Server):
    def __init__(self, command: str, host: str, port: int, tls: ssl.SSLContext | None) -> None:
        super().__init__(command, host=host, port=port, title=_("Floor review"), templates_path=PAGE,
                         public_url=f"{'https' if tls else 'http'}://{host}:{port}")
        self.tls = tls

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """The page, its scripts and its websocket at the address the browser asked for."""
        host = request.host if HOST_HEADER.match(request.host) else f"{self.host}:{self.port}"
        secure = self.tls is not None
        base = f"{'https' if secure else 'http'}://{host}"
        router = request.app.router
        try:
            font_size = max(8, min(40, int(request.query.get("fontsize", "16"))))
        except ValueError:
            font_size = 16
        shown = language(page_language(request.headers.get("Accept-Language", ""), current().code))
        return {
            "lang": shown.code,
            "words": {name: shown.text(word) for name, word in PAGE_WORDS.items()},
            "font_size": font_size,
            "app_websocket_url": f"{'wss' if secure else 'ws'}://{host}{router['websocket'].url_for()}",
            "config": {"static": {"url": f"{base}{router['static'].url_for(filename='/')}".rstrip("/") + "/"}},
            "application": {"name": self.title},
        }

    async def make_app(self) -> web.Application:
        """The web application: the page, its websocket, downloads and the static files."""
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes([web.get("/", self.handle_index, name="index"),
                        web.get("/ws", self.handle_websocket, name="websocket"),
                        web.get("/download/{key}", self.handle_download, name="download"),
                        web.static("/static", self.statics_path, name="static")])
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    def serve(self, debug: bool = False) -> None:
        """Serve until interrupted, over TLS when the server has a certificate."""
        self.debug = debug
        self.initialize_logging()
        web.run_app(self.make_app(), host=self.host, port=self.port, ssl_context=self.tls,
                    print=lambda *args: None)
