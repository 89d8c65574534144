"use strict";
(function () {
  var SVG = "http://www.w3.org/2000/svg", MOST_BUTTONS = 300;
  var token = location.pathname.split("/").pop();
  var table = null, position = null, shown = null, picked = null;
  var socket = null;
  function $(id) { return document.getElementById(id); }
  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }
  function say(text, error) {
    $("message").textContent = text;
    $("message").className = error ? "error" : "";
  }
  // does an action's text name `word` (a label 'blue:Pawn#1' also answers to 'Pawn#1')
  function names(text, word) {
    return text.split(" ").some(function (w) {
      return w === word || w.slice(-word.length - 1) === ":" + word ||
        word.slice(-w.length - 1) === ":" + w;
    });
  }
  function drawActions() {
    var list = $("actions"), actions = position.actions, count = 0;
    list.textContent = "";
    actions.forEach(function (text, index) {
      if (shown !== null && shown.indexOf(index) < 0) return;
      if (++count > MOST_BUTTONS) return;
      var item = document.createElement("li"), button = document.createElement("button");
      button.type = "button";
      button.textContent = text;
      button.setAttribute("data-index", index);
      button.addEventListener("click", function () { send({type: "act", index: index, text: text}); });
      item.appendChild(button);
      list.appendChild(item);
    });
    if (count > MOST_BUTTONS) {
      var more = document.createElement("li");
      more.textContent = (count - MOST_BUTTONS) + " more: click a piece or type words to narrow";
      list.appendChild(more);
    }
    $("filter").className = shown === null ? "" : "on";
    $("filtered").textContent = shown === null ? "" : (shown.length + " of " + actions.length +
      " actions" + (picked ? " of " + picked : ""));
  }
  function mark(cells) {
    var layer = document.querySelector("#board #marks");
    if (!layer) return;
    layer.textContent = "";
    cells.forEach(function (cell) {
      var at = table.cells[cell], dot = document.createElementNS(SVG, "circle");
      dot.setAttribute("class", "dest");
      dot.setAttribute("cx", at[0]);
      dot.setAttribute("cy", at[1]);
      dot.setAttribute("r", table.radius * 0.5);
      dot.setAttribute("data-cell", cell);
      dot.addEventListener("click", function (e) { e.stopPropagation(); toCell(cell); });
      layer.appendChild(dot);
    });
  }
  function pick(piece, label) {
    document.querySelectorAll("#board .pc.picked").forEach(function (p) { p.classList.remove("picked"); });
    var found = [];
    position.actions.forEach(function (text, index) { if (names(text, label)) found.push(index); });
    if (!found.length) {
      say(position.actions.length ? "no action of yours names " + label : (piece.querySelector("title") || piece).textContent);
      return;
    }
    piece.classList.add("picked");
    picked = label;
    shown = found;
    say("");
    var place = piece.closest("[data-place]"), here = place ? place.getAttribute("data-place").slice(2) : "";
    var cells = {};
    found.forEach(function (index) {
      position.actions[index].split(" ").forEach(function (word) {
        if (table.cells[word] && word !== here) cells[word] = true;
      });
    });
    mark(Object.keys(cells));
    drawActions();
  }
  function toCell(cell) {
    var found = (shown || []).filter(function (index) { return names(position.actions[index], cell); });
    if (found.length === 1) {
      send({type: "act", index: found[0], text: position.actions[found[0]]});
    } else {
      shown = found;
      drawActions();
      say(found.length + " actions go to " + cell + ": pick one");
    }
  }
  function showAll() {
    shown = null;
    picked = null;
    mark([]);
    document.querySelectorAll("#board .pc.picked").forEach(function (p) { p.classList.remove("picked"); });
    drawActions();
  }
  function drawPosition(m) {
    position = m;
    shown = null;
    picked = null;
    $("board").innerHTML = m.board;
    document.querySelectorAll("#board .pc[data-label]").forEach(function (piece) {
      piece.addEventListener("click", function () { pick(piece, piece.getAttribute("data-label")); });
    });
    $("title").textContent = m.title;
    var status = $("status");
    status.textContent = "";
    m.status.forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line;
      status.appendChild(item);
    });
    var mine = m.actions.length > 0;
    $("deciding").textContent = m.error ? "stopped: " + m.error :
      m.result ? "game over: " + m.result :
      mine ? "your decision (" + m.actions.length + " actions)" :
      m.deciding ? m.deciding + " is deciding" : "";
    $("text").disabled = !mine;
    $("text").value = "";
    document.body.setAttribute("data-mine", mine ? "yes" : "no");
    say("");
    drawActions();
  }
  var handlers = {
    table: function (m) {
      table = m;
      $("who").textContent = "seats: " + m.seats.map(function (s, i) { return s + " (" + m.players[i] + ")"; }).join(", ");
    },
    position: drawPosition,
    log: function (m) {
      var log = $("log");
      if (m.from === 0) log.textContent = "";
      m.lines.forEach(function (line) {
        var item = document.createElement("li");
        item.textContent = line;
        log.appendChild(item);
      });
      log.scrollTop = log.scrollHeight;
    },
    error: function (m) { say(m.message, true); },
    matches: function (m) { shown = m.indexes; picked = null; drawActions(); say(m.message); }
  };
  function connect() {
    var scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(scheme + "//" + location.host + "/ws/" + token);
    socket.onopen = function () {
      $("conn").textContent = "connected";
      document.body.setAttribute("data-connected", "yes");
    };
    socket.onmessage = function (e) {
      var m = JSON.parse(e.data);
      if (handlers[m.type]) handlers[m.type](m);
    };
    socket.onclose = function (e) {
      document.body.setAttribute("data-connected", "no");
      if (e.code === 1008 || e.code === 1006 && !table) {   // refused: no retrying
        $("conn").textContent = "refused: open the URL gdl serve printed";
        return;
      }
      // the game goes on in the server: connect again, and receive it all again
      $("conn").textContent = "disconnected: reconnecting...";
      setTimeout(connect, 2000);
    };
  }
  $("typed").addEventListener("submit", function (e) {
    e.preventDefault();
    var text = $("text").value.trim();
    if (text) send({type: "act", text: text});
  });
  $("all").addEventListener("click", showAll);
  connect();
})();
