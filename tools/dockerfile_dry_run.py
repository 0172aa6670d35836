"""Try deploy/Dockerfile where there is no Docker engine: in a Debian root, chrooted.

    sudo debootstrap --variant=minbase bookworm /srv/slim http://deb.debian.org/debian
    sudo .venv/bin/python tools/dockerfile_dry_run.py /srv/slim [--keep]

A `debootstrap --variant=minbase` root of Debian 12 is close to `debian:bookworm-slim`.
Each stage of the Dockerfile gets a copy of it; the instructions the kit uses are
played in order: `FROM` (a stage), `COPY` (from the checkout, or `--from` a stage),
`RUN` (in the chroot, with the `ENV` so far), `ENV`, `USER`, `VOLUME`, `EXPOSE`,
`HEALTHCHECK`, `CMD`. Then the last stage's `CMD` is started as its `USER`, with its
`ENV`, on loopback (the container's port 8000 is the host's: `PORT` is moved to a free
one), the `HEALTHCHECK` command is run until it passes, a page is fetched, and the
server is stopped. What it does not do: isolate the network or the processes (it is
a chroot, not a container), or check layers, caching and image metadata.

Needs root (chroot, mount). Exit 0 when the image's server answered its healthcheck.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "deploy" / "Dockerfile"


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined."""
    joined, lines = "", []
    for raw in text.splitlines():
        line = raw.strip()
        if not joined and (not line or line.startswith("#")):
            continue
        if line.startswith("#"):
            continue
        if line.endswith("\\"):
            joined += line[:-1] + " "
            continue
        lines.append(joined + line)
        joined = ""
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def context_ignored() -> Callable[[Any, list[str]], set[str]]:
    """What .dockerignore leaves out of the build context (its names and globs)."""
    patterns = [
        line.strip().removeprefix("**/")
        for line in (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return shutil.ignore_patterns(*(p.rsplit("/", 1)[-1] for p in patterns))


def exec_form(argument: str) -> list[str]:
    """`["a", "b"]` or a shell form."""
    if argument.startswith("["):
        return list(json.loads(argument))
    return ["/bin/sh", "-c", argument]


class Stage:
    def __init__(self, name: str, base: Path, work: Path) -> None:
        self.name = name
        self.root = work / name
        subprocess.run(["cp", "-a", str(base), str(self.root)], check=True)
        # The machine's name servers and certificate authorities: the network of the
        # machine running this, as a container would have it from its host.
        shutil.copy("/etc/resolv.conf", self.root / "etc" / "resolv.conf")
        local_cas = self.root / "usr/local/share/ca-certificates"
        for cert in Path("/usr/local/share/ca-certificates").glob("*.crt"):
            local_cas.mkdir(parents=True, exist_ok=True)
            shutil.copy(cert, local_cas / cert.name)
        self.env: dict[str, str] = {
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            "HOME": "/root",
            "DEBIAN_FRONTEND": "noninteractive",
        }
        if os.environ.get("PIP_CERT"):
            self.env["PIP_CERT"] = "/etc/ssl/certs/ca-certificates.crt"
        self.user = "root"
        self.cmd: list[str] = []
        self.healthcheck: list[str] = []
        self.mounted: list[Path] = []
        for command, target in ((["-t", "proc", "proc"], "proc"), (["--rbind", "/dev"], "dev")):
            path = self.root / target
            subprocess.run(["mount", *command, str(path)], check=True)
            self.mounted.append(path)

    def run(self, argv: list[str], user: str = "root", **popen: object) -> int:
        command = ["chroot", f"--userspec={user}", str(self.root), "/usr/bin/env", "-i"]
        command += [f"{k}={v}" for k, v in self.env.items()]
        return subprocess.run(command + argv, check=False, **popen).returncode  # type: ignore[call-overload,no-any-return]

    def expand(self, text: str) -> str:
        for key, value in self.env.items():
            text = text.replace(f"${key}", value).replace(f"${{{key}}}", value)
        return text

    def close(self) -> None:
        for path in reversed(self.mounted):
            subprocess.run(["umount", "-l", str(path)], check=False)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def play(base: Path, work: Path) -> int:
    stages: dict[str, Stage] = {}
    stage: Stage | None = None
    try:
        for instruction, argument in instructions(DOCKERFILE.read_text(encoding="utf-8")):
            print(f"--> {instruction} {argument[:100]}", flush=True)
            if instruction == "FROM":
                words = argument.split()
                name = words[2] if len(words) > 2 and words[1].upper() == "AS" else "final"
                stage = stages[name] = Stage(name, base, work)
                continue
            assert stage is not None, "an instruction before FROM"
            if instruction == "COPY":
                words = shlex.split(argument)
                source_root = ROOT
                if words[0].startswith("--from="):
                    source_root = stages[words.pop(0).split("=", 1)[1]].root
                *sources, target = words
                for source in sources:
                    origin = source_root / source.lstrip("/")
                    destination = stage.root / target.lstrip("/")
                    if origin.is_dir():
                        shutil.copytree(
                            origin, destination, dirs_exist_ok=True, ignore=context_ignored()
                        )
                    else:
                        destination.parent.mkdir(parents=True, exist_ok=True)
                        shutil.copy(origin, destination)
            elif instruction == "RUN":
                status = stage.run(["/bin/sh", "-c", argument])
                if status != 0:
                    print(f"RUN failed with status {status}", file=sys.stderr)
                    return 1
            elif instruction == "ENV":
                for pair in shlex.split(argument):
                    key, value = pair.split("=", 1)
                    stage.env[key] = stage.expand(value)
            elif instruction == "USER":
                stage.user = argument.strip()
            elif instruction == "CMD":
                stage.cmd = exec_form(argument)
            elif instruction == "HEALTHCHECK":
                stage.healthcheck = exec_form(argument.split(" CMD ", 1)[1].strip())
            elif instruction not in ("VOLUME", "EXPOSE"):
                print(f"not played: {instruction}", file=sys.stderr)
                return 1
        assert stage is not None
        return serve(stage)
    finally:
        for each in stages.values():
            each.close()


def serve(stage: Stage) -> int:
    port = free_port()
    stage.env["PORT"] = str(port)
    stage.env["REFEREE_SECRET_KEY"] = "dry-run"
    print(f"--> CMD {stage.cmd} as {stage.user}, PORT={port}", flush=True)
    command = ["chroot", f"--userspec={stage.user}", str(stage.root), "/usr/bin/env", "-i"]
    command += [f"{k}={v}" for k, v in stage.env.items()] + stage.cmd
    server = subprocess.Popen(command, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while stage.run(stage.healthcheck, user=stage.user, capture_output=True) != 0:
            if server.poll() is not None or time.monotonic() > deadline:
                print("the healthcheck never passed", file=sys.stderr)
                return 1
            time.sleep(1)
        print("--> HEALTHCHECK passed", flush=True)
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/", headers={"Accept-Language": "fr"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            page = answer.read().decode()
        assert "Nouvelle partie" in page, page[:300]
        owner = (stage.root / "data" / "referee.sqlite3").stat()
        print(f"--> / answered in French; /data/referee.sqlite3 owned by uid {owner.st_uid}")
        return 0
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("base", type=Path, help="a debootstrap --variant=minbase root")
    parser.add_argument("--keep", action="store_true", help="keep the stages' roots")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="dockerfile-", dir=args.base.parent))
    try:
        status = play(args.base.resolve(), work)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    print("dry run", "passed" if status == 0 else "FAILED")
    return status


if __name__ == "__main__":
    sys.exit(main())
