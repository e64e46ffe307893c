/* Doko Tutor lessons: a step shown is counted as visited (one beacon); "save all lessons"
 * asks the service worker to keep every page of the lessons in this language; the offline page
 * lists the lessons kept on this device. Without JavaScript every lesson page still works
 * online, and those opened are kept all the same. */
(function () {
  "use strict";

  function worker() {
    return "serviceWorker" in navigator && navigator.serviceWorker.controller;
  }

  function showSave() {
    var boxes = document.querySelectorAll("[data-save-lessons]");
    for (var i = 0; i < boxes.length; i++) if (worker()) boxes[i].hidden = false;
  }

  function save(button) {
    var status = document.querySelector("[data-save-status]");
    var urls = JSON.parse(button.getAttribute("data-save-urls") || "[]");
    var channel = new MessageChannel();
    button.disabled = true;
    if (status) status.textContent = status.getAttribute("data-saving");
    channel.port1.onmessage = function (event) {
      button.disabled = false;
      var ok = event.data && event.data.saved === urls.length;
      if (status) status.textContent = status.getAttribute(ok ? "data-saved" : "data-failed");
    };
    worker().postMessage({type: "save-lessons", urls: urls}, [channel.port2]);
  }

  // Every page path kept in any cache of this site.
  function keptPaths() {
    return caches.keys().then(function (names) {
      return Promise.all(names.map(function (name) {
        return caches.open(name).then(function (cache) { return cache.keys(); });
      }));
    }).then(function (lists) {
      var paths = [];
      lists.forEach(function (requests) {
        requests.forEach(function (request) { paths.push(new URL(request.url).pathname); });
      });
      return paths;
    });
  }

  // A lesson counts as kept when any of its steps is.
  function listSaved() {
    var box = document.querySelector("[data-saved-lessons]");
    if (!box || !window.caches) return;
    keptPaths().then(function (paths) {
      var items = box.querySelectorAll("[data-lesson-url]");
      var any = false;
      for (var i = 0; i < items.length; i++) {
        var url = items[i].getAttribute("data-lesson-url");
        var kept = paths.some(function (path) { return path === url || path.indexOf(url + "/") === 0; });
        items[i].hidden = !kept;
        any = any || kept;
      }
      var none = box.querySelector("[data-saved-none]");
      if (none) none.hidden = any;
      box.hidden = false;
    });
  }

  // A step shown tells the server once that the learner was here (the path offers to
  // continue from it); the page itself is the same for everyone with the same progress.
  function seen() {
    var steps = document.querySelectorAll("[data-seen-url]");
    for (var i = 0; i < steps.length; i++) {
      var url = steps[i].getAttribute("data-seen-url");
      if (!url || steps[i].hasAttribute("data-seen-sent") || !navigator.sendBeacon) continue;
      steps[i].setAttribute("data-seen-sent", "");
      try { navigator.sendBeacon(url); } catch (e) { /* offline: the visit is not counted */ }
    }
  }

  function init() {
    showSave();
    listSaved();
    seen();
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
  if ("serviceWorker" in navigator) navigator.serviceWorker.addEventListener("controllerchange", showSave);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-save-urls]");
    if (button && worker()) save(button);
  });
})();
