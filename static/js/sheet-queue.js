/* Doko Tutor: the deals a phone keeps of its score sheets while it is offline, and their way
 * to the server. Runs in the page (static/js/sheet.js) and in the service worker (sw.js
 * imports it for Background Sync), which share one IndexedDB:
 *   sheets  {key, data, base, next}: what /<lang>/sheet/<key>/offline.json said last, the
 *           version of the sheet the first deal waiting is to be sent against, a counter;
 *   entries {once, sheet, kind, action, fields, dealer, seq, state, reason}: one deal each.
 * Deals are sent one after the other, oldest first, each with its one-time id (the server
 * stores a deal sent twice once) and the version it follows: every deal saved moves the
 * sheet's version on by one. A deal the server refuses stays, with the server's reason, and
 * holds back the ones after it until it is changed or deleted; nothing is dropped unasked.
 * No rule of the game is written here. */
(function (root) {
  "use strict";

  const DB = "doko-sheets";
  const LOCK = "doko-sheet-queue";
  const TAG = "doko-sheet-queue";  // Background Sync's tag, the same in sw.js
  const CHANNEL = "doko-sheets";

  let opened = null;
  function db() {
    if (!opened) {
      opened = new Promise((resolve, reject) => {
        const request = indexedDB.open(DB, 1);
        request.onupgradeneeded = () => {
          const base = request.result;
          base.createObjectStore("sheets", {keyPath: "key"});
          base.createObjectStore("entries", {keyPath: "once"}).createIndex("sheet", "sheet");
        };
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => { opened = null; reject(request.error); };
      });
    }
    return opened;
  }

  function done(request) {
    return new Promise((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  // One transaction over both stores; `work` gets them and returns what the promise gives
  // once the transaction is committed.
  async function change(work, mode) {
    const base = await db();
    const tx = base.transaction(["sheets", "entries"], mode || "readwrite");
    const finished = new Promise((resolve, reject) => {
      tx.oncomplete = resolve;
      tx.onerror = tx.onabort = () => reject(tx.error || new Error("aborted"));
    });
    let result;
    try {
      result = await work(tx.objectStore("sheets"), tx.objectStore("entries"));
    } catch (error) {
      try { tx.abort(); } catch (e) { /* finished already */ }
      finished.catch(() => {});
      throw error;
    }
    await finished;
    return result;
  }

  function bySeq(a, b) { return a.seq - b.seq; }

  function sheet(key) {
    return change((sheets) => done(sheets.get(key)), "readonly").then((found) => found || null);
  }

  function entries(key) {
    return change((sheets, list) => done(key ? list.index("sheet").getAll(key) : list.getAll()), "readonly")
      .then((found) => found.sort(bySeq));
  }

  // The sheet as offline.json said it: kept unless an older answer (a page kept from before).
  function keepData(data) {
    return change(async (sheets) => {
      const found = await done(sheets.get(data.key)) || {key: data.key, base: null, next: 1};
      if (!found.data || found.data.version <= data.version) found.data = data;
      sheets.put(found);
      return found;
    });
  }

  // A new deal at the end of its sheet's queue; the first one waiting is sent against the
  // version this phone last knew of the sheet.
  function add(entry) {
    return change(async (sheets, list) => {
      const found = await done(sheets.get(entry.sheet));
      const waiting = await done(list.index("sheet").count(entry.sheet));
      if (!found || !found.data) throw new Error("no sheet kept");
      if (!waiting) found.base = found.data.version;
      entry.seq = found.next++;
      entry.state = "pending";
      entry.reason = null;
      entry.added = Date.now();
      sheets.put(found);
      list.put(entry);
      return entry;
    }).then(announce);
  }

  // A deal the server refused, changed on a form that showed the sheet as the server has it
  // now (`version`): it is sent again from there, in its place.
  function fix(once, fields, dealer, version) {
    return change(async (sheets, list) => {
      const entry = await done(list.get(once));
      if (!entry) return null;
      const found = await done(sheets.get(entry.sheet));
      Object.assign(entry, {fields: fields, dealer: dealer, state: "pending", reason: null});
      found.base = version;
      sheets.put(found);
      list.put(entry);
      return entry;
    }).then(announce);
  }

  // Delete a deal from the phone. The deals after a refused one go on from `version`, the
  // sheet as this phone last saw it (the phone that deletes one has the sheet in front of it).
  function drop(once, version) {
    return change(async (sheets, list) => {
      const entry = await done(list.get(once));
      if (!entry) return null;
      list.delete(once);
      const found = await done(sheets.get(entry.sheet));
      if (found && entry.state === "refused" && typeof version === "number") {
        found.base = version;
        sheets.put(found);
      }
      return entry;
    }).then(announce);
  }

  // Deals the sheet holds already (changed and saved on a form, with the id they were kept
  // under) need not wait any more.
  function settle(key, ids) {
    const stored = new Set(ids);
    return change(async (sheets, list) => {
      const mine = await done(list.index("sheet").getAll(key));
      const gone = mine.filter((entry) => stored.has(entry.once));
      gone.forEach((entry) => list.delete(entry.once));
      return gone.length;
    }).then((count) => (count ? announce(count) : count));
  }

  // Tell every page (and this one) that the queue changed; `saved`: how many deals of each
  // sheet the server took, so that a page showing them as the phone's shows the server's.
  // How many deals of the sheet went to the server since its page last said so (and now it has).
  function takeSent(key) {
    return change(async (sheets) => {
      const found = await done(sheets.get(key));
      if (!found || !found.sent) return 0;
      const sent = found.sent;
      found.sent = 0;
      sheets.put(found);
      return sent;
    });
  }

  function announce(value, saved) {
    const message = {type: "changed", saved: saved || {}};
    try {
      const channel = new BroadcastChannel(CHANNEL);
      channel.postMessage(message);
      channel.close();
    } catch (e) { /* no channel: every page reads the queue again on its next load */ }
    if (typeof root.dispatchEvent === "function" && typeof CustomEvent === "function") {
      root.dispatchEvent(new CustomEvent("doko-sheet-queue", {detail: message}));
    }
    return value;
  }

  function body(entry, version) {
    const form = new URLSearchParams();
    entry.fields.forEach((pair) => form.append(pair[0], pair[1]));
    if (entry.dealer !== null && entry.dealer !== undefined) form.append("dealer", String(entry.dealer));
    form.append("once", entry.once);
    form.append("version", String(version));
    return form;
  }

  // Send one sheet's deals, oldest first, until one is refused or the server is out of reach.
  async function sendSheet(key, tally) {
    for (;;) {
      const [found, waiting] = await Promise.all([sheet(key), entries(key)]);
      const entry = waiting[0];
      if (!entry || !found || entry.state === "refused" || typeof found.base !== "number") return;
      const version = found.base;
      let response;
      try {
        response = await fetch(entry.action, {method: "POST", credentials: "same-origin", body: body(entry, version),
          headers: {"Accept": "application/json"}});
      } catch (e) {
        tally.unreachable = true;
        return;
      }
      let answer = null;
      try { answer = await response.json(); } catch (e) { answer = null; }
      if ((response.status === 200 || response.status === 201) && answer && answer.saved === entry.once) {
        await change(async (sheets, list) => {
          const now = await done(sheets.get(key));
          list.delete(entry.once);
          if (now) {
            now.base = Math.max(typeof now.base === "number" ? now.base : 0, version + 1);
            now.sent = (now.sent || 0) + 1;  // said on the sheet's page, whoever sent it
            sheets.put(now);
          }
        });
        tally.saved += 1;
        tally.sheets[key] = (tally.sheets[key] || 0) + 1;
        continue;
      }
      const error = answer && answer.error;
      if (!error || response.status >= 500 || response.status === 408 || response.status === 429) {
        tally.unreachable = true;  // not the app's answer (a portal, a proxy) or for later
        return;
      }
      await change(async (sheets, list) => {
        const now = await done(list.get(entry.once));
        if (!now) return;
        now.state = "refused";
        now.reason = {status: response.status, code: error.code || "", message: error.message || "",
                      fields: error.fields || {}};
        list.put(now);
      });
      tally.refused += 1;
      return;
    }
  }

  function locked(work) {
    const nav = root.navigator;
    return nav && nav.locks && nav.locks.request ? nav.locks.request(LOCK, work) : work();
  }

  // Send every sheet's deals (one sender at a time across pages and the worker).
  function sync() {
    return locked(async () => {
      const tally = {saved: 0, refused: 0, unreachable: false, sheets: {}};
      const keys = [...new Set((await entries()).map((entry) => entry.sheet))];
      for (const key of keys) await sendSheet(key, tally);
      if (tally.saved || tally.refused) announce(null, tally.sheets);
      return tally;
    });
  }

  // Ask the browser to send the deals once it is back online, where it can (Background Sync).
  function later() {
    const nav = root.navigator;
    if (!nav || !nav.serviceWorker) return Promise.resolve(false);
    return nav.serviceWorker.ready.then((registration) =>
      registration.sync ? registration.sync.register(TAG).then(() => true) : false).catch(() => false);
  }

  root.DokoSheetQueue = {TAG: TAG, CHANNEL: CHANNEL, sheet: sheet, entries: entries, keepData: keepData, add: add,
                         fix: fix, drop: drop, settle: settle, sync: sync, later: later, takeSent: takeSent};
})(typeof self !== "undefined" ? self : this);
