"use strict";
(function () {
  var SVG = "http://www.w3.org/2000/svg", MOST_BUTTONS = 300;
  var token = location.pathname.split("/").pop();
  var table = null, position = null, shown = null, picked = null;
  // the action being built step by step: the words chosen so far (its name, then arguments)
  var steps = [];
  var socket = null;
  function $(id) { return document.getElementById(id); }
  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }
  function say(text, error) {
    $("message").textContent = text;
    $("message").className = error ? "error" : "";
  }
  // does an action's text name `word` (a label 'blue:Piece#1' also answers to 'Piece#1')
  function names(text, word) {
    return text.split(" ").some(function (w) {
      return w === word || w.slice(-word.length - 1) === ":" + word ||
        word.slice(-w.length - 1) === ":" + w;
    });
  }
  // an action's words: its name and its arguments (a list's brackets keep it one word)
  function words(text) {
    var found = [], depth = 0, word = "";
    for (var i = 0; i < text.length; i++) {
      var c = text[i];
      if (c === " " && depth === 0) { found.push(word); word = ""; continue; }
      if (c === "[" || c === "(") depth++;
      if (c === "]" || c === ")") depth--;
      word += c;
    }
    found.push(word);
    return found;
  }
  // the indexes of the actions shown: those the piece or typed words narrowed to, that
  // begin with the words built so far
  function matching() {
    var found = [];
    position.actions.forEach(function (text, index) {
      if (shown !== null && shown.indexOf(index) < 0) return;
      var w = words(text);
      if (steps.every(function (step, i) { return w[i] === step; })) found.push(index);
    });
    return found;
  }
  // the next words the actions built so far can take, in the order of the list; and the
  // actions that end there
  function nextWords(found) {
    var next = [], ends = [];
    found.forEach(function (index) {
      var w = words(position.actions[index]);
      if (w.length === steps.length) ends.push(index);
      else if (next.indexOf(w[steps.length]) < 0) next.push(w[steps.length]);
    });
    return {next: next, ends: ends};
  }
  function choose(word) {
    steps.push(word);
    var found = matching();
    if (found.length === 1) {
      send({type: "act", index: found[0], text: position.actions[found[0]]});
      return;
    }
    drawActions();
  }
  function back() {
    steps.pop();
    drawActions();
  }
  function drawBuild(found) {
    var build = $("build"), options = $("steps");
    build.className = position.actions.length ? "on" : "";
    $("built").textContent = steps.length ? steps.join(" ") + " ..." : "build an action:";
    $("back").disabled = !steps.length;
    options.textContent = "";
    var choices = nextWords(found);
    choices.next.forEach(function (word) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = word;
      button.setAttribute("data-word", word);
      button.addEventListener("click", function () { choose(word); });
      options.appendChild(button);
    });
    // the choices that are cells are marked on the board, when some word is chosen
    if (steps.length) mark(choices.next.filter(function (word) { return table.cells[word]; }));
    else if (picked === null) mark([]);
  }
  function drawActions() {
    var list = $("actions"), actions = position.actions, count = 0, found = matching();
    list.textContent = "";
    drawBuild(found);
    actions.forEach(function (text, index) {
      if (found.indexOf(index) < 0) return;
      if (++count > MOST_BUTTONS) return;
      var item = document.createElement("li"), button = document.createElement("button");
      button.type = "button";
      button.textContent = text;
      button.setAttribute("data-index", index);
      button.addEventListener("click", function () {
        send({type: "act", index: index, text: text});
      });
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
      (actions.length === 1 ? " action" : " actions") + (picked ? " of " + picked : ""));
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
      dot.addEventListener("click", function (e) {
        e.stopPropagation();
        if (steps.length) choose(cell); else toCell(cell);
      });
      layer.appendChild(dot);
    });
  }
  function pick(piece, label) {
    if (steps.length) {         // building an action: a piece among the next words is one
      var next = nextWords(matching()).next.filter(function (word) { return names(word, label); });
      if (next.length === 1) { choose(next[0]); return; }
    }
    document.querySelectorAll("#board .pc.picked").forEach(function (p) {
      p.classList.remove("picked");
    });
    var found = [];
    position.actions.forEach(function (text, index) { if (names(text, label)) found.push(index); });
    if (!found.length) {
      say(position.actions.length ? "no action of yours names " + label
          : (piece.querySelector("title") || piece).textContent);
      return;
    }
    piece.classList.add("picked");
    picked = label;
    shown = found;
    say("");
    var place = piece.closest("[data-place]");
    var here = place ? place.getAttribute("data-place").slice(2) : "";
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
    var found = (shown || []).filter(function (index) {
      return names(position.actions[index], cell);
    });
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
    steps = [];
    mark([]);
    document.querySelectorAll("#board .pc.picked").forEach(function (p) {
      p.classList.remove("picked");
    });
    drawActions();
  }
  function drawPosition(m) {
    // the same actions (another seat chose in secret, a note): what is being built stays
    var same = position !== null && JSON.stringify(position.actions) === JSON.stringify(m.actions);
    position = m;
    if (!same) {
      shown = null;
      picked = null;
      steps = [];
    }
    $("board").innerHTML = m.board;
    document.querySelectorAll("#board .pc[data-label]").forEach(function (piece) {
      piece.addEventListener("click", function () {
        pick(piece, piece.getAttribute("data-label"));
      });
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
      mine ? "your decision (" + m.actions.length +
        (m.actions.length === 1 ? " action)" : " actions)") :
      m.deciding ? m.deciding + " is deciding" : "";
    $("text").disabled = !mine;
    if (!same) $("text").value = "";
    $("undo").disabled = m.undo !== null;
    $("undo").title = m.undo || "take back your last decision, and the agents' after it";
    document.body.setAttribute("data-mine", mine ? "yes" : "no");
    if (!same) say("");
    drawActions();
    if (picked !== null) {      // the board was drawn again: mark the picked piece again
      document.querySelectorAll("#board .pc[data-label]").forEach(function (piece) {
        if (piece.getAttribute("data-label") === picked) piece.classList.add("picked");
      });
    }
  }
  var handlers = {
    table: function (m) {       // first, and again after a reload or an undo
      table = m;
      position = null;
      say("");
      $("undo").hidden = !m.undo;
      $("who").textContent = "seats: " + m.seats.map(function (s, i) {
        return s + " (" + m.players[i] + ")";
      }).join(", ");
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
    note: function (m) { say(m.message); },
    matches: function (m) {
      shown = m.indexes; picked = null; steps = []; drawActions(); say(m.message);
    }
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
        // the server's reason (too many pages on this link), else a token it does not know
        $("conn").textContent = "refused: " + (e.reason || "open the URL gdl serve printed");
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
  $("back").addEventListener("click", back);
  $("undo").addEventListener("click", function () { send({type: "undo"}); });
  connect();
})();
