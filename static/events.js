// Referee: a concours's clock and its TV's slides. Without scripts the clock says
// when the round ends and the TV shows every part one under the other.
"use strict";
(() => {
  // One clock for the round: the server's (its time of day came with the page;
  // the difference from this phone's clock is kept, so a phone set wrong counts right).
  const live = document.querySelector("[data-version-url]");
  document.querySelectorAll(".event-clock[data-ends]").forEach((clock) => {
    const ends = Date.parse(clock.dataset.ends);
    // The page may have been drawn a while ago (it is kept per version): the server's
    // time is asked again, half the request's time added.
    let skew = Date.parse(clock.dataset.now) - Date.now();
    const timeUrl = clock.dataset.timeUrl || (live && live.dataset.versionUrl);
    if (timeUrl) {
      const asked = Date.now();
      fetch(timeUrl, { cache: "no-store" })
        .then((r) => (r.ok ? r.json() : null))
        .then((answer) => {
          if (answer && answer.now) skew = Date.parse(answer.now) - (asked + Date.now()) / 2;
        })
        .catch(() => {});
    }
    const alarm = Number(clock.dataset.alarm) * 1000;
    const left = clock.querySelector(".left");
    const tick = () => {
      const ms = ends - (Date.now() + skew);
      if (ms <= 0) {
        clock.classList.remove("alarm");
        clock.classList.add("over");
        left.textContent = clock.dataset.over;
        return;
      }
      const s = Math.ceil(ms / 1000);
      const mm = String(Math.floor(s / 60)).padStart(2, "0");
      const ss = String(s % 60).padStart(2, "0");
      // "12:34 left": a countdown, not the time of day.
      left.textContent = (clock.dataset.left || "{time}").replace("{time}", `${mm}:${ss}`);
      clock.classList.toggle("alarm", ms <= alarm);
      window.setTimeout(tick, 250);
    };
    tick();
  });
  // The TV: one part at a time, in turn.
  const slides = document.querySelector("[data-rotate]");
  if (slides) {
    const parts = [...slides.querySelectorAll(".slide")];
    let shown = Number(sessionStorage.getItem("slide") || 0) % parts.length;
    const show = () => {
      parts.forEach((part, i) => part.classList.toggle("shown", i === shown));
      sessionStorage.setItem("slide", String(shown));
    };
    slides.classList.add("slides-on");
    show();
    window.setInterval(() => { shown = (shown + 1) % parts.length; show(); },
      Number(slides.dataset.rotate) * 1000);
  }
})();
