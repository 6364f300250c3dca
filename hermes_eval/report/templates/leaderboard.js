(function () {
  "use strict";
  function key(td) {
    var v = td ? td.getAttribute("data-v") : null;
    if (v === null) { return td ? td.textContent.trim().toLowerCase() : ""; }
    return v === "" ? null : (isNaN(+v) ? v.toLowerCase() : +v);
  }
  function sortTable(table, th) {
    var idx = Array.prototype.indexOf.call(th.parentNode.children, th);
    var current = th.getAttribute("aria-sort");
    var desc = current ? current === "ascending" : th.getAttribute("data-order") === "desc";
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a.cells[idx]), y = key(b.cells[idx]);
      if (x === null || y === null) { return (x === null) - (y === null); }
      var c = x < y ? -1 : (x > y ? 1 : 0);
      return desc ? -c : c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", desc ? "descending" : "ascending");
  }
  function filterTable(input) {
    var table = document.getElementById(input.getAttribute("data-table"));
    var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
      var text = (r.getAttribute("data-filter") || r.textContent).toLowerCase();
      r.hidden = !terms.every(function (t) { return text.indexOf(t) >= 0; });
      shown += r.hidden ? 0 : 1;
    });
    var out = document.getElementById(input.getAttribute("data-count"));
    if (out) { out.textContent = shown + " of " + table.tBodies[0].rows.length + " runs"; }
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th) {
      th.tabIndex = 0;
      th.addEventListener("click", function () { sortTable(table, th); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortTable(table, th); }
      });
    });
  });
  document.querySelectorAll("input.filter").forEach(function (input) {
    input.addEventListener("input", function () { filterTable(input); });
  });
  // Charts and explorer data are files beside the page (build outputs): when one did not load, one line
  // at the top says what builds them.
  window.addEventListener("load", function () {
    var note = document.querySelector("p.missing-data"), data = window.HERMES_EXPLORER || {};
    var gone = Array.prototype.some.call(document.images, function (img) {
      return img.complete && img.naturalWidth === 0;
    }) || Array.prototype.some.call(document.querySelectorAll("details.explorer"), function (box) {
      return !data[box.getAttribute("data-board")];
    });
    if (note && gone) { note.hidden = false; }
  });
}());
