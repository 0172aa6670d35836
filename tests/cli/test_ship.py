"""What an installed Referee owes its users: `--version`, `python -m referee`, the
data folder, `PORT`/`HOST`, the access log, and sheets drawn with the package's own
fonts whatever the system has."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from referee import __version__, cli, paths
from referee.app import create_app


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"referee {__version__}\n"


def test_python_dash_m_referee(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["referee", "--version"])
    with pytest.raises(SystemExit) as stop:
        runpy.run_module("referee", run_name="__main__")
    assert stop.value.code == 0
    done = subprocess.run(
        [sys.executable, "-m", "referee", "--version"], capture_output=True, text=True, check=True
    )
    assert done.stdout == f"referee {__version__}\n"


def test_the_version_is_the_projects() -> None:
    import tomllib

    project = tomllib.loads((paths.CHECKOUT / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["version"] == __version__
    assert project["project"]["license"] == "MIT"
    assert (paths.CHECKOUT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"REFEREE_DATA": "/srv/referee"}, Path("/srv/referee")),
        ({"XDG_DATA_HOME": "/home/ana/.data"}, Path("/home/ana/.data/referee")),
        ({"XDG_DATA_HOME": "relative/ignored"}, Path.home() / ".local/share/referee"),
        ({}, Path.home() / ".local/share/referee"),
    ],
)
def test_data_folder_of_an_installed_package(
    monkeypatch: pytest.MonkeyPatch, environ: dict[str, str], expected: Path
) -> None:
    monkeypatch.setattr(paths, "in_checkout", lambda: False)
    assert paths.data_dir(None, environ) == expected
    assert paths.data_dir("/opt/x", environ) == Path("/opt/x")


def test_data_folder_of_a_checkout_is_instance() -> None:
    assert paths.in_checkout()
    assert paths.data_dir(None, {}) == paths.CHECKOUT / "instance"
    assert paths.TEMPLATES == paths.CHECKOUT / "templates"


def test_data_option_moves_the_database_and_the_key(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`referee backup --data DIR` (and serve, restore) keep everything in DIR."""
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.delenv("REFEREE_SECRET_KEY", raising=False)
    monkeypatch.setenv("REFEREE_DATA", "")  # recorded: main()'s value is undone after
    data = tmp_path / "data"
    data.mkdir()  # a restore creates the database in an existing folder, never the folder
    (tmp_path / "nothing").mkdir()
    assert cli.main(["restore", "--data", str(data), str(tmp_path / "nothing")]) == 0
    assert os.environ["REFEREE_DATA"] == str(data)
    assert (data / "referee.sqlite3").is_file()
    assert (data / "secret_key").stat().st_mode & 0o077 == 0
    assert cli.main(["backup", "--data", str(data), str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "manifest.json").is_file()


def _served(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> dict[str, Any]:
    """The gunicorn settings `referee serve ARGV` would run with (nothing is served)."""
    seen: dict[str, Any] = {}

    def fake_run(self: Any) -> None:
        self.load_config()
        seen.update(bind=self.cfg.bind, accesslog=self.cfg.accesslog)
        seen.update(control=self.cfg.settings.get("control_socket_disable"))

    monkeypatch.setattr("gunicorn.app.base.BaseApplication.run", fake_run)
    monkeypatch.setattr(
        "referee.app.create_app",
        lambda config=None: create_app(
            {"SQLALCHEMY_DATABASE_URI": "sqlite://", "SECRET_KEY": "t", **(config or {})}
        ),
    )
    assert cli.main(["serve", *argv]) == 0
    return seen


def test_serve_honours_port_and_host(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "8123")
    monkeypatch.setenv("HOST", "127.0.0.2")
    assert _served(monkeypatch, [])["bind"] == ["127.0.0.2:8123"]
    assert _served(monkeypatch, ["--port", "9000", "--host", "::1"])["bind"] == ["[::1]:9000"]


@pytest.mark.parametrize("port", ["", "http", "0", "70000", "٨٠٨٠"])
def test_a_port_that_is_not_one_falls_back(monkeypatch: pytest.MonkeyPatch, port: str) -> None:
    monkeypatch.setenv("PORT", port)
    monkeypatch.delenv("HOST", raising=False)
    assert _served(monkeypatch, [])["bind"] == ["127.0.0.1:5000"]


def test_serve_says_where_the_games_are_kept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://referee:s3cret@db.example:5432/referee")
    monkeypatch.setenv("REFEREE_DATA", "")  # recorded: main()'s value is undone after
    seen: dict[str, Any] = {}
    monkeypatch.setattr("gunicorn.app.base.BaseApplication.run", lambda self: seen.update(ok=1))
    monkeypatch.setattr(
        "referee.app.create_app",
        lambda config=None: create_app(
            {"AUTO_UPGRADE": False, "SECRET_KEY": "t", **(config or {})}
        ),
    )
    assert cli.main(["serve", "--data", str(tmp_path), "--port", "5001"]) == 0
    out = capsys.readouterr().out
    assert f"Referee {__version__}: http://127.0.0.1:5001/" in out
    assert f"Data: {tmp_path}" in out
    assert "referee:***@db.example:5432/referee" in out
    assert "s3cret" not in out


def test_no_control_socket_in_home(monkeypatch: pytest.MonkeyPatch) -> None:
    control = _served(monkeypatch, [])["control"]
    assert control is None or control.value is True


def test_access_log_on_request(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _served(monkeypatch, [])["accesslog"] is None
    assert _served(monkeypatch, ["--access-log"])["accesslog"] == "-"


def test_sheets_need_no_system_font(tmp_path: Path, examples_dir: Path) -> None:
    """With fontconfig knowing no font at all, a sheet is drawn in the package's own
    fonts (the Debian font package is not needed)."""
    empty = tmp_path / "fonts.conf"
    empty.write_text(
        f'<?xml version="1.0"?><fontconfig><cachedir>{tmp_path}/cache</cachedir></fontconfig>',
        encoding="utf-8",
    )
    listed = subprocess.run(
        ["fc-list"], env={**os.environ, "FONTCONFIG_FILE": str(empty)}, capture_output=True
    )
    assert listed.stdout == b""  # (fc-list comes with Pango's fontconfig)
    out, example = tmp_path / "sheet.pdf", str(examples_dir / "boulmous-with-stake.json")
    subprocess.run(
        [sys.executable, "-m", "referee", "--lang", "fr", "pdf", "-o", str(out), example],
        env={**os.environ, "FONTCONFIG_FILE": str(empty), "PYTHONWARNINGS": "ignore"},
        check=True,
        capture_output=True,
    )
    reader = PdfReader(str(out))
    fonts = {
        str(font.get_object()["/BaseFont"]).split("+", 1)[1]
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert fonts == {"Referee-Sans", "Referee-Sans-Bold", "Referee-Mono"}
    assert "Vainqueur\u202f: Yasmine" in reader.pages[0].extract_text()
