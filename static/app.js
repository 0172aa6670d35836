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
    form.querySelectorAll("button:not([disabled])").forEach((b) => {
      b.disabled = true;
      // put back by pageshow, unlike a button the page disabled
      b.dataset.sending = "1";
    });
  }, 0);
});

// Count boxes (a game of a plug-in's; the app's own games count with pills, below):
// a running sum ("5 of 6"), and the last box shows what the others leave.
// "(5 of 6)" beside a count's legend: red past the total, green once it is made up.
function showSum(sum, entered, total, full) {
  if (!sum || !sum.dataset.text) return;
  sum.textContent = `(${sum.dataset.text.replace("{sum}", entered).replace("{total}", total)})`;
  sum.classList.toggle("over", entered > total);
  sum.classList.toggle("full", full);
}
function enhanceCounts(group) {
  const total = Number(group.dataset.total);
  const inputs = Array.from(group.querySelectorAll("input[inputmode=numeric]"));
  const update = () => {
    const entered = inputs.reduce((s, i) => s + (i.value === "" ? 0 : Number(i.value)), 0);
    const empty = inputs.filter((i) => i.value === "");
    inputs.forEach((i) => { i.placeholder = ""; });
    if (empty.length === 1 && total - entered >= 0) empty[0].placeholder = String(total - entered);
    if (empty.length && entered === total) empty.forEach((i) => { i.placeholder = "0"; });
    showSum(group.querySelector(".sum"), entered, total, entered === total);
  };
  group.addEventListener("input", update);
  update();
}
document.querySelectorAll("fieldset.counts").forEach(enhanceCounts);

// Counts as pills: the running sum, and the one row left marked with what remains
// (the server fills it in the same way).
document.querySelectorAll("fieldset.pill-counts").forEach((group) => {
  const total = Number(group.dataset.total);
  const rows = Array.from(group.querySelectorAll(".pill-count"));
  const sum = group.querySelector(".sum");
  const update = () => {
    group.querySelectorAll("label.auto").forEach((l) => l.classList.remove("auto"));
    const chosen = rows.map((row) => row.querySelector("input:checked"));
    const entered = chosen.reduce((s, c) => s + (c ? Number(c.value) : 0), 0);
    const empty = rows.filter((row, i) => !chosen[i]);
    // The one row left takes the rest; once the counts reach the total, every row
    // left is 0 (the server reads them so).
    const marked = empty.length === 1 && total - entered >= 0 ? [[empty[0], total - entered]]
      : entered === total ? empty.map((row) => [row, 0]) : [];
    marked.forEach(([row, value]) => {
      const mark = row.querySelector(`input[value="${value}"]`);
      const label = mark && (mark.closest("label") || group.querySelector(`label[for="${mark.id}"]`));
      if (label) label.classList.add("auto");
    });
    showSum(sum, entered, total, entered === total || (empty.length === 1 && entered <= total));
  };
  group.addEventListener("change", update);
  update();
});

// Any choice can be taken back: tapping the chosen pill again clears it; but not
// a choice that has no other (the only one the page offers, chosen by it): tapped
// out of habit, it stays, and so does the rest of the form.
document.addEventListener("pointerdown", (event) => {
  const label = event.target.closest && event.target.closest(".pills label, table.points label");
  const input = label && label.control;
  if (input) input.dataset.wasChecked = input.checked ? "1" : "";
});
document.addEventListener("click", (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.type !== "radio") return;
  if (!input.closest(".pills, table.points")) return;
  const only = input.form ? input.form.querySelectorAll(`input[name="${CSS.escape(input.name)}"]`).length === 1 : false;
  if (input.dataset.wasChecked === "1" && !only) {
    input.checked = false;
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  input.dataset.wasChecked = "";
});

// Keep the screen awake on every page of a game, deal forms included: the Wake Lock
// API where the browser has it (HTTPS), else a tiny muted video played in a loop
// (plain HTTP on the table's Wi-Fi), started by the first tap as browsers require.
if (document.body.dataset.awake) {
  let video = null;
  const byVideo = () => {
    if (!video) {
      video = document.createElement("video");
      video.muted = true;
      video.loop = true;
      video.playsInline = true;
      video.setAttribute("playsinline", "");
      video.setAttribute("aria-hidden", "true");
      video.className = "awake";
      video.src = document.body.dataset.awake;
      document.body.append(video);
    }
    video.play().catch(() => {});
  };
  const keepAwake = () => {
    if ("wakeLock" in navigator) navigator.wakeLock.request("screen").catch(byVideo);
    else byVideo();
  };
  keepAwake();
  document.addEventListener("pointerdown", () => { if (video && video.paused) video.play().catch(() => {}); }, { once: false, passive: true });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") keepAwake();
  });
}

