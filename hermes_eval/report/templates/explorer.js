(function () {
  "use strict";
  // The per-query explorer (report/explorer.py writes its data). Drawn the first time it is opened;
  // every text goes in through textContent, never as markup.
  var PAGE = 100;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function fmt(v) { return v === null || v === undefined ? "–" : v.toFixed(3); }
  function select(label, options, cls) {
    var wrap = el("label", "ex-ctl"), s = el("select", cls);
    wrap.appendChild(document.createTextNode(label + " "));
    options.forEach(function (o) {
      var opt = el("option", null, o[1]);
      opt.value = o[0];
      s.appendChild(opt);
    });
    wrap.appendChild(s);
    return { wrap: wrap, input: s };
  }

  function Explorer(root, data) {
    this.root = root;
    this.d = data;
    this.shown = PAGE;
    this.build();
  }

  Explorer.prototype.build = function () {
    var d = this.d, self = this;
    var arms = d.arms.map(function (a, i) { return [String(i), a.label]; });
    this.a = select("arm", arms, "ex-arm");
    this.b = select("against", [["", "(none)"]].concat(arms), "ex-against");
    if (d.arms.length > 1) { this.b.input.value = "1"; }
    var strata = [["", "all queries"]];
    d.strata.forEach(function (s) {
      var seen = {};
      d.q.forEach(function (q) { if (q[s]) { seen[q[s]] = (seen[q[s]] || 0) + 1; } });
      Object.keys(seen).sort().forEach(function (v) {
        strata.push([s + "\u0000" + v, s + ": " + v + " (" + seen[v] + ")"]);
      });
    });
    this.stratum = select("stratum", strata, "ex-stratum");
    this.outcome = select("show", [["all", "every query"], ["a", "arm better"], ["b", "against better"],
      ["tie", "equal"], ["miss", "arm misses at " + d.k], ["flag", "hygiene flagged"]], "ex-outcome");
    this.search = el("input", "ex-search");
    this.search.type = "search";
    this.search.placeholder = "qid or query text";
    this.count = el("span", "muted ex-count");
    var bar = el("div", "controls ex-controls");
    [this.a.wrap, this.b.wrap, this.stratum.wrap, this.outcome.wrap].forEach(function (w) { bar.appendChild(w); });
    bar.appendChild(this.search);
    bar.appendChild(this.count);
    this.root.appendChild(bar);
    if (d.code_note) { this.root.appendChild(el("p", "muted ex-code-note", d.code_note)); }
    var wrap = el("div", "wrap"), table = el("table", "ex-table");
    var head = el("tr");
    ["qid", "query", "stratum", "arm " + d.metric, "against", "Δ", "first gold (arm / against)", "arm at " + d.k]
      .forEach(function (h) { head.appendChild(el("th", "t", h)); });
    var thead = el("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    this.body = el("tbody");
    table.appendChild(this.body);
    wrap.appendChild(table);
    this.root.appendChild(wrap);
    this.more = el("button", "ex-more", "");
    this.more.type = "button";
    this.more.addEventListener("click", function () { self.shown += PAGE; self.render(); });
    this.root.appendChild(this.more);
    [this.a.input, this.b.input, this.stratum.input, this.outcome.input].forEach(function (i) {
      i.addEventListener("change", function () { self.shown = PAGE; self.render(); });
    });
    this.search.addEventListener("input", function () { self.shown = PAGE; self.render(); });
    this.render();
  };

  Explorer.prototype.rows = function () {
    var d = this.d, ai = +this.a.input.value, bi = this.b.input.value === "" ? -1 : +this.b.input.value;
    var st = this.stratum.input.value, key = null, val = null, out = [];
    if (st) { key = st.split("\u0000")[0]; val = st.split("\u0000")[1]; }
    var show = this.outcome.input.value, terms = this.search.value.toLowerCase().split(/\s+/).filter(Boolean);
    d.q.forEach(function (q, i) {
      var ra = d.r[ai][i], rb = bi >= 0 ? d.r[bi][i] : null;
      if (!ra) { return; }
      if (key !== null && q[key] !== val) { return; }
      var delta = rb && ra[0] !== null && rb[0] !== null ? ra[0] - rb[0] : null;
      if (show === "a" && !(delta > 0)) { return; }
      if (show === "b" && !(delta < 0)) { return; }
      if (show === "tie" && delta !== 0) { return; }
      if (show === "miss" && !(ra[2] >= 0 && ra[2] < d.causes.length - 1)) { return; }
      if (show === "flag" && !q.f.length) { return; }
      if (terms.length) {
        var text = (q.id + " " + q.t).toLowerCase();
        if (!terms.every(function (t) { return text.indexOf(t) >= 0; })) { return; }
      }
      out.push({ i: i, q: q, a: ra, b: rb, delta: delta });
    });
    if (bi >= 0) { out.sort(function (x, y) { return Math.abs(y.delta || 0) - Math.abs(x.delta || 0); }); }
    return out;
  };

  Explorer.prototype.render = function () {
    var d = this.d, self = this, rows = this.rows();
    while (this.body.firstChild) { this.body.removeChild(this.body.firstChild); }
    rows.slice(0, this.shown).forEach(function (r) {
      var tr = el("tr", "ex-row");
      tr.tabIndex = 0;
      tr.appendChild(el("td", "t mono", r.q.id));
      tr.appendChild(el("td", "t ex-q", r.q.t.length > 140 ? r.q.t.slice(0, 140) + "…" : r.q.t));
      tr.appendChild(el("td", "t", d.strata.map(function (s) { return r.q[s]; }).filter(Boolean).join(" · ")));
      tr.appendChild(el("td", "ex-num", fmt(r.a[0])));
      tr.appendChild(el("td", "ex-num", r.b ? fmt(r.b[0]) : "–"));
      var dc = el("td", "ex-num" + (r.delta > 0 ? " sig better" : (r.delta < 0 ? " sig worse" : "")),
        r.delta === null ? "–" : (r.delta > 0 ? "+" : "") + r.delta.toFixed(3));
      tr.appendChild(dc);
      tr.appendChild(el("td", "ex-num", (r.a[1] || "never") + (r.b ? " / " + (r.b[1] || "never") : "")));
      tr.appendChild(el("td", "t", r.a[2] < 0 ? "hit" : d.causes[r.a[2]]));
      function toggle() { self.toggle(tr, r); }
      tr.addEventListener("click", toggle);
      tr.addEventListener("keydown", function (e) { if (e.key === "Enter") { toggle(); } });
      self.body.appendChild(tr);
    });
    var total = d.q.length;
    this.count.textContent = rows.length + " of " + total + " queries";
    this.more.hidden = rows.length <= this.shown;
    this.more.textContent = "show " + Math.min(PAGE, rows.length - this.shown) + " more";
  };

  Explorer.prototype.results = function (title, r) {
    var d = this.d, box = el("div", "ex-results");
    box.appendChild(el("h4", null, title));
    if (!r) { box.appendChild(el("p", "muted", "no result for this query")); return box; }
    var ol = el("ol");
    r[3].forEach(function (s, rank) {
      var hit = (r[4] >> rank) & 1, file = (r[5] >> rank) & 1;
      var li = el("li", hit ? "ex-hit" : (file ? "ex-file" : "ex-miss"));
      li.appendChild(el("span", "ex-mark", hit ? "✓" : (file ? "~" : "✗")));
      li.appendChild(el("span", "mono", d.s[s]));
      ol.appendChild(li);
    });
    box.appendChild(ol);
    if (!r[3].length) { box.appendChild(el("p", "muted", "(no results)")); }
    return box;
  };

  Explorer.prototype.toggle = function (tr, r) {
    var next = tr.nextSibling;
    if (next && next.className === "ex-detail") { this.body.removeChild(next); return; }
    var d = this.d, ai = +this.a.input.value, bi = this.b.input.value === "" ? -1 : +this.b.input.value;
    var row = el("tr", "ex-detail"), td = el("td");
    td.colSpan = 8;
    td.appendChild(el("pre", "ex-query", r.q.t));
    if (r.q.f.length) { td.appendChild(el("p", "warn ex-flags", "hygiene: " + r.q.f.join(", "))); }
    td.appendChild(el("p", null, "gold files: " + (r.q.gf.join(", ") || "(none)")));
    r.q.g.forEach(function (g) {
      var block = el("div", "ex-gold");
      block.appendChild(el("div", "mono", g));
      if (Object.prototype.hasOwnProperty.call(d.code, g)) { block.appendChild(el("pre", "ex-code", d.code[g])); }
      td.appendChild(block);
    });
    var cols = el("div", "ex-cols");
    cols.appendChild(this.results(d.arms[ai].label, r.a));
    if (bi >= 0) { cols.appendChild(this.results(d.arms[bi].label, r.b)); }
    td.appendChild(cols);
    row.appendChild(td);
    tr.parentNode.insertBefore(row, tr.nextSibling);
  };

  // Each board's data comes from its own script beside the page (explorer/<board>.js, loaded before
  // this one), which adds it to window.HERMES_EXPLORER; without it the box says which file is missing.
  var registry = window.HERMES_EXPLORER || {};
  document.querySelectorAll("details.explorer").forEach(function (box) {
    box.addEventListener("toggle", function () {
      if (!box.open || box.getAttribute("data-drawn")) { return; }
      var root = box.querySelector(".ex-root"), data = registry[box.getAttribute("data-board")];
      if (data) {
        new Explorer(root, data);
      } else {
        root.appendChild(el("p", "muted ex-no-data", "No data: " + box.getAttribute("data-file") +
          " is not beside this page (see the note at the top)."));
      }
      box.setAttribute("data-drawn", "1");
    });
  });
}());
