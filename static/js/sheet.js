/* Doko Tutor: a score sheet on a phone without a connection.
 *
 * The service worker keeps the sheet's pages; this script keeps, in IndexedDB through
 * static/js/sheet-queue.js, what /<lang>/sheet/<key>/offline.json says of the sheet, and the
 * deals typed while the server cannot be reached. It shows them as rows of the sheet (marked:
 * on this phone), works out who deals next, lets the forms take more, and has them sent in
 * order as soon as there is a connection (on the next page load, the `online` event, or
 * Background Sync in the worker). A deal the server refuses stays with its reason, to be
 * changed or deleted.
 *
 * No rule of the game is written here: a deal's score is looked up in the calculator's table
 * (static/js/score-table.js) or, entered quickly, in the engine's quick scores for a value of
 * one; who deals, sits out, owes a solo, and what Bock counts, in the engine's outlook of the
 * next deals (tutor/web/score/offline_sheet.py). Each player writes his party's score times
 * the Bock multiplier; nobody who sits out writes anything. tests/web/test_sheet_offline.py
 * runs walk() against the engine's own sheet. */
(function (root) {
  "use strict";

  // Python's % on a template: %(name)s and %(name)d from `values`, %% a percent sign.
  function fill(template, values) {
    return String(template || "").replace(/%(?:\((\w+)\)[sd]|%)/g, (all, name) =>
      (name ? (name in values ? String(values[name]) : "") : "%"));
  }

  // A sentence with a count in it, as offline.json says it: [for one, for `many`].
  function counted(pair, count, many) {
    return count === 1 ? pair[0] : pair[1].split(String(many)).join(String(count));
  }

  function signed(words, n) {
    return n > 0 ? words.plus + n : n < 0 ? words.minus + (-n) : "0";
  }

  // A kept deal's fields as the form sent them, by name (several Re players under "re").
  function fieldsOf(entry) {
    const values = {re: []};
    entry.fields.forEach(([name, value]) => {
      if (name === "re") values.re.push(Number(value));
      else values[name] = value;
    });
    return values;
  }

  // Whether a deal entered with card points starts a Bock round (the engine's answers, by
  // winner and announcements, as runs of Re's card points).
  function startsBock(triggers, winner, reSaid, kontraSaid, points) {
    if (!triggers) return false;
    const key = [winner || "", reSaid || "", kontraSaid || ""].join("|");
    const spans = triggers.spans[key in triggers.cells ? triggers.cells[key] : triggers.default];
    return spans.some(([first, last]) => points >= first && points <= last);
  }

  // The sheet with the kept deals after its own: each one's row, and what comes next.
  // `lookup` is DokoScoreTable.lookup (null without the calculator's table: rows entered with
  // card points then have no score on the phone).
  function walk(data, list, table, lookup) {
    const outlook = data.outlook;
    const players = data.players.length;
    let turn = 0;  // the course of the rotation (null: beyond what the phone knows)
    let bock = 0;
    let totals = data.totals.slice();
    const rows = [];
    list.forEach((entry, index) => {
      const values = fieldsOf(entry);
      const game = values.game || "normal";
      const node = turn === null ? null : outlook.turns[turn];
      const rotation = node ? node[0] : null;
      const dealer = entry.dealer !== null && entry.dealer !== undefined ? Number(entry.dealer) : rotation;
      const multiplier = outlook.bock[bock][0];
      let scores = null;
      let trigger = false;
      if (entry.kind === "quick") {
        const unit = outlook.quick.units[outlook.quick.games[game]];
        const value = Number(values.value);
        if (unit && value > 0) {
          const won = unit[values.winner === "kontra" ? 1 : 0];
          scores = {re: won[0] * value, kontra: won[1] * value};
        }
        trigger = values.bock === "on" && data.bock;
      } else if (table && lookup) {
        const answer = lookup(table, values, data.games);
        if (answer.status === "ok") {
          scores = answer.scores;
          trigger = data.bock && startsBock(outlook.triggers, answer.winner, values.re_announced,
                                            values.kontra_announced, answer.re_points);
        }
      }
      let entries = null;
      if (scores && dealer !== null) {
        entries = new Array(players).fill(null);
        outlook.seating[dealer][0].forEach((p) => {
          entries[p] = scores[values.re.indexOf(p) >= 0 ? "re" : "kontra"] * multiplier;
        });
      }
      let flags = 0;
      if (node && dealer === rotation) {
        const soloist = outlook.solo_games.indexOf(game) >= 0 ? String(values.re[0]) : null;
        const edge = (soloist !== null && node[5][soloist]) || node[5]["-"];
        turn = edge[0];
        flags = edge[1];
      } else {
        turn = null;  // a dealer typed by hand, or further ahead than the table
      }
      bock = outlook.bock[bock][trigger ? 2 : 1];
      if (totals && entries) totals = totals.map((total, p) => total + (entries[p] || 0));
      else totals = null;
      rows.push({number: data.count + index + 1, entry: entry, game: game, values: values, dealer: dealer,
                 multiplier: multiplier, scores: scores, entries: entries, totals: totals && totals.slice(),
                 compulsory: flags > 0, vorgefuehrt: flags === 2, trigger: trigger});
    });
    const node = turn === null ? null : outlook.turns[turn];
    return {rows: rows, totals: totals, multiplier: outlook.bock[bock][0], number: data.count + list.length + 1,
            next: node && {dealer: node[0], playing: outlook.seating[node[0]][0], sittingOut: outlook.seating[node[0]][1],
                           owed: node[1], forced: node[2], round: node[3], left: node[4]}};
  }

  root.DokoSheet = {walk: walk, fill: fill, counted: counted, startsBock: startsBock};
  if (typeof document === "undefined") return;

  // --- on the page ------------------------------------------------------------------------
  const Queue = root.DokoSheetQueue;
  const SHEETS_CACHE = "doko-sheets";  // the worker's cache of sheets (templates/pwa/sw.js)
  const tables = {};

  function online() { return navigator.onLine !== false; }

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.keys(attrs || {}).forEach((name) => { if (attrs[name] !== null) node.setAttribute(name, attrs[name]); });
    (children || []).forEach((child) => {
      if (child !== null && child !== undefined) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function table(url) {
    if (!tables[url]) {
      tables[url] = fetch(url, {credentials: "same-origin"}).then((r) => {
        if (!r.ok) throw new Error("no table");
        return r.json();
      });
      tables[url].catch(() => { delete tables[url]; });
    }
    return tables[url];
  }

  function lookup() { return root.DokoScoreTable ? root.DokoScoreTable.lookup : null; }

  // What the phone keeps of the sheet: the stored answer of offline.json, fetched anew while
  // online whenever the page shows a version of the sheet (or a language) it does not have.
  async function sheetData(box) {
    const key = box.getAttribute("data-sheet-key");
    const version = Number(box.getAttribute("data-sheet-version"));
    const lang = document.documentElement.lang;
    let kept = null;
    try { kept = await Queue.sheet(key); } catch (e) { return null; }
    const data = kept && kept.data;
    if (online() && (!data || data.version !== version || data.lang !== lang)) {
      try {
        const response = await fetch(box.getAttribute("data-offline-url"), {credentials: "same-origin"});
        if (response.ok) {
          const fresh = await response.json();
          kept = await Queue.keepData(fresh);
          keepPages(fresh);
        }
      } catch (e) { /* offline after all: what is kept */ }
    }
    return kept && kept.data;
  }

  // The forms for a new deal and the calculator's table, kept with the sheet for offline.
  function keepPages(data) {
    if (!("caches" in root)) return;
    caches.open(SHEETS_CACHE).then((cache) => Promise.all([data.urls.deal, data.urls.quick, data.urls.table].map(
      (url) => cache.match(url, {ignoreVary: true}).then((hit) => hit || cache.add(url))))).catch(() => {});
  }

  // When the server last answered for this page, as the worker keeps it (its Date).
  function keptAt(url) {
    if (!("caches" in root)) return Promise.resolve(null);
    return caches.match(url || location.pathname, {ignoreVary: true}).then((page) => {
      // A Date sent twice reads "Wed, 02 Dec 2026 01:37:34 GMT, Wed, 02 Dec …" (Werkzeug's
      // development server adds one of its own): the first is the server's.
      const sent = page ? (page.headers.get("Date") || "").split(/,\s*(?=[A-Z][a-z]{2},)/)[0] : "";
      const date = page && new Date(sent);
      return date && !isNaN(date.getTime()) ? date : null;
    }).catch(() => null);
  }

  function when(date) {
    const lang = document.documentElement.lang;
    const today = new Date().toDateString() === date.toDateString();
    const options = today ? {hour: "2-digit", minute: "2-digit"}
      : {day: "numeric", month: "short", hour: "2-digit", minute: "2-digit"};
    return new Intl.DateTimeFormat(lang, options).format(date);
  }

  // The line at the top of the sheet: offline since when, what waits on this phone, or how
  // many deals from it went to the server (said until there is something else to say).
  let sentNote = "";
  async function say(box, what, data, waiting) {
    const texts = [];
    if (what) sentNote = "";
    else if (sentNote) texts.push(sentNote);
    if (what === "offline") {
      const at = await keptAt(data && data.urls.sheet);
      texts.push(at ? fill(box.getAttribute("data-offline-at"), {time: when(at)}) : box.getAttribute("data-offline"));
    } else if (what === "unreachable" && data) {
      texts.push(data.words.unreachable);
    } else if (what === "sending" && data) {
      texts.push(data.words.sending);
    } else if (what === "needs-network" && data) {
      texts.push(data.words.needs_network);
    } else if (what === "needs-network") {
      texts.push(box.getAttribute("data-needs-network"));
    } else if (what === "needs-server") {
      texts.push(box.getAttribute("data-needs-server"));
    }
    if (data && waiting && what !== "sending") texts.push(fill(counted(data.words.kept, waiting, data.many), {}));
    box.textContent = texts.join(" ");
  }

  // --- the sheet: rows kept on this phone, and what comes next after them --------------------

  function quickSaid(words, row) {
    const solo = words.solos.indexOf(row.game) >= 0;
    const winner = row.values.winner === "kontra" ? (solo ? "opponents" : "kontra") : (solo ? "soloist" : "re");
    return fill(words.quick[winner], {num: row.values.value});
  }

  function rowElement(data, row, refusedAt) {
    const w = data.words;
    const refused = row.entry.state === "refused";
    const waits = refusedAt !== null && !refused;
    const about = [w.games[row.game] || row.game];
    if (row.entry.kind === "quick") about.push(quickSaid(w, row));
    if (row.vorgefuehrt) about.push(w.vorgefuehrt);
    else if (row.compulsory) about.push(w.compulsory);
    const dealt = row.dealer === null ? w.dealer_later : fill(w.dealt_by, {name: data.players[row.dealer]});
    const tag = el("span", {"class": "tag tag--kept" + (refused || waits ? " tag--refused" : "")},
                   [refused ? w.refused_tag : w.pending]);
    const head = el("th", {scope: "row", "class": "deal-cell"}, [
      el("span", {"class": "deal-cell__number"}, [String(row.number)]),
      el("small", {}, [about.join(" · ")]),
      el("small", {}, [dealt, row.multiplier > 1 ? " " : null,
        row.multiplier > 1 ? el("span", {"class": "tag tag--bock"}, [fill(w.bock, {num: row.multiplier})]) : null,
        row.trigger ? " " : null, row.trigger ? el("span", {"class": "tag"}, [w.starts_bock]) : null, " ", tag])]);
    const cells = data.players.map((name, p) => {
      const total = row.totals ? el("strong", {}, [number(row.totals[p])]) : el("strong", {}, ["…"]);
      if (!row.entries) return el("td", {"class": "num"}, [total, el("small", {}, ["…"])]);
      if (row.entries[p] === null) {
        return el("td", {"class": "num sat-out"}, [total, el("small", {"class": "sat-out__mark", title: w.sat_out}, [
          el("span", {"aria-hidden": "true"}, ["—"]), el("span", {"class": "visually-hidden"}, [w.sat_out])])]);
      }
      const re = row.values.re.indexOf(p) >= 0;
      return el("td", {"class": "num" + (re ? " is-re" : "")}, [total, el("small", {}, [signed(data.sign, row.entries[p])])]);
    });
    const mark = el("td", {"class": "check-col"}, [el("span", {"aria-hidden": "true"}, [refused ? "!" : "…"]),
      el("span", {"class": "visually-hidden"}, [refused ? w.refused_tag : w.pending])]);
    return el("tr", {"class": "is-kept" + (refused ? " is-refused" : ""), id: "kept-" + row.number,
                     "data-kept": row.entry.once}, [head, ...cells, mark]);
  }

  function number(value) { return value < 0 ? "\u2212" + (-value) : String(value); }

  // The next deal's box after the kept deals, in the server's markup (the same styles).
  function nextBox(section, data, result) {
    const w = data.words;
    const next = result.next;
    const totals = result.totals;
    const owed = next ? next.owed : [];
    const list = el("ol", {"class": "standings", "aria-label": section.querySelector(".standings").getAttribute("aria-label")},
      data.players.map((name, p) => {
        const out = next && next.sittingOut.indexOf(p) >= 0;
        const tags = [];
        if (next && next.dealer === p) tags.push(el("span", {"class": "tag"}, [w.deals_tag]), " ");
        if (out) tags.push(el("span", {"class": "tag"}, [w.sits_out_tag]), " ");
        if (data.compulsory && owed.indexOf(p) >= 0) tags.push(el("span", {"class": "tag tag--owed"}, [w.owed_tag]));
        return el("li", {"class": out ? "is-out" : null}, [el("span", {"class": "standings__name"}, [name]), " ",
          el("strong", {"class": "standings__total"}, [totals ? number(totals[p]) : "…"]), " ",
          el("span", {"class": "standings__tags"}, tags)]);
      }));
    const facts = [];
    if (next) {
      facts.push(el("li", {}, [w.deals + " ", el("strong", {}, [data.players[next.dealer]])]));
      if (next.sittingOut.length) {
        facts.push(el("li", {}, [w.sits_out + " ", el("strong", {}, [next.sittingOut.map((p) => data.players[p]).join(", ")])]));
      }
    }
    if (data.bock) {
      facts.push(el("li", {}, [result.multiplier > 1 ? el("span", {"class": "tag tag--bock"}, [fill(w.bock, {num: result.multiplier})])
        : w.no_bock]));
    }
    if (next && data.rounds && data.round_lines[next.round + ":" + next.left]) {
      facts.push(el("li", {}, [data.round_lines[next.round + ":" + next.left]]));
    }
    if (next && data.compulsory) {
      facts.push(el("li", {}, owed.length ? [w.owed + " ", el("strong", {}, [owed.map((p) => data.players[p]).join(", ")])]
        : [w.all_played]));
    }
    const parts = [el("h2", {id: "next-heading"}, [fill(w.next, {num: result.number})]), list, el("ul", {"class": "facts"}, facts)];
    if (next && next.forced !== null) parts.push(el("p", {"class": "warning"}, [fill(w.vorgefuehrt_next, {name: data.players[next.forced]})]));
    if (!next) parts.push(el("p", {"class": "hint"}, [w.later]));
    section.replaceChildren(...parts);
  }

  function fixUrl(data, entry) {
    const query = new URLSearchParams();
    entry.fields.forEach(([name, value]) => query.append(name, value));
    if (entry.dealer !== null && entry.dealer !== undefined) query.append("dealer", String(entry.dealer));
    query.append("once", entry.once);
    return data.urls[entry.kind] + "?" + query.toString();
  }

  // The deals the server refused, each with its reason and a way to change or delete it.
  function keptBox(box, data, result) {
    const w = data.words;
    let section = document.getElementById("sheet-kept");
    const refused = result.rows.filter((row) => row.entry.state === "refused");
    if (!refused.length) {
      if (section) section.remove();
      return;
    }
    const items = [];
    result.rows.forEach((row, index) => {
      const entry = row.entry;
      if (entry.state !== "refused") {
        if (index > result.rows.findIndex((r) => r.entry.state === "refused")) {
          items.push(el("li", {}, [el("p", {}, [fill(w.waiting, {num: row.number})])]));
        }
        return;
      }
      const reason = entry.reason || {};
      const status = String(reason.status || "");
      const text = reason.message || w.status[status] || fill(w.status.other, {code: status});
      items.push(el("li", {"class": "sheet-kept__refused"}, [
        el("p", {"class": "error"}, [fill(w.refused, {num: row.number, reason: text})]),
        el("p", {"class": "sheet-kept__actions"}, [
          el("a", {"class": "button", href: fixUrl(data, entry), "data-kept-fix": entry.once, "hx-boost": "false"}, [w.change]),
          " ",
          el("details", {"class": "delete-form"}, [el("summary", {}, [w.drop]),
            el("p", {}, [fill(w.drop_confirm, {num: row.number})]),
            el("button", {type: "button", "class": "button button--danger", "data-kept-drop": entry.once},
               [fill(w.drop, {})])])])]));
    });
    const list = el("ul", {"class": "sheet-kept__list"}, items);
    if (!section) {
      section = el("section", {id: "sheet-kept", "class": "sheet-kept", role: "alert"});
      box.after(section);
    }
    section.replaceChildren(list);
  }

  // The deals this page shows as kept on the phone, and how (pending or refused).
  let shown = new Map();
  const dropped = new Set();  // the deals deleted on this page: gone without the server

  // Whether the queue holds what the page shows: a deal gone to the server (or refused by it)
  // since means the page should be loaded anew, to show the sheet as the server has it.
  async function stale(key) {
    const now = await Queue.entries(key);
    return now.length !== shown.size || now.some((entry) => shown.get(entry.once) !== entry.state);
  }

  // The server's own parts of the page where the phone's kept deals change them (the next
  // deal's box, the totals, the main button, the caption), kept to put back.
  const server = new WeakMap();
  function keep(node, html) {
    if (node && !server.has(node)) server.set(node, html ? node.innerHTML : node.textContent);
  }

  async function showKept(box, data) {
    const live = document.getElementById("sheet-live");
    const body = live && live.querySelector(".sheet-table tbody");
    const foot = live && live.querySelector(".sheet-table tfoot");
    const next = live && live.querySelector(".sheet-next");
    if (!body || !foot || !next) return [];
    const enter = document.querySelector(".sheet-actions a.button:not(.button--quiet)");
    const caption = live.querySelector(".sheet-table caption");
    keep(next, true);
    keep(foot, true);
    keep(enter, false);
    keep(caption, false);
    const list = data ? await Queue.entries(data.key) : [];
    shown = new Map(list.map((entry) => [entry.once, entry.state]));
    const had = body.querySelectorAll("tr.is-kept");
    had.forEach((tr) => tr.remove());
    if (had.length) {  // the server's parts again, where the phone's stood (only then: no needless change)
      next.innerHTML = server.get(next);
      foot.innerHTML = server.get(foot);
      if (enter) enter.textContent = server.get(enter);
      if (caption) caption.textContent = server.get(caption);
    }
    if (!list.length) {
      keptBox(box, {words: {}}, {rows: []});
      return list;
    }
    let scoreTable = null;
    try { scoreTable = await table(data.urls.table); } catch (e) { scoreTable = null; }
    const result = walk(data, list, scoreTable, lookup());
    const refusedAt = result.rows.findIndex((row) => row.entry.state === "refused");
    result.rows.forEach((row) => body.appendChild(rowElement(data, row, refusedAt < 0 ? null : refusedAt)));
    const cells = foot.querySelectorAll("td.num strong");
    if (result.totals) cells.forEach((cell, p) => { cell.textContent = number(result.totals[p]); });
    const label = foot.querySelector("th");
    if (label) label.appendChild(el("small", {}, [data.words.total_with]));
    nextBox(next, data, result);
    keptBox(box, data, result);
    if (enter) enter.textContent = fill(data.words.enter, {num: result.number});
    if (caption) caption.textContent = counted(data.words.caption, result.number - 1, data.many);
    return list;
  }

  // The page itself, kept for offline as it now is: the worker keeps a page it fetches, but
  // not one that came after a form was sent (a new sheet, a deal saved). Asked again of the
  // server, which answers 304 (its tag has not changed): the browser has it.
  function keepThisPage() {
    if (!("caches" in root) || !online()) return;
    const here = location.pathname;
    caches.open(SHEETS_CACHE).then((cache) => cache.add(here)).catch(() => {});
  }

  async function sheetPage(box) {
    keepThisPage();
    const editor = box.getAttribute("data-editor") === "true";
    const data = editor ? await sheetData(box) : null;
    if (data && online() && data.version === Number(box.getAttribute("data-sheet-version"))) {
      await Queue.settle(data.key, data.deals).catch(() => 0);
    }
    if (data && online()) {
      // Deals sent (by the worker, say) while this page was on its way: it shows the sheet
      // before them. The version the last of them made is the page's to show.
      const kept = await Queue.sheet(data.key).catch(() => null);
      if (kept && typeof kept.base === "number" && kept.base > Number(box.getAttribute("data-sheet-version"))) {
        window.location.reload();
        return;
      }
    }
    const list = data ? await showKept(box, data) : [];
    const waiting = list.filter((entry) => entry.state !== "refused").length;
    if (!online()) {
      await say(box, "offline", data, list.length);
      return;
    }
    await say(box, null, data, 0);
    if (waiting && list[0].state !== "refused") {
      send(box, data);  // said once all of them have gone, on the page loaded then
      return;
    }
    const sent = data ? await Queue.takeSent(data.key).catch(() => 0) : 0;
    if (sent) {
      sentNote = fill(counted(data.words.sent, sent, data.many), {});
      await say(box, null, data, 0);
    }
  }

  // Send the kept deals now. Whoever sends them (this page, another one, the worker), once
  // deals of this sheet have gone to the server the page is loaded anew to show the server's.
  let sending = null;
  function send(box, data) {
    if (sending) return sending;
    say(box, "sending", data, 0);
    sending = (async () => {
      let tally = {unreachable: true};
      try { tally = await Queue.sync(); } catch (e) { /* the queue is as it was */ }
      sending = null;
      if (online() && await stale(data.key)) {
        // Sent (or refused) here or by the worker meanwhile: the server's rows in place of
        // the phone's, the refused deal after them.
        window.location.reload();
        return;
      }
      await say(box, tally.unreachable ? "unreachable" : null, data, shown.size);
    })();
    return sending;
  }

  // --- the forms: a new deal taken offline, or behind deals still waiting --------------------

  function newOnce() {
    const bytes = crypto.getRandomValues(new Uint8Array(6));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function formValues(form) {
    const values = {re: []};
    new FormData(form).forEach((value, name) => {
      if (name === "re") values.re.push(Number(value));
      else values[name] = String(value);
    });
    return values;
  }

  function showError(form, name, text) {
    const place = document.getElementById("error-" + name);
    if (place) place.textContent = text || "";
    const field = form.elements.namedItem(name);
    if (field && field.setAttribute) {
      if (text) field.setAttribute("aria-invalid", "true");
      else field.removeAttribute("aria-invalid");
    }
  }

  // The players of this deal as the form's Re boxes, the ticks kept.
  function reBoxes(form, data, dealer) {
    const list = form.querySelector(".re-players .re-players__list");
    if (!list) return;
    const ticked = new Set(Array.from(form.querySelectorAll("input[name=re]:checked"), (box) => Number(box.value)));
    const playing = dealer === null ? data.players.map((_, p) => p) : data.outlook.seating[dealer][0].slice().sort((a, b) => a - b);
    list.replaceChildren(...playing.map((p) => el("label", {"class": "choice choice--compact"}, [
      el("input", {type: "checkbox", name: "re", value: String(p), "aria-describedby": "error-re_players",
                   checked: ticked.has(p) ? "" : null}), " ", el("span", {}, [data.players[p]])])));
    const out = document.getElementById("sitting-out");
    if (out && dealer !== null) {
      const sitting = data.outlook.seating[dealer][1];
      out.textContent = sitting.length ? data.words.sits_out + " " + sitting.map((q) => data.players[q]).join(", ")
        : data.words.all_play;
    }
  }

  // What the form is for after the deals waiting on this phone: the deal's number, its dealer
  // (by the rotation, as far as the phone knows it), its players, Bock, a vorgeführt solo.
  function adapt(form, data, state) {
    const w = data.words;
    const heading = document.querySelector("main h1");
    if (heading) {
      heading.replaceChildren(fill(w.deal, {num: state.number}));
      if (state.multiplier > 1) heading.append(" ", el("span", {"class": "tag tag--bock"}, [fill(w.bock, {num: state.multiplier})]));
    }
    const select = form.elements.namedItem("dealer");
    let dealer = state.next ? state.next.dealer : null;
    if (select) {
      const blank = select.querySelector("option[value='']");
      if (dealer === null) {
        if (!blank) select.insertBefore(el("option", {value: ""}, ["–"]), select.firstChild);
        select.value = "";
        showError(form, "dealer", w.choose_dealer);
      } else {
        if (blank) blank.remove();
        select.value = String(dealer);
      }
    }
    reBoxes(form, data, dealer);
    const hint = document.getElementById("value-hint");  // the quick form's: the value is typed without Bock
    if (hint) {
      const bock = hint.querySelector("[data-bock-hint]");
      if (bock) bock.remove();
      if (state.multiplier > 1) {
        hint.append(" ", el("span", {"data-bock-hint": ""}, [fill(w.without_bock, {num: state.multiplier})]));
      }
    }
    let warning = document.querySelector("main p.warning[data-vorgefuehrt]") ||
      Array.from(document.querySelectorAll("main > p.warning")).find((p) => form.compareDocumentPosition(p) & Node.DOCUMENT_POSITION_PRECEDING);
    if (warning) warning.remove();
    if (state.next && state.next.forced !== null) {
      warning = el("p", {"class": "warning", "data-vorgefuehrt": ""}, [fill(w.vorgefuehrt_form, {name: data.players[state.next.forced]})]);
      form.before(warning);
    }
  }

  // The deal on the form as the sheet would write it, worked out on this phone: its entries,
  // or the field that stops it, in the server's words.
  function work(form, data, state, scoreTable) {
    const w = data.words;
    const values = formValues(form);
    const kind = form.getAttribute("data-kind");
    const game = values.game || "normal";
    const errors = {};
    const dealerText = values.dealer === undefined ? "" : values.dealer;
    const dealer = dealerText === "" ? null : Number(dealerText);
    if (dealer === null) errors.dealer = w.choose_dealer;
    const entry = {kind: kind, fields: [], dealer: dealer};
    let scores = null;
    let winner = null;
    if (kind === "quick") {
      if (values.winner !== "re" && values.winner !== "kontra") errors.winner = w.errors.winner;
      const text = (values.value || "").trim();
      if (!text) errors.value = w.errors.required;
      else if (!/^[0-9]{1,2}$/.test(text)) errors.value = /^[-+\u2212]?[0-9]+$/.test(text) ? w.errors.value_range : w.errors.not_a_number;
      else if (Number(text) < 1 || Number(text) > data.quick_max) errors.value = w.errors.value_range;
      if (!errors.winner && !errors.value) {
        const unit = data.outlook.quick.units[data.outlook.quick.games[game]];
        if (!unit) errors.game = w.errors.choose;
        else scores = {re: unit[values.winner === "kontra" ? 1 : 0][0] * Number(text),
                       kontra: unit[values.winner === "kontra" ? 1 : 0][1] * Number(text)};
      }
      winner = values.winner;
    } else if (scoreTable && lookup()) {
      const answer = lookup()(scoreTable, values, data.games);
      if (answer.status === "invalid") {
        Object.keys(answer.errors).forEach((field) => {
          errors[field] = root.DokoScoreTable.message(scoreTable.words, answer.errors[field]);
        });
      } else if (answer.status === "empty") {
        errors.re_points = w.errors.required;
      } else {
        scores = answer.scores;
        winner = answer.winner;
      }
    }
    const playing = dealer === null ? [] : data.outlook.seating[dealer][0];
    if (dealer !== null && values.re.some((p) => playing.indexOf(p) < 0)) errors.re_players = w.errors.sat_out;
    const wanted = data.outlook.re_count[game];
    if (!errors.re_players && wanted && values.re.length !== wanted) {
      if (kind === "quick" && scores) {
        let total = 0;
        playing.forEach((p) => { total += values.re.indexOf(p) >= 0 ? scores.re : scores.kontra; });
        errors.re_players = fill(w.errors.row_sum[String(wanted)], {total: signed(data.sign, total)});
      } else {
        errors.re_players = fill(w.errors.re_count, {expected: wanted});
      }
    }
    new FormData(form).forEach((value, name) => {
      if (name !== "version" && name !== "once" && name !== "dealer") entry.fields.push([name, String(value)]);
    });
    let entries = null;
    if (scores && dealer !== null) {
      entries = {};
      playing.forEach((p) => { entries[p] = scores[values.re.indexOf(p) >= 0 ? "re" : "kontra"] * state.multiplier; });
    }
    return {errors: errors, entry: entry, entries: entries, winner: winner, values: values, game: game};
  }

  // The preview of the deal, offline, where the server's would be.
  function preview(form, data, state, scoreTable, quiet) {
    const w = data.words;
    const done = work(form, data, state, scoreTable);
    const names = ["game", "dealer", "re_players", "winner", "value", "re_points", "re_tricks", "schwarz",
                   "re_announced", "kontra_announced"];
    Array.from(form.elements).forEach((field) => { if (field.name && names.indexOf(field.name) < 0) names.push(field.name); });
    names.forEach((name) => showError(form, name, quiet && name !== "dealer" ? "" : done.errors[name]));
    const box = document.getElementById(form.getAttribute("data-kind") === "quick" ? "quick-result" : "result");
    if (!box) return done;
    const heading = box.querySelector("h2");
    const parts = [el("h2", {"class": "visually-hidden", id: heading ? heading.id : null}, [heading ? heading.textContent : ""]),
                   el("p", {"class": "hint offline-note"}, [w.kept_note])];
    if (done.entries && !Object.keys(done.errors).length) {
      const tw = scoreTable && scoreTable.words;
      const solo = w.solos.indexOf(done.game) >= 0;
      let said = "";
      if (form.getAttribute("data-kind") === "quick") {
        said = fill(w.quick[done.winner === "kontra" ? (solo ? "opponents" : "kontra") : (solo ? "soloist" : "re")],
                    {num: done.values.value});
      } else if (tw) {
        said = done.winner === null ? tw.winner.nobody
          : solo ? (done.winner === "re" ? tw.winner.soloist : tw.winner.opponents) : tw.winner[done.winner];
      }
      parts.push(el("p", {"class": "result-box__winner"}, [said]));
      if (state.multiplier > 1) parts.push(el("p", {}, [el("span", {"class": "tag tag--bock"}, [fill(w.bock, {num: state.multiplier})])]));
      parts.push(el("ul", {"class": "writes"}, Object.keys(done.entries).map(Number).sort((a, b) => a - b).map((p) =>
        el("li", {}, [el("span", {}, [data.players[p]]), " ", el("strong", {"class": "writes__amount"}, [signed(data.sign, done.entries[p])])]))));
      const verdict = document.getElementById("verdict");
      if (verdict) verdict.textContent = said;
    } else if (!quiet) {
      const verdict = document.getElementById("verdict");
      if (verdict) verdict.textContent = w.correct;
    }
    box.replaceChildren(...parts);
    return done;
  }

  async function formPage(form, box) {
    if (form.dataset.offlineReady) return;
    form.dataset.offlineReady = "1";
    const data = await sheetData(box);
    if (!data) return;  // nothing kept of this sheet: the form works online as it always does
    const key = data.key;
    const fixing = new URLSearchParams(location.search).get("once");
    let list = await Queue.entries(key);
    let fixed = fixing ? list.find((entry) => entry.once === fixing) || null : null;
    let scoreTable = null;
    try { scoreTable = await table(data.urls.table); } catch (e) { scoreTable = null; }
    let state = walk(data, fixed ? list.slice(0, list.indexOf(fixed)) : list, scoreTable, lookup());
    const queued = () => !online() || (!fixed && list.length > 0);
    if (queued()) {
      adapt(form, data, state);
      say(box, online() ? null : "offline", data, list.length);
    }
    const select = form.elements.namedItem("dealer");
    if (select) {
      select.addEventListener("change", () => {
        if (!queued()) return;
        reBoxes(form, data, select.value === "" ? null : Number(select.value));
        showError(form, "dealer", "");
      });
    }
    // Offline the live preview cannot reach the server: this phone answers instead.
    form.addEventListener("htmx:beforeRequest", (event) => {
      if (online()) return;
      event.preventDefault();
      preview(form, data, state, scoreTable, true);
    });
    form.addEventListener("submit", (event) => {
      if (!fixed && !queued()) return;  // the server takes it as always
      event.preventDefault();
      if (fixed && !online()) {
        say(box, "needs-network", {words: {needs_network: data.words.fix_needs_network}}, 0);
        return;
      }
      const done = preview(form, data, state, scoreTable, false);
      if (Object.keys(done.errors).length) {
        const first = form.querySelector("[aria-invalid=true]");
        if (first) first.focus();
        return;
      }
      const rotation = state.next ? state.next.dealer : null;
      const dealer = done.entry.dealer === rotation ? null : done.entry.dealer;
      const saved = fixed
        ? Queue.fix(fixed.once, done.entry.fields, dealer, Number(box.getAttribute("data-sheet-version")))
        : Queue.add({once: newOnce(), sheet: key, kind: done.entry.kind, action: form.getAttribute("action"),
                     fields: done.entry.fields, dealer: dealer});
      saved.then(() => {
        Queue.later();
        window.location.href = data.urls.sheet;
      });
    });
    root.addEventListener("doko-sheet-queue", async () => {
      list = await Queue.entries(key);
      fixed = fixing ? list.find((entry) => entry.once === fixing) || null : null;
    });
  }

  // --- wiring: every page load and every page htmx swaps in ---------------------------------

  function start() {
    const box = document.getElementById("sheet-offline");
    if (!box || !Queue) return;
    const form = document.querySelector("form[data-kind]");
    if (form) formPage(form, box);
    else sheetPage(box);
  }

  document.addEventListener("click", (event) => {
    const box = document.getElementById("sheet-offline");
    const target = event.target.closest && event.target.closest("a, button");
    if (!box || !target) return;
    if (target.hasAttribute("data-kept-drop")) {
      dropped.add(target.getAttribute("data-kept-drop"));
      Queue.drop(target.getAttribute("data-kept-drop"), Number(box.getAttribute("data-sheet-version"))).then(start);
      return;
    }
    if (online()) return;
    if (target.closest(".sheet-downloads, .settle-form")) {  // worked out by the server
      event.preventDefault();
      event.stopPropagation();
      say(box, "needs-server", null, 0);
      return;
    }
    if (target.tagName !== "A") return;
    // Offline, the deals on the sheet cannot be changed or deleted: say so instead of a page that cannot come.
    const href = target.getAttribute("href") || "";
    const fixing = target.hasAttribute("data-kept-fix");
    if (/\/(deal|quick)\/[0-9a-f]{12}(\/undo)?$/.test(href) || fixing) {
      event.preventDefault();
      event.stopPropagation();  // before htmx's own handler of the link sees it
      say(box, "needs-network", null, 0);
      Queue.sheet(box.getAttribute("data-sheet-key")).then((kept) => {
        if (!kept || !kept.data) return;
        const words = kept.data.words;
        say(box, "needs-network", fixing ? {words: {needs_network: words.fix_needs_network}} : kept.data, 0);
      });
    }
  }, true);

  root.addEventListener("online", () => {
    const box = document.getElementById("sheet-offline");
    if (!box) return;
    if (document.querySelector("form[data-kind]")) {
      Queue.sync().catch(() => null);  // the form stays as it is; its sheet shows what went
      return;
    }
    Queue.sheet(box.getAttribute("data-sheet-key")).then((kept) => {
      if (kept && kept.data) send(box, kept.data); else say(box, null, null, 0);
    });
  });
  root.addEventListener("offline", () => {
    const box = document.getElementById("sheet-offline");
    if (box && !document.querySelector("form[data-kind]")) start();
  });
  // The read-only link follows the sheet every few seconds: when that fails, say since when
  // the sheet shows what it shows; when it works again, stop saying it.
  document.addEventListener("htmx:sendError", (event) => {
    const box = document.getElementById("sheet-offline");
    if (!box || !event.target) return;
    if (event.target.id === "sheet-live") say(box, "offline", null, 0);
    else if (event.target.closest && event.target.closest(".settle-form, #settle-up")) say(box, "needs-server", null, 0);
  });
  document.addEventListener("submit", (event) => {
    const box = document.getElementById("sheet-offline");
    if (!box || online() || !event.target.closest || !event.target.closest(".settle-form")) return;
    event.preventDefault();
    event.stopPropagation();
    say(box, "needs-server", null, 0);
  }, true);
  document.addEventListener("htmx:afterRequest", (event) => {
    const box = document.getElementById("sheet-offline");
    if (box && event.detail && event.detail.successful && event.target && event.target.id === "sheet-live") {
      say(box, null, null, 0);
    }
  });
  // The queue changed elsewhere (another page, the worker): show it; deals of this sheet that
  // the server took are shown as the server's, so the page is loaded anew.
  // A deal shown here that went to the server or was refused by it means the server was
  // reached, even while this page has not yet heard that it is online (the worker's
  // Background Sync can come first): the page shown would number the deals by the sheet as it
  // was, so it is loaded anew.
  async function answered(key) {
    const now = new Map((await Queue.entries(key)).map((entry) => [entry.once, entry.state]));
    return [...shown].some(([once, state]) => (!now.has(once) && !dropped.has(once)) ||
      (state !== "refused" && now.get(once) === "refused"));
  }
  async function changed() {
    const box = document.getElementById("sheet-offline");
    if (!box || document.querySelector("form[data-kind]") || sending) return;  // a sender looks itself
    const key = box.getAttribute("data-sheet-key");
    if ((online() && await stale(key)) || await answered(key)) window.location.reload();
    else start();
  }
  try {
    const channel = new BroadcastChannel(Queue.CHANNEL);
    channel.onmessage = () => { changed(); };
  } catch (e) { /* each page reads the queue again when it loads */ }
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target === document.body || (event.detail && event.detail.boosted)) start();
  });
  start();
})(typeof globalThis !== "undefined" ? globalThis : this);