// Times of the history in the phone's own time zone and language.
document.querySelectorAll("time.local[datetime]").forEach((time) => {
  const at = new Date(time.getAttribute("datetime"));
  if (Number.isNaN(at.getTime())) return;
  time.textContent = new Intl.DateTimeFormat(document.documentElement.lang, {
    dateStyle: "medium", timeStyle: "short",
  }).format(at);
});

// Right after Record: the one-tap undo stays a few seconds, then the line alone.
document.querySelectorAll("[data-fades]").forEach((box) => {
  window.setTimeout(() => {
    const form = box.querySelector("form");
    if (form) form.remove();
  }, Number(box.dataset.fades) * 1000);
});

// Changing language keeps what was typed: the entries are put back on the page in
// the other language (this tab only, once).
document.querySelectorAll("a.lang").forEach((link) => {
  link.addEventListener("click", () => {
    const form = document.querySelector("form.deal-form, form.new-game");
    if (!form) return;
    const entries = Array.from(new FormData(form).entries())
      .filter(([name]) => name !== "csrf_token" && typeof name === "string");
    sessionStorage.setItem(`entries:${location.pathname}${location.search}`, JSON.stringify(entries));
  });
});

// Coming back to a page (back button): the buttons its sending disabled work again
// (not those the page itself shows disabled: a card that does not fit).
window.addEventListener("pageshow", () => {
  document.querySelectorAll("button[data-sending]").forEach((b) => {
    b.disabled = false;
    delete b.dataset.sending;
  });
});

