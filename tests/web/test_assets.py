"""The scripts and the style sheet are served without comments or indentation, and
still whole (issue 15: the page with its scripts stays under 60 KB)."""

from __future__ import annotations

from pathlib import Path

from flask.testing import FlaskClient

from referee.web.assets import lean

STATIC = Path(__file__).resolve().parents[2] / "static"


def test_scripts_and_styles_are_served_lean(client: FlaskClient) -> None:
    for name in ("app.js", "queue.js", "app.css"):
        source = (STATIC / name).read_text(encoding="utf-8")
        response = client.get(f"/static/{name}")
        assert response.status_code == 200
        served = response.get_data(as_text=True)
        assert served == lean(source, Path(name).suffix)
        assert len(served) < 0.97 * len(source), name
        assert "\n//" not in served
        again = client.get(f"/static/{name}", headers={"If-None-Match": response.headers["ETag"]})
        assert again.status_code == 304


def test_lean_keeps_code_and_strings() -> None:
    code = '  // a comment\nconst a = "http://x"; // kept: not a whole line\n    f(a);\n'
    assert lean(code, ".js") == 'const a = "http://x"; // kept: not a whole line\nf(a);\n'
    style = "/* A rule. */\n  a { color: red; }\n"
    assert lean(style, ".css") == "a { color: red; }\n"


def test_other_static_files_are_served_as_they_are(client: FlaskClient) -> None:
    with client.get("/static/icon.svg") as icon:
        assert icon.status_code == 200
        assert icon.data == (STATIC / "icon.svg").read_bytes()


def test_static_files_are_fingerprinted_and_kept_a_year(client: FlaskClient) -> None:
    """Issue 19: a page's style sheet, scripts and icons are asked under addresses that
    hold their digest, kept a year without a request; a new file, a new address."""
    import hashlib
    import re

    page = client.get("/").get_data(as_text=True)
    addresses = re.findall(r'"(/static/[^"?]+)\?v=([0-9a-f]+)"', page)
    assert {name for name, _ in addresses} >= {"/static/app.css", "/static/app.js"}
    for name, digest in addresses:
        with client.get(f"{name}?v={digest}") as answer:
            assert answer.status_code == 200
            assert answer.headers["Cache-Control"] == "public, max-age=31536000, immutable"
            # The digest is the file's as served: its content names it.
            assert hashlib.blake2s(answer.data, digest_size=8).hexdigest() == digest
        # Its plain or stale address is revalidated, as before.
        for other in (name, f"{name}?v=0000000000000000"):
            with client.get(other) as answer:
                assert answer.headers["Cache-Control"] == "no-cache"


def test_the_service_worker_keeps_the_addresses_the_pages_ask_for(client: FlaskClient) -> None:
    import re

    worker = client.get("/sw.js")
    assert worker.headers["Cache-Control"] == "no-cache"
    text = worker.get_data(as_text=True)
    kept = re.search(r"const STATIC = \[([^\]]*)\];", text)
    assert kept is not None
    listed = set(re.findall(r'"([^"]+)"', kept.group(1)))
    page = client.get("/").get_data(as_text=True)
    asked = set(re.findall(r'(/static/(?:app\.css|app\.js|queue\.js)\?v=[0-9a-f]+)"', page))
    assert asked
    assert asked <= listed
    assert re.search(r'const VERSION = "referee-1-[0-9a-f]{8}";', text)
