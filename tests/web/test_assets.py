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
