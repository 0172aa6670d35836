"""Count the CPU instructions of one score sheet's render: a measure that, unlike
time, does not drift with the machine's load (needs Debian's valgrind).

    .venv/bin/python bench/pdf_instructions.py

Runs itself under callgrind with instrumentation off, warms WeasyPrint up, then
switches counting on for two renders of each document (the trivial page and the
24-deal Bombu sheet of bench/pdf.py) and prints millions of instructions per render.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

RENDERS = 2


def count(kind: str) -> int:
    """Instructions per render of `kind`, counted by callgrind in a child process."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--instr-atstart=no",
                f"--callgrind-out-file={folder}/out",
                sys.executable,
                __file__,
                kind,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
    collected = re.search(r"Collected : (\d+)", done.stderr)
    assert collected, done.stderr
    return int(collected.group(1)) // RENDERS


def child(kind: str) -> None:
    """Under callgrind: warm up, then count RENDERS renders of `kind`."""
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).parent]
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_pdf", Path(__file__).with_name("pdf.py"))
    assert spec is not None
    assert spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    from referee.services.pdf import WARM_UP, html_to_pdf

    html = bench.document(kind)
    html_to_pdf(WARM_UP)
    html_to_pdf(html)
    control = ["callgrind_control", "-i"]
    subprocess.run([*control, "on", str(os.getpid())], capture_output=True, check=True)
    for _ in range(RENDERS):
        html_to_pdf(html)
    subprocess.run([*control, "off", str(os.getpid())], capture_output=True, check=True)


def main() -> None:
    trivial, sheet = count("trivial"), count("bombu")
    print(f"  trivial one-page document: {trivial / 1e6:.0f} M instructions per render")
    print(
        f"  finished 24-deal Bombu sheet: {sheet / 1e6:.0f} M instructions per render, "
        f"{sheet / trivial:.1f}x the trivial"
    )


if __name__ == "__main__":
    if len(sys.argv) > 1:
        child(sys.argv[1])
    else:
        main()
