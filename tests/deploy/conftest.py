"""The deployment kit's own files (deploy/) in front of a real `referee serve`, on
loopback: nginx with its site file (HTTPS, a self-signed certificate made here) and
Caddy with its Caddyfile (plain HTTP: a certificate from the internet cannot be had
here). Each file is used as shipped, but for the addresses, ports and certificate
paths a test machine must change; a change of shape in a file fails the test.

Every test module here is marked `deploy` (`make test-deploy`, not `make test`).
"""

from __future__ import annotations

import os
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.server.conftest import HOST, Server, free_port
from tests.web.conftest import database  # noqa: F401  (the same databases as the web tests)

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
#: A proxy in front serves HTTPS and is the one hop the app trusts.
BEHIND_A_PROXY = {"REFEREE_BEHIND_PROXY": "1", "REFEREE_HTTPS": "1", "REFEREE_RATE_LIMITS": "0"}


def replaced(text: str, changes: list[tuple[str, str]]) -> str:
    """`text` with each (old, new) replaced; each old must be there (the file's shape)."""
    for old, new in changes:
        assert old in text, f"deploy file changed shape: {old!r} is gone"
        text = text.replace(old, new)
    return text


def wait_until_listening(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    import socket

    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text(errors="replace")[-2000:]
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port}: {log.read_text(errors='replace')[-2000:]}")


@dataclass
class Proxy:
    """A running proxy: where phones connect, over HTTPS (with `tls`) or HTTP."""

    name: str
    port: int
    process: subprocess.Popen[bytes]
    tls: ssl.SSLContext | None

    @property
    def scheme(self) -> str:
        return "https" if self.tls else "http"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    request = ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
    subprocess.run(
        [*request, "-subj", "/CN=referee.test", "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    return cert, key


def start_nginx(folder: Path, upstream: int) -> Proxy:
    """nginx with deploy/nginx/referee.conf on loopback ports, HTTPS on the first."""
    https, http = free_port(), free_port()
    cert, key = self_signed(folder)
    site = replaced(
        (DEPLOY / "nginx" / "referee.conf").read_text(encoding="utf-8"),
        [
            ("server 127.0.0.1:8000;", f"server {HOST}:{upstream};"),
            ("    listen 80;\n", f"    listen {HOST}:{http};\n"),
            ("    listen [::]:80;\n", ""),
            ("    listen 443 ssl http2;\n", f"    listen {HOST}:{https} ssl http2;\n"),
            ("    listen [::]:443 ssl http2;\n", ""),
            ("/etc/letsencrypt/live/scores.example.org/fullchain.pem", str(cert)),
            ("/etc/letsencrypt/live/scores.example.org/privkey.pem", str(key)),
        ],
    )
    (folder / "site.conf").write_text(site, encoding="utf-8")
    temp = folder / "temp"
    temp.mkdir()
    user = "user root root;\n" if os.getuid() == 0 else ""
    (folder / "nginx.conf").write_text(
        f"{user}worker_processes 2;\npid {folder}/nginx.pid;\nerror_log {folder}/error.log warn;\n"
        "daemon off;\nevents { worker_connections 1024; }\nhttp {\n  access_log off;\n"
        + "".join(
            f"  {kind}_temp_path {temp}/{kind};\n"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        + f"  include {folder}/site.conf;\n}}\n",
        encoding="utf-8",
    )
    log = folder / "error.log"
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    check = subprocess.run(
        [nginx, "-t", "-q", "-p", str(folder), "-c", str(folder / "nginx.conf")],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr
    with log.open("ab") as errors:  # the child keeps its copy
        process = subprocess.Popen(
            [nginx, "-p", str(folder), "-c", str(folder / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
    wait_until_listening(https, process, log)
    context = ssl.create_default_context(cafile=str(cert))
    context.check_hostname = False
    return Proxy("nginx", https, process, context)


def start_caddy(folder: Path, upstream: int) -> Proxy:
    """Caddy with deploy/Caddyfile as shipped, told its site and upstream by its
    variables (plain HTTP on loopback: no certificate to obtain)."""
    port, admin = free_port(), free_port()
    env = {
        **os.environ,
        "REFEREE_SITE": f"http://{HOST}:{port}",
        "REFEREE_UPSTREAM": f"{HOST}:{upstream}",
        "CADDY_ADMIN": f"{HOST}:{admin}",
        "HOME": str(folder),
        "XDG_DATA_HOME": str(folder / "data"),
        "XDG_CONFIG_HOME": str(folder / "config"),
    }
    caddy = shutil.which("caddy") or "/usr/bin/caddy"
    config = str(DEPLOY / "Caddyfile")
    check = subprocess.run(
        [caddy, "validate", "--config", config, "--adapter", "caddyfile"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr[-2000:]
    log = folder / "caddy.log"
    with log.open("ab") as errors:
        process = subprocess.Popen(
            [caddy, "run", "--config", config, "--adapter", "caddyfile"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
    wait_until_listening(port, process, log)
    return Proxy("caddy", port, process, None)


@pytest.fixture
def app_server(database: str, tmp_path: Path) -> Iterator[Server]:  # noqa: F811
    """`referee serve` as the kit runs it: behind one proxy that serves HTTPS."""
    running = Server(free_port(), database, tmp_path, more_env=dict(BEHIND_A_PROXY))
    running.start()
    yield running
    running.stop()


@pytest.fixture(params=["nginx", "caddy"])
def proxy(request: pytest.FixtureRequest, app_server: Server, tmp_path: Path) -> Iterator[Proxy]:
    folder = tmp_path / request.param
    folder.mkdir()
    start = start_nginx if request.param == "nginx" else start_caddy
    running = start(folder, app_server.port)
    yield running
    running.stop()
