// Referee: a TV's last deal in one line (issue "the table at first sight"), loaded
// by the TV pages only.
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
  fit();
  window.addEventListener("resize", fit);
})();
