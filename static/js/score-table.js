/* Doko Tutor: the score calculator offline. Looks a deal up in the table of the engine's
 * answers (/<lang>/score/table/<variant>.json, made by tutor/web/score/offline.py); no rule
 * of the game is written here, only how to find an answer in the table. Online the form
 * works as it always does; this only steps in when the server cannot be reached.
 * tests/web/test_score_offline.py runs lookup() under node against the engine. */
(function (root) {
  "use strict";

  var MAX_TEXT = 12;  // as the server's form: no number field needs more characters
  var MAX_DIGITS = 9;  // as tutor/parse.py
  // What Python's str.strip() takes off both ends (the server's form reads fields so).
  var SPACE = "[\\t\\n\\x0b\\x0c\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
  var STRIP = new RegExp("^" + SPACE + "+|" + SPACE + "+$", "g");
  var NUMBER = /^([-+\u2212]?)([0-9]+)$/;

  function text(values, name) {
    var value = values[name];
    return typeof value === "string" ? Array.from(value.replace(STRIP, "")).slice(0, 200).join("") : "";
  }

  // The form's own errors, found before the engine is asked (tutor/web/score/form.py).
  function formError(code, field, params) { return [code, field, params || {}]; }

  // A whole number in [low, high] as tutor/parse.py reads it: undefined when blank, the
  // number, or the field's error.
  function number(values, name, low, high) {
    var t = text(values, name);
    if (t === "") return undefined;
    var match = Array.from(t).length > MAX_TEXT ? null : NUMBER.exec(t);
    if (!match || match[2].length > MAX_DIGITS) return formError("not_a_number", name);
    var n = parseInt(match[2], 10) * (match[1] === "-" || match[1] === "\u2212" ? -1 : 1);
    return n >= low && n <= high ? n : formError("out_of_range", name, {low: low, high: high});
  }

  function comboIndex(table, counts) {
    // The combination's number in the order the table lists them (each extra 0..its most).
    var index = 0;
    for (var i = 0; i < table.extras.length; i++) {
      var extra = table.extras[i];
      index = index * (table.extra_max[extra] + 1) + (counts[extra] || 0);
    }
    return index;
  }

  function fits(table, points, tricks) {
    var range = table.fit[tricks];
    return !!range && points >= range[0] && points <= range[1];
  }

  // The engine's error for these points, tricks and extras (null: the deal can happen), in
  // the order the engine checks: points and tricks; extras of both parties that it finds
  // first; each party's own extras, Re's then Kontra's; the other extras of both parties.
  function refusal(table, game, counts, points, tricks) {
    if (!fits(table, points, tricks)) return table.errors[table.fit_error[tricks]];
    if (!table.checks_extras[game]) return null;
    var parties = ["re", "kontra"];
    var plain = {re: {}, kontra: {}};
    parties.forEach(function (party) {
      table.extras.forEach(function (extra) {
        if (extra !== "doppelkopf") plain[party][extra] = counts[party][extra] || 0;
      });
    });
    var together = table.refused_together[comboIndex(table, plain.re) + ":" + comboIndex(table, plain.kontra)];
    if (together && together[1]) return table.errors[together[0]];
    var own = {re: [tricks, points], kontra: [table.tricks - tricks, table.deck_points - points]};
    for (var i = 0; i < parties.length; i++) {
      var party = parties[i], combo = comboIndex(table, counts[party]);
      var fewest = table.need[party][combo][own[party][0]];
      if (fewest === null || own[party][1] < fewest) {
        return table.errors[table.need_error_rows[table.need_error[party][combo]][own[party][0]]];
      }
    }
    return together ? table.errors[together[0]] : null;
  }

  // The engine's answer for the form's values: {status: "empty" | "invalid" | "ok", ...};
  // "invalid" with errors: {field: [code, field, values]}, the server's for the same fields.
  function lookup(table, values, offered) {
    var errors = {};
    function fail(error) { if (error && !(error[1] in errors)) errors[error[1]] = error; }
    var game = text(values, "game") || "normal";
    if (!(game in table.games)) {
      fail(formError("unknown_choice", "game"));
      game = null;
    } else if (offered && offered.indexOf(game) < 0) {
      fail(game in table.refused_games ? table.errors[table.refused_games[game]] : formError("unknown_choice", "game"));
      game = null;
    }
    var schwarz = text(values, "schwarz");
    if (["", "re", "kontra"].indexOf(schwarz) < 0) {
      fail(formError("unknown_choice", "schwarz"));
      schwarz = "";
    }
    var points = number(values, "re_points", 0, table.deck_points);
    var tricks = number(values, "re_tricks", 0, table.tricks);
    [points, tricks].forEach(function (n) { if (Array.isArray(n)) fail(n); });
    if (Array.isArray(points)) points = null;
    if (Array.isArray(tricks)) tricks = null;
    var levels = {};
    ["re", "kontra"].forEach(function (party) {
      levels[party] = table.levels[party].indexOf(text(values, party + "_announced"));
      if (levels[party] < 0) fail(formError("unknown_choice", party + "_announced"));
    });
    var counts = {re: {}, kontra: {}};
    ["re", "kontra"].forEach(function (party) {
      table.extras.forEach(function (extra) {
        var n = number(values, party + "_" + extra, 0, table.extra_max[extra]);
        if (Array.isArray(n)) fail(n);
        else if (n) counts[party][extra] = n;
      });
    });
    if (schwarz) {
      var given = table.schwarz[schwarz];
      if (typeof tricks === "number" && tricks !== given[1]) fail(formError("schwarz_tricks", "re_tricks"));
      points = given[0];
      tricks = given[1];
    }
    var invalid = function () { return {status: "invalid", errors: errors}; };
    if (Object.keys(errors).length || game === null) return invalid();
    if (points === undefined) return {status: "empty"};
    if (tricks === undefined) {
      // Tricks not given: the engine tries the count it guesses first, then the others nearest
      // it (schwarz is said on its own); its error at the guess is the answer if none fits.
      var guess = table.guess[points];
      if (String(points) in table.schwarz_only) {
        fail(table.errors[table.schwarz_only[String(points)]]);
        return invalid();
      }
      for (var d = 0; d < table.tricks && tricks === undefined; d++) {
        [guess - d, guess + d].forEach(function (t) {
          if (tricks === undefined && t >= 1 && t < table.tricks && !refusal(table, game, counts, points, t)) tricks = t;
        });
      }
      if (tricks === undefined) {
        fail(refusal(table, game, counts, points, guess));
        return invalid();
      }
    } else {
      var refused = refusal(table, game, counts, points, tricks);
      if (refused) {
        fail(refused);
        return invalid();
      }
    }
    var column = table.games[game];
    var band = 0;
    while (band + 1 < table.band_starts.length && table.band_starts[band + 1] <= points) band++;
    var state = tricks === 0 ? 0 : tricks === table.tricks ? 2 : 1;
    var pairs = table.levels.re.length * table.levels.kontra.length;
    var cell = state * pairs + levels.re * table.levels.kontra.length + levels.kontra;
    var answer = table.answers[table.grid[column][band][cell]];
    var lines = answer.slice(3).map(function (i) { return table.lines[i].slice(); });
    var re = answer[1], kontra = answer[2];
    if (table.counts_extras[column]) {
      table.extras.forEach(function (extra) {
        ["re", "kontra"].forEach(function (party) {
          var n = counts[party][extra] || 0;
          if (!n) return;
          lines.push([extra, party, n]);
          re += party === "re" ? n : -n;
          kontra += party === "re" ? -n : n;
        });
      });
    }
    var value = 0;
    lines.forEach(function (line) { value += line[1] === "re" ? line[2] : -line[2]; });
    return {status: "ok", winner: table.winners[answer[0]], lines: lines, value: value,
            scores: {re: re, kontra: kontra}, re_points: points, re_tricks: tricks};
  }

  // An error in the page's words: the server's sentence for its code, its places filled as
  // Python's % fills them.
  function message(words, error) {
    var template = words.messages[error[0]] || "";
    return template.replace(/%(?:\((\w+)\)[sd]|%)/g, function (all, name) {
      if (!name) return "%";
      return name in error[2] ? String(error[2][name]) : "";
    });
  }

  root.DokoScoreTable = {lookup: lookup, message: message};
  if (typeof document === "undefined") return;

  // --- on the calculator page -------------------------------------------------------------
  var form = document.getElementById("calc");
  var url = form && form.getAttribute("data-offline-table");
  if (!url) return;
  var table = null;

  function load() {
    if (table) return Promise.resolve(table);
    return fetch(url, {credentials: "same-origin"}).then(function (response) {
      if (!response.ok) throw new Error("no table");
      return response.json();
    }).then(function (data) { table = data; return data; });
  }

  function signed(n) {
    var w = table.words;
    return n > 0 ? w.plus + n : n < 0 ? w.minus + (-n) : "0";
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) { node.setAttribute(name, attrs[name]); });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function values() {
    var data = {};
    new FormData(form).forEach(function (value, name) { data[name] = String(value); });
    return data;
  }

  // Each field's message next to it, as the server puts it there (id error-<field>).
  function showErrors(errors) {
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name) return;
      var place = document.getElementById("error-" + field.name);
      if (place) place.textContent = field.name in errors ? message(table.words, errors[field.name]) : "";
      if (field.name in errors) field.setAttribute("aria-invalid", "true");
      else field.removeAttribute("aria-invalid");
    });
    var more = form.querySelector(".calc__more");  // Re's tricks are folded away unless wrong
    if (more && "re_tricks" in errors) more.open = true;
  }

  function show(answer) {
    var w = table.words;
    var box = document.getElementById("result");
    var verdict = document.getElementById("verdict");
    var kontra = document.getElementById("kontra-points");
    if (!box) return;
    box.textContent = "";
    box.appendChild(el("h2", {id: "result-heading", "class": "visually-hidden"}, [w.caption]));
    box.appendChild(el("p", {"class": "hint offline-note"}, [w.offline]));
    showErrors(answer.errors || {});
    if (answer.status !== "ok") {
      var note = answer.status === "empty" ? w.empty : w.correct;
      box.appendChild(el("p", {"class": "result-box__empty"}, [note]));
      if (verdict) verdict.textContent = note;
      if (kontra) kontra.textContent = "–";
      return;
    }
    var game = values().game || "normal";
    var solo = w.solo_games.indexOf(game) >= 0;
    var winner = answer.winner === null ? w.winner.nobody
      : solo ? (answer.winner === "re" ? w.winner.soloist : w.winner.opponents) : w.winner[answer.winner];
    var writes = solo ? [[w.writes.soloist, answer.scores.re], [w.writes.opponents, answer.scores.kontra]]
      : [[w.writes.re, answer.scores.re], [w.writes.kontra, answer.scores.kontra]];
    box.appendChild(el("p", {"class": "result-box__winner"}, [winner]));
    box.appendChild(el("ul", {"class": "writes"}, writes.map(function (pair) {
      return el("li", {}, [el("span", {}, [pair[0]]), " ", el("strong", {"class": "writes__amount"}, [signed(pair[1])])]);
    })));
    var reTotal = 0, kontraTotal = 0;
    var rows = answer.lines.map(function (line) {
      if (line[1] === "re") reTotal += line[2]; else kontraTotal += line[2];
      return el("tr", {}, [el("th", {scope: "row"}, [w.lines[line[0]]]),
        el("td", {"class": "num"}, [line[1] === "re" ? String(line[2]) : ""]),
        el("td", {"class": "num"}, [line[1] === "kontra" ? String(line[2]) : ""])]);
    });
    if (!rows.length) rows = [el("tr", {}, [el("td", {colspan: "3"}, [w.nothing])])];
    box.appendChild(el("div", {"class": "table-wrap sheet-wrap"}, [el("table", {"class": "lines"}, [
      el("caption", {}, [w.caption]),
      el("thead", {}, [el("tr", {}, [el("th", {scope: "col"}, [w.line]),
        el("th", {scope: "col", "class": "num"}, [w.parties.re]), el("th", {scope: "col", "class": "num"}, [w.parties.kontra])])]),
      el("tbody", {}, rows),
      el("tfoot", {}, [
        el("tr", {}, [el("th", {scope: "row"}, [w.total]), el("td", {"class": "num"}, [String(reTotal)]),
          el("td", {"class": "num"}, [String(kontraTotal)])]),
        el("tr", {}, [el("th", {scope: "row"}, [w.value]), el("td", {"class": "num", colspan: "2"}, [signed(answer.value)])])])])]));
    if (verdict) {
      verdict.textContent = "";
      verdict.appendChild(el("strong", {}, [winner]));
      writes.forEach(function (pair) {
        verdict.appendChild(document.createTextNode(" "));
        verdict.appendChild(el("span", {"class": "verdict__item"}, [pair[0] + " ", el("strong", {}, [signed(pair[1])])]));
      });
    }
    if (kontra) kontra.textContent = String(table.deck_points - answer.re_points);
  }

  function offered() {
    var select = form.querySelector("select[name=game]");
    return select ? Array.prototype.map.call(select.options, function (o) { return o.value; }) : null;
  }

  function scoreHere() {
    return load().then(function () { show(lookup(table, values(), offered())); }).catch(function () {});
  }

  // Offline: the live preview cannot reach the server, and neither can the submit button.
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (navigator.onLine !== false || !(form.contains(event.target) || event.target === form)) return;
    event.preventDefault();  // no request that can only fail: this phone answers instead
    scoreHere();
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (form.contains(event.target) || event.target === form) scoreHere();
  });
  form.addEventListener("submit", function (event) {
    if (navigator.onLine !== false) return;
    event.preventDefault();
    scoreHere();
  });
  // Opened offline at an address with a deal in it: the worker served the saved page, so
  // the fields come from the address.
  var query = new URLSearchParams(window.location.search);
  if (navigator.onLine === false && Array.from(query.keys()).length) {
    query.forEach(function (value, name) {
      var field = form.elements.namedItem(name);
      if (field && "value" in field) field.value = value;
    });
    scoreHere();
  } else {
    load().catch(function () {});  // fetched once while online, so the worker keeps it
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
