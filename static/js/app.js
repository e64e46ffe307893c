/* Doko Tutor: registers the service worker, offers a quiet "reload" when a new version
 * waits, and asks the worker to refresh the offline rules reference when the rules change.
 * Everything here is an extra: every page works without it. */
(function () {
  "use strict";

  // The offline page stands in for any page the worker cannot give. For a score sheet's
  // address it says why: changing or deleting a deal needs the network (and leads back to the
  // sheet, which is kept), or this sheet was never opened on this phone.
  var asked = null;  // the address htmx last asked for: the offline page it got in its place has its own
  document.addEventListener("htmx:beforeRequest", function (event) {
    var info = event.detail && event.detail.pathInfo;
    asked = info && info.requestPath ? info.requestPath.split("?")[0] : null;
  });
  function offlineSheet(event) {
    var path = event && event.type === "htmx:afterSettle" && asked ? asked : window.location.pathname;
    var match = /^\/([a-z]{2})\/sheet\/([\w-]{22})(\/.*)?$/.exec(path);
    if (!match || !document.querySelector("[data-offline-sheet]")) return;
    var change = /^\/(deal|quick)\/[0-9a-f]{12}(\/undo)?$/.test(match[3] || "");
    var shown = document.querySelector("[data-offline-sheet=" + (change ? "change" : "new") + "]");
    if (!shown) return;
    shown.hidden = false;
    var back = shown.querySelector("[data-offline-sheet-link]");
    if (back) back.setAttribute("href", "/" + match[1] + "/sheet/" + match[2]);
    var general = document.querySelector("[data-offline-general]");
    if (general) general.hidden = true;
  }
  document.addEventListener("DOMContentLoaded", offlineSheet);
  document.addEventListener("htmx:afterSettle", offlineSheet);

  // A page that works offline with scripts of its own names them (data-scripts, a score
  // sheet's): loaded once, in order, on a page load and when htmx swaps such a page in.
  function pageScripts() {
    var holders = document.querySelectorAll("[data-scripts]");
    for (var i = 0; i < holders.length; i++) {
      holders[i].getAttribute("data-scripts").split(" ").forEach(function (src) {
        if (!src || document.querySelector("script[src='" + src + "']")) return;
        var script = document.createElement("script");
        script.src = src;
        script.async = false;
        document.head.appendChild(script);
      });
    }
  }
  document.addEventListener("DOMContentLoaded", pageScripts);
  document.addEventListener("htmx:afterSettle", pageScripts);

  // A link to copy that the server wrote as a path (it names no host it cannot vouch for):
  // made whole here, from the address this page was loaded from.
  function wholeUrls() {
    var fields = document.querySelectorAll("input[data-whole-url]");
    for (var i = 0; i < fields.length; i++) {
      fields[i].value = new URL(fields[i].value, document.baseURI).href;
      fields[i].removeAttribute("data-whole-url");
    }
  }
  document.addEventListener("DOMContentLoaded", wholeUrls);
  document.addEventListener("htmx:afterSettle", wholeUrls);

  // A new sheet's "Deals first" names each player as typed above it (the field's number
  // while it is empty), so the choice is a name, not a place. Listened to on the document:
  // htmx swaps the page in without a new load.
  document.addEventListener("input", function (event) {
    var field = event.target;
    var select = field.name === "player" && field.form && field.form.querySelector("[data-first-dealer]");
    if (!select) return;
    var fields = field.form.querySelectorAll("input[name=player]");
    Array.prototype.forEach.call(select.options, function (option, i) {
      var name = fields[i] ? fields[i].value.trim() : "";
      option.textContent = name || option.getAttribute("data-player-label");
    });
  });

  // Back to a page the server now sends elsewhere (the undo page of a deal just deleted
  // leads to its sheet): htmx restores what the server answered, so the address becomes
  // that answer's, and a reload opens the same page.
  var restoredFrom = null;
  document.addEventListener("htmx:historyCacheMissLoad", function (event) {
    var xhr = event.detail && event.detail.xhr;
    restoredFrom = xhr && xhr.responseURL ? xhr.responseURL : null;
  });
  document.addEventListener("htmx:historyRestore", function () {
    if (!restoredFrom) return;
    var answered = new URL(restoredFrom);
    restoredFrom = null;
    if (answered.origin === location.origin && answered.pathname + answered.search !== location.pathname + location.search) {
      history.replaceState({htmx: true}, "", answered.pathname + answered.search + location.hash);
    }
  });

  // A sheet of six or seven players says that it scrolls sideways. On a screen wide enough
  // for the whole table that is not so: the hint is hidden and no longer describes the table.
  // (Without script it always shows.)
  function scrollHints() {
    var wraps = document.querySelectorAll("[data-scroll-hint]");
    for (var i = 0; i < wraps.length; i++) {
      var wrap = wraps[i];
      var id = wrap.getAttribute("data-scroll-hint");
      var hint = document.getElementById(id);
      if (!hint) continue;
      var scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
      hint.hidden = !scrolls;
      if (scrolls) wrap.setAttribute("aria-describedby", id);
      else wrap.removeAttribute("aria-describedby");
    }
  }
  document.addEventListener("DOMContentLoaded", scrollHints);
  window.addEventListener("resize", scrollHints);
  document.addEventListener("htmx:afterSettle", scrollHints);

  // A tap whose request cannot reach the server (a move of a deal, a page never kept) says so
  // instead of doing nothing. The parts that answer offline themselves (a lesson's check, the
  // calculator, a score sheet) are left to their own scripts.
  function ownOffline(elt) {
    return !!(elt && elt.closest && elt.closest("#lesson-check, #calc, [data-sheet-key], #sheet-live, .settle-form"))
      || !!document.getElementById("sheet-offline");
  }
  document.addEventListener("htmx:sendError", function (event) {
    var banner = document.getElementById("net-banner");
    if (!banner || ownOffline(event.detail && event.detail.elt)) return;
    banner.hidden = false;
  });
  function connected() {
    var banner = document.getElementById("net-banner");
    if (banner) banner.hidden = true;
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.xhr && event.detail.xhr.status) connected();
  });
  window.addEventListener("online", connected);

  if (!("serviceWorker" in navigator)) return;

  var RULES_KEY = "doko-rules";

  function showUpdate(worker) {
    var banner = document.getElementById("update-banner");
    var button = document.getElementById("update-reload");
    if (!banner || !button) return;
    banner.hidden = false;
    button.onclick = function () {
      button.disabled = true;
      worker.postMessage({type: "skip-waiting"});
    };
  }

  function watch(registration) {
    if (registration.waiting && navigator.serviceWorker.controller) showUpdate(registration.waiting);
    registration.addEventListener("updatefound", function () {
      var worker = registration.installing;
      if (!worker) return;
      worker.addEventListener("statechange", function () {
        if (worker.state === "installed" && navigator.serviceWorker.controller) showUpdate(worker);
      });
    });
  }

  function rulesChanged(key) {
    if (!key) return;
    var known = null;
    try { known = localStorage.getItem(RULES_KEY); } catch (e) { return; }
    if (known === key) return;
    try { localStorage.setItem(RULES_KEY, key); } catch (e) { return; }
    if (known !== null && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({type: "rules-changed"});
    }
  }

  var reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", function () {
    // Only reload for an update the visitor asked for (the first install just takes over).
    var banner = document.getElementById("update-banner");
    if (reloading || !banner || banner.hidden) return;
    reloading = true;
    window.location.reload();
  });

  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(watch).catch(function () {});
    rulesChanged(currentRules());
  });

  // The rules in force: saved settings just swapped in by htmx, else the page's own.
  function currentRules() {
    var saved = document.querySelector("[data-rules-saved]");
    var main = document.querySelector("main[data-rules]");
    return saved ? saved.getAttribute("data-rules-saved") : main && main.getAttribute("data-rules");
  }

  // After htmx swaps in a page or saved settings, the rules may be new.
  document.addEventListener("htmx:afterSettle", function () {
    rulesChanged(currentRules());
  });
})();
