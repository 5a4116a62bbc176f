// The task filter of tasks.html: hides catalogue rows that do not match the form. No framework,
// no network; reads only the data-* attributes the report wrote on each row.
"use strict";
(function () {
  function words(s) { return s ? s.split(" ").filter(Boolean) : []; }
  function apply() {
    var task = document.getElementById("f-task").value.trim().toLowerCase();
    var suite = document.getElementById("f-suite").value;
    var model = document.getElementById("f-model").value;
    var metric = document.getElementById("f-metric").value;
    var status = document.getElementById("f-status").value;
    var error = document.getElementById("f-error").value;
    var rows = document.querySelectorAll("#catalogue tbody tr");
    var shown = 0;
    for (var i = 0; i < rows.length; i++) {
      var d = rows[i].dataset;
      var failing = words(d.failing);
      var ok = (!task || d.task.toLowerCase().indexOf(task) !== -1) &&
        (!suite || d.suite === suite) && (!model || d.model === model) &&
        (!error || words(d.errors).indexOf(error) !== -1);
      if (ok && metric) { ok = words(d.metrics).indexOf(metric) !== -1; }
      if (ok && status) {
        var bad = metric ? failing.indexOf(metric) !== -1 : failing.length > 0;
        ok = status === "fail" ? bad : !bad;
      }
      rows[i].classList.toggle("hidden", !ok);
      if (ok) { shown++; }
    }
    document.getElementById("f-count").textContent = shown + " of " + rows.length + " rows";
  }
  function init() {
    var form = document.getElementById("filter");
    form.addEventListener("input", apply);
    form.addEventListener("change", apply);
    form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
    // a link like tasks.html#task=verina_basic_1 pre-fills the task box
    var m = /task=([^&]+)/.exec(window.location.hash);
    if (m) { document.getElementById("f-task").value = decodeURIComponent(m[1]); }
    apply();
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
