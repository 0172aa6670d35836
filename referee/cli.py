"""The `referee` command: `referee score FILE` prints a game's standings as JSON;
`pdf`, `backup`, `restore` and `serve` do the rest (`referee --help`).

Problems with a record go to standard error, one line each, in the user's language
(`--lang`, else the locale's `LC_ALL` / `LC_MESSAGES` / `LANG`), never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import faulthandler
import gc
import json
import os
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final, NoReturn, TextIO

from referee.engine.catalog import N_, translate
from referee.engine.errors import RulesError
from referee.engine.game import Standings
from referee.engine.messages import counted, language
from referee.engine.records import (
    MAX_DEPTH,
    MAX_RECORD_BYTES,
    decode_json,
    load_record,
    score_record,
    standings_json,
)
from referee.events.draw import draw
from referee.games import GAMES
from referee.version import __version__

#: Exit statuses: 1 for a record that breaks the rules, 2 for a file that cannot be read.
INVALID: Final = 1
UNREADABLE: Final = 2
#: A command line asked for something that cannot be (argparse's own status).
USAGE: Final = 2
_CANNOT_WRITE: Final = N_("cannot write {path}: {reason}")
_CANNOT_READ: Final = N_("cannot read {path}: {reason}")
_DEAL_HEADING: Final = N_("Deal {n}")
_JUDGE_WINNER: Final = N_("card {n} wins: {card}")
_JUDGE_POINT: Final = N_("{card}: to the player of card {n}")
#: Connections a server worker holds at once (gunicorn's default, 1,000, is fewer
#: than 500 paced tables' phones keep open on each of two workers: 1,250; a worker
#: at its limit takes no new connection until one of them ends).
WORKER_CONNECTIONS: Final = 4000

#: The server's worker: gthread, each request read whole before a thread takes it,
#: so that slow clients cost no thread (referee.server; bench/slow_clients.py
#: compares it with gunicorn's own "gthread").
WORKER_CLASS = "referee.server.BufferingWorker"

#: Threads per server worker (`referee serve --threads`).
THREADS: Final = 4
#: At most this many server workers, and threads per worker: more is a typo.
MAX_WORKERS: Final = 64
MAX_THREADS: Final = 256
#: Exit status of a command that stopped on a cause nobody foresaw (said in one line).
UNEXPECTED: Final = 3

#: What the command line says of its arguments, in the user's language; argparse's
#: own messages are read back into these (`Parser.error`).
_USAGE: Final = {
    "required": N_("missing: {names}"),
    "unrecognized": N_("not understood: {names}"),
    "choice": N_("{argument}: {value} is not one of {choices}"),
    "one_value": N_("{argument} needs a value"),
    "argument": N_("{argument}: {message}"),
    "port": N_("{value} is not a port: a whole number from 1 to 65535"),
    "count": N_("{value} is not a whole number from 1 to {high}"),
    "whole": N_("{value} is not a whole number"),
    "help": N_("(`{prog} --help` says more)"),
}
_CANNOT_LISTEN: Final = N_("cannot listen on {host} port {port}: {reason}")
_OWN_INPUT: Final = N_("{path} is the game's own file: the sheet would replace it")
_CANNOT_USE_DATA: Final = N_("cannot use the data folder {path}: {reason}")
_NO_DATABASE: Final = N_("the database cannot be used: {reason}")
_UNEXPECTED: Final = N_("stopped by an unexpected error ({kind}): {reason}")
_INTERRUPTED: Final = N_("interrupted")
#: `referee draw`, read by a director.
_DRAW: Final = {
    "round": N_("Round {number}"),
    "table": N_("  table {table}: {players}"),
    "byes": N_("  sitting out: {players}"),
}
#: `referee rank`, read by a director.
_RANK: Final = {
    "provisional": N_("Provisional ranking after {count} {count|round|rounds} of {high}"),
    "final": N_("Final ranking, {count} {count|round|rounds}"),
    "rule": N_("Ranked by {rule}; ties broken by {breaks}"),
    "line": N_("{rank:>3}. {name}  {points}"),
    "ahead": N_("({separated})"),
    "level": N_("(level)"),
    "withdrawn": N_("withdrawn"),
}
#: `referee rank --season`.
_SEASON: Final = {
    "one": N_("one event file, or several with --season (and --drop-worst, --points with it)"),
    "twice": N_("{path} is given twice"),
    "head": N_("Season: {count} {count|concours|concours}, best {best} counted"),
    "event": N_("  {number}. {name}{provisional}"),
    "provisional": N_(" (provisional)"),
    "line": N_("{rank:>3}. {name}  {points}  [{results}]"),
    "points": N_("--points {value}: whole numbers from 0 to 10000, first place first"),
}
#: The system's reasons (errno) in the user's words; others as the system says them.
_REASONS: Final = {
    errno.ENOENT: N_("no such file or folder"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.EEXIST: N_("a file of that name is in the way"),
    errno.ENOSPC: N_("the disk is full"),
    errno.EROFS: N_("the disk is read-only"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.EADDRINUSE: N_("another program listens there"),
    errno.EADDRNOTAVAIL: N_("this machine has no such address"),
    errno.EIO: N_("the disk gave back something else than what was written"),
}


def user_language(option: str | None, environ: os._Environ[str] | dict[str, str]) -> str:
    """The language for messages: the option, else the POSIX locale variables, else English."""
    if option:
        return language(option)
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if environ.get(name):
            return language(environ[name])
    return language(None)


def reason(error: OSError, lang: str) -> str:
    """Why the system refused, in the user's words where the reason is a common one."""
    known = _REASONS.get(error.errno) if error.errno is not None else None
    if known is not None:
        return translate(lang, known)
    return error.strerror or str(error) or type(error).__name__


def _read(path: str, stdin: TextIO, limit: int = MAX_RECORD_BYTES + 1) -> bytes:
    """The file at `path` (`-`: standard input), at most one byte more than a record
    (or `limit`) may hold: an endless input (`/dev/zero`) or a huge file is refused
    as too large by the record's reader, never read whole."""
    if path == "-":
        if hasattr(stdin, "buffer"):
            return bytes(stdin.buffer.read(limit))
        return stdin.read(limit).encode()
    with open(path, "rb") as handle:
        return handle.read(limit)


