"use strict";
// The new-game form's own script (loaded by templates/new.html only): its seats,
// its dealer choice and its table diagram.
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

// The new-game form: the dealer choice and the table diagram show the names as
// they are typed; an optional seat left empty is not offered.
document.querySelectorAll("form.new-game").forEach((form) => {
  const update = () => {
    form.querySelectorAll("input[name^=player]").forEach((input) => {
      const seat = input.name.slice("player".length);
      const name = input.value.trim();
      const optional = !input.required;
      const pill = form.querySelector(`label[for="fd${seat}"]`);
      if (pill) {
        pill.textContent = name || pill.dataset.empty;
        const radio = document.getElementById(`fd${seat}`);
        const hide = optional && !name;
        pill.hidden = hide;
        if (radio) {
          radio.disabled = hide;
          radio.hidden = hide;
          if (hide && radio.checked) form.querySelector("#fd0").checked = true;
        }
      }
      const mark = form.querySelector(`svg text[data-seat="${seat}"]`);
      if (mark) {
        mark.textContent = name || mark.dataset.number;
        mark.classList.toggle("optional", optional && !name);
      }
    });
  };
  form.addEventListener("input", update);
  update();
});
