/* Hangar UI: charts from json_script blocks (Chart.js), copy and print buttons. Pages work without this file. */
(function () {
  "use strict";
  var charts = {};
  var BLUE = "#1f5fa8";

  /* The win rate's 95 % interval as an error bar over each bar, and the figures beside it (type "winrate"). */
  var errorBars = {
    id: "hangarErrorBars",
    afterDatasetsDraw: function (chart, args, options) {
      var spec = options.spec, ctx = chart.ctx, x = chart.scales.x;
      chart.getDatasetMeta(0).data.forEach(function (bar, i) {
        var low = spec.lows[i], high = spec.highs[i];
        if (low === null || high === null || low === undefined || high === undefined) { return; }
        var left = x.getPixelForValue(low), right = x.getPixelForValue(high), y = bar.y, cap = bar.height * 0.35;
        ctx.save();
        ctx.strokeStyle = "#1b1b1b";
        ctx.lineWidth = 2;
        ctx.beginPath();
        ctx.moveTo(left, y); ctx.lineTo(right, y);
        ctx.moveTo(left, y - cap); ctx.lineTo(left, y + cap);
        ctx.moveTo(right, y - cap); ctx.lineTo(right, y + cap);
        ctx.stroke();
        var text = spec.values[i].toFixed(1) + "% (" + low.toFixed(1) + "–" + high.toFixed(1) + "%)";
        ctx.font = "600 13px system-ui, sans-serif";
        ctx.fillStyle = "#1b1b1b";
        ctx.textBaseline = "bottom";
        var width = ctx.measureText(text).width;
        var at = Math.min(Math.max(x.getPixelForValue(spec.values[i]) - width / 2, chart.chartArea.left),
                          chart.chartArea.right - width);
        ctx.fillText(text, at, y - bar.height / 2 - 3);
        ctx.restore();
      });
    }
  };

  /* A long name cut to fit beside the bars (the number table has it whole): a wide (CJK) letter counts two. */
  function shortLabel(text, narrow) {
    var limit = narrow ? 20 : 44, used = 0, out = "";
    text = String(text);
    for (var i = 0; i < text.length; i += 1) {
      used += text.charCodeAt(i) > 0x2e7f ? 2 : 1;
      if (used > limit) { return out + "…"; }
      out += text.charAt(i);
    }
    return out;
  }

  function config(spec, box) {
    var narrow = box.clientWidth < 560;
    var winrate = spec.type === "winrate";
    var horizontal = spec.horizontal || winrate;
    var valueAxis = horizontal ? "x" : "y", labelAxis = horizontal ? "y" : "x";
    var datasets;
    if (winrate) {
      datasets = [{ label: spec.labels.length > 1 ? "%" : spec.labels[0], data: spec.values, backgroundColor: BLUE,
                    barPercentage: 0.55, categoryPercentage: 0.9 }];
    } else if (spec.type === "line") {
      datasets = spec.series.map(function (s) {
        return { label: s.label, data: s.data, borderColor: BLUE, backgroundColor: BLUE, pointRadius: 3, tension: 0 };
      });
    } else {
      datasets = spec.series.map(function (s) {
        var colour = spec.colours && spec.series.length === 1 ? spec.colours : BLUE;
        return { label: s.label, data: s.data, backgroundColor: colour };
      });
    }
    var scales = {};
    scales[valueAxis] = { beginAtZero: true, ticks: {} };
    scales[labelAxis] = { ticks: { autoSkip: !horizontal } };
    if (winrate) { scales.x.min = 0; scales.x.max = 100; scales.x.ticks.callback = function (v) { return v + "%"; }; }
    if (spec.integer) { scales[valueAxis].ticks.precision = 0; }
    if (spec.value_axis) { scales[valueAxis].title = { display: true, text: spec.value_axis }; }
    if (spec.axis) { scales[labelAxis].title = { display: true, text: spec.axis }; }
    if (horizontal) {
      scales.y.ticks.callback = function (value) { return shortLabel(this.getLabelForValue(value), narrow); };
    }
    var options = { responsive: true, maintainAspectRatio: false, animation: false, indexAxis: horizontal ? "y" : "x",
                    scales: scales, plugins: { legend: { display: false } } };
    if (winrate) {
      options.plugins.hangarErrorBars = { spec: spec };
      options.plugins.tooltip = { callbacks: { label: function (item) {
        var i = item.dataIndex;
        return spec.values[i] + "% (" + spec.interval_label + " " + spec.lows[i] + "–" + spec.highs[i] + "%)";
      } } };
      options.layout = { padding: { top: 8 } };
    }
    return { type: spec.type === "line" ? "line" : "bar", data: { labels: spec.labels, datasets: datasets }, options: options,
             plugins: winrate ? [errorBars] : [] };
  }

  function boxHeight(spec) {
    var rows = (spec.labels || []).length;
    if (spec.type === "winrate") { return 70 + 64 * rows; }
    if (spec.horizontal) { return Math.max(130, 60 + 28 * rows); }
    return 240;
  }

  function draw(canvas) {
    var source = document.getElementById(canvas.dataset.chart);
    if (!source || typeof Chart === "undefined") { return; }
    var spec = JSON.parse(source.textContent);
    var figure = canvas.closest("figure"), box = canvas.parentNode;
    if (charts[canvas.id]) { charts[canvas.id].destroy(); }
    if (figure) { figure.classList.add("chart-drawn"); }  /* the canvas box shows only once a chart is drawn */
    box.style.height = boxHeight(spec) + "px";
    charts[canvas.id] = new Chart(canvas, config(spec, box));
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
