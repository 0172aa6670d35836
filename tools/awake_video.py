"""Make `static/awake.mp4`: one second of a 16×16 canvas that flickers between two
near-black greys, recorded as H.264 by Chromium's MediaRecorder (about 1 KB).

Played muted and looping, it keeps a phone's screen awake where the Wake Lock API
is missing (plain HTTP on the table's Wi-Fi, older browsers), as NoSleep.js does.
Run it with the project's Python (Playwright, Debian's chromium):
`.venv/bin/python tools/awake_video.py`.
"""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parent.parent / "static" / "awake.mp4"

RECORD = """async (mime) => {
  if (!MediaRecorder.isTypeSupported(mime)) return null;
  const canvas = document.createElement("canvas");
  canvas.width = 16; canvas.height = 16;
  const pen = canvas.getContext("2d");
  const options = { mimeType: mime, videoBitsPerSecond: 1000 };
  const recorder = new MediaRecorder(canvas.captureStream(4), options);
  const parts = [];
  recorder.ondataavailable = (event) => parts.push(event.data);
  let frame = 0;
  const timer = setInterval(() => {
    pen.fillStyle = frame++ % 2 ? "#000" : "#010101";
    pen.fillRect(0, 0, 16, 16);
  }, 100);
  recorder.start();
  await new Promise((done) => setTimeout(done, 1200));
  recorder.stop();
  clearInterval(timer);
  await new Promise((done) => { recorder.onstop = done; });
  const bytes = new Uint8Array(await new Blob(parts).arrayBuffer());
  let text = "";
  bytes.forEach((b) => { text += String.fromCharCode(b); });
  return btoa(text);
}"""


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page()
        page.goto("about:blank")
        data = page.evaluate(RECORD, "video/mp4;codecs=avc1")
        browser.close()
    if data is None:
        raise SystemExit("this chromium cannot record H.264")
    OUT.write_bytes(base64.b64decode(data))
    print(f"{OUT}: {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
