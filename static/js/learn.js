/* Doko Tutor lessons offline: "save all lessons" asks the service worker to keep every page
 * of the lessons in this language; the offline page lists the lessons kept on this device.
 * Without it, every lesson page still works online, and those opened are kept all the same. */
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

  function listSaved() {
    var box = document.querySelector("[data-saved-lessons]");
    if (!box || !window.caches) return;
    var items = box.querySelectorAll("[data-lesson-url]");
    var checks = [];
    for (var i = 0; i < items.length; i++) {
      (function (item) {
        checks.push(caches.match(item.getAttribute("data-lesson-url"), {ignoreVary: true}).then(function (hit) {
          item.hidden = !hit;
          return !!hit;
        }));
      })(items[i]);
    }
    Promise.all(checks).then(function (found) {
      var none = box.querySelector("[data-saved-none]");
      if (none) none.hidden = found.indexOf(true) !== -1;
      box.hidden = false;
    });
  }

  function init() {
    showSave();
    listSaved();
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
  if ("serviceWorker" in navigator) navigator.serviceWorker.addEventListener("controllerchange", showSave);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-save-urls]");
    if (button && worker()) save(button);
  });
})();
