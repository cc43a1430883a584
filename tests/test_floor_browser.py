"""The floor in a browser: `dealer-tui floor --serve HOST:PORT` serves the floor review
(textual-serve); headless Chromium opens it, the supervisor signs in with their PIN as at the
terminal, and the pit map comes up — seen in what the server sends the browser, in the sign-in
the ledger records, and in a screenshot of the page kept beside the test's files. On the network
it is served over HTTPS at the address the browser came by, or refused without a certificate."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from dealer_tui.ledger import SqliteLedger
from dealer_tui.ledger.base import STAFF_REGISTER
from tests.floor_support import live_table
from tests.staff_support import SUPERVISOR, SUPERVISOR_PIN

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.tui


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=2) as answer:
                return str(answer.read().decode())
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


class Page:
    """One page of a headless Chromium, driven over its DevTools protocol."""

    def __init__(self, ws: Any) -> None:
        self.ws, self.next_id = ws, 0
        self.frames: list[bytes] = []
        """What the page's websockets received (the terminal's output, as the server sent it)."""

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        mine = self.next_id
        await self.ws.send_str(json.dumps({"id": mine, "method": method, "params": params}))
        while True:
            message = json.loads((await self.ws.receive()).data)
            if message.get("method") == "Network.webSocketFrameReceived":
                response = message["params"]["response"]
                data = response["payloadData"]
                self.frames.append(base64.b64decode(data) if response.get("opcode") == 2 else data.encode())
            if message.get("id") == mine:
                return dict(message.get("result", {}))

    async def pump(self, seconds: float) -> None:
        """Take in the page's events for a while (the frames the server sends)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            await self.call("Runtime.evaluate", expression="1")
            await asyncio.sleep(0.1)

    async def wait_for(self, text: bytes, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if any(text in frame for frame in self.frames):
                return True
            await self.pump(0.3)
        return False

    async def type(self, text: str) -> None:
        for char in text:
            await self.call("Input.dispatchKeyEvent", type="keyDown", text=char, key=char)
            await self.call("Input.dispatchKeyEvent", type="keyUp", key=char)

    async def enter(self) -> None:
        for kind in ("keyDown", "keyUp"):
            await self.call("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter", windowsVirtualKeyCode=13,
                            **({"text": "\r"} if kind == "keyDown" else {}))


async def sign_in_in_browser(debug_port: int, url: str, shot: Path) -> list[bytes]:
    import aiohttp

    targets = json.loads(wait_http(f"http://127.0.0.1:{debug_port}/json/list"))
    page_target = next(t for t in targets if t.get("type") == "page")
    async with aiohttp.ClientSession() as session, session.ws_connect(page_target["webSocketDebuggerUrl"],
                                                                      max_msg_size=0) as ws:
        page = Page(ws)
        await page.call("Network.enable")
        await page.call("Page.enable")
        await page.call("Page.navigate", url=url)
        assert await page.wait_for(b"PIN", 60), "the sign-in never reached the browser"
        await page.call("Runtime.evaluate", expression="document.querySelector('.xterm-helper-textarea').focus()")
        await page.type(SUPERVISOR)
        await page.enter()
        await page.pump(0.5)
        await page.type(SUPERVISOR_PIN)
        await page.enter()
        shown = await page.wait_for(b"Rounds/h", 60)                     # the pit map, the floor's first screen
        await page.pump(1.0)
        picture = await page.call("Page.captureScreenshot", format="png")
        shot.write_bytes(base64.b64decode(picture["data"]))
        assert shown, f"the pit map never reached the browser (the page: {shot})"
        return page.frames


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium (Debian's chromium) is not installed here")
def test_the_floor_served_to_a_browser_signs_in_and_shows_the_pit_map(tmp_path: Path) -> None:
    ledger_path = tmp_path / "floor.sqlite"
    live_table(ledger_path, "high-card-flush", 3, 5)
    port, debug = free_port(), free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data")}
    server = subprocess.Popen([sys.executable, "-m", "dealer_tui.cli", "floor", "--ledger", str(ledger_path),
                               "--serve", f"127.0.0.1:{port}"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    assert CHROMIUM is not None
    browser = subprocess.Popen([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                f"--remote-debugging-port={debug}", f"--user-data-dir={tmp_path / 'chromium'}",
                                "--window-size=1280,860", "about:blank"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        assert "Floor review" in wait_http(f"http://127.0.0.1:{port}/")
        shot = tmp_path / "floor-in-browser.png"
        frames = asyncio.run(sign_in_in_browser(debug, f"http://127.0.0.1:{port}/", shot))
    finally:
        browser.terminate()
        server.terminate()
        browser.wait(30)
        server.wait(30)
    sent = b"".join(frames)
    assert b"Demo high-card-flush" in sent and b"Sam Super" in sent       # the table's rounds, the signed-in user
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    ledger = SqliteLedger(ledger_path, readonly=True)
    sign_ins = [e.payload for e in ledger.table_events(STAFF_REGISTER, ["staff_signed_in"])
                if e.payload.get("account") == SUPERVISOR]
    ledger.close()
    assert sign_ins and sign_ins[-1]["act"] == "floor"


def throwaway_certificate(where: Path, address: str) -> tuple[Path, Path]:
    """A self-signed certificate for `address` (an IP), and its key, as PEM files."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, address)])
    now = datetime.datetime.now(datetime.UTC)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address(address))]),
                                  critical=False)
                   .sign(key, hashes.SHA256()))
    cert_file, key_file = where / "floor.crt", where / "floor.key"
    cert_file.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


def own_address() -> str | None:
    """This machine's address on its network (not the loopback), as a tablet reaches it."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))                                  # no packet is sent: the route is looked up
            address = str(s.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") else address


def test_serving_on_the_network_without_a_certificate_is_refused(tmp_path: Path) -> None:
    from dealer_tui.cli import main

    ledger_path = tmp_path / "floor.sqlite"
    live_table(ledger_path, "high-card-flush", 3, 1)
    assert main(["floor", "--ledger", str(ledger_path), "--serve", "0.0.0.0:8123"]) == 2
    assert main(["floor", "--ledger", str(ledger_path), "--serve", "0.0.0.0:8123", "--certificate",
                 str(tmp_path / "none.crt")]) == 2


@pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium (Debian's chromium) is not installed here")
def test_the_floor_on_the_network_is_served_over_https_at_the_address_the_browser_came_by(tmp_path: Path) -> None:
    """`--serve 0.0.0.0:PORT` with a throwaway certificate, opened through the machine's own
    address: the page names that address for its websocket (wss), loads nothing from elsewhere,
    and the supervisor signs in and sees the pit map."""
    import ssl

    address = own_address()
    if address is None:
        pytest.skip("this machine has no address but the loopback")
    ledger_path = tmp_path / "floor.sqlite"
    live_table(ledger_path, "high-card-flush", 3, 5)
    cert, key = throwaway_certificate(tmp_path, address)
    port, debug = free_port(), free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data")}
    server = subprocess.Popen([sys.executable, "-m", "dealer_tui.cli", "floor", "--ledger", str(ledger_path),
                               "--serve", f"0.0.0.0:{port}", "--certificate", str(cert), "--key", str(key)],
                              cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert CHROMIUM is not None
    browser = subprocess.Popen([CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                "--ignore-certificate-errors", "--disable-background-networking",
                                f"--remote-debugging-port={debug}", f"--user-data-dir={tmp_path / 'chromium'}",
                                "--window-size=1024,768", "about:blank"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    url = f"https://{address}:{port}/"
    try:
        unverified = ssl.create_default_context(cafile=str(cert))
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(url, timeout=2, context=unverified) as answer:
                    page = answer.read().decode()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        assert f"wss://{address}:{port}/ws" in page and f"https://{address}:{port}/static/" in page
        assert "googleapis" not in page and "http://0.0.0.0" not in page
        shot = tmp_path / "floor-over-https.png"
        frames = asyncio.run(sign_in_in_browser(debug, url, shot))
    finally:
        browser.terminate()
        server.terminate()
        browser.wait(30)
        server.wait(30)
    assert b"Demo high-card-flush" in b"".join(frames)


def test_the_page_around_the_floor_speaks_the_browsers_language(tmp_path: Path) -> None:
    """The page's own buttons (Start, and Restart once a session ends) are written in the first
    language the tablet's browser asks for that the terminal speaks (`Accept-Language`), else in
    the server's; the page names its language for the browser."""
    ledger_path = tmp_path / "floor.sqlite"
    live_table(ledger_path, "high-card-flush", 3, 1)
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_STATE_HOME": str(tmp_path / "state"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "LANG": "C.UTF-8", "LC_ALL": "", "LC_MESSAGES": ""}
    server = subprocess.Popen([sys.executable, "-m", "dealer_tui.cli", "floor", "--ledger", str(ledger_path),
                               "--serve", f"127.0.0.1:{port}"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"

    def page(accepted: str) -> str:
        request = urllib.request.Request(url, headers={"Accept-Language": accepted})
        with urllib.request.urlopen(request, timeout=5) as answer:
            return str(answer.read().decode())
    try:
        wait_http(url)
        polish = page("pl-PL,pl;q=0.9,en;q=0.5")
        russian = page("de-DE,de;q=0.9,ru;q=0.8,en;q=0.7")   # German is not spoken here: Russian is next
        hungarian = page("en;q=0.2, hu;q=0.8")
        english = page("de")                                 # none spoken: the server's own, English
    finally:
        server.terminate()
        server.wait(30)
    assert '<html lang="pl">' in polish and ">Start<" not in polish and "Sesja zakończona." in polish
    assert '<html lang="ru">' in russian and "Сеанс завершён." in russian
    assert '<html lang="hu">' in hungarian and "A munkamenet véget ért." in hungarian
    assert '<html lang="en">' in english and 'id="start">Start</button>' in english
    assert "Session ended." in english and ">Restart</button>" in english
