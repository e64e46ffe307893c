/* Doko Tutor: the play page with one thumb. After a move htmx swaps the table in place;
 * focus lands on the new state's heading in the dock at the bottom of the screen, without
 * scrolling the page (so nothing jumps). A choice that opens over the page (Announce…, the
 * solos) closes with Escape or a tap elsewhere. Everything here is an extra: without it the
 * page loads anew after each move, with the dock just as much in view. */
(function () {
  "use strict";

  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "play") return;
    var now = document.getElementById("play-now");
    if (now) now.focus({preventScroll: true});
  });

  function openPops() {
    return document.querySelectorAll(".play-pop[open]");
  }

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") return;
    var pops = openPops();
    for (var i = 0; i < pops.length; i++) {
      pops[i].open = false;
      var summary = pops[i].querySelector("summary");
      if (summary) summary.focus({preventScroll: true});
    }
  });

  document.addEventListener("click", function (event) {
    var pops = openPops();
    for (var i = 0; i < pops.length; i++) {
      if (!pops[i].contains(event.target)) pops[i].open = false;
    }
  });
})();
