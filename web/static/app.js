// Prophecy dashboard: small improvements only; every page works without it.
// A <form data-autosubmit> submits itself when one of its <select>s changes,
// and so does the form of a <select data-autosubmit> (a form where only that
// select refreshes the lists that depend on it). Such forms keep a button as
// the no-script fallback. A page answering a failed POST (a Save with a wrong
// token) names its permanent link with [data-permalink]: the address bar
// gets that link back, so that reload and bookmarks work,
// and a refused token field gets the focus.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var perma = document.querySelector("a[data-permalink]");
  if (perma && window.history && history.replaceState)
    history.replaceState(null, "", perma.getAttribute("href"));
  // (the focus is set once the page has loaded, as earlier the browser
  // takes it back)
  var badToken = document.querySelector("input[aria-invalid=true]");
  if (perma && badToken)
    window.addEventListener("load", function () { badToken.focus(); });
  document.querySelectorAll("form[data-autosubmit] select, select[data-autosubmit]")
    .forEach(function (sel) {
      sel.addEventListener("change", function () {
        sel.form.submit();
      });
    });
});
