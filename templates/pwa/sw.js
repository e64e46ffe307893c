/* Doko Tutor service worker, version {{ version }}.
 * Shell (styles, scripts, icons) and, in the visitor's own language, the offline page, the
 * rules reference (its contents and every section) and the calculator are precached; other
 * languages are kept when visited (see "One language at a time" below). Opening Learn keeps
 * every lesson of its language (see "Lessons offline"). Pages are network-first with the
 * cache as fallback, then the offline page.
 * Boosted htmx requests are navigations too. Caches of other versions are dropped on activate. */
"use strict";

const VERSION = {{ version | tojson }};
const SHELL_CACHE = "doko-shell-" + VERSION;
const PAGE_CACHE = "doko-pages-" + VERSION;
const SHELL = {{ shell | tojson }};
const LANGUAGES = {{ languages | list | tojson }};
const LANGUAGE_PAGES = {{ language_pages | tojson }};
importScripts({{ sheet_queue | tojson }});  // DokoSheetQueue: the deals kept offline (see "Score sheets" below)

self.addEventListener("install", (event) => {
  // Wait (no skipWaiting): the page offers a quiet "reload" when a new version is ready.
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)).then(installLanguages)
    .then(cacheScoreTables).then(keepLessonsKeptBefore));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => key !== SHELL_CACHE && key !== PAGE_CACHE && key !== SHEET_CACHE)
          .map((key) => caches.delete(key))))
      .then(() => self.clients.claim())
      .then(refreshSheets));
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "skip-waiting") {
    self.skipWaiting();
  } else if (data.type === "keep-lessons") {
    const port = event.ports[0];
    event.waitUntil(keepLessons(data.lang).catch(() => 0).then((kept) => { if (port) port.postMessage({kept}); }));
  } else if (data.type === "rules-changed") {
    // The reference's pages and the lessons show the visitor's rules: fetch them anew for the offline copy.
    event.waitUntil(Promise.all([refreshReference(), refreshLessons()]));
  }
});

function refreshReference() {
  return Promise.all([refreshQuizPacks(), caches.open(SHELL_CACHE).then((cache) => Promise.all(
    Object.values(LANGUAGE_PAGES).flat().filter((url) => /^\/[a-z]{2}\/(rules\/[a-z-]*|score\/)$/.test(url)).map((url) =>
      cache.match(url, {ignoreVary: true}).then((old) => old && fetch(url, {credentials: "same-origin"})
        .then((response) => (response.ok ? cache.put(url, response) : undefined))
        .catch(() => undefined)))))]).then(cacheScoreTables);
}

// One language at a time: the install keeps the offline page, reference pages and calculator of
// the languages of the pages open (the one that registered the worker), else English; a page
// of another language, once visited, has those of that language kept too (keepLanguage in
// page()). The shell itself (SHELL) is the same for every language.
function installLanguages() {
  return self.clients.matchAll({type: "window", includeUncontrolled: true}).then((clients) => {
    const wanted = new Set(clients.map((client) => languageOf(client.url)));
    if (!wanted.size) wanted.add(languageOf(self.location.href));
    return caches.open(SHELL_CACHE).then((cache) => cache.addAll([...wanted].flatMap((lang) => LANGUAGE_PAGES[lang])));
  });
}

function keepLanguage(lang) {
  const urls = LANGUAGE_PAGES[lang] || [];
  return caches.open(SHELL_CACHE).then((cache) => Promise.all(urls.map((url) =>
    cache.match(url, {ignoreVary: true}).then((old) => old || fetch(url, {credentials: "same-origin"})
      .then((response) => (response.ok ? cache.put(url, response) : undefined))
      .catch(() => undefined))))).then(cacheScoreTables);
}

// Offline in a language never visited: the offline page of a language that was.
async function anyOffline() {
  for (const urls of Object.values(LANGUAGE_PAGES)) {
    const cached = await fromCache(urls[0]);
    if (cached) return cached;
  }
  return undefined;
}

function isLanguagePage(pathname) {
  return Object.values(LANGUAGE_PAGES).some((urls) => urls.includes(pathname));
}

// The quiz packs kept so far hold questions under the old rules: fetch them anew.
function refreshQuizPacks() {
  return caches.open(PAGE_CACHE).then((cache) => Promise.all(LANGUAGES.map((lang) => {
    const url = "/" + lang + "/quiz/pack";
    return cache.match(url, {ignoreVary: true}).then((old) => old && fetch(url, {credentials: "same-origin"})
      .then((response) => (response.ok ? cache.put(url, response) : undefined))
      .catch(() => undefined));
  })));
}

// --- Lessons offline -------------------------------------------------------------------------
// Opening Learn (learn.js) asks for every lesson of its language. They come in one answer,
// /<lang>/learn/pack (tutor/web/learn/offline.py): a head shared by the pages, with holes
// for the title and the page's own address, and each page's title and main part (or the
// whole page). Each is put together again here and kept with the pages (PAGE_CACHE), once
// per version and language; the pack's own address marks that. A page opened online is kept
// as it was shown, with the learner's progress: the pack only adds the pages not kept yet,
// but replaces them all after the rules changed.
const LESSON_PACK = (lang) => "/" + lang + "/learn/pack";
const keepingLessons = {};

