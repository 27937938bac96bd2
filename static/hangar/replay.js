/* Hangar replay: step a game turn by turn (templates/replays/*, builder/web/replays.py).
   The server shows the final table or board and the whole game report. This script shows the step control and,
   for the chosen turn: the MWDA/Warcaster pieces, attack lines and gates (from the json_script "replay-data"),
   or the HAGMI board rendered for that turn ([data-board-frame]), and that turn's part of the report
   (every turn's with "show every turn"). The turn chosen under "from this turn on" follows the step, and choosing
   one there steps to it. The step label is the turn's heading from the report. A step button scrolls the table
   into view when part of it is out of the window. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";

  function make(name, attrs) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    return node;
  }

  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }

  function table(figure, data) {
    /* The MWDA / Warcaster table: returns draw(index), or null without drawing data. */
    if (!data || !data.frames || !data.frames.length) { return null; }
    var svg = figure.querySelector("svg");
    var pieces = {}, legend = {}, info = {};
    svg.querySelectorAll("[data-piece]").forEach(function (node) { pieces[node.dataset.piece] = node; });
    figure.querySelectorAll("[data-legend]").forEach(function (node) { legend[node.dataset.legend] = node; });
    data.pieces.forEach(function (piece) { info[piece.id] = piece; });
    return function (index) {
      var frame = data.frames[Math.min(index, data.frames.length - 1)];
      var seen = {};
      frame.at.forEach(function (row) {
        var node = pieces[row[0]], piece = info[row[0]];
        if (!node) { return; }
        seen[row[0]] = true;
        node.style.display = "";
        node.setAttribute("transform", "translate(" + row[1] + " " + row[2] + ")");
        node.classList.toggle("eliminated", !row[4]);
        var title = node.querySelector("title");
        if (title && piece) { title.textContent = piece.name + " · " + row[3] + "/" + piece.max; }
        var entry = legend[row[0]];
        if (entry) {
          entry.hidden = false;
          entry.classList.toggle("eliminated", !row[4]);
          entry.querySelector(".legend-health").textContent = row[3] + "/" + piece.max;
        }
      });
      Object.keys(pieces).forEach(function (id) {
        if (!seen[id]) {
          pieces[id].style.display = "none";
          if (legend[id]) { legend[id].hidden = true; }
        }
      });
      var attacks = svg.querySelector(".attacks");
      clear(attacks);
      frame.attacks.forEach(function (a) {
        attacks.appendChild(make("line", { "class": "attack side-" + a.side + (a.hit ? "" : " miss"),
          x1: a.from[0], y1: a.from[1], x2: a.to[0], y2: a.to[1] }));
      });
      var gates = svg.querySelector(".gates");
      clear(gates);
      frame.gates.forEach(function (g) {
        var group = make("g", { "class": "gate side-" + g[1], transform: "translate(" + g[2] + " " + g[3] + ")" });
        group.appendChild(make("rect", { x: -0.6, y: -0.6, width: 1.2, height: 1.2 }));
        var text = make("text", { y: 0.25 });
        text.textContent = g[4];
        group.appendChild(text);
        gates.appendChild(group);
      });
    };
  }

  function start() {
    var figure = document.getElementById("replay");
    var logs = document.querySelectorAll(".replay-log li[data-frame]");
    if (!figure || !logs.length) { return; }
    var source = document.getElementById("replay-data");
    var draw = table(figure, source ? JSON.parse(source.textContent) : null);
    var boards = figure.querySelectorAll("[data-board-frame]");
    if (!draw && !boards.length) { return; }
    var controls = figure.querySelector(".replay-controls");
    var slider = document.getElementById("replay-turn");
    var label = document.getElementById("replay-turn-label");
    var all = document.getElementById("replay-all");
    var count = logs.length;
    var current = 0;

    function show(index) {
      index = Math.max(0, Math.min(count - 1, index));
      current = index;
      if (draw) { draw(index); }
      boards.forEach(function (board) { board.hidden = Number(board.dataset.boardFrame) !== index; });
      logs.forEach(function (item) {
        var here = Number(item.dataset.frame) === index;
        item.hidden = !here && !(all && all.checked);
        item.classList.toggle("current", here);
      });
      slider.value = index;
      steps.forEach(function (select) { select.value = String(index); });  /* "from this turn on" follows */
      var heading = logs[index].querySelector("h3");
      label.textContent = (heading ? heading.textContent : "") + " (" + (index + 1) + "/" + count + ")";
    }

    /* A step button brings the whole table (or board) into the window when part of it is out of sight: the models
       are what the step shows. The table is never taller than the window (hangar.css). */
    function reveal() {
      var drawn = figure.querySelector("svg") || figure.querySelector("[data-board-frame]:not([hidden])");
      if (!drawn) { return; }
      var box = drawn.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) {
        if (box.height + 8 > window.innerHeight) { figure.scrollIntoView({ block: "start" }); }
        else { drawn.scrollIntoView({ block: "end" }); }  /* the step buttons stay in view above it */
      }
    }

    var steps = document.querySelectorAll("select[data-replay-step]");
    steps.forEach(function (select) {
      select.addEventListener("change", function () { show(Number(select.value)); });
    });
    slider.max = count - 1;
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    controls.addEventListener("click", function (event) {
      var button = event.target.closest("[data-step]");
      if (!button) { return; }
      var step = { first: 0, previous: current - 1, next: current + 1, last: count - 1 }[button.dataset.step];
      show(step);
      reveal();
    });
    if (all) { all.addEventListener("change", function () { show(current); }); }
    controls.hidden = false;
    show(0);
  }

  document.addEventListener("DOMContentLoaded", start);
})();
