// Referee: small comforts on top of pages that work without JavaScript.
"use strict";

// Confirm before anything destructive (forms carrying data-confirm).
document.addEventListener("submit", (event) => {
  const message = event.target.dataset && event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});

// One tap, one deal: disable a form's buttons once it is sent.
document.addEventListener("submit", (event) => {
  if (event.defaultPrevented) return;
  const form = event.target;
  window.setTimeout(() => {
    form.querySelectorAll("button").forEach((b) => { b.disabled = true; });
  }, 0);
});

// Steppers around count boxes, and the last box filled with what the others leave.
function enhanceCounts(group) {
  const total = Number(group.dataset.total);
  const inputs = Array.from(group.querySelectorAll("input[type=number]"));
  const fillLast = () => {
    const empty = inputs.filter((i) => i.value === "");
    if (empty.length !== 1) return;
    const sum = inputs.reduce((s, i) => s + (i.value === "" ? 0 : Number(i.value)), 0);
    if (total - sum >= 0) empty[0].placeholder = String(total - sum);
  };
  inputs.forEach((input) => {
    const wrap = document.createElement("div");
    wrap.className = "stepper";
    input.parentNode.insertBefore(wrap, input);
    const minus = document.createElement("button");
    minus.type = "button";
    minus.textContent = "−";
    minus.setAttribute("aria-label", "−1");
    const plus = document.createElement("button");
    plus.type = "button";
    plus.textContent = "+";
    plus.setAttribute("aria-label", "+1");
    wrap.append(minus, input, plus);
    const step = (d) => {
      const value = Math.max(0, Math.min(total, (input.value === "" ? 0 : Number(input.value)) + d));
      input.value = String(value);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    };
    minus.addEventListener("click", () => step(-1));
    plus.addEventListener("click", () => step(1));
    input.addEventListener("input", fillLast);
  });
  fillLast();
}
document.querySelectorAll("fieldset.counts").forEach(enhanceCounts);

// Keep the screen awake on a game page while the game runs.
if ("wakeLock" in navigator && document.querySelector(".scoreboard")) {
  const keepAwake = () => navigator.wakeLock.request("screen").catch(() => {});
  keepAwake();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") keepAwake();
  });
}

// Coming back to a page (back button): its buttons work again.
window.addEventListener("pageshow", () => {
  document.querySelectorAll("button[disabled]").forEach((b) => { b.disabled = false; });
});

// Live preview: what the deal being typed would give, asked of the server as you go.
document.querySelectorAll("form.deal-form[data-preview]").forEach((form) => {
  const panel = form.querySelector(".preview.live");
  let timer = 0;
  let asked = 0;
  const ask = () => {
    const mine = ++asked;
    fetch(form.dataset.preview, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : null))
      .then((answer) => {
        if (mine !== asked || !panel) return;
        if (!answer || !answer.ok) { panel.hidden = true; return; }
        answer.deltas.forEach((d, seat) => {
          const cell = panel.querySelector(`[data-seat="${seat}"]`);
          if (cell) cell.textContent = d;
        });
        panel.hidden = false;
      })
      .catch(() => { if (panel) panel.hidden = true; });
  };
  form.addEventListener("input", () => { window.clearTimeout(timer); timer = window.setTimeout(ask, 250); });
  form.addEventListener("change", () => { window.clearTimeout(timer); timer = window.setTimeout(ask, 250); });
});

// Pitch: points taken so far by each side, as the point cards are ticked.
document.querySelectorAll(".tally").forEach((tally) => {
  const form = tally.closest("form");
  const names = tally.dataset.names.split("|");
  const update = () => {
    const won = names.map(() => 0);
    let dead = 0;
    form.querySelectorAll("fieldset.point").forEach((set) => {
      const value = Number(set.dataset.value);
      const checked = set.querySelector("input:checked");
      if (!checked) return;
      if (checked.value === "dead") dead += value; else won[Number(checked.value)] += value;
    });
    const parts = tally.dataset.teams
      ? [`${names[0]} & ${names[2]} ${won[0] + won[2]}`, `${names[1]} & ${names[3]} ${won[1] + won[3]}`]
      : names.map((n, i) => `${n} ${won[i]}`);
    tally.textContent = [...parts, `${tally.dataset.dead} ${dead}`].join(" · ");
    tally.hidden = false;
  };
  form.addEventListener("change", update);
  update();
});

// Follow the game: reload the scoreboard when another phone changes it.
document.querySelectorAll("[data-version-url]").forEach((live) => {
  const known = live.dataset.version;
  const poll = () => {
    if (document.visibilityState !== "visible") return;
    fetch(live.dataset.versionUrl, { cache: "no-store", credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : null))
      .then((answer) => {
        if (answer && String(answer.version) !== known) window.location.reload();
      })
      .catch(() => {});
  };
  window.setInterval(poll, 1500);  // a change shows within 1.5 s, plus the reload
});
