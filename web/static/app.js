// Prophecy dashboard: small improvements only; every page works without it.
// A <form data-autosubmit> submits itself when one of its <select>s changes,
// and so does the form of a <select data-autosubmit> (a form where only that
// select refreshes the lists that depend on it). Such forms keep a button as
// the no-script fallback.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("form[data-autosubmit] select, select[data-autosubmit]")
    .forEach(function (sel) {
      sel.addEventListener("change", function () {
        sel.form.submit();
      });
    });
});