function lessonPage(pack, url) {
  const page = pack.pages[url];
  if (page.h !== undefined) return page.h;
  const own = url.slice(pack.root.length).split("/").slice(2).join("/");  // "/en/learn/cards/2" -> "learn/cards/2"
  const holes = {t: page.t, p: own};
  return pack.head.map((part, i) => (i % 2 ? holes[part] : part)).join("") + page.m + pack.foot;
}

function keepLessons(lang, replace) {
  if (!LANGUAGES.includes(lang)) return Promise.resolve(0);
  if (keepingLessons[lang]) return keepingLessons[lang];
  const marker = LESSON_PACK(lang);
  const kept = caches.open(PAGE_CACHE).then((cache) => cache.match(marker).then((known) => {
    if (known && !replace) return known.json().then((info) => info.pages);
    return fetch(marker, {credentials: "same-origin"}).then((response) => {
      if (!response.ok) throw new Error("no lessons pack");
      return response.json();
    }).then((pack) => {
      const urls = Object.keys(pack.pages);
      return Promise.all(urls.map((url) => (replace ? Promise.resolve(undefined) : cache.match(url, {ignoreVary: true}))
        .then((old) => old || cache.put(url, new Response(lessonPage(pack, url), {headers: pack.headers})))))
        .then(() => cache.put(marker, new Response(JSON.stringify({pages: urls.length}),
          {headers: {"Content-Type": "application/json"}})))
        .then(() => urls.length);
    });
  }));
  keepingLessons[lang] = kept;
  const done = () => { delete keepingLessons[lang]; };
  kept.then(done, done);
  return kept;
}

function lessonsKeptIn(cacheName) {
  return caches.open(cacheName).then((cache) => Promise.all(LANGUAGES.map((lang) =>
    cache.match(LESSON_PACK(lang)).then((known) => (known ? lang : null)))))
    .then((langs) => langs.filter(Boolean));
}

// A new version keeps the lessons the one before it kept, while it installs.
function keepLessonsKeptBefore() {
  return caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith("doko-pages-") && name !== PAGE_CACHE).map(lessonsKeptIn)))
    .then((lists) => Promise.all([...new Set(lists.flat())].map((lang) => keepLessons(lang).catch(() => 0))));
}

// Other rules, other steps: every lesson page kept is replaced, and the path fetched again
// with the learner's progress.
function refreshLessons() {
  return lessonsKeptIn(PAGE_CACHE).then((langs) => Promise.all(langs.map((lang) =>
    keepLessons(lang, true).then(() => fetch("/" + lang + "/learn/", {credentials: "same-origin"}))
      .then((response) => (response.ok ? caches.open(PAGE_CACHE).then((cache) => cache.put("/" + lang + "/learn/", response))
        : undefined))
      .catch(() => undefined))));
}
// --- end of lessons offline --------------------------------------------------------------------

function isPage(request) {
  if (request.method !== "GET") return false;
  if (request.mode === "navigate") return true;
  // hx-boost fetches whole pages: treat them like navigations.
  return request.headers.get("HX-Boosted") === "true" ||
    request.headers.get("HX-History-Restore-Request") === "true";
}

function languageOf(url) {
  const lang = new URL(url).pathname.split("/")[1];
  return LANGUAGES.includes(lang) ? lang : {{ default_language | tojson }};
}

async function fromCache(url) {
  return caches.match(url, {ignoreVary: true, ignoreSearch: false});
}

function quizPack(url) {
  const match = /^\/([a-z]{2})\/quiz\/(?!pack$)[a-z]+$/.exec(new URL(url).pathname);
  return match && LANGUAGES.includes(match[1]) ? "/" + match[1] + "/quiz/pack" : null;
}

async function page(request) {
  const url = request.url;
  try {
    const response = await fetch(request);
    // Pages marked no-store (a sheet's edit forms, its files, answers to writes) are never kept.
    const kept = !/no-store/.test(response.headers.get("Cache-Control") || "");
    if (response.ok && response.type === "basic" && kept) {
      const copy = response.clone();
      const path = new URL(url).pathname;
      const name = isSheetPage(new URL(url)) ? SHEET_CACHE : isLanguagePage(path) ? SHELL_CACHE : PAGE_CACHE;
      caches.open(name).then((cache) => cache.put(url, copy)).then(() => keepLanguage(languageOf(url)))
        .then(() => (name === SHEET_CACHE ? pruneSheets() : undefined));
    }
    if (response.type === "basic") sendKeptDeals();  // a connection: the deals kept offline can go
    return response;
  } catch (error) {
    // Offline, a quiz question cannot be checked by the server: the quiz pack, once opened,
    // asks the same kinds and checks answers on the device.
    const packUrl = quizPack(url);
    const pack = packUrl && await fromCache(packUrl);
    if (pack) return pack;
    const cached = await fromCache(url) || await savedCalculator(url);
    if (cached) return cached;
    const offline = await fromCache("/" + languageOf(url) + "/offline") || await anyOffline();
    return offline || Response.error();
  }
}

