"""The one build step pyproject.toml cannot say: a wheel carries the app's files.

`templates/`, `static/` and `translations/` stay at the top of the checkout (where
designers and translators find them). A wheel must hold them, so building one
copies the first two into `referee/share/` and compiles the French catalogue there
(`messages.po` to `messages.mo`); `referee.paths` looks there first. An editable
install (`make install`) copies nothing: it reads the checkout's folders.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
FOLDERS = ("templates", "static")


class BuildWithShare(build_py):  # type: ignore[misc]
    """`build_py`, then the app's files and its compiled catalogues in `referee/share/`."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        share = Path(self.build_lib) / "referee" / "share"
        for folder in FOLDERS:
            shutil.copytree(
                ROOT / folder,
                share / folder,
                dirs_exist_ok=True,
                ignore=shutil.ignore_patterns("__pycache__", ".*"),
            )
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted((ROOT / "translations").glob("*/LC_MESSAGES/*.po")):
            target = share / po.relative_to(ROOT).with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parts[-3])
            with target.open("wb") as out:
                write_mo(out, catalog)


setup(cmdclass={"build_py": BuildWithShare})
