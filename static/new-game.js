"use strict";
// The new-game form's own script (loaded by templates/new.html only).
// A seat filled in advance (the table's people in their last seats) changes in one
// tap: its ✕ empties it and puts the cursor there, and a tap on the name selects it
// whole, so that typing replaces it.
document.querySelectorAll("form.new-game").forEach((form) => {
  const buttons = form.querySelectorAll("button[data-clear]");
  // An empty seat's ✕ keeps its room (every name box as wide), unseen.
  const show = () => buttons.forEach((button) => {
    button.hidden = false;
    button.classList.toggle("idle", !document.getElementById(button.dataset.clear).value);
  });
  buttons.forEach((button) => {
    button.addEventListener("click", () => {
      const input = document.getElementById(button.dataset.clear);
      input.value = "";
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.focus();
    });
  });
  form.querySelectorAll("input[data-prefilled]").forEach((input) => {
    input.addEventListener("focus", () => { input.select(); }, { once: true });
  });
  form.addEventListener("input", show);
  show();
});