// --- The score calculator offline ------------------------------------------------------
// The calculator's page names the table of the engine's answers it looks deals up in
// (data-offline-table, a versioned URL): keep that table with the page, serve it from the
// cache, and offline open the saved calculator for any address of the calculator (its
// script then reads the deal from the address). All of it is for static/js/score-table.js.
const SCORE_PAGE = /^\/[a-z]{2}\/score\/$/;

function isScoreTable(url) {
  return /^\/[a-z]{2}\/score\/table\/[\w-]+\.json$/.test(url.pathname);
}

function cacheScoreTables() {
  // The calculators kept are those of the languages kept (LANGUAGE_PAGES), not of the shell.
  return caches.open(SHELL_CACHE).then((cache) => Promise.all(Object.values(LANGUAGE_PAGES).flat()
    .filter((url) => SCORE_PAGE.test(url))
    .map((url) => cache.match(url).then((page) => page && page.text()).then((html) => {
      const found = html && /data-offline-table="([^"]+)"/.exec(html);
      if (!found) return undefined;
      // The table's address is versioned: one kept is never fetched again.
      const table = found[1].replace(/&amp;/g, "&");
      return cache.match(table).then((kept) => kept || cache.add(table));
    }).catch(() => undefined))));
}

function savedCalculator(url) {
  const path = new URL(url).pathname;
  return SCORE_PAGE.test(path) ? fromCache(path) : undefined;
}
// --- end of the score calculator offline -------------------------------------------------

async function asset(request) {
  const cached = await fromCache(request.url);
  if (cached) return cached;
  let response;
  try {
    response = await fetch(request);
  } catch (error) {
    // Offline, a sheet kept from an older version names that version's files: this one's do.
    const any = await caches.match(request.url, {ignoreVary: true, ignoreSearch: true});
    if (any) return any;
    throw error;
  }
  if (response.ok && response.type === "basic") {
    const copy = response.clone();
    caches.open(SHELL_CACHE).then((cache) => cache.put(request.url, copy));
  }
  return response;
}

// --- Score sheets offline -----------------------------------------------------------------
// A sheet's pages (a sheet, the forms for a new deal, the list of this phone's sheets) are
// kept in a cache of their own that outlives a new version of the app, so that an evening's
// sheet stays readable offline; static/js/sheet.js keeps its forms and the calculator's
// table there too. A new version fetches them anew while it can. The deals typed offline
// (IndexedDB, static/js/sheet-queue.js) are sent on the next page fetched over the network
// and on Background Sync, one sender at a time.
const SHEET_CACHE = "doko-sheets";
const SHEET_PAGE = /^\/[a-z]{2}\/sheet\/(?:[\w-]{22}(?:\/(?:deal|quick))?)?$/;

function isSheetPage(url) {
  return SHEET_PAGE.test(url.pathname) && !url.search;
}

// The sheets kept stay within bounds: the pages put there longest ago go first (a page put
// again moves to the end). A phone lists its last dozen sheets; each keeps three pages.
const SHEETS_KEPT = 60;
function pruneSheets() {
  return caches.open(SHEET_CACHE).then((cache) => cache.keys().then((requests) =>
    Promise.all(requests.slice(0, Math.max(0, requests.length - SHEETS_KEPT)).map((old) => cache.delete(old)))));
}

function refreshSheets() {
  return caches.open(SHEET_CACHE).then((cache) => cache.keys().then((requests) => Promise.all(requests.map((old) =>
    fetch(old.url, {credentials: "same-origin"})
      .then((response) => (response.ok ? cache.put(old.url, response) : undefined))
      .catch(() => undefined)))));
}

let sendingDeals = null;
function sendKeptDeals() {
  if (sendingDeals) return sendingDeals;
  sendingDeals = DokoSheetQueue.entries().then((waiting) => (waiting.some((entry) => entry.state === "pending")
    ? DokoSheetQueue.sync() : null)).catch(() => null).then(() => { sendingDeals = null; });
  return sendingDeals;
}

self.addEventListener("sync", (event) => {
  if (event.tag === DokoSheetQueue.TAG) {
    event.waitUntil(DokoSheetQueue.sync().then((tally) => {
      if (tally.unreachable) throw new Error("not yet");  // the browser tries again later
    }));
  }
});
// --- end of score sheets offline -----------------------------------------------------------

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || request.method !== "GET") return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/sw.js") return;
  if (isScoreTable(url)) {
    event.respondWith(asset(request));
  } else if (isPage(request)) {
    event.respondWith(page(request));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(asset(request));
  }
});
