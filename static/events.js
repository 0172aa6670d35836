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
    // The page may be a kept copy (its server time old): the count starts once the
    // server's time is asked again (or after 2 s without an answer), never from a
    // stale one that a second later jumps.
    const timeUrl = clock.dataset.timeUrl || (live && live.dataset.versionUrl);
    let started = false;
    const start = () => { if (!started) { started = true; tick(); } };
    if (timeUrl) {
      const asked = Date.now();
      fetch(timeUrl, { cache: "no-store" })
        .then((r) => (r.ok ? r.json() : null))
        .then((answer) => {
          if (answer && answer.now) skew = Date.parse(answer.now) - (asked + Date.now()) / 2;
        })
        .catch(() => {})
        .finally(start);
      window.setTimeout(start, 2000);
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
    if (!timeUrl) start();
  });
  // The TV: one part at a time, in turn. A long part (the ranking, the seating, the
  // names) is cut into as many slides as the screen's height needs, each as full as
  // it holds.
  const slides = document.querySelector("[data-rotate]");
  if (slides) {
    slides.classList.add("slides-on");
    const room = () => {
      const head = document.querySelector(".tv-head");
      // The page's own bottom margin and padding kept clear, as a little more.
      const style = getComputedStyle(document.body);
      const below = parseFloat(style.paddingBottom) + parseFloat(style.marginBottom);
      return window.innerHeight - (head ? head.getBoundingClientRect().bottom : 0) - below - 32;
    };
    [...slides.querySelectorAll(".slide[data-paged]")].forEach((part) => {
      const rows = [...part.querySelectorAll(part.dataset.paged)];
      if (rows.length < 2) return;
      // Measured shown: the part alone on the screen, all its rows in.
      part.classList.add("shown");
      const top = part.getBoundingClientRect().top;
      const fixed = rows[0].getBoundingClientRect().top - top;
      const rowHeight = Math.max(1, (rows[rows.length - 1].getBoundingClientRect().bottom
        - rows[0].getBoundingClientRect().top) / rows.length);
      part.classList.remove("shown");
      const per = Math.max(1, Math.floor((room() - fixed) / rowHeight));
      if (per >= rows.length) return;
      // As even as can be: 13 rows on slides of 12 are 7 and 6, not 12 and 1.
      const count = Math.ceil(rows.length / per);
      const even = Math.ceil(rows.length / count);
      for (let page = count - 1; page >= 1; page -= 1) {
        const copy = part.cloneNode(true);
        const copied = [...copy.querySelectorAll(part.dataset.paged)];
        copied.forEach((row, i) => {
          if (i < page * even || i >= (page + 1) * even) row.remove();
        });
        part.after(copy);
      }
      rows.forEach((row, i) => { if (i >= even) row.remove(); });
    });
    const parts = [...slides.querySelectorAll(".slide")];
    let shown = Number(sessionStorage.getItem("slide") || 0) % Math.max(parts.length, 1);
    const show = () => {
      parts.forEach((part, i) => part.classList.toggle("shown", i === shown));
      sessionStorage.setItem("slide", String(shown));
    };
    show();
    window.setInterval(() => { shown = (shown + 1) % parts.length; show(); },
      Number(slides.dataset.rotate) * 1000);
  }
})();