// Live preview: what the deal being typed would give, asked of the server as you go;
// while the entries cannot be, the engine's reasons beside their fields (only those
// of fields already touched, and the deal's own: an empty box is not yet a mistake).
function touched(group, form) {
  if (group === "") return true;
  const box = form.querySelector(`.field-errors[data-for="${group}"]`);
  const scope = box && box.closest("fieldset, details");
  if (!scope) return false;
  return Array.from(scope.querySelectorAll("input, select")).some((i) =>
    (i.type === "radio" || i.type === "checkbox") ? i.checked : i.value !== "");
}
function showProblems(form, errors) {
  form.querySelectorAll(".field-errors").forEach((box) => {
    const group = box.dataset.for;
    const messages = (errors && errors[group] && touched(group, form)) ? errors[group] : [];
    box.replaceChildren(...messages.map((m) => {
      const p = document.createElement("p");
      p.className = "error";
      p.textContent = m;
      return p;
    }));
  });
}
// The deal form's bar (always in view) says the deal in one line, per team in team
// games, and whether it ends the game; the panel above it holds the engine's reasons
// while the entries cannot be, and "Why?" once they can.
document.querySelectorAll("form.deal-form[data-preview]").forEach((form) => {
  const panel = form.querySelector(".preview.live");
  const line = form.querySelector(".deal-line");
  const ends = form.querySelector(".deal-ends");
  const whyBox = panel && panel.querySelector("details.why-live");
  let timer = 0;
  let asked = 0;
  const hint = () => {
    if (!line) return;
    const span = document.createElement("span");
    span.className = "hint";
    span.textContent = line.dataset.empty;
    line.replaceChildren(span);
  };
  const ask = () => {
    const mine = ++asked;
    fetch(form.dataset.preview, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then((r) => (r.ok ? r.json() : null))
      .then((answer) => {
        if (mine !== asked || !panel || !answer) return;
        showProblems(form, answer.ok ? {} : answer.errors);
        const why = panel.querySelector("ol.why");
        if (answer.ok) {
          if (line) line.textContent = answer.line;
          // Why: the game's short notes first, then the engine's steps.
          if (why) why.replaceChildren(...[...(answer.notes || []), ...(answer.why || [])].map((text) => {
            const item = document.createElement("li");
            item.textContent = text;
            return item;
          }));
        } else {
          // Refused: the bar says the first reason (the panel may be under it).
          const first = Object.values(answer.errors || {}).flat()[0];
          hint();
          if (first && line) { line.firstChild.className = "error"; line.firstChild.textContent = first; }
        }
        if (ends) {
          ends.textContent = (answer.ok && answer.ends) || "";
          ends.hidden = !(answer.ok && answer.ends);
        }
        if (whyBox) {
          whyBox.hidden = !answer.ok;
          if (answer.ok && answer.notes && answer.notes.length) whyBox.open = true;
        }
        panel.hidden = !answer.ok && !panel.querySelector(".field-errors p");
      })
      // no answer: the preview says it waits, it does not vanish
      .catch(() => {
        if (!panel) return;
        const box = panel.querySelector('.field-errors[data-for=""]');
        const note = document.createElement("p");
        note.className = "hint";
        note.textContent = document.body.dataset.previewWaiting;
        box.replaceChildren(note);
        if (whyBox) whyBox.hidden = true;
        panel.hidden = false;
      });
  };
  const soon = () => { window.clearTimeout(timer); timer = window.setTimeout(ask, 250); };
  form.addEventListener("input", soon);
  form.addEventListener("change", soon);
  window.addEventListener("online", soon);  // back online: "waits" gives way to the deal
  // A refused deal comes back with the server's reasons: they stay until an entry
  // changes (a preview says only the reasons of what was touched, and would wipe a
  // "missing" the server said of an untouched field); the bar says the first.
  const given = form.querySelector(".field-errors p.error");
  if (given) {
    if (line) { hint(); line.firstChild.className = "error"; line.firstChild.textContent = given.textContent; }
  } else if (form.querySelector("input:checked, input[inputmode=numeric]:not([value=''])")) {
    // Entries already there (a ?contract= link, a correction, entries kept): said at once.
    soon();
  }
});

// Follow the game: reload the scoreboard when another phone changes it.
document.querySelectorAll("[data-version-url]").forEach((live) => {
  const known = live.dataset.version;
  // A spectator sees when the board last heard from the server.
  const heard = live.hidden ? null : document.createElement("small");
  if (heard) { heard.className = "heard"; live.append(heard); }
  let last = new Date();
  const clock = (at) => at.toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const news = (ok) => {
    if (ok) last = new Date();
    if (heard) heard.textContent = document.body.dataset[ok ? "heard" : "silent"].replace("{time}", clock(last));
  };
  news(true);
  // the link was replaced
  const gone = () => {
    if (!live.dataset.gone) return;
    const say = () => {
      live.textContent = live.dataset.gone;
      live.className = "gone";
      live.hidden = false;
    };
    // Go where the server now leads (a concours's card), else say so.
    fetch(location.href, { cache: "no-store" })
      .then((r) => (r.ok && r.redirected && !leaving ? location.assign(r.url) : say()), say);
  };
  // a change seen while the page was hidden: reload when shown
  let stale = false;
  // Once this phone leaves the page (a form sent, a link followed), a change it
  // hears must not reload the page: that reload would race its own navigation
  // (and eat the message of the page it goes to).
  let leaving = false;
  // Reloaded at most every `data-calm` s: a burst of results, one reload.
  const calm = Number(live.dataset.calm || 0) * 1000;
  const opened = Date.now();
  let later = null;
  const seen = (version) => {
    if (String(version) === known || leaving || later) return;
    const wait = calm - (Date.now() - opened);
    if (wait > 0) {
      later = window.setTimeout(() => { later = null; seen(version); }, wait);
      return;
    }
    if (document.visibilityState === "visible") window.location.reload();
    else stale = true;
  };
  document.addEventListener("visibilitychange", () => {
    if (stale && !leaving && document.visibilityState === "visible") window.location.reload();
  });
  // The new page itself, sent in the stream (issue 19): "<version> <gzip, base64>".
  // It is handed to the service worker, which answers this page's reload with it:
  // the scores change without a request to the server. Only under a service worker
  // that can keep it, in a browser that inflates gzip; else the version alone.
  const takesPages = () => Boolean(window.DecompressionStream && window.MessageChannel
    && navigator.serviceWorker && navigator.serviceWorker.controller);
  const take = (data) => {
    const space = data.indexOf(" ");
    const version = data.slice(0, space);
    if (version === known || leaving) return;
    if (document.visibilityState !== "visible") { stale = true; return; }
    const worker = navigator.serviceWorker.controller;
    const here = window.location.href.split("#")[0];
    new Promise((resolve, reject) => {
      const bytes = Uint8Array.from(atob(data.slice(space + 1)), (c) => c.charCodeAt(0));
      const inflated = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
      new Response(inflated).text().then((html) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = (answer) => (answer.data === "kept" ? resolve() : reject());
        worker.postMessage({ page: here, html }, [channel.port2]);
        window.setTimeout(reject, 2000);
      }, reject);
    })
      // not kept: the reload asks the server, as before
      .catch(() => {})
      .then(() => { if (!leaving) window.location.reload(); });
  };
  let timer = null;
  let source = null;
  // Asked every 1.5 s without a stream, or `data-poll` s (a page read by many).
  const every = Number(live.dataset.poll || 1.5) * 1000;
  const poll = () => {
    if (document.visibilityState !== "visible" || leaving) return;
    fetch(live.dataset.versionUrl, { cache: "no-store", credentials: "same-origin" })
      .then((r) => {
        if (r.status === 404) {
          gone();
          window.clearInterval(timer);
          return null;
        }
        news(r.ok);
        return r.ok ? r.json() : null;
      })
      .then((answer) => { if (answer) seen(answer.version); })
      .catch(() => news(false));
  };
  // Pushed (server-sent events: the server says each new version as it comes,
  // within a tenth of a second); polling every 1.5 s where a browser has no
  // EventSource, or once the stream is refused for good.
  const follow = () => {
    if (!(window.EventSource && live.dataset.liveUrl)) {
      // a change shows within 1.5 s, plus the reload
      timer = window.setInterval(poll, every);
      return;
    }
    source = new EventSource(live.dataset.liveUrl + (takesPages() ? "?pages=1" : ""));
    source.onmessage = (message) => { news(true); seen(message.data); };
    source.addEventListener("page", (message) => { news(true); take(message.data); });
    source.addEventListener("gone", () => { source.close(); gone(); });
    source.onerror = () => {
      // not the end of a polling answer
      if (new Date() - last > 5000) news(false);
      // Reconnecting is the browser's job; a refusal (404: the link was replaced)
      // closes the stream: the poll says which.
      if (source.readyState === EventSource.CLOSED) { poll(); timer = window.setInterval(poll, every); }
    };
  };
  const stop = () => {
    leaving = true;
    if (source) source.close();
    window.clearInterval(timer);
  };
  window.addEventListener("beforeunload", stop);
  // A cut network: said at once. A stream that went quiet for longer than the
  // server's "still here" (every 15 s) is dead without knowing it (a phone that
  // changed networks): opened again.
  window.addEventListener("offline", () => news(false));
  // back: ask again at once
  window.addEventListener("online", () => {
    if (!source || leaving) return;
    source.close();
    follow();
  });
  window.setInterval(() => {
    if (!source || leaving || new Date() - last < 40000) return;
    news(false);
    source.close();
    follow();
  }, 5000);
  // Back to this page from the back-forward cache: follow again, and say if the
  // game changed meanwhile (the first event is its version now).
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && leaving) { leaving = false; follow(); }
  });
  follow();
});

