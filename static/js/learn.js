/* Doko Tutor lessons: a step shown is counted as visited (one beacon); opening Learn asks the
 * service worker to keep every lesson of this language; a check answered without a
 * connection is judged here, from what its step carries (the engine's answer and the
 * server's own words for each outcome), and sent to the server once the connection is back,
 * so that it counts; the offline page lists the lessons kept on this device and says what
 * needs a connection. Without JavaScript every lesson page still works online. */
(function () {
  "use strict";

  var LESSON = /^\/([a-z]{2})\/learn\//;

  // --- Keeping the lessons of this language ------------------------------------------------
  // Asked on every lesson page: the worker fetches the pack once per version and language.
  var asked = {};
  function keepLessons() {
    var match = LESSON.exec(location.pathname);
    if (!match || !("serviceWorker" in navigator)) return;
    var lang = match[1];
    if (asked[lang] && !document.querySelector("[data-keep-status]")) return;
    asked[lang] = true;
    // Said only once a worker runs (never, where none could start).
    navigator.serviceWorker.ready.then(function (registration) {
      var worker = registration.active;
      if (!worker) return;
      var box = document.querySelector("[data-keep-lessons]");
      if (box) box.hidden = false;
      var saying = document.querySelector("[data-keep-status]");
      if (saying && !saying.textContent) saying.textContent = saying.getAttribute("data-saving");
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) {
        var kept = event.data && event.data.kept > 0;
        var shown = document.querySelector("[data-keep-status]");
        if (shown) shown.textContent = shown.getAttribute(kept ? "data-saved" : "data-failed");
        if (!kept) asked[lang] = false;
      };
      worker.postMessage({type: "keep-lessons", lang: lang}, [channel.port2]);
    });
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

  // The offline page stands in for a step's check on new cards (?v=…): those are dealt by
  // the server. Say so, and lead back to the step as it begins, which is kept.
  function offlineAgain() {
    var note = document.querySelector("[data-offline-again]");
    if (!note || !/(^|&)v=/.test(location.search.slice(1)) || !/^\/[a-z]{2}\/learn\/[\w-]+\/\d+$/.test(location.pathname)) {
      return;
    }
    note.hidden = false;
    var back = note.querySelector("a");
    if (back) back.setAttribute("href", location.pathname);
    var general = document.querySelector("[data-offline-general]");
    if (general) general.hidden = true;
  }

  // A step shown tells the server once that the learner was here (the path offers to
  // continue from it); the page itself is the same for everyone with the same progress.
  // Its answer writes the whole progress cookie from the cookie it was sent with, so an answer
  // sent before it came back would be undone by it: htmx requests wait for it (htmx:confirm).
  var seenPending = null;
  function seen() {
    var steps = document.querySelectorAll("[data-seen-url]");
    for (var i = 0; i < steps.length; i++) {
      var url = steps[i].getAttribute("data-seen-url");
      if (!url || steps[i].hasAttribute("data-seen-sent") || !window.fetch) continue;
      steps[i].setAttribute("data-seen-sent", "");
      var sent = fetch(url, {method: "POST", credentials: "same-origin", keepalive: true})
        .catch(function () { /* offline: the visit is not counted */ })
        .then(function () { if (seenPending === sent) seenPending = null; });
      seenPending = sent;
    }
  }
  document.addEventListener("htmx:confirm", function (event) {
    var waitFor = seenPending;
    if (!waitFor) return;
    event.preventDefault();
    waitFor.then(function () { event.detail.issueRequest(); });
  });

  // --- A check answered offline ------------------------------------------------------------
  // The step carries its answer and the server's words for every outcome (a <template>,
  // templates/learn/_parts.html: offline_feedback). Here the answer is compared as the server
  // compares it, the choices are marked on the form's own faces, and the parts of the
  // feedback that fit the answer are shown where the server's feedback would be.
  function lessonForm(element) {
    var form = element && element.closest ? element.closest("form") : null;
    return form && form.closest("#lesson-check") && form.parentNode.querySelector("template[data-offline-check]")
      ? form : null;
  }

  // A field's choices marked as the server marks them (quiz/_parts.html: marked_choices).
  function markedList(form, name, mode, answer, given, tags) {
    var inputs = form.querySelectorAll("[name='" + name + "']");
    var group = inputs[0].closest(".quiz-picks, .quiz-ticks");
    var recall = group.classList.contains("lesson-recall");
    var rights = mode === "many" ? answer.split(",") : [answer];
    var givens = given === null ? [] : mode === "many" ? given.split(",") : [given];
    var part = document.createDocumentFragment();
    var list = document.createElement("ul");
    list.className = (recall ? "" : "quiz__marked ") + group.className.replace(/\bquiz-(?:picks|ticks)/g, "quiz-marks");
    var legend = group.closest("fieldset") && group.closest("fieldset").querySelector("legend");
    if (legend && !legend.classList.contains("visually-hidden")) {
      var title = document.createElement("p");
      title.className = "quiz__sub";
      title.textContent = legend.textContent;
      part.appendChild(title);
      list.setAttribute("aria-label", legend.textContent);
    }
    for (var i = 0; i < inputs.length; i++) {
      var input = inputs[i];
      var holder = input.tagName === "BUTTON" ? input : input.closest("label");
      var isRight = rights.indexOf(input.value) >= 0, isGiven = givens.indexOf(input.value) >= 0;
      var item = document.createElement("li");
      item.className = "quiz-mark" + (isRight ? " quiz-mark--right" : "") + (isGiven ? " quiz-mark--picked" : "") +
        (isGiven && !isRight ? " quiz-mark--wrong" : "");
      for (var n = 0; n < holder.childNodes.length; n++) {
        var node = holder.childNodes[n];
        if (node === input || (node.nodeType === 3 && !node.nodeValue.trim())) continue;
        item.appendChild(node.cloneNode(true));
      }
      var tag = isRight && mode === "many" && !isGiven ? "missed" : isRight ? "right" : isGiven ? "wrong" : null;
      var box = item;
      if (!recall) {
        box = document.createElement("span");
        box.className = "quiz-mark__tags";
        item.appendChild(box);
      }
      if (tag) box.appendChild(tags[tag].cloneNode(true));
      list.appendChild(item);
    }
    part.appendChild(list);
    return part;
  }

  function judge(form, submitter) {
    var template = form.parentNode.querySelector("template[data-offline-check]");
    var names = template.getAttribute("data-fields").split("|");
    var modes = template.getAttribute("data-modes").split("|");
    var answers = template.getAttribute("data-answer").split("|");
    var given = [], correct = true;
    for (var f = 0; f < names.length; f++) {
      given.push(window.DokoAnswers.canonical(form, names[f], modes[f], submitter));
      if (given[f] !== answers[f]) correct = false;
    }
    remember(form, submitter);
    var sheet = template.content.cloneNode(true);
    var tags = {};
    ["right", "wrong", "missed"].forEach(function (name) {
      var tag = sheet.querySelector("[data-tag='" + name + "']");
      tags[name] = tag;
      tag.parentNode.removeChild(tag);
    });
    var marks = document.createDocumentFragment();
    for (var g = 0; g < names.length; g++) {
      if (modes[g] !== "number") {
        marks.appendChild(markedList(form, names[g], modes[g], answers[g], given[g], tags));
        continue;
      }
      var line = sheet.querySelector("[data-field='" + names[g] + "']");
      var typed = form.querySelector("[name='" + names[g] + "']");
      var mine = line.querySelector("[data-given]");
      if (mine && given[g] !== answers[g] && typed) {
        var words = mine.querySelector(".quiz-mark");
        words.textContent = words.textContent.replace("%s", typed.value.trim());
        mine.hidden = false;
      }
      marks.appendChild(line);
    }
    var other = sheet.querySelector("[data-verdict='" + (correct ? "wrong" : "right") + "']");
    other.parentNode.removeChild(other);
    var whys = sheet.querySelectorAll("[data-why-not]");
    for (var w = 0; w < whys.length; w++) {
      if (correct || whys[w].getAttribute("data-why-not") !== given[0]) whys[w].parentNode.removeChild(whys[w]);
    }
    sheet.insertBefore(marks, sheet.firstChild);
    var section = form.parentNode;
    section.insertBefore(sheet, form);
    section.removeChild(form);
    section.removeChild(template);
    var verdict = section.querySelector("[data-verdict]");
    if (verdict) verdict.focus({preventScroll: true});
  }

  // The submit button a learner tapped (a one-choice check's answer is the button itself).
  document.addEventListener("submit", function (event) {
    var form = lessonForm(event.target);
    if (form) form.doko_submitter = event.submitter || null;
  }, true);

  // Known to be offline: judge at once. Otherwise the server judges, and if the answer
  // cannot reach it, this device does.
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = lessonForm(event.detail && event.detail.elt);
    if (!form || navigator.onLine !== false) return;
    event.preventDefault();
    judge(form, form.doko_submitter);
  });
  document.addEventListener("htmx:sendError", function (event) {
    var form = lessonForm(event.detail && event.detail.elt);
    if (form && form.isConnected) judge(form, form.doko_submitter);
  });

  // --- Answers given offline, sent once there is a connection ------------------------------
  // The server judges each again and counts it (the lesson's progress is its signed cookie).
  var KEPT = "doko-lesson-answers";
  var KEPT_MAX = 100;

  function keptAnswers() {
    try { return JSON.parse(localStorage.getItem(KEPT) || "[]"); } catch (e) { return []; }
  }

  function keepAnswers(list) {
    try {
      if (list.length) localStorage.setItem(KEPT, JSON.stringify(list.slice(-KEPT_MAX)));
      else localStorage.removeItem(KEPT);
    } catch (e) { /* no storage: the answer is judged, not counted */ }
  }

  function remember(form, submitter) {
    var fields = [];
    var data = new FormData(form);
    data.forEach(function (value, name) { fields.push([name, String(value)]); });
    if (submitter && submitter.name) fields.push([submitter.name, submitter.value]);
    var list = keptAnswers();
    list.push({url: form.getAttribute("action"), fields: fields});
    keepAnswers(list);
  }

  var sending = false;
  function sendAnswers() {
    if (sending || navigator.onLine === false) return;
    var list = keptAnswers();
    if (!list.length) return;
    sending = true;
    var next = function () {
      var waiting = keptAnswers();
      if (!waiting.length) { sending = false; return; }
      var answer = waiting[0];
      if (typeof answer.url !== "string" || !/^\/[\w\/-]*\/learn\/[\w-]+\/\d+$/.test(answer.url)) {
        keepAnswers(waiting.slice(1));  // not a step's address: nothing to send
        next();
        return;
      }
      var body = new URLSearchParams();
      (answer.fields || []).forEach(function (pair) { body.append(pair[0], pair[1]); });
      fetch(answer.url, {method: "POST", body: body, credentials: "same-origin", headers: {"HX-Request": "true"}})
        .then(function () {
          keepAnswers(keptAnswers().slice(1));  // answered, or refused for good (the step changed)
          next();
        }, function () { sending = false; });  // still no connection: the next page load tries again
    };
    next();
  }

  function init() {
    keepLessons();
    listSaved();
    offlineAgain();
    seen();
    sendAnswers();
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
  window.addEventListener("online", sendAnswers);
})();
