// Pitch's deal form (its `deal.html`), loaded with it: the points taken so far by
// each side as the point cards are ticked, and whether the bid is made (or can no
// longer be); "the rest" ticks every card left for one column; the partner can't
// be the bidder. Without it the form works the same, without these hints.
document.querySelectorAll(".tally").forEach((tally) => {
  const form = tally.closest("form");
  const names = tally.dataset.names.split("|");
  const total = Array.from(form.querySelectorAll(".point")).reduce((s, row) => s + Number(row.dataset.value), 0);
  const chosen = (name) => { const c = form.querySelector(`input[name="${name}"]:checked`); return c ? c.value : null; };
  const update = () => {
    const won = names.map(() => 0);
    let dead = 0;
    form.querySelectorAll(".point").forEach((row) => {
      const value = Number(row.dataset.value);
      const checked = row.querySelector("input:checked");
      if (!checked) return;
      if (checked.value === "dead") dead += value; else won[Number(checked.value)] += value;
    });
    const parts = tally.dataset.teams
      ? [`${names[0]} & ${names[2]} ${won[0] + won[2]}`, `${names[1]} & ${names[3]} ${won[1] + won[3]}`]
      : names.map((n, i) => `${n} ${won[i]}`);
    let text = [...parts, `${tally.dataset.dead} ${dead}`].join(" · ");
    const bidder = chosen("bidder");
    const bid = chosen("bid");
    if (bidder !== null && bid !== null) {
      const seat = Number(bidder);
      const partner = chosen("partner");
      const side = tally.dataset.teams ? [seat, (seat + 2) % 4]
        : [seat, ...(partner !== null && partner !== "alone" ? [Number(partner)] : [])];
      const taken = side.reduce((s, i) => s + won[i], 0);
      const need = bid === "moon" ? total : Number(bid);
      const lost = won.reduce((s, w, i) => s + (side.includes(i) ? 0 : w), 0) + dead;
      if (taken >= need && (bid !== "moon" || taken === total)) text += ` — ${tally.dataset.made}`;
      else if (total - lost < need) text += ` — ${tally.dataset.set}`;
    }
    tally.textContent = text;
    tally.hidden = false;
  };
  form.addEventListener("change", update);
  form.querySelectorAll("button[name=rest]").forEach((button) => {
    button.addEventListener("click", (event) => {
      event.preventDefault();
      form.querySelectorAll(".point").forEach((row) => {
        if (row.querySelector("input:checked")) return;
        const target = row.querySelector(`input[value="${button.value}"]`);
        if (target) target.checked = true;
      });
      form.dispatchEvent(new Event("change", { bubbles: true }));
    });
  });
  const partner = form.querySelector("tr.partner");
  if (partner) {
    const exclude = () => {
      const bidder = chosen("bidder");
      partner.querySelectorAll("input").forEach((input) => {
        const same = bidder !== null && input.value === bidder;
        if (same && input.checked) input.checked = false;
        input.disabled = same;
        input.hidden = same;
        const label = input.closest("label");
        if (label) label.hidden = same;
      });
    };
    form.addEventListener("change", exclude);
    exclude();
  }
  update();
});