// Another phone recorded this form's deal meanwhile (issue 53): its notice shows.
document.querySelectorAll(".recorded-elsewhere").forEach((note) => {
  const form = document.querySelector("form.deal-form");
  const url = form.getAttribute("action");  // form.action: its "action" buttons
  let known = note.dataset.version;
  const ask = (url) => fetch(url, { cache: "no-store" });
  window.setInterval(() => {
    if (!note.hidden || document.hidden) return;
    ask(url.replace(/deal$/, "version.json")).then((r) => r.json()).then((a) => {
      if (String(a.version) === known) return null;
      known = String(a.version);
      return ask(url).then((r) => r.text()).then((html) => {
        const next = new DOMParser().parseFromString(html, "text/html").querySelector("form.deal-form [name=number]");
        // This form's number now (the queue moves it on past a deal kept offline).
        if (next && Number(next.value) > Number(form.elements.number.value)) note.hidden = false;
      });
    }).catch(() => {});
  }, 3000);
});

// (Last, once every listener above is in place.) The entries kept by a language switch.
(() => {
  const key = `entries:${location.pathname}${location.search}`;
  const saved = sessionStorage.getItem(key);
  if (!saved) return;
  sessionStorage.removeItem(key);
  const form = document.querySelector("form.deal-form, form.new-game");
  if (!form) return;
  JSON.parse(saved).forEach(([name, value]) => {
    form.querySelectorAll(`[name="${CSS.escape(name)}"]`).forEach((field) => {
      if (field.type === "radio" || field.type === "checkbox") field.checked = field.value === value;
      else if (field.type !== "hidden" || name === "contract") field.value = value;
    });
  });
  form.querySelectorAll("input[inputmode=numeric]").forEach((i) => i.dispatchEvent(new Event("input", { bubbles: true })));
  form.dispatchEvent(new Event("change", { bubbles: true }));
})();

