"use strict";
(function () {
  var D = JSON.parse(document.getElementById("data").textContent);
  var SVG = "http://www.w3.org/2000/svg", EVERY = 64;
  var layer = document.getElementById("places");
  var groups = [], shown = new Int32Array(D.places.length);
  var viewer = 0, step = 0, timer = null;
  function apply(state, diff) {
    for (var i = 0; i < diff.length; i += 2) state[diff[i]] = diff[i + 1];
  }
  function resize(parts, diff) {            // a status diff: [length, position, part, ...]
    parts.length = diff[0];
    apply(parts, diff.slice(1));
  }
  D.views.forEach(function (v) {            // board and status kept every EVERY steps
    var state = new Int32Array(D.places.length), parts = [];
    v.marks = [];
    for (var s = 0; s < D.steps; s++) {
      if (s % EVERY === 0) v.marks.push([state.slice(), parts.slice()]);
      apply(state, v.diffs[s]);
      resize(parts, v.status[s]);
    }
  });
  function at(v, s) {
    var mark = v.marks[Math.floor(s / EVERY)], state = mark[0].slice(), parts = mark[1].slice();
    for (var k = s - s % EVERY; k <= s; k++) {
      apply(state, v.diffs[k]);
      resize(parts, v.status[k]);
    }
    return [state, parts];
  }
  function lines(parts) {                   // parts between ", ", text 0 ending each line
    var out = [], line = [];
    parts.forEach(function (n) {
      if (n === 0) { out.push(line.join(", ")); line = []; } else line.push(D.texts[n]);
    });
    return out;
  }
  function list(node, texts) {
    node.textContent = "";
    texts.forEach(function (text) {
      var item = document.createElement("li");
      item.textContent = text;
      node.appendChild(item);
    });
  }
  function draw() {
    var v = D.views[viewer], both = at(v, step), state = both[0];
    for (var p = 0; p < state.length; p++) {
      if (shown[p] === state[p]) continue;
      if (!groups[p]) {
        var g = document.createElementNS(SVG, "g");
        g.setAttribute("data-place", D.places[p][0]);
        g.setAttribute("transform", "translate(" + D.places[p][1] + "," + D.places[p][2] + ")");
        layer.appendChild(g);
        groups[p] = g;
      }
      groups[p].innerHTML = D.frags[state[p]];
      shown[p] = state[p];
    }
    var log = v.log[step].map(function (n) { return D.texts[n]; }), status = lines(both[1]);
    document.getElementById("decision").textContent = log[0];
    list(document.getElementById("events"), log.slice(1));
    document.getElementById("title").textContent = status[0];
    list(document.getElementById("status"), status.slice(1));
    document.getElementById("slider").value = step;
    document.getElementById("counter").textContent = "step " + step + " / " + (D.steps - 1);
  }
  function go(s) {
    step = Math.max(0, Math.min(D.steps - 1, s));
    if (step === D.steps - 1) pause();
    draw();
  }
  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    document.getElementById("play").textContent = "play";
  }
  function play() {
    if (timer !== null) return pause();
    if (step === D.steps - 1) step = 0;
    document.getElementById("play").textContent = "pause";
    timer = setInterval(function () { go(step + 1); },
                        +document.getElementById("speed").value);
  }
  function on(id, event, f) { document.getElementById(id).addEventListener(event, f); }
  on("first", "click", function () { go(0); });
  on("back", "click", function () { go(step - 1); });
  on("next", "click", function () { go(step + 1); });
  on("last", "click", function () { go(D.steps - 1); });
  on("play", "click", play);
  on("slider", "input", function (e) { go(+e.target.value); });
  on("speed", "change", function () { if (timer !== null) { pause(); play(); } });
  on("viewer", "change", function (e) { viewer = +e.target.value; draw(); });
  document.addEventListener("keydown", function (e) {
    var tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT") return;   // they use the keys themselves
    if (tag === "BUTTON" && e.key === " ") return;     // space presses the button itself
    var keys = {ArrowRight: function () { go(step + 1); }, ArrowLeft: function () { go(step - 1); },
                Home: function () { go(0); }, End: function () { go(D.steps - 1); }, " ": play};
    if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
  });
  // a link may name a step and a view: page.html#step=40&view=red
  var wanted = /step=(\d+)/.exec(location.hash), seen = /view=([^&]+)/.exec(location.hash);
  if (seen && D.viewers.indexOf(decodeURIComponent(seen[1])) >= 0) {
    viewer = D.viewers.indexOf(decodeURIComponent(seen[1]));
    document.getElementById("viewer").value = viewer;
  }
  if (wanted) step = Math.min(D.steps - 1, +wanted[1]);
  draw();
  document.body.setAttribute("data-ready", "yes");
})();
