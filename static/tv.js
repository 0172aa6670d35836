// Referee: a TV's last deal in one line (issue "the table at first sight"), and the
// game with its money on one screen, loaded by the TV pages only.
"use strict";
// On a big screen the last deal is one line (tables.css); a long one (a placing's
// order, five players' points) is written smaller until it fits, down to 28 px
// (read from across a room), rather than cut; longer still (twelve players'
// five-digit points) it goes on to a second line at 28 px. Without JavaScript it
// ends in an ellipsis.
(() => {
  const fit = () => document.querySelectorAll(".tv-last").forEach((line) => {
    line.style.fontSize = "";
    line.classList.remove("wraps");
    let size = parseFloat(getComputedStyle(line).fontSize);
    while (line.scrollWidth > line.clientWidth + 1 && size > 28) {
      size -= 1;
      line.style.fontSize = `${size}px`;
    }
    if (line.scrollWidth > line.clientWidth + 1) line.classList.add("wraps");
  });
  // A TV cannot scroll: on a big screen the game and the evening's money are drawn
  // smaller (CSS zoom) until they fit its height, down to 60 % (a 720-line TV with
  // five players' money); below that the page scrolls as a phone's does.
  const screen = () => {
    const main = document.querySelector("main");
    const parts = document.querySelectorAll(".tv-now, .tv-now ~ .tv-money");
    if (!main || !parts.length) return;
    main.style.zoom = "";
    fit();
    if (window.innerWidth < 1200) return;
    const bottom = parts[parts.length - 1].getBoundingClientRect().bottom + window.scrollY;
    if (bottom <= window.innerHeight) return;
    main.style.zoom = String(Math.max(0.6, (window.innerHeight - 8) / bottom));
    fit();
  };
  screen();
  window.addEventListener("resize", screen);
})();
