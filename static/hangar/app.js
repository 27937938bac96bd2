/* Hangar UI: charts from json_script blocks (Chart.js), copy and print buttons. Pages work without this file. */
(function () {
  "use strict";
  var charts = {};

  function datasets(spec) {
    if (spec.type === "winrate") {
      return [
        { label: spec.labels[0], data: [spec.value], backgroundColor: "#1f5fa8" },
        { label: "95%", data: [[spec.low, spec.high]], backgroundColor: "rgba(200, 90, 20, 0.45)" }
      ];
    }
    return spec.series.map(function (s) { return { label: s.label, data: s.data, backgroundColor: "#1f5fa8" }; });
  }

  function draw(canvas) {
    var source = document.getElementById(canvas.dataset.chart);
    if (!source || typeof Chart === "undefined") { return; }
    var spec = JSON.parse(source.textContent);
    if (charts[canvas.id]) { charts[canvas.id].destroy(); }
    var horizontal = spec.horizontal || spec.type === "winrate";
    var options = { responsive: true, maintainAspectRatio: false, animation: false, indexAxis: horizontal ? "y" : "x",
                    plugins: { legend: { display: spec.type === "winrate" } } };
    if (spec.type === "winrate") { options.scales = { x: { min: 0, max: 100 } }; }
    charts[canvas.id] = new Chart(canvas, { type: "bar", data: { labels: spec.type === "winrate" ? spec.labels : spec.labels, datasets: datasets(spec) }, options: options });
    canvas.setAttribute("data-drawn", "1");
  }

  function drawAll(root) {
    (root || document).querySelectorAll("canvas[data-chart]").forEach(draw);
  }

  document.addEventListener("DOMContentLoaded", function () { drawAll(document); });
  document.addEventListener("htmx:afterSettle", function (event) { drawAll(event.target); });

  document.addEventListener("click", function (event) {
    var copy = event.target.closest("[data-copy]");
    if (copy) {
      var field = document.querySelector(copy.dataset.copy);
      field.select();
      var done = function () { var note = copy.parentNode.querySelector(".copied"); if (note) { note.hidden = false; } };
      if (navigator.clipboard) { navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); }); }
      else { document.execCommand("copy"); done(); }
    }
    if (event.target.closest("[data-print]")) { window.print(); }
  });
})();