// Offline (issue 15). The queue (queue.js) is loaded where it has work: on a page
// with a deal form, and wherever entries wait on this phone. The service worker
// opens the app without the network where browsers allow one (HTTPS, localhost);
// from the scoreboard, the next deal's form goes into its cache too.
(() => {
  const body = document.body.dataset;
  let waiting = false;
  try { waiting = (localStorage.getItem("referee.queue") || "[]") !== "[]"; } catch (e) { /* private mode */ }
  // (A deal form's page carries the queue itself, so that it runs before any tap;
  // its address carries its fingerprint: `?v=`.)
  if (waiting && !document.querySelector("script[src*='/queue.js']")) {
    const script = document.createElement("script");
    script.src = body.queue;
    document.head.append(script);
  }
  if ("serviceWorker" in navigator && body.worker) {
    navigator.serviceWorker.register(body.worker, { scope: "/" }).catch(() => {});
    const next = document.querySelector(".actions a.primary[href$='/deal']");
    if (next && "caches" in window && navigator.serviceWorker.controller) {
      // Said to be a copy kept ahead (the server then flashes nothing for a person).
      const ahead = new Request(next.href, { headers: { "X-Referee-Ahead": "1" } });
      // Kept only when it is a form (a round over at a concours table answers 409).
      caches.open("referee-1")
        .then((cache) => fetch(ahead).then((answer) => (answer.ok && !answer.redirected
          ? cache.put(next.href, answer) : null)))
        .catch(() => {});
    }
  }
  // A quiet line when the connection goes, and when it comes back.
  const line = (text, kind) => {
    let p = document.querySelector(".netstate");
    if (!p) {
      p = document.createElement("p");
      p.className = "netstate";
      p.setAttribute("role", "status");
      document.querySelector("main").prepend(p);
    }
    p.textContent = text;
    p.dataset.kind = kind;
    p.hidden = false;
  };
  window.refereeLine = line;
  window.addEventListener("offline", () => { if (!window.refereeQueue) line(body.offline, "offline"); });
  window.addEventListener("online", () => { if (!window.refereeQueue) line(body.back, "online"); });
})();

// The trick judge's cards, tapped in: each at the end of the box, one taken back.
document.querySelectorAll(".deck-picker").forEach((picker) => {
  const box = document.getElementById(picker.dataset.for);
  if (!box) return;
  picker.hidden = false;
  picker.querySelectorAll("[data-card]").forEach((button) => {
    button.addEventListener("click", () => {
      box.value = `${box.value.trim()} ${button.dataset.card}`.trim();
    });
  });
  const back = picker.querySelector("[data-card-back]");
  if (back) back.addEventListener("click", () => {
    box.value = box.value.trim().split(/\s+/).slice(0, -1).join(" ");
  });
});

// The trick judge opened from a deal form takes the trump chosen there.
document.querySelectorAll("a[data-judge]").forEach((link) => {
  const form = document.querySelector("form.deal-form");
  if (!form) return;
  const update = () => {
    const chosen = form.querySelector("input[name=contract]:checked, input[name=trump]:checked");
    const url = new URL(link.href, location.href);
    if (chosen) url.searchParams.set("trump", chosen.value); else url.searchParams.delete("trump");
    link.href = url.pathname + url.search;
  };
  form.addEventListener("change", update);
  update();
});
