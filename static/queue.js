// Referee: nothing typed is lost (issue 15). Deal and correction forms are sent by
// this script; each entry is first kept on the phone (localStorage: it survives a
// reload, a closed tab, a restarted browser), then sent, in order, with its one-time
// form key (the server records a key once, so a retry never doubles a deal). While
// the server cannot be reached, entries wait here, are shown as waiting, and are
// sent by themselves when it answers again. An entry the server refuses comes back
// as its form (posted once more, natively: the server answers with the form, the
// entries and its message). Without this script the forms post as plain forms.
"use strict";

(() => {
  const STORE = "referee.queue";
  const root = document.documentElement;
  const words = document.body.dataset;  // data-waiting, data-offline, data-online…

  const load = () => {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  };
  const save = (queue) => localStorage.setItem(STORE, JSON.stringify(queue));
  const drop = (id) => save(load().filter((entry) => entry.id !== id));
  const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)),
    (b) => b.toString(16).padStart(2, "0")).join("");

  // --- what the page says (the connection line is app.js's) ---------------------------
  const say = (text, kind) => window.refereeLine(text, kind);

  // The waiting entries of this page's game, in one line each.
  const token = (location.pathname.match(/^\/g\/([A-Za-z0-9_-]+)/) || [])[1];
  const showWaiting = () => {
    let box = document.querySelector(".waiting");
    const mine = load().filter((entry) => entry.token === token);
    if (!mine.length) { if (box) box.remove(); return; }
    if (!box) {
      box = document.createElement("section");
      box.className = "waiting card";
      box.setAttribute("aria-live", "polite");
      const anchor = document.querySelector(".scoreboard, main h1");
      if (anchor) anchor.after(box); else document.querySelector("main").prepend(box);
    }
    const title = document.createElement("h2");
    title.textContent = words.waiting;
    const list = document.createElement("ul");
    mine.forEach((entry) => {
      const item = document.createElement("li");
      const at = new Date(entry.at);
      const time = at.toLocaleTimeString(root.lang, { hour: "2-digit", minute: "2-digit" });
      item.textContent = `${entry.title} · ${entry.label} · ${time}`;
      if (entry.refused) {  // the server answered with the form: see why, in one tap
        const show = document.createElement("button");
        show.type = "button";
        show.className = "button";
        show.textContent = words.refused;
        show.addEventListener("click", () => { drop(entry.id); showRefused(entry); });
        item.append(" ", show);
      }
      list.append(item);
    });
    box.replaceChildren(title, list);
  };

  // --- one entry, from a form --------------------------------------------------------
  // A label per fieldset: its legend, then what was chosen or typed.
  const labelOf = (form) => {
    const parts = [];
    form.querySelectorAll("fieldset, details").forEach((set) => {
      if (set.parentElement.closest("fieldset")) return;
      const chosen = [];
      set.querySelectorAll("input:checked").forEach((input) => {
        if (input.type === "radio" && input.value === "") return; // "No", "none": nothing to say
        // A grid's cell is named by its row and its column; a pill by its label.
        const by = (input.getAttribute("aria-labelledby") || "").split(" ").filter(Boolean);
        const text = by.length
          ? by.map((id) => (document.getElementById(id) || {}).textContent || "").join(" ")
          : (input.labels && input.labels[0] ? input.labels[0].textContent : "");
        if (text.trim()) chosen.push(text.trim().replace(/\s+/g, " "));
      });
      set.querySelectorAll("input[inputmode=numeric], input[inputmode=decimal]").forEach((input) => { if (input.value) chosen.push(input.value); });
      set.querySelectorAll("select").forEach((select) => { if (select.value) chosen.push(select.selectedOptions[0].text); });
      if (chosen.length) parts.push(chosen.join(", "));
    });
    const chosen = form.querySelector(".chosen strong");
    if (chosen) parts.unshift(chosen.textContent.trim());
    return parts.join(" · ") || (form.querySelector("button[value=save]") || {}).textContent || "";
  };

  const entryOf = (form, submitter) => {
    const fields = Array.from(new FormData(form).entries()).filter(([, v]) => typeof v === "string");
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    const number = fields.find(([name]) => name === "number");
    const h1 = document.querySelector("main h1");
    return {
      id: newKey(),
      action: new URL(form.getAttribute("action") || location.pathname, location.href).pathname,
      fields,
      token,
      title: h1 ? h1.textContent.trim() : "",
      label: labelOf(form),
      number: number ? Number(number[1]) : null,
      at: new Date().toISOString(),
    };
  };

  // --- sending -------------------------------------------------------------------------
  // "recorded": the server took it (or had already: same key); "refused": it answered
  // with the form again; "unreachable": no answer (the entry waits).
  // A redirect is the server's "recorded" (it is not followed here, so that the
  // scoreboard's one-time line, "Deal N recorded" and its undo, waits for the page).
  const send = (entry) =>
    fetch(entry.action, {
      method: "POST",
      body: new URLSearchParams(entry.fields),
      credentials: "same-origin",
      redirect: "manual",
    }).then(
      (response) => ({ outcome: response.type === "opaqueredirect" ? "recorded" : "refused" }),
      () => ({ outcome: "unreachable" }),
    );
  const scoreboard = (entry) => `/g/${entry.token}`;
  // A deal form with something chosen or typed: not to be taken from under the thumb.
  const typing = () => Array.from(document.querySelectorAll("form.deal-form")).some((form) =>
    form.querySelector("input:checked") ||
    Array.from(form.querySelectorAll("input[inputmode=numeric]")).some((i) => i.value !== ""));

  // The server's own answer to a refused entry, with its entries and message: the
  // same post once more, as a plain form (a refused entry was not recorded, and its
  // key keeps a recorded one from being recorded twice).
  const showRefused = (entry) => {
    const form = document.createElement("form");
    form.method = "post";
    form.action = entry.action;
    form.hidden = true;
    entry.fields.forEach(([name, value]) => {
      const input = document.createElement("input");
      input.type = "hidden";
      input.name = name;
      input.value = value;
      form.append(input);
    });
    form.dataset.plain = "1";
    document.body.append(form);
    form.submit();
  };

  // Send the waiting entries in order; stop at the first the server cannot take yet.
  let flushing = false;
  const flush = async () => {
    if (flushing) return;
    const queue = load().filter((entry) => !entry.refused);
    if (!queue.length) return;
    flushing = true;
    let landed = null;
    try {
      for (const entry of queue) {
        const { outcome } = await send(entry);
        if (outcome === "unreachable") { say(words.offline, "offline"); return; }
        if (outcome === "refused") {
          if (typing()) {  // shown when asked: the player is typing the next deal
            save(load().map((e) => (e.id === entry.id ? { ...e, refused: true } : e)));
          } else {
            drop(entry.id);
            showRefused(entry);
          }
          return;
        }
        drop(entry.id);
        landed = entry;
      }
      say(words.online, "online");
      // On the scoreboard, the scores as the server now has them; on a form being
      // typed, nothing moves (its number already follows the deals sent).
      if (landed && !typing() && !document.querySelector("form.deal-form")) location.assign(scoreboard(landed));
    } finally {
      flushing = false;
      showWaiting();
    }
  };

  // --- the forms -----------------------------------------------------------------------
  // After an entry kept offline, the new-deal form is ready for the next deal: the
  // next number, a new key, its choices cleared (its scores wait for the server).
  const nextDeal = (form) => {
    const number = form.querySelector("input[name=number]");
    if (!number) return false;
    // Contracts as pills: the one just entered is no longer offered, until the
    // round's last is entered (the next round offers them all again).
    const contracts = Array.from(form.querySelectorAll(".contract-pills input[name=contract]"));
    const played = contracts.find((i) => i.checked && !i.disabled);
    if (played) {
      const left = contracts.filter((i) => !i.disabled && i !== played);
      (left.length ? [played] : contracts).forEach((i) => {
        i.disabled = Boolean(left.length);
        i.hidden = Boolean(left.length);
        const label = form.querySelector(`label[for="${i.id}"]`);
        if (label) label.hidden = Boolean(left.length);
      });
    }
    const next = Number(number.value) + 1;
    document.querySelectorAll("input[name=number]").forEach((i) => { i.value = String(next); });
    const key = newKey();
    document.querySelectorAll("input[name=key]").forEach((i) => { i.value = key; });
    form.querySelectorAll("input[type=radio], input[type=checkbox]").forEach((i) => { i.checked = false; });
    form.querySelectorAll("input[inputmode=numeric]").forEach((i) => { i.value = ""; });
    form.querySelectorAll("select").forEach((s) => { s.selectedIndex = 0; });
    const h1 = document.querySelector("main h1");
    if (h1) h1.textContent = h1.textContent.replace(/\d+/, String(next));
    document.querySelectorAll(".dealer-line").forEach((line) => { line.hidden = true; });
    // Each part of the form hears it (sums, tallies, the preview).
    form.querySelectorAll("fieldset").forEach((set) => set.dispatchEvent(new Event("change", { bubbles: true })));
    form.querySelectorAll("input[inputmode=numeric]").forEach((i) => i.dispatchEvent(new Event("input", { bubbles: true })));
    window.scrollTo(0, 0);
    return true;
  };

  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.dataset.plain || !form.matches("form.deal-form, form.passed-form")) return;  // (.passed-form: a page of an older version)
    const submitter = event.submitter;
    if (submitter && submitter.name && !(submitter.name === "action" && submitter.value === "save")) return;
    if (!form.matches(".passed-form") && !(submitter && submitter.value === "save")) return;
    event.preventDefault();
    const entry = entryOf(form, submitter);
    save([...load(), entry]);  // kept before anything is sent
    if (load().length > 1) {  // earlier entries wait: this one goes after them
      say(words.offline, "offline");
      showWaiting();
      if (!nextDeal(form.closest("main").querySelector("form.deal-form") || form)) showWaiting();
      flush();
      return;
    }
    form.querySelectorAll("button").forEach((b) => { b.disabled = true; });
    send(entry).then(({ outcome }) => {
      form.querySelectorAll("button").forEach((b) => { b.disabled = false; });
      if (outcome === "unreachable") {
        say(words.offline, "offline");
        showWaiting();
        nextDeal(form.closest("main").querySelector("form.deal-form") || form);
        return;
      }
      drop(entry.id);
      // The used form leaves the history (replace): Back from the scores does not
      // open an empty form of the next deal.
      if (outcome === "recorded") location.replace(scoreboard(entry));
      else showRefused(entry);
    });
  }, true);

  // A deal form shown again from the phone's cache (no network) may be one already
  // used by a waiting entry: it gets a key of its own, and the number after them.
  const waitingHere = load().filter((entry) => entry.token === token);
  document.querySelectorAll("form.deal-form input[name=number], form.passed-form input[name=number]").forEach((input) => {
    const after = Math.max(0, ...waitingHere.map((e) => e.number || 0)) + 1;
    if (waitingHere.length && Number(input.value) < after) input.value = String(after);
  });
  const used = new Set(waitingHere.flatMap((e) => e.fields.filter(([n]) => n === "key").map(([, v]) => v)));
  const fresh = newKey();
  document.querySelectorAll("input[name=key]").forEach((input) => { if (used.has(input.value)) input.value = fresh; });
  window.addEventListener("online", flush);
  window.addEventListener("offline", () => say(words.offline, "offline"));
  window.refereeQueue = true;
  showWaiting();
  flush();
  window.setInterval(() => { if (load().length) flush(); }, 5000);
})();
