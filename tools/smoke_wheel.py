"""The wheel, as a user installs it: `make test-wheel` (CI runs it).

    python tools/smoke_wheel.py dist/referee-X-py3-none-any.whl

Checks that the wheel holds the app's files (templates, static files, the compiled
French catalogue, the fonts, the migrations), installs it in a throwaway virtual
environment outside the checkout, and from a folder that has nothing of Referee:

- `referee --version` and `python -m referee --version`;
- `referee score` and `referee pdf` (in French) on an example record of examples/;
- `PORT=… referee serve` with no data folder named: the database and the key land
  in the per-user default (`$HOME/.local/share/referee`), nothing in the
  environment; the home page in French, a static file, a new game, a deal, its
  scoreboard, the PDF sheet, `/health`;
- `referee backup`, then `referee restore --data` into a new (empty) folder.

Each step that fails stops the script with what it saw (exit 1). Everything runs on
loopback, in a temporary folder removed at the end; the server is stopped by its id.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[0] = str(ROOT)  # the HTTP phone of the server tests
EXAMPLE = ROOT / "examples" / "boulmous-with-stake.json"
#: What a wheel must hold besides Python.
CONTENTS = (
    "referee/share/templates/_macros.html",
    "referee/games/boulmous/templates/deal.html",
    "referee/games/pad/templates/deal.html",
    "referee/games/pitch/static/deal.js",
    "referee/share/static/app.css",
    "referee/share/static/sw.js",
    "referee/share/static/print.css",
    "referee/games/pitch/static/picture.svg",
    "referee/games/bombu/sample.json",
    "referee/share/translations/fr/LC_MESSAGES/messages.mo",
    "referee/fonts/DejaVuSans.ttf",
    "referee/fonts/DejaVuSans-Bold.ttf",
    "referee/fonts/DejaVuSansMono.ttf",
    "referee/migrations/env.py",
    "referee/migrations/script.py.mako",
    "referee/py.typed",
)
#: Seconds the server may take to answer its first /health.
BOOT = 60.0


class Failed(Exception):
    """A step of the smoke test did not give what a user expects."""


def check(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)


def run(argv: list[str], env: dict[str, str], cwd: Path, status: int = 0) -> str:
    """Run a command of the installed package; its output, or Failed."""
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, timeout=120)
    check(
        done.returncode == status,
        f"{' '.join(argv)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}",
    )
    return done.stdout


def check_contents(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in CONTENTS:
        check(name in names, f"the wheel lacks {name}")
    check(any(n.startswith("referee/migrations/versions/") for n in names), "no migration versions")
    check(any(n.endswith("licenses/LICENSE") for n in names), "no LICENSE in the wheel")
    check(not any(n.endswith(".po") for n in names), "the wheel carries a .po source")


def install(wheel: Path, where: Path) -> Path:
    """A fresh virtual environment with the wheel and its dependencies; its bin/."""
    venv.create(where, with_pip=True)
    bin_dir = where / "bin"
    pip = [str(bin_dir / "python"), "-m", "pip", "install", "--disable-pip-version-check"]
    run([*pip, "--quiet", str(wheel)], dict(os.environ), where)
    return bin_dir


def serve_and_play(bin_dir: Path, env: dict[str, str], cwd: Path) -> None:
    from tests.server.conftest import Phone, free_port

    port = free_port()
    log = cwd / "serve.log"
    with log.open("wb") as out:  # the server keeps its copy
        server = subprocess.Popen(
            [str(bin_dir / "referee"), "serve", "--workers", "1", "--threads", "2"],
            env={**env, "PORT": str(port), "HOST": "127.0.0.1"},
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        phone = Phone(port)
        check(phone.healthy(server, BOOT), f"no /health within {BOOT:.0f} s")
        status, home = fetch(port, "/", "fr")
        check(status == 200 and "Nouvelle partie" in home.decode(), f"home page: {status}")
        # The home page's sample game: its record travels in the package.
        status, sample = fetch(port, "/sample/bombu", "en")
        check(status == 200 and "Winners:" in sample.decode(), f"/sample/bombu: {status}")
        status, css, _ = phone.request("GET", "/static/app.css")
        check(status == 200 and "font" in css, f"/static/app.css: {status}")
        token = phone.new_game(["Ana", "Bruno", "Chloé", "Driss"])
        fields = phone.form(f"/g/{token}/deal")
        deal = {"action": "save", "taker": "0", "bid": "4", "contract": "hearts"}
        deal.update({f"tricks{i}": str(n) for i, n in enumerate([4, 1, 1, 0])})
        status, _ = phone.post_deal(token, {**fields, **deal})
        check(status == 302, f"the deal was not recorded: {status}")
        status, page, _ = phone.request("GET", f"/g/{token}")
        check(status == 200 and "Ana" in page and "+4" in page, "the scoreboard lacks the deal")
        status, sheet = fetch(port, f"/g/{token}/sheet.pdf")
        check(status == 200 and sheet.startswith(b"%PDF"), f"sheet.pdf: {status}")
    except Failed as failure:
        said = log.read_text(errors="replace")[-3000:]
        raise Failed(f"{failure}\n--- what referee serve said ---\n{said}") from None
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)


def fetch(port: int, path: str, lang: str = "en") -> tuple[int, bytes]:
    """(status, body) of one GET, in a browser's language."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"Accept-Language": lang})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def smoke(wheel: Path) -> None:
    check_contents(wheel)
    with tempfile.TemporaryDirectory(prefix="referee-wheel-") as tmp:
        top = Path(tmp)
        bin_dir = install(wheel, top / "venv")
        elsewhere, home = top / "elsewhere", top / "home"
        elsewhere.mkdir()
        home.mkdir()
        env = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("REFEREE_", "DATABASE_URL", "PYTHON", "XDG_", "VIRTUAL_ENV"))
        }
        env.update(HOME=str(home), LANG="C.UTF-8")
        referee = str(bin_dir / "referee")
        out = run([referee, "--version"], env, elsewhere)
        check(out.startswith("referee "), f"--version: {out!r}")
        check(
            run([str(bin_dir / "python"), "-m", "referee", "--version"], env, elsewhere) == out,
            "python -m referee --version differs",
        )
        out = run([referee, "score", str(EXAMPLE)], env, elsewhere)
        check(json.loads(out)["winners"] == [0], f"score: {out[:200]}")
        run([referee, "--lang", "fr", "pdf", str(EXAMPLE), "-o", "sheet.pdf"], env, elsewhere)
        check((elsewhere / "sheet.pdf").read_bytes().startswith(b"%PDF"), "pdf: not a PDF")
        serve_and_play(bin_dir, env, elsewhere)
        data = home / ".local" / "share" / "referee"
        check((data / "referee.sqlite3").is_file(), f"no database in {data}")
        check((data / "secret_key").is_file(), f"no secret key in {data}")
        check(not list((top / "venv").rglob("*.sqlite3")), "a database inside the environment")
        out = run([referee, "--lang", "fr", "backup", "backup"], env, elsewhere)
        check("parties\u202f: 1, concours\u202f: 0" in out, f"backup: {out!r}")
        (top / "new").mkdir()  # a restore makes its database in a folder that is there
        out = run(
            [referee, "--lang", "fr", "restore", "--data", str(top / "new"), "backup"],
            env,
            elsewhere,
        )
        check("parties restaurées\u202f: 1," in out, f"restore: {out!r}")
        check((top / "new" / "referee.sqlite3").is_file(), "restore --data: no database there")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("wheel", type=Path)
    args = parser.parse_args()
    started = time.monotonic()
    try:
        smoke(args.wheel.resolve())
    except Failed as failure:
        print(f"wheel smoke test FAILED: {failure}", file=sys.stderr)
        return 1
    print(f"wheel smoke test passed in {time.monotonic() - started:.0f} s: {args.wheel.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
