"""Every HTML page is gzipped for a client that takes it (issue 19, item 5); files
and JSON are not, and a client that does not take gzip gets the page as it is."""

from __future__ import annotations

import gzip

from flask.testing import FlaskClient

from referee.web.cache import GZIP_LEVEL
from tests.web.conftest import new_game

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def test_pages_come_compressed_and_read_the_same(client: FlaskClient) -> None:
    token = new_game(client, "pitch", ["A", "B", "C", "D", "E"])
    for path in (f"/g/{token}/deal", f"/g/{token}/history", "/new?game=boulmous", "/"):
        plain = client.get(path)
        packed = client.get(path, headers=GZIP)
        assert plain.headers.get("Content-Encoding") is None, path
        assert packed.headers["Content-Encoding"] == "gzip", path
        assert "Accept-Encoding" in packed.headers["Vary"], path
        text = gzip.decompress(packed.data).decode()
        assert text.startswith("<!doctype html>"), path
        assert len(packed.data) < 0.6 * len(plain.data), path
    # The five-handed Pitch form: about a fifth of its size.
    form = client.get(f"/g/{token}/deal", headers=GZIP)
    assert 'name="key"' in gzip.decompress(form.data).decode()


def test_files_json_and_small_answers_are_left_alone(client: FlaskClient) -> None:
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    for path in (f"/g/{token}/export.json", f"/g/{token}/sheet.pdf", "/ping", "/health"):
        assert client.get(path, headers=GZIP).headers.get("Content-Encoding") is None, path
    preview = client.post(f"/g/{token}/preview.json", data={}, headers=GZIP)
    assert preview.headers.get("Content-Encoding") is None
    assert preview.get_json()["ok"] is False


def test_every_page_is_compressed_at_the_one_level(client: FlaskClient) -> None:
    """The scoreboard (compressed once a version, kept) and every other page
    (compressed as it goes) at `GZIP_LEVEL`: fast before small (issue 19)."""
    token = new_game(client, "boulmous", ["Ana", "Bruno", "Chloé", "Driss"])
    for path in (f"/g/{token}", f"/g/{token}/deal"):
        packed = client.get(path, headers=GZIP).data
        text = gzip.decompress(packed)
        assert len(packed) == len(gzip.compress(text, compresslevel=GZIP_LEVEL)), path
        assert len(packed) != len(gzip.compress(text, compresslevel=6)), path
