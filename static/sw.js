// Referee's service worker (issue 15): the app opens without the network. Static
// files come from the cache; the pages of games (under /g/, /v/) and of tables (an
// evening's settlement, under /t/, /tv/) come from the network and, when it fails,
// as this phone last saw them; anything else falls back to the
// offline page, in the player's language. Posts are never cached: the page's queue
// (queue.js) keeps and sends the entries.
"use strict";

const VERSION = "referee-1";
const STATIC = ["/static/app.css", "/static/board.css", "/static/app.js", "/static/queue.js", "/static/icon.svg", "/static/tables.css", "/static/tv.js"];
const OFFLINE = { fr: "/offline?lang=fr", en: "/offline?lang=en" };

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(VERSION)
      .then((cache) => cache.addAll([...STATIC, ...Object.values(OFFLINE)]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

const offlinePage = (request) => {
  const lang = (request.headers.get("Accept-Language") || "").toLowerCase().startsWith("en") ? "en" : "fr";
  return caches.match(OFFLINE[lang]);
};

// Pages a game page's script was just sent in its live stream (app.js, issue 19):
// the reload that follows is answered with it, without asking the server. The same
// copy is the one shown offline. Kept for the reload only: a later visit asks the
// server again.
const PUSHED_FOR = 10000;
const pushed = new Map();

self.addEventListener("message", (event) => {
  const { page, html } = event.data || {};
  const port = event.ports && event.ports[0];
  if (typeof page !== "string" || typeof html !== "string") return;
  const url = new URL(page);
  if (url.origin !== self.location.origin || !["/g/", "/v/"].some((p) => url.pathname.startsWith(p))) return;
  event.waitUntil(
    caches.open(VERSION)
      .then((cache) => cache.put(url.href, new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } })))
      .then(() => {
        pushed.set(url.href, Date.now());
        if (port) port.postMessage("kept");
      }, () => { if (port) port.postMessage("not kept"); }),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const at = request.mode === "navigate" ? pushed.get(url.href) : undefined;
  if (at !== undefined) {
    pushed.delete(url.href);
    if (Date.now() - at < PUSHED_FOR) {
      event.respondWith(caches.match(url.href).then((hit) => hit || fetch(request)));
      return;
    }
  }
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
    return;
  }
  if (request.mode !== "navigate") return;
  const gamePage = ["/g/", "/v/", "/t/", "/tv/"].some((prefix) => url.pathname.startsWith(prefix));
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (gamePage && response.ok) {
          const copy = response.clone();
          caches.open(VERSION).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() => caches.match(request).then((hit) => hit || offlinePage(request))),
  );
});
