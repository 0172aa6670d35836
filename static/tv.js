// Referee: a TV's last deal in one line (issue "the table at first sight"), loaded
// by the TV pages only.
"use strict";
// On a big screen the last deal is one line (tables.css); a long one (a placing's
// order, five players' points) is written smaller until it fits, down to 20 px,
// rather than cut. Without JavaScript it ends in an ellipsis.
(() => {
  const fit = () => document.querySelectorAll(".tv-last").forEach((line) => {
    line.style.fontSize = "";
    let size = parseFloat(getComputedStyle(line).fontSize);
    while (line.scrollWidth > line.clientWidth + 1 && size > 20) {
      size -= 1;
      line.style.fontSize = `${size}px`;
    }
  });
  fit();
  window.addEventListener("resize", fit);
})();
