// Prophecy dashboard: small improvements only; every page works without it.
// A <form data-autosubmit> submits itself when one of its <select>s changes
// (the filter forms keep their button as the no-script fallback).
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("form[data-autosubmit] select").forEach(function (sel) {
    sel.addEventListener("change", function () {
      sel.form.submit();
    });
  });
});