def _scored_file(
    path: str, lang: str, stderr: TextIO, stdin: TextIO
) -> tuple[Any, Standings] | int:
    """The record at `path` (`-`: standard input), read and scored; else the exit
    status, its problems said on `stderr`, one line each."""
    try:
        data = _read(path, stdin)
    except OSError as error:
        why = reason(error, lang)
        print(translate(lang, _CANNOT_READ).format(path=path, reason=why), file=stderr)
        return UNREADABLE
    try:
        record = load_record(data)
        return record, score_record(record)
    except RulesError as error:
        for line in error.messages(lang):
            print(line, file=stderr)
        return INVALID


def _same_file(one: str, other: str) -> bool:
    """Whether two paths name one file (a link or another spelling included)."""
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False


def score_command(path: str, lang: str, stdout: TextIO, stderr: TextIO, stdin: TextIO) -> int:
    """Print the standings of the record at `path` (`-`: standard input)."""
    found = _scored_file(path, lang, stderr, stdin)
    if isinstance(found, int):
        return found
    json.dump(standings_json(found[1]), stdout, ensure_ascii=False, indent=2)
    stdout.write("\n")
    return 0


def explain_command(
    path: str, as_json: bool, lang: str, stdout: TextIO, stderr: TextIO, stdin: TextIO
) -> int:
    """Print why each deal of the record at `path` scored what it did: a line per
    step, or (`as_json`) `[{"deal": n, "steps": [{"text", "deltas"}]}]`, whose
    steps' deltas add up to each deal's deltas."""
    from referee.engine.game import explain
    from referee.games import GAMES

    found = _scored_file(path, lang, stderr, stdin)
    if isinstance(found, int):
        return found
    record, standings = found
    explained = explain(GAMES[record.game], record, standings)
    deals: list[dict[str, Any]] = [
        {
            "deal": number,
            "steps": [
                {"text": step.text(record.players, lang), "deltas": list(step.deltas)}
                for step in steps
            ],
        }
        for number, steps in enumerate(explained, start=1)
    ]
    if as_json:
        json.dump(deals, stdout, ensure_ascii=False, indent=2)
        stdout.write("\n")
        return 0
    heading = translate(lang, _DEAL_HEADING)
    for deal in deals:
        print(heading.format(n=deal["deal"]), file=stdout)
        for one in deal["steps"]:
            print(f"  {one['text']}", file=stdout)
    return 0


