/* Doko Tutor quiz: moves focus to the verdict after an answer is swapped in, shares the daily
 * result, and plays the offline quiz pack (answers checked on the device). Every quiz page
 * works without it: answers are then posted to the server. */
(function () {
  "use strict";

  // After htmx swaps the feedback in, take keyboard and screen-reader focus to the verdict
  // (a status region, so it is announced); after "Next question", to the new question.
  document.addEventListener("htmx:afterSwap", function (event) {
    var quiz = document.getElementById("quiz");
    if (!quiz || !(event.target === quiz || quiz.contains(event.target) || event.target.contains(quiz))) return;
    var result = document.getElementById("quiz-result");
    var prompt = document.getElementById("quiz-prompt");
    var target = result || prompt;
    if (target) target.focus({preventScroll: !!result});
    if (!result && prompt) prompt.scrollIntoView({block: "nearest"});
  });

  // Share the daily result: the system share sheet where there is one, else the clipboard.
  function showShareButtons() {
    var buttons = document.querySelectorAll("[data-share]");
    for (var i = 0; i < buttons.length; i++) {
      if (navigator.share || (navigator.clipboard && navigator.clipboard.writeText)) buttons[i].hidden = false;
    }
  }
  document.addEventListener("DOMContentLoaded", showShareButtons);
  document.addEventListener("htmx:afterSettle", showShareButtons);
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-share]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-share"));
    var text = field ? field.value : "";
    var done = button.parentNode.querySelector("[data-share-done]");
    if (navigator.share) {
      navigator.share({text: text}).catch(function () {});
    } else if (navigator.clipboard) {
      navigator.clipboard.writeText(text).then(function () { if (done) done.hidden = false; }).catch(function () {});
    }
  });

  // The offline pack: each question carries its answer; check it here and show why. An
  // answer in the form the server compares (tutor/quiz/base.py, canonical): the values of a
  // field of many choices sorted and joined, a number as a whole number.
  function canonical(form, name, mode, submitter) {
    var inputs = form.querySelectorAll("[name='" + name + "']");
    var values = [];
    for (var i = 0; i < inputs.length; i++) {
      var input = inputs[i];
      if (input.type === "checkbox" || input.type === "radio") {
        if (input.checked) values.push(input.value);
      } else if (input.tagName === "BUTTON") {
        if (input === submitter) values.push(input.value);
      } else if (input.value !== "") {
        values.push(String(parseInt(input.value.replace("\u2212", "-"), 10)));
      }
    }
    if (mode === "many") {
      return values.filter(function (v, i) { return values.indexOf(v) === i; }).sort().join(",");
    }
    return values.length === 1 ? values[0] : null;
  }

  // The lessons judge a check offline the same way (learn.js).
  window.DokoAnswers = {canonical: canonical};

  function mark(form, names, modes, answers, given) {
    for (var f = 0; f < names.length; f++) {
      if (modes[f] === "number") continue;
      var right = answers[f].split(","), picked = (given[f] || "").split(",");
      var inputs = form.querySelectorAll("[name='" + names[f] + "']");
      for (var i = 0; i < inputs.length; i++) {
        var box = inputs[i].tagName === "BUTTON" ? inputs[i] : inputs[i].closest("label");
        var isRight = right.indexOf(inputs[i].value) >= 0, isPicked = picked.indexOf(inputs[i].value) >= 0;
        box.classList.toggle("quiz-mark--right", isRight);
        box.classList.toggle("quiz-mark--wrong", isPicked && !isRight);
      }
    }
  }

  function daysScore(article) {
    var day = article.closest(".pack-day");
    if (!day) return;
    var all = day.querySelectorAll(".pack-q"), done = day.querySelectorAll(".pack-q[data-result]");
    var right = day.querySelectorAll(".pack-q[data-result='right']");
    var score = day.querySelector("[data-day-score]");
    if (score) score.textContent = right.length + " / " + done.length + (done.length === all.length ? " ✓" : "");
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("pack-form")) return;
    event.preventDefault();
    var article = form.closest(".pack-q");
    var names = article.getAttribute("data-fields").split("|");
    var modes = article.getAttribute("data-modes").split("|");
    var answers = article.getAttribute("data-answer").split("|");
    var given = [], correct = true;
    for (var f = 0; f < names.length; f++) {
      given.push(canonical(form, names[f], modes[f], event.submitter));
      if (given[f] !== answers[f]) correct = false;
    }
    article.setAttribute("data-result", correct ? "right" : "wrong");
    article.querySelector("[data-verdict='right']").hidden = !correct;
    article.querySelector("[data-verdict='wrong']").hidden = correct;
    mark(form, names, modes, answers, given);
    var details = article.querySelector("details.pack-answer");  // not a question's own (the tricks so far)
    if (details) details.open = true;
    daysScore(article);
  });

  // Offline, the service worker answers any quiz address with the pack: show the part asked
  // for, and of the daily challenges only today's.
  function preparePack() {
    var pack = document.getElementById("pack-daily");
    if (!pack) return;
    var today = new Date().toISOString().slice(0, 10);
    var days = pack.querySelectorAll(".pack-day");
    var known = false;
    for (var i = 0; i < days.length; i++) if (days[i].getAttribute("data-day") === today) known = true;
    if (known) {
      for (var j = 0; j < days.length; j++) days[j].hidden = days[j].getAttribute("data-day") !== today;
    }
    var missed = document.querySelector("[data-pack-missed]");
    if (missed) missed.hidden = !/(^|&)missed=/.test(location.search.slice(1));
    var part = location.pathname.split("/")[3];
    var target = part && part !== "pack" && document.getElementById("pack-" + part);
    if (target && !location.hash) target.scrollIntoView();
  }
  document.addEventListener("DOMContentLoaded", preparePack);
  document.addEventListener("htmx:afterSettle", preparePack);
})();
