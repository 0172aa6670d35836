"""What a page hides sideways, as a browser lays it out (issue 38, item 5): a helper
for the browser tests of every page a player reads (game, table, evening).

`hidden_sideways(page)` lists, as short readable descriptions, every place where
content is wider than the room it was given and so is not all in view:

- the page itself wider than the viewport (the phone scrolls sideways);
- an element whose overflow is hidden or clipped, with content wider than its box
  (cut off: "Davi" for "David");
- a text cut by an ellipsis ("Br…");
- with `scroll_boxes` (the default), a box that scrolls sideways (`overflow: auto`
  or `scroll`) with content wider than itself: the content is there, but out of
  view until someone thinks of swiping.

What is meant to be out of sight is left alone: elements not rendered (a closed
`<details>`, `hidden`), and the one-pixel boxes that only screen readers read
(`.sr`, the radio inputs under their pills).
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

#: Run in the page: returns the list of findings (strings).
_SCRIPT = """
(scrollBoxes) => {
  const found = [];
  const root = document.documentElement;
  // The layout viewport: a phone's browser widens innerWidth to a page wider than it.
  const view = root.clientWidth;
  if (root.scrollWidth > view + 1) found.push(`page ${root.scrollWidth}px wide in ${view}px`);
  const describe = (el) => {
    let name = el.tagName.toLowerCase();
    if (el.id) name += "#" + el.id;
    if (el.classList.length) name += "." + [...el.classList].join(".");
    const text = (el.innerText || el.value || "").trim().replace(/\\s+/g, " ").slice(0, 40);
    return text ? `${name} "${text}"` : name;
  };
  for (const el of document.body.querySelectorAll("*")) {
    if (!el.getClientRects().length) continue;  // not rendered
    if (el.clientWidth <= 2 && el.clientHeight <= 2) continue;  // for screen readers
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.opacity === "0") continue;
    if (el instanceof SVGElement) continue;  // a chart's parts: its own box holds them
    const wider = el.scrollWidth > el.clientWidth + 1;
    if (!wider) continue;
    const x = style.overflowX;
    if (x === "hidden" || x === "clip") {
      found.push(`${describe(el)}: ${el.scrollWidth}px cut to ${el.clientWidth}px`);
    } else if (style.textOverflow === "ellipsis") {
      found.push(`${describe(el)}: text cut by an ellipsis`);
    } else if (scrollBoxes && (x === "auto" || x === "scroll")) {
      found.push(`${describe(el)}: ${el.scrollWidth}px scrolled in ${el.clientWidth}px`);
    }
  }
  return found;
}
"""


def hidden_sideways(page: Page, scroll_boxes: bool = True) -> list[str]:
    """Everything the page hides sideways (empty: nothing), as it is laid out now."""
    found: Any = page.evaluate(_SCRIPT, scroll_boxes)
    return [str(item) for item in found]