def judge_command(
    game: str,
    trump: str | None,
    players: int | None,
    rules: str | None,
    cards: Sequence[str],
    as_json: bool,
    lang: str,
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    """Name the card that wins a trick of `cards` (in the order played, from the
    lead): its position from 1, and who takes each card that scores, where cards do; or (`as_json`)
    `{"winner": i, "points": {card: i}}`, positions from 0. `trump` is None for a
    game played without one, which refuses any but "no-trump". Exit 1 with a message for a
    card, a count, a trump or house rules that cannot be."""
    from referee.engine.errors import problem
    from referee.games import GAMES
    from referee.web.homes import home_of

    def refuse(error: RulesError) -> int:
        for line in error.messages(lang):
            print(line, file=stderr)
        return INVALID

    if game not in GAMES:
        known = ", ".join(GAMES)
        return refuse(RulesError([problem("game_unknown", "game", value=game, games=known)]))
    engine = GAMES[game]
    count = players if players is not None else engine.player_counts[0]
    if count not in engine.player_counts:
        return refuse(
            RulesError(
                [problem("players_count", "players", count=count, expected=engine.player_counts)]
            )
        )
    # The game says whether it has a trump (its judge's choices): none, none is taken;
    # but "no-trump" (the absence of one) is what such a game plays, said or not.
    trumps = home_of(game).judge_trumps
    if not trumps and trump == "no-trump":
        trump = None
    if trumps and trump is None:
        return refuse(RulesError([problem("trump_missing", "trump", choices=trumps)]))
    if not trumps and trump is not None:
        return refuse(RulesError([problem("trump_none", "trump", value=trump)]))
    if trump is not None and trump not in trumps:
        return refuse(RulesError([problem("trump_unknown", "trump", value=trump)]))
    try:
        raw = decode_json(rules or "{}", MAX_RECORD_BYTES, MAX_DEPTH)
    except RulesError:
        raw = None  # not JSON, too deep: the house rules cannot be read, said below
    if not isinstance(raw, dict):
        return refuse(RulesError([problem("not_object", "rules")]))
    try:
        parsed = engine.parse_rules(raw)
        verdict = home_of(game).judge(trump or "", list(cards), parsed, count)
    except RulesError as error:
        return refuse(error)
    points = {str(card): seat for card, seat in verdict.get("points", [])}
    if as_json:
        out: dict[str, object] = {"winner": verdict["winner"]}
        if "points" in verdict:
            out["points"] = points
        json.dump(out, stdout, ensure_ascii=False)
        stdout.write("\n")
        return 0
    winner = verdict["winner"]
    print(translate(lang, _JUDGE_WINNER).format(n=winner + 1, card=cards[winner]), file=stdout)
    seats = tuple(str(n) for n in range(1, count + 1))
    for why in verdict.get("reasons", []):
        print(why.text(seats, lang), file=stdout)
    from referee.engine.messages import WORDS

    for card, seat in points.items():
        word = translate(lang, WORDS[card]) if card in WORDS else card
        line = translate(lang, _JUDGE_POINT).format(card=word, n=seat + 1)
        print(line[:1].upper() + line[1:], file=stdout)
    return 0


def pdf_command(
    path: str,
    output: str,
    size: str,
    lang: str,
    stderr: TextIO,
    stdin: TextIO,
    stdout: TextIO = sys.stdout,
) -> int:
    """Write the score sheet of the record at `path` to `output` (`-`: standard
    output); never over the record itself."""
    if path != "-" and output != "-" and _same_file(path, output):
        print(translate(lang, _OWN_INPUT).format(path=output), file=stderr)
        return UNREADABLE
    found = _scored_file(path, lang, stderr, stdin)
    if isinstance(found, int):
        return found
    record = found[0]
    from flask_babel import force_locale

    from referee.app import create_app
    from referee.services.games import transient_game
    from referee.web.sheets import renderer, sheet_html

    app = create_app(
        {"SQLALCHEMY_DATABASE_URI": "sqlite://", "AUTO_UPGRADE": False, "SECRET_KEY": "pdf"}
    )
    with app.test_request_context(), force_locale(lang):
        pdf = renderer().render(sheet_html(transient_game(record), size))
    try:
        if output == "-":
            stdout.buffer.write(pdf)
            stdout.flush()
            return 0
        with open(output, "wb") as handle:
            handle.write(pdf)
    except OSError as error:
        why = reason(error, lang)
        print(translate(lang, _CANNOT_WRITE).format(path=output, reason=why), file=stderr)
        return UNREADABLE
    return 0


_BACKUP_TEXT: Final = {
    "written": N_(
        "backup written to {folder}: games: {count}, concours: {events}, seasons: {seasons}"
    ),
    "not_written": N_("{name}: not written: {reason}"),
    "restored": N_(
        "restore from {folder}: games restored: {restored}, already there: {present}, "
        "files skipped: {skipped}"
    ),
    "restored_club": N_(
        "concours restored: {events}, already there: {events_present}; seasons restored: "
        "{seasons}, already there: {seasons_present}"
    ),
    "partial": N_("games restored in part: {count}"),
    "no_folder": N_("{folder} is not a folder"),
    "would_lose": N_(
        "{folder} holds a backup of {previous} games, {missing} of which the database "
        "does not have (it has {current}): not replaced. Check --data (or DATABASE_URL); "
        "--replace replaces it anyway"
    ),
    "would_lose_club": N_(
        "{folder} holds {missing} concours, seasons or tables the database does not have: "
        "not replaced. Check --data (or DATABASE_URL); --replace replaces it anyway"
    ),
    "no_data": N_("no Referee database in {path}: check --data"),
    "no_data_folder": N_(
        "{path} is not a folder: check --data (to restore into a new database, create "
        "its folder first)"
    ),
    "old_schema": N_(
        "the database is not at this version's schema: start `referee serve` once to "
        "upgrade it, then back up"
    ),
}


def _say(key: str, lang: str, **values: object) -> str:
    return translate(lang, _BACKUP_TEXT[key]).format(**values)


def backup_command(
    which: str,
    folder: str,
    lang: str,
    stdout: TextIO,
    stderr: TextIO,
    replace: bool = False,
    partial: bool = False,
) -> int:
    """Back the database up to `folder`, or restore it from there (DATABASE_URL applies).

    Neither creates a database where there is none: a data folder that does not
    exist (a typo in `--data`) is refused, and a backup needs the database in it.
    A backup never changes the schema: it refuses a database the migrations have not
    brought up to date, and it refuses to replace a backup holding games the
    database lacks unless `replace`. A restore creates or upgrades the schema first,
    then reports every file it skipped and every game it restored only in part; it
    exits 1 when any was skipped (a game without its meta file is, unless `partial`).
    """
    from referee.app import schema_is_current
    from referee.services import backup

    target = Path(folder)
    # A backup makes its folder; a restore reads one, before anything is created.
    if (target.exists() or which == "restore") and not target.is_dir():
        print(_say("no_folder", lang, folder=folder), file=stderr)
        return UNREADABLE
    absent = absent_sqlite_url() if which == "backup" else None
    if absent is not None:  # a restore creates its database: that is what it is for
        print(translate(lang, _NO_SQLITE_FILE).format(path=absent), file=stderr)
        return UNREADABLE
    missing = missing_database(which)
    if missing is not None:
        key = "no_data" if which == "backup" else "no_data_folder"
        print(_say(key, lang, path=missing), file=stderr)
        return UNREADABLE
    app = open_app({"AUTO_UPGRADE": which == "restore"}, lang, stderr)
    if isinstance(app, int):
        return app
    with app.app_context():
        if which == "backup":
            if not schema_is_current(app):
                print(_say("old_schema", lang), file=stderr)
                return INVALID
            try:
                written = backup.backup(target, lang, replace)
            except backup.WouldLose as lost:
                said = (
                    _say(
                        "would_lose",
                        lang,
                        folder=folder,
                        previous=lost.previous,
                        missing=lost.missing,
                        current=lost.current,
                    )
                    if lost.missing
                    else _say("would_lose_club", lang, folder=folder, missing=lost.club)
                )
                print(said, file=stderr)
                return INVALID
            except OSError as error:
                why = reason(error, lang)
                print(translate(lang, _CANNOT_WRITE).format(path=folder, reason=why), file=stderr)
                return UNREADABLE
            for item in written.failed:
                print(_say("not_written", lang, name=item.name, reason=item.detail), file=stderr)
            said = _say(
                "written",
                lang,
                count=written.games,
                events=written.events,
                seasons=written.seasons,
                folder=folder,
            )
            print(said, file=stdout)
            return INVALID if written.failed else 0
        try:
            report = backup.restore(target, lang, partial)
        except FileNotFoundError:
            print(_say("no_folder", lang, folder=folder), file=stderr)
            return UNREADABLE
        except OSError as error:
            print(
                translate(lang, _CANNOT_READ).format(path=folder, reason=reason(error, lang)),
                file=stderr,
            )
            return UNREADABLE
        for item in (*report.skipped, *report.partial):
            print(item.message(lang), file=stderr)
        print(
            _say(
                "restored",
                lang,
                folder=folder,
                restored=report.restored,
                present=report.present,
                skipped=len(report.skipped),
            ),
            file=stdout,
        )
        print(
            _say(
                "restored_club",
                lang,
                events=report.events,
                events_present=report.events_present,
                seasons=report.seasons,
                seasons_present=report.seasons_present,
            ),
            file=stdout,
        )
        if report.partial:
            print(_say("partial", lang, count=len(report.partial)), file=stdout)
        return INVALID if report.skipped else 0


#: A SQLite file `DATABASE_URL` names that is not there (a typo would otherwise be
#: a new, empty database: every game "gone", issue 51).
_NO_SQLITE_FILE: Final = N_(
    "DATABASE_URL names no database: {path} does not exist. Check DATABASE_URL; to start "
    "a new database there, create the empty file first (touch {path})"
)


_NEW_SQLITE_FILE: Final = N_(
    "a new, empty database was created at {path} (DATABASE_URL): if you meant another "
    "one, stop and check DATABASE_URL"
)


def absent_sqlite_url() -> Path | None:
    """The file a SQLite `DATABASE_URL` names, when it does not exist (None: another
    database, an in-memory one, or the file is there)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    text = os.environ.get("DATABASE_URL", "").strip()
    if not text.startswith("sqlite"):
        return None
    try:
        name = make_url(text).database
    except ArgumentError:
        return None  # the app says what is wrong with it
    if not name or name == ":memory:" or name.startswith("file:"):
        return None
    path = Path(name)
    return None if path.exists() else path


def missing_database(which: str) -> Path | None:
    """The data folder when it holds no database for `which` to use: a backup needs
    the SQLite file, a restore an existing folder to create it in. None when the
    database is elsewhere (DATABASE_URL) or there."""
    from referee.paths import data_dir

    if os.environ.get("DATABASE_URL", "").strip():
        return None
    folder = data_dir()
    if which == "backup" and not (folder / "referee.sqlite3").is_file():
        return folder
    if not folder.is_dir():
        return folder
    return None


def open_app(config: dict[str, Any], lang: str, stderr: TextIO) -> Any:
    """The app on its data folder, or the exit status, said in one line when the
    folder cannot be made or used (a database that cannot be reached: `main`)."""
    from referee.app import create_app

    try:
        return create_app(config)
    except OSError as error:
        from referee.paths import data_dir

        where = getattr(error, "filename", None) or data_dir()
        print(
            translate(lang, _CANNOT_USE_DATA).format(path=where, reason=reason(error, lang)),
            file=stderr,
        )
        return UNREADABLE


class UsageError(Exception):
    """Arguments the command line cannot take: its one line, in the user's language."""


class Parser(argparse.ArgumentParser):
    """argparse, its refusals raised as one line in the user's language (`UsageError`)
    instead of a usage block in English."""

    #: argparse's messages (Python 3.11 to 3.13), read back into `_USAGE`.
    _KNOWN: Final = (
        (re.compile(r"the following arguments are required: (?P<names>.+)"), "required"),
        (re.compile(r"unrecognized arguments: (?P<names>.+)"), "unrecognized"),
        (
            re.compile(
                r"argument (?P<argument>\S+): invalid choice: (?P<value>.+?) "
                r"\(choose from (?P<choices>.+)\)"
            ),
            "choice",
        ),
        (re.compile(r"argument (?P<argument>\S+): expected one argument"), "one_value"),
        (re.compile(r"argument (?P<argument>\S+): (?P<message>.+)"), "argument"),
    )

    def __init__(self, *args: Any, lang: str = "en", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lang = lang

    def error(self, message: str) -> NoReturn:
        """Raise `message`, in the user's words, as a `UsageError`."""
        for pattern, key in self._KNOWN:
            found = pattern.fullmatch(message)
            if found:
                message = translate(self.lang, _USAGE[key]).format(**found.groupdict())
                break
        hint = translate(self.lang, _USAGE["help"]).format(prog=self.prog)
        raise UsageError(f"{self.prog}: {message} {hint}")


def _number_from(low: int, high: int, key: str, lang: str) -> Callable[[str], int]:
    """An argument type: a whole number from `low` to `high`, else its message."""

    def number(text: str) -> int:
        value = text.strip()
        if value.isascii() and value.lstrip("-").isdigit() and low <= int(value) <= high:
            return int(value)
        message = translate(lang, _USAGE[key]).format(value=repr(text)[:40], high=high)
        raise argparse.ArgumentTypeError(message)

    number.__name__ = key  # argparse names a failed type by it
    return number


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    """The command line: one subcommand per task; its refusals in `lang`."""
    parser = Parser(prog="referee", description="Referee: card game scores.", lang=lang)
    parser.add_argument("--version", action="version", version=f"referee {__version__}")
    parser.add_argument("--lang", choices=["fr", "en"], help="language of messages")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, text: str) -> argparse.ArgumentParser:
        made: argparse.ArgumentParser = commands.add_parser(name, help=text, lang=lang)
        return made

    score = command("score", "print a game record's standings as JSON")
    score.add_argument("file", help="the record (referee-game/1 JSON), or - for standard input")
    score.add_argument("--lang", choices=["fr", "en"], dest="score_lang", help=argparse.SUPPRESS)
    explain = command("explain", "print why each deal scored what it did")
    explain.add_argument("file", help="the record (referee-game/1 JSON), or - for standard input")
    explain.add_argument("--json", action="store_true", help="a list of deals and their steps")
    explain.add_argument(
        "--lang", choices=["fr", "en"], dest="explain_lang", help=argparse.SUPPRESS
    )
    judge = command("judge", "say which card wins a trick")
    judge.add_argument("game", help=", ".join(GAMES))
    judge.add_argument(
        "cards", nargs="+", metavar="CARD", help="the cards, from the lead (AH, 10S…)"
    )
    judge.add_argument(
        "--trump", help="the trump (hearts, spades…; no-trump), for a game that has trumps"
    )
    judge.add_argument(
        "--players",
        type=_number_from(1, 99, "count", lang),
        help="how many play (where a game has a choice)",
    )
    judge.add_argument("--rules", help="house rules as JSON, as a record writes them")
    judge.add_argument("--json", action="store_true", help='{"winner": i, "points": {…}}')
    judge.add_argument("--lang", choices=["fr", "en"], dest="judge_lang", help=argparse.SUPPRESS)
    pdf = command("pdf", "print a game record's score sheet as PDF")
    pdf.add_argument("file", help="the record (referee-game/1 JSON), or - for standard input")
    pdf.add_argument(
        "-o", "--output", required=True, help="the PDF file to write, or - for standard output"
    )
    pdf.add_argument("--size", choices=["a4", "letter"], default="a4")
    pdf.add_argument("--lang", choices=["fr", "en"], dest="pdf_lang", help=argparse.SUPPRESS)
    for name, text in (
        ("backup", "write every game of the database to DIR as record files"),
        ("restore", "load the record files of DIR into the database (no duplicates)"),
    ):
        folder = command(name, text)
        folder.add_argument("folder", metavar="DIR")
        if name == "backup":
            folder.add_argument(
                "--replace",
                action="store_true",
                help="replace the backup in DIR even if it holds games the database lacks",
            )
        else:
            folder.add_argument(
                "--partial",
                action="store_true",
                help="also restore games whose .meta.json is missing (new links, no history)",
            )
        folder.add_argument(
            "--lang", choices=["fr", "en"], dest=f"{name}_lang", help=argparse.SUPPRESS
        )
        _data_option(folder)
    drawn = command("draw", "draw a concours's tables, round by round")
    drawn.add_argument("--players", required=True, type=_whole(lang), help="how many play")
    drawn.add_argument("--rounds", required=True, type=_whole(lang), help="how many rounds")
    drawn.add_argument(
        "--format",
        default="individual",
        help="individual (each for themselves), partners (a new partner each round), "
        "pairs (fixed pairs: players 2k-1 and 2k)",
    )
    drawn.add_argument("--table-size", type=_whole(lang), default=4, help="4 or 5")
    drawn.add_argument("--seed", type=_whole(lang), default=0, help="the same seed, the same draw")
    drawn.add_argument("--json", action="store_true", help='{"rounds": [{"tables", "byes"}]}')
    drawn.add_argument("--lang", choices=["fr", "en"], dest="draw_lang", help=argparse.SUPPRESS)
    ranked = command("rank", "print a concours's ranking from its event file, or a season's")
    ranked.add_argument(
        "file",
        nargs="+",
        help="the event file (referee-event/1 JSON), or - for standard input; with "
        "--season, every concours of the season, oldest first",
    )
    ranked.add_argument(
        "--season",
        action="store_true",
        help="rank a season: points by each concours's final place, the best results counted",
    )
    ranked.add_argument(
        "--drop-worst",
        type=_whole(lang),
        default=0,
        metavar="K",
        help="with --season: each player's K worst results are not counted (default 0)",
    )
    ranked.add_argument(
        "--points",
        default=None,
        help="with --season: season points by place, first place first "
        "(default 25,20,16,13,11,10,9,8,7,6,5,4,3,2,1)",
    )
    ranked.add_argument("--json", action="store_true", help="a list of lines, best first")
    ranked.add_argument("--lang", choices=["fr", "en"], dest="rank_lang", help=argparse.SUPPRESS)
    serve = command("serve", "serve the table app (upgrades the database first)")
    serve.add_argument(
        "--host",
        default=os.environ.get("HOST") or "127.0.0.1",
        help="the address to listen on (default: $HOST, else 127.0.0.1); "
        "0.0.0.0 for phones on the same Wi-Fi",
    )
    serve.add_argument(
        "--port",
        type=_number_from(1, 65535, "port", lang),
        default=_port(os.environ.get("PORT")),
        help="the port (default: $PORT, else 5000)",
    )
    serve.add_argument(
        "--workers",
        type=_number_from(1, MAX_WORKERS, "count", lang),
        default=max(2, os.cpu_count() or 1),
    )
    serve.add_argument(
        "--threads", type=_number_from(1, MAX_THREADS, "count", lang), default=THREADS
    )
    serve.add_argument(
        "--access-log", action="store_true", help="log every request on standard output"
    )
    serve.add_argument("--lang", choices=["fr", "en"], dest="serve_lang", help=argparse.SUPPRESS)
    _data_option(serve)
    return parser


def _whole(lang: str) -> Callable[[str], int]:
    """An argument type: a whole number of at most 12 digits (the command itself
    says which are too many or too few)."""

    def whole(text: str) -> int:
        value = text.strip()
        digits = value.removeprefix("-")
        if value.isascii() and digits.isdigit() and len(digits) <= 12:
            return int(value)
        raise argparse.ArgumentTypeError(
            translate(lang, _USAGE["whole"]).format(value=repr(text)[:40])
        )

    whole.__name__ = "whole"
    return whole


def draw_command(
    players: int,
    rounds: int,
    format: str,
    table_size: int,
    seed: int,
    as_json: bool,
    lang: str,
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    """Print a concours's draw (`referee.events.draw`): as JSON, or round by round
    in the user's words. Exit 1, one line a problem, for a draw that cannot be."""
    try:
        drawn = draw(players, rounds, format, table_size, seed)
    except RulesError as error:
        for line in error.messages(lang):
            print(line, file=stderr)
        return INVALID
    if as_json:
        json.dump(drawn.as_json(), stdout)
        stdout.write("\n")
        return 0
    for number, played in enumerate(drawn.rounds, 1):
        print(translate(lang, _DRAW["round"]).format(number=number), file=stdout)
        for table, seated in enumerate(played.tables, 1):
            names = " ".join(str(p) for p in seated)
            print(translate(lang, _DRAW["table"]).format(table=table, players=names), file=stdout)
        if played.byes:
            byes = " ".join(str(p) for p in played.byes)
            print(translate(lang, _DRAW["byes"]).format(players=byes), file=stdout)
    return 0


def _event_file(path: str, lang: str, stderr: TextIO, stdin: TextIO, named: bool = False) -> Any:
    """The event file at `path` (`-`: standard input), read (an `EventRecord`);
    else the exit status, its reasons said on `stderr` (each after the file's
    name when `named`: one of several files)."""
    from referee.events.eventfile import MAX_EVENT_BYTES, load_event

    try:
        data = _read(path, stdin, MAX_EVENT_BYTES + 1)
    except OSError as error:
        why = reason(error, lang)
        print(translate(lang, _CANNOT_READ).format(path=path, reason=why), file=stderr)
        return UNREADABLE
    try:
        return load_event(data)
    except RulesError as error:
        for message in error.messages(lang):
            print(f"{path}: {message}" if named else message, file=stderr)
        return INVALID


def season_command(
    paths: Sequence[str],
    drop_worst: int,
    points: str | None,
    as_json: bool,
    lang: str,
    stdout: TextIO,
    stderr: TextIO,
    stdin: TextIO | None = None,
) -> int:
    """Print the season's ranking over the event files at `paths` (oldest first):
    season points by each concours's final place, each player's `drop_worst` worst
    results not counted; `as_json` for programs."""
    from referee.events.concours import figure, number
    from referee.events.season import (
        DEFAULT_POINTS,
        SEASON_NAMES,
        held_of,
        parse_rules,
        season_rank,
    )

    table: list[int] = list(DEFAULT_POINTS)
    if points is not None:
        parts = [p for p in re.split(r"[,;\s]+", points.strip()) if p]
        if not parts or not all(p.isascii() and p.isdigit() and len(p) <= 5 for p in parts):
            print(translate(lang, _SEASON["points"]).format(value=points[:40]), file=stderr)
            return USAGE
        table = [int(p) for p in parts]
    try:
        rules = parse_rules({"points": table, "drop_worst": drop_worst})
    except RulesError as error:
        for message in error.messages(lang):
            print(message, file=stderr)
        return USAGE
    seen: set[str] = set()
    for path in paths:
        where = os.path.realpath(path)
        if where in seen:
            print(translate(lang, _SEASON["twice"]).format(path=path), file=stderr)
            return USAGE
        seen.add(where)
    held = []
    for path in paths:
        event = _event_file(path, lang, stderr, stdin or sys.stdin, named=True)
        if isinstance(event, int):
            return event
        held.append(held_of(event.name, event.date, event.concours))
    lines = season_rank(rules, held)
    if as_json:
        out = [
            {
                "rank": line.rank,
                "name": line.name,
                "points": number(line.points),
                "results": [None if r is None else number(r) for r in line.results],
                "places": list(line.places),
                "dropped": [i + 1 for i in line.dropped],
                "separated_by": line.separated_by,
            }
            for line in lines
        ]
        json.dump(out, stdout, ensure_ascii=False, indent=2)
        stdout.write("\n")
        return 0
    best = max(1, len(held) - drop_worst)
    print(counted(lang, _SEASON["head"], count=len(held), best=best), file=stdout)
    for i, h in enumerate(held, 1):
        mark = "" if h.final else translate(lang, _SEASON["provisional"])
        print(
            translate(lang, _SEASON["event"]).format(number=i, name=h.name, provisional=mark),
            file=stdout,
        )
    for i, line in enumerate(lines):
        results = " ".join(
            "-" if r is None else f"({figure(r, lang)})" if j in line.dropped else figure(r, lang)
            for j, r in enumerate(line.results)
        )
        text = translate(lang, _SEASON["line"]).format(
            rank=line.rank, name=line.name, points=figure(line.points, lang), results=results
        )
        if line.separated_by is not None:
            why = translate(lang, SEASON_NAMES[line.separated_by])
            text += "  " + translate(lang, _RANK["ahead"]).format(separated=why)
        elif i:
            text += "  " + translate(lang, _RANK["level"])
        print(text, file=stdout)
    return 0


def rank_command(
    path: str, as_json: bool, lang: str, stdout: TextIO, stderr: TextIO, stdin: TextIO
) -> int:
    """Print the ranking of the event file at `path` (`-`: standard input), each
    line with what separated it from the line above; `as_json` for programs."""
    from referee.events.concours import NAMES, SEPARATED, figure, rank, ranking_json
    from referee.events.prizes import amount_text, by_place, pot_of, share_out

    event = _event_file(path, lang, stderr, stdin)
    if isinstance(event, int):
        return event
    concours = event.concours
    lines = rank(concours)
    prizes: tuple[int, ...] = ()
    if event.prizes is not None and any(t.scores for p in concours.played for t in p.tables):
        pot = pot_of(event.entry_fee, len(concours.players), event.prizes)
        prizes = share_out(by_place(event.prizes, pot.pot), [line.rank for line in lines])
    if as_json:
        out = ranking_json(lines, lang)
        for item, cents in zip(out, prizes, strict=False):
            item["prize"] = amount_text(cents)  # in the file's currency
        json.dump(out, stdout, ensure_ascii=False, indent=2)
        stdout.write("\n")
        return 0
    played = sum(1 for p in concours.played if p.complete)  # a round still in play: not yet
    complete = played >= concours.rounds
    head = _RANK["final"] if complete else _RANK["provisional"]
    print(event.name, file=stdout)
    print(counted(lang, head, count=played, high=concours.rounds), file=stdout)
    breaks = ", ".join(translate(lang, NAMES[t.value]) for t in concours.ranking.tie_breaks)
    rule = translate(lang, NAMES[f"rule-{concours.ranking.rule.value}"])
    print(translate(lang, _RANK["rule"]).format(rule=rule, breaks=breaks or "-"), file=stdout)
    for i, line in enumerate(lines):
        text = translate(lang, _RANK["line"]).format(
            rank=line.rank, name=line.name, points=figure(line.points, lang)
        )
        if i < len(prizes) and prizes[i]:
            amount = amount_text(prizes[i])
            amount = amount.replace(".", ",") if lang == "fr" else amount
            text += f"  [{amount} {event.currency}]"
        if line.separated_by is not None:
            why = translate(lang, SEPARATED[line.separated_by])
            text += "  " + translate(lang, _RANK["ahead"]).format(separated=why)
        elif i:
            text += "  " + translate(lang, _RANK["level"])
        if line.withdrawn:
            text += "  " + translate(lang, _RANK["withdrawn"])
        print(text, file=stdout)
    return 0


def _data_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--data",
        metavar="DIR",
        help="the folder of the SQLite database and the secret key (default: "
        "$REFEREE_DATA, else instance/ in a checkout, else ~/.local/share/referee)",
    )


def _port(text: str | None) -> int:
    """$PORT as hosting platforms set it; 5000 when unset or not a port number."""
    if text and text.strip().isascii() and text.strip().isdigit():
        port = int(text.strip())
        if 0 < port < 65536:
            return port
    return 5000


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: connect() on UDP sends nothing
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


#: Seconds a new server worker waits for its PDF process to be warm before answering.
WARM_WAIT = 20.0


def serve_command(
    host: str,
    port: int,
    workers: int,
    threads: int,
    stdout: TextIO,
    access_log: bool = False,
    lang: str = "en",
    stderr: TextIO = sys.stderr,
) -> int:
    """Upgrade the database, then serve the app with gunicorn (a production WSGI server).

    An address it cannot listen on, or a data folder it cannot use, is said in one
    line on `stderr` (exit 2) before anything starts.

    Several worker processes use every core: one Python process serves a page at a
    time per core at best (the GIL), and measured here two processes of four threads
    serve about 2.5 times the scoreboards one process of eight threads does.
    """
    import segno
    from gunicorn.app.base import BaseApplication

    from referee.extensions import db

    problem = listen_problem(host, port, lang)
    if problem:
        print(problem, file=stderr)
        return UNREADABLE
    absent = absent_sqlite_url()  # a new database, said on start (a typo shows)
    # Creates or upgrades the schema once, before the workers fork; sheets are drawn
    # in a process of their own so that no request waits behind one. The workers
    # share the pages they render through a folder of this server's own, removed
    # when it stops (referee.web.cache.SharedPages).
    shared = shared_folder()
    open_files(WORKER_CONNECTIONS + 256)  # a limit per process: each worker's own
    app = open_app({"PDF_IN_PROCESS": False, "SHARED_PAGES": shared}, lang, stderr)
    if isinstance(app, int):
        shutil.rmtree(shared, ignore_errors=True)
        return app
    with app.app_context():
        database = db.engine.url.render_as_string(hide_password=True)
        db.engine.dispose()  # no connection may cross a fork
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    url = f"http://[{shown}]:{port}/" if ":" in shown else f"http://{shown}:{port}/"
    print(f"Referee {__version__}: {url}", file=stdout)
    if absent is not None:
        print(translate(lang, _NEW_SQLITE_FILE).format(path=absent), file=stdout)
    # Where the games are kept (the password of a database URL hidden).
    print(f"Data: {app.instance_path} · database: {database}", file=stdout)
    if app.config.get("PUBLIC_URL"):  # what the shared links start with (REFEREE_URL)
        print(f"Players open: {app.config['PUBLIC_URL']}/", file=stdout)
    if shown != host:
        print("Open this address on the phones at the table:", file=stdout)
        segno.make(url).terminal(out=stdout, compact=True)
    stdout.flush()

    class Server(BaseApplication):  # type: ignore[misc]
        def load_config(self) -> None:
            for key, value in {
                "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
                "workers": workers,
                "threads": threads,
                "worker_class": WORKER_CLASS,
                "preload_app": True,
                "accesslog": "-" if access_log else None,
                "errorlog": "-",
                "loglevel": "warning",
                "timeout": 30,
                # Phones poll the scoreboard every few seconds: keep their connections.
                "keepalive": 20,
                "worker_connections": WORKER_CONNECTIONS,
                "post_worker_init": post_worker_init,
                "post_request": after_request,
                "graceful_timeout": 10,
                "worker_tmp_dir": memory_folder(),
            }.items():
                self.cfg.set(key, value)
            # gunicorn 25.1+ opens a control socket in $HOME/.gunicorn by default: not
            # used here, and a home may be read-only (a container, a systemd unit).
            if "control_socket_disable" in self.cfg.settings:
                self.cfg.set("control_socket_disable", True)

        def load(self) -> object:
            return app

    def post_worker_init(worker: object) -> None:
        ready_worker(app)

    def after_request(worker: object, req: object, environ: object, resp: object) -> None:
        collect_between_requests()

    try:
        Server().run()
    finally:
        shutil.rmtree(shared, ignore_errors=True)
    return 0


def listen_problem(host: str, port: int, lang: str) -> str | None:
    """Why the server could not listen on `host`:`port` (in use, no such address),
    in one line; None when it can. gunicorn would say it in five retries' log lines."""
    import socket

    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _name, address = found[0]
        with socket.socket(family, kind, proto) as probe:
            # As gunicorn binds: a port left in TIME_WAIT by a stopped server is free.
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except socket.gaierror:
        why = translate(lang, _REASONS[errno.EADDRNOTAVAIL])
    except OSError as error:
        why = reason(error, lang)
    else:
        return None
    return translate(lang, _CANNOT_LISTEN).format(host=host, port=port, reason=why)


def open_files(wanted: int) -> int:
    """Let this server (and the workers it forks) hold `wanted` files open, or as
    many as the system allows: each connection is one, and the soft limit is often
    1,024 (a systemd service's default), fewer than one busy worker's phones.
    Returns the limit now."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


#: A folder in memory (tmpfs) on Linux: the workers' heartbeat files and the pages
#: they share go there when it is writable.
IN_MEMORY = Path("/dev/shm")


def memory_folder() -> str:
    """Where the server keeps its scratch files: in memory where the system has a
    folder for it, else the temporary folder. Under load (issue 19, py-spy at 350
    paced tables) gunicorn's heartbeat, a change of a file's mode at each turn of a
    worker's loop, was 3.7 % of the workers' samples on the disk's /tmp, and the
    shared pages' writes 3.8 %: gunicorn's own advice is a tmpfs."""
    if IN_MEMORY.is_dir() and os.access(IN_MEMORY, os.W_OK | os.X_OK):
        return str(IN_MEMORY)
    return tempfile.gettempdir()


def shared_folder(base: str | None = None) -> str:
    """A new folder for the pages this server's workers share, named after its
    process, in `base` (by default `memory_folder()`). Folders of servers that are
    gone (killed before they could remove theirs) are removed first."""
    base = base or memory_folder()
    prefix = "referee-pages-"
    for old in Path(base).glob(f"{prefix}*-*"):
        pid = old.name.removeprefix(prefix).split("-", 1)[0]
        try:
            if not pid.isdigit() or old.stat().st_uid != os.getuid():
                continue
            os.kill(int(pid), 0)  # raises if no such process
        except ProcessLookupError:
            shutil.rmtree(old, ignore_errors=True)
        except OSError:
            continue  # another user's process, or the folder just went
    return tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=base)


#: Seconds a worker thread running Python keeps the interpreter lock while another
#: thread waits for it (Python's default: 0.005). A request gives the lock up at each
#: database query, commit, socket write and page compression, and asks for it back
#: behind whichever thread runs: up to this long each time, a dozen times a request.
#: Side by side at 450 paced tables (issue 19, PERFORMANCE.md), two rounds: p50
#: 25-33 ms -> 16-17 ms, p95 106-135 -> 80-97 ms, and fewer cores (1.23-1.29 ->
#: 1.07-1.12); below the knee the CPU per deal did not move.
SWITCH_INTERVAL: Final = 0.001


def ready_worker(app: Any) -> None:
    """Make a server worker ready before its first answer (issue 19).

    It is warmed (no cold first page or sheet): its templates compiled, its PDF
    process started, WeasyPrint loaded. Then everything it holds so far (modules,
    compiled templates, the warm-up's objects) is frozen out of the garbage
    collector's sight: a full collection no longer walks them. Measured at 100
    paced tables, the longest collection pause went from 230 ms to 78–135 ms;
    every request a worker was serving waited that long.
    """
    from referee.web.sheets import warm

    # A worker that crashes in C code (a SIGSEGV) says where, every thread's stack
    # on the server's error log, instead of only gunicorn's "was sent SIGSEGV".
    faulthandler.enable()
    # A thread back from the database, a socket or zlib waits for the interpreter
    # lock behind the thread running Python; see SWITCH_INTERVAL.
    sys.setswitchinterval(SWITCH_INTERVAL)
    warm(app, wait=WARM_WAIT)
    gc.collect()
    _last_full[0] = time.monotonic()
    gc.freeze()
    # The collector runs only between requests (`collect_between_requests`). Left
    # to run anywhere (inside a request, in the middle of a library's C code while
    # other threads use the database), workers crashed under load (SIGSEGV) in most
    # runs of 500 paced tables on PostgreSQL and in some on SQLite; with it run
    # between requests, none in the runs since (PERFORMANCE.md).
    gc.disable()


#: Seconds at least between two full collections of a worker. A full collection
#: walks everything the worker made since it was frozen (its caches: pages, rows,
#: scored games): 58 ms on average at 300 paced tables, 8 of them in a worker's
#: first minute, every request of the worker waiting meanwhile (PERFORMANCE.md).
#: Python itself skips one while the old generation has grown by less than a
#: quarter, a measure it does not expose; this bounds them by time instead.
#: Cyclic garbage waits that long for its collection.
FULL_COLLECTION_EVERY: Final = 60.0
_last_full = [time.monotonic()]


def collect_between_requests(now: Callable[[], float] = time.monotonic) -> int:
    """The collector's policy (generation 0 past its threshold; the older ones after
    their thresholds of younger collections, a full one at most once every
    `FULL_COLLECTION_EVERY` seconds), run at the end of a request (gunicorn's
    `post_request`), where no request of this thread holds anything. Returns the
    generation collected, or -1 when none was due."""
    counts = gc.get_count()
    thresholds = gc.get_threshold()
    if counts[0] <= thresholds[0]:
        return -1
    generation = 0
    if counts[1] > thresholds[1]:
        generation = 1
        if counts[2] > thresholds[2] and now() - _last_full[0] >= FULL_COLLECTION_EVERY:
            generation = 2
            _last_full[0] = now()
    gc.collect(generation)
    return generation


def asked_language(argv: Sequence[str], environ: os._Environ[str] | dict[str, str]) -> str:
    """The language the command line asks for (`--lang X` anywhere, else the locale),
    known before its arguments are parsed: their refusals are said in it too."""
    option = None
    for index, arg in enumerate(argv):
        if arg == "--lang" and index + 1 < len(argv):
            option = argv[index + 1]
        elif arg.startswith("--lang="):
            option = arg.removeprefix("--lang=")
    return user_language(option, environ)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `referee` command: whatever goes wrong is said in one line on standard
    error, in the user's language, with a non-zero exit status; never a traceback
    (`REFEREE_DEBUG=1` shows one, for a developer)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    lang = asked_language(argv, os.environ)
    try:
        args = build_parser(lang).parse_args(argv)
        return _run(args, lang)
    except UsageError as error:
        print(error, file=sys.stderr)
        return UNREADABLE
    except BrokenPipeError:
        # The reader went away (`referee score x.json | head`): stop quietly, and
        # point stdout at /dev/null so that the flush at exit does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:
        print(translate(lang, _INTERRUPTED), file=sys.stderr)
        return 130
    except Exception as error:  # the last guard: one line, never a traceback
        if os.environ.get("REFEREE_DEBUG") == "1":
            raise
        print(unexpected(error, lang), file=sys.stderr)
        return UNEXPECTED


def unexpected(error: Exception, lang: str) -> str:
    """An error no command foresaw, in one line: a database that cannot be reached, a
    file the system refuses, or anything else by its kind."""
    from sqlalchemy.exc import SQLAlchemyError

    if isinstance(error, SQLAlchemyError):
        lines = str(getattr(error, "orig", None) or error).strip().splitlines()
        return translate(lang, _NO_DATABASE).format(reason=lines[0] if lines else "?")
    if isinstance(error, OSError):
        text = reason(error, lang)
        where = error.filename
        text = f"{where}: {text}" if where else text
    else:
        lines = str(error).strip().splitlines()
        text = lines[0][:200] if lines else ""
    return translate(lang, _UNEXPECTED).format(kind=type(error).__name__, reason=text)


def _run(args: argparse.Namespace, lang: str) -> int:
    """Run the subcommand `args` asks for."""
    if getattr(args, "data", None) == "":
        raise UsageError(translate(lang, _USAGE["one_value"]).format(argument="--data"))
    if getattr(args, "data", None):
        # The app reads its data folder from here (referee.paths.data_dir), in this
        # process and in the server's workers.
        os.environ["REFEREE_DATA"] = str(Path(args.data).expanduser().resolve())
    if args.command == "serve":
        return serve_command(
            args.host,
            args.port,
            args.workers,
            args.threads,
            sys.stdout,
            args.access_log,
            lang,
            sys.stderr,
        )
    if args.command in ("backup", "restore"):
        return backup_command(
            args.command,
            args.folder,
            lang,
            sys.stdout,
            sys.stderr,
            replace=getattr(args, "replace", False),
            partial=getattr(args, "partial", False),
        )
    if args.command == "judge":
        return judge_command(
            args.game,
            args.trump,
            args.players,
            args.rules,
            args.cards,
            args.json,
            lang,
            sys.stdout,
            sys.stderr,
        )
    if args.command == "draw":
        return draw_command(
            args.players,
            args.rounds,
            args.format,
            args.table_size,
            args.seed,
            args.json,
            lang,
            sys.stdout,
            sys.stderr,
        )
    if args.command == "rank" and args.season:
        return season_command(
            args.file,
            args.drop_worst,
            args.points,
            args.json,
            lang,
            sys.stdout,
            sys.stderr,
            sys.stdin,
        )
    if args.command == "rank":
        if len(args.file) != 1 or args.drop_worst or args.points is not None:
            print(translate(lang, _SEASON["one"]), file=sys.stderr)
            return USAGE
        return rank_command(args.file[0], args.json, lang, sys.stdout, sys.stderr, sys.stdin)
    if args.command == "explain":
        return explain_command(args.file, args.json, lang, sys.stdout, sys.stderr, sys.stdin)
    if args.command == "pdf":
        return pdf_command(
            args.file, args.output, args.size, lang, sys.stderr, sys.stdin, sys.stdout
        )
    return score_command(args.file, lang, sys.stdout, sys.stderr, sys.stdin)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
