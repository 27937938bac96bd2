/* Hangar replay: step a battle turn by turn from the json_script "replay-data" (builder/web/replays.py).
   The server draws the final positions and lists the whole log; this script moves the pieces, redraws the
   attack lines and gates of the chosen turn and shows only that turn's events. */
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";

  function make(name, attrs) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    return node;
  }

  function clear(node) { while (node.firstChild) { node.removeChild(node.firstChild); } }

  function start() {
    var source = document.getElementById("replay-data");
    var figure = document.getElementById("replay");
    if (!source || !figure) { return; }
    var data = JSON.parse(source.textContent);
    var frames = data.frames;
    if (!frames.length) { return; }
    var svg = figure.querySelector("svg");
    var controls = figure.querySelector(".replay-controls");
    var slider = document.getElementById("replay-turn");
    var label = document.getElementById("replay-turn-label");
    var pieces = {};
    svg.querySelectorAll("[data-piece]").forEach(function (node) { pieces[node.dataset.piece] = node; });
    var info = {};
    data.pieces.forEach(function (piece) { info[piece.id] = piece; });
    var logs = document.querySelectorAll(".replay-log li[data-frame]");

    function show(index) {
      index = Math.max(0, Math.min(frames.length - 1, index));
      var frame = frames[index];
      var seen = {};
      frame.at.forEach(function (row) {
        var node = pieces[row[0]];
        if (!node) { return; }
        seen[row[0]] = true;
        node.style.display = "";
        node.setAttribute("transform", "translate(" + row[1] + " " + row[2] + ")");
        node.classList.toggle("eliminated", !row[4]);
        var title = node.querySelector("title"), piece = info[row[0]];
        if (title && piece) { title.textContent = piece.name + " #" + piece.id + " · " + row[3] + "/" + piece.max; }
      });
      Object.keys(pieces).forEach(function (id) { if (!seen[id]) { pieces[id].style.display = "none"; } });
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
      logs.forEach(function (item) { item.hidden = Number(item.dataset.frame) !== index; });
      slider.value = index;
      label.textContent = frame.turn + " (" + (index + 1) + "/" + frames.length + ")";
    }

    slider.max = frames.length - 1;
    slider.addEventListener("input", function () { show(Number(slider.value)); });
    controls.addEventListener("click", function (event) {
      var button = event.target.closest("[data-step]");
      if (!button) { return; }
      var now = Number(slider.value);
      var step = { first: -Infinity, previous: now - 1, next: now + 1, last: Infinity }[button.dataset.step];
      show(step === -Infinity ? 0 : step === Infinity ? frames.length - 1 : step);
    });
    controls.hidden = false;
    show(0);
  }

  document.addEventListener("DOMContentLoaded", start);
})();
