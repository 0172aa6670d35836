// The score pad's deal form (its `deal.html`), loaded with it: "±" turns a box's
// sign and "= the rest" fills the last box in the page, without a reload, the focus
// kept in the box so that a phone's keypad stays open (keypads often have no minus).
// The last box's placeholder shows the rest ("= −75") as the others are typed. Without this
// script both buttons post the form and come back filled in.
document.querySelectorAll("fieldset.pad-points").forEach((fieldset) => {
  const boxes = Array.from(fieldset.querySelectorAll("input[name^=points]"));
  if (!boxes.length) return;
  const last = boxes[boxes.length - 1];
  const total = Number(fieldset.dataset.total || 0);
  const restWord = fieldset.dataset.restWord || "";
  const minus = /^[-\u2212\u2013]/;
  // A box's number: empty counts 0; anything else not a whole number: null.
  const read = (box) => {
    const text = box.value.replace(/\s/g, "").replace(minus, "-");
    if (text === "") return 0;
    return /^[-+]?\d+$/.test(text) ? Number(text) : null;
  };
  // What the boxes but the last add up to (null: one is not a whole number).
  const othersSum = () => {
    const others = boxes.slice(0, -1).map(read);
    return others.includes(null) ? null : others.reduce((sum, n) => sum + n, 0);
  };
  const showRest = () => {
    if (!fieldset.dataset.rest) return;
    const known = othersSum();
    const typed = boxes.slice(0, -1).some((box) => box.value.trim() !== "");
    last.placeholder = known === null || !typed ? restWord : `= ${String(total - known).replace("-", "\u2212")}`;
  };
  const changed = (box) => {
    box.dispatchEvent(new Event("input", { bubbles: true }));
    showRest();
  };
  const keepFocus = (box) => {
    box.focus();
    const end = box.value.length;
    box.setSelectionRange(end, end);
  };
  // The buttons never take the focus from the box being typed in (its keypad).
  fieldset.querySelectorAll("button[name=flip], button[name=rest]").forEach((button) => {
    button.addEventListener("mousedown", (event) => event.preventDefault());
  });
  fieldset.querySelectorAll("button[name=flip]").forEach((button) => {
    const box = boxes[Number(button.value)];
    button.addEventListener("click", (event) => {
      event.preventDefault();
      const text = box.value.trim();
      // An empty box takes the sign first: the digits typed next are negative.
      box.value = minus.test(text) ? text.slice(1) : `-${text}`;
      if (box === last) follows = false;
      keepFocus(box);
      changed(box);
    });
  });
  // "= the rest" tapped, the last box follows the others as they change, until it
  // is typed in (or its sign turned) by hand.
  let follows = false;
  const fill = () => {
    const known = othersSum();
    if (known === null) return;
    last.value = String(total - known);
    changed(last);
  };
  fieldset.querySelectorAll("button[name=rest]").forEach((button) => {
    button.addEventListener("click", (event) => {
      event.preventDefault();
      follows = true;
      fill();
    });
  });
  fieldset.addEventListener("input", (event) => {
    if (event.target === last) {
      if (event.isTrusted) follows = false;
    } else if (follows) fill();
  });
  // Enter (a keypad's "next") goes to the next box rather than sending the form.
  boxes.forEach((box, index) => {
    box.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" || index === boxes.length - 1) return;
      event.preventDefault();
      keepFocus(boxes[index + 1]);
    });
  });
  fieldset.addEventListener("input", showRest);
  showRest();
});
