/* Doko Tutor: the rules reference was once one page, and its sections were anchors of it
 * (/<lang>/rules/#trumps). Such an address still opens the contents page, whose entry for the
 * section keeps that id; this sends it on to the section's own page (the entry's first link).
 * Without JavaScript the entry itself is shown, and its link is one tap away. */
(function () {
  "use strict";

  function follow() {
    var id;
    try { id = decodeURIComponent(window.location.hash.slice(1)); } catch (e) { return; }
    if (!id) return;
    var entry = document.getElementById(id);
    if (!entry || !entry.closest(".ref-contents")) return;
    var link = entry.querySelector("a[href]");
    if (link) window.location.replace(link.href);
  }

  follow();
  window.addEventListener("hashchange", follow);
})();
