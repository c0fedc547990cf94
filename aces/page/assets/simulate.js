/* The simulation page's script. It plays games by looking up the package's
   transition table: from a state and the outcome of a roll, the next state
   and how many seats on the next roller sits. In the five-dice game a state
   has its own list of ways the roll can go (branches), picked by their
   chances. Nothing here knows a rule of the game, and every word shown
   comes from the page's data. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("aces-data").textContent);
  var lang = data.lang;
  var running = null;
  /* The games under way (between frames, or paused), or null. */
  var under = null;
  /* A reader who asked for less motion sees the counts and bars move at each
     row of the table (1, 10, 100... games), not at every frame. */
  var calm = window.matchMedia("(prefers-reduced-motion: reduce)");
  function $(id) { return document.getElementById(id); }
  function words() { return data.labels[lang]; }
  /* Numbers the language's way: its own locale, or one Babel says writes
     numbers alike, where the browser does not know it. */
  function locales() { return words().numbers.split(" "); }
  function percent(value) {
    return new Intl.NumberFormat(locales(), { style: "percent", minimumFractionDigits: 1,
                                         maximumFractionDigits: 1 }).format(value);
  }
  function decimal(value, digits) {
    return new Intl.NumberFormat(locales(), { minimumFractionDigits: digits,
                                         maximumFractionDigits: digits }).format(value);
  }
  function chosen() {
    var players = parseInt($("players").value, 10);
    var finish = $("finish").value;
    return data.tables.filter(function (t) {
      return t.players === players && (t.finish === null || t.finish === finish); })[0];
  }
  function random(below) {
    return Math.floor(Math.random() * below);
  }
  /* The first of the sorted running chances above a number drawn below 1. */
  function pick(running) {
    var low = 0, high = running.length - 1, r = Math.random();
    while (low < high) {
      var middle = (low + high) >> 1;
      if (running[middle] > r) { high = middle; } else { low = middle + 1; }
    }
    return low;
  }
  /* One game: the seat (from the first roller) that won it, or in the
     five-dice game lost it, and its rolls. */
  function play(table) {
    var state = table.start, turned = 0, rolls = 0, cell;
    if (table.step) {
      while (state !== table.size) {
        cell = table.step[table.first[state] + pick(table.chances[table.roll[state]])];
        turned += cell % table.players;
        state = (cell - cell % table.players) / table.players;
        rolls += 1;
      }
      return [turned % table.players, rolls];
    }
    while (state !== table.size) {
      cell = state * data.outcomes + data.outcome_of_roll[random(data.rolls)];
      turned += table.turn[cell];
      state = table.next[cell];
      rolls += 1;
    }
    return [turned % table.players, rolls];
  }
  function cell(row, text, head) {
    var node = document.createElement(head ? "th" : "td");
    if (head) { node.scope = "row"; }
    node.textContent = text;
    row.appendChild(node);
  }
  function heads(table) {
    var head = $("head");
    head.textContent = "";
    var first = document.createElement("th");
    first.scope = "col";
    first.textContent = words().games;
    head.appendChild(first);
    for (var seat = 0; seat < table.players; seat += 1) {
      var th = document.createElement("th");
      th.scope = "col";
      th.textContent = data.seats[lang][seat];
      head.appendChild(th);
    }
    var last = document.createElement("th");
    last.scope = "col";
    last.textContent = words().rolls;
    head.appendChild(last);
    var exact = $("exact-row");
    exact.textContent = "";
    cell(exact, words().exact, true);
    table.exact.by_seat.forEach(function (p) { cell(exact, percent(p)); });
    cell(exact, decimal(table.exact.rolls, 2));
    $("caption").textContent = words().share;
  }
  function bars(table, wins, games) {
    var box = $("bars");
    box.textContent = "";
    var top = Math.max.apply(null, table.exact.by_seat) * 1.6;
    for (var seat = 0; seat < table.players; seat += 1) {
      var share = games ? wins[seat] / games : 0;
      var row = document.createElement("div");
      row.className = "bar";
      var name = document.createElement("span");
      name.textContent = data.seats[lang][seat];
      var track = document.createElement("div");
      track.className = "track";
      track.setAttribute("aria-hidden", "true");
      var fill = document.createElement("div");
      fill.className = "fill";
      fill.style.width = Math.min(100, 100 * share / top) + "%";
      var mark = document.createElement("div");
      mark.className = "mark";
      mark.style.left = (100 * table.exact.by_seat[seat] / top) + "%";
      track.appendChild(fill); track.appendChild(mark);
      var value = document.createElement("span");
      value.className = "num";
      value.textContent = games ? percent(share) : "";
      row.appendChild(name); row.appendChild(track); row.appendChild(value);
      box.appendChild(row);
    }
  }
  function report(table, wins, rolls, games) {
    var row = document.createElement("tr");
    cell(row, decimal(games, 0), true);
    wins.forEach(function (w) { cell(row, percent(w / games)); });
    cell(row, decimal(rolls / games, 2));
    $("rows").appendChild(row);
  }
  /* The status is busy while games are played, so that a screen reader says
     the count when they stop (done or paused), not at every frame. */
  function busy(yes, paused) {
    $("status").setAttribute("aria-busy", yes ? "true" : "false");
    $("pause").disabled = !under;
    $("pause").setAttribute("aria-pressed", paused ? "true" : "false");
  }
  function halt() {
    if (running) { cancelAnimationFrame(running); running = null; }
    under = null;
    busy(false, false);
  }
  function run(event) {
    if (event) { event.preventDefault(); }
    halt();
    var table = chosen();
    var wins = [], rolls = 0, games = 0, next = 0;
    for (var seat = 0; seat < table.players; seat += 1) { wins.push(0); }
    var goal = data.checkpoints[data.checkpoints.length - 1];
    $("rows").textContent = "";
    heads(table);
    function show() {
      $("played").textContent = decimal(games, 0);
      bars(table, wins, games);
    }
    function step() {
      var until = Math.min(goal, games + 5000);
      var reported = false;
      while (games < until) {
        var game = play(table);
        wins[game[0]] += 1;
        rolls += game[1];
        games += 1;
        if (games === data.checkpoints[next]) {
          report(table, wins, rolls, games);
          next += 1;
          reported = true;
        }
      }
      if (reported || !calm.matches || games === goal) { show(); }
      running = games < goal ? requestAnimationFrame(step) : null;
      if (!running) {
        under = null;
        busy(false, false);
        document.body.setAttribute("data-done", String(games));
      }
    }
    under = step;
    document.body.removeAttribute("data-done");
    busy(true, false);
    step();
  }
  /* Pause stops the games where they are, with the counts so far shown;
     pressed again, the same run plays on. */
  function pause() {
    if (!under) { return; }
    if (running) {
      cancelAnimationFrame(running);
      running = null;
      busy(false, true);
    } else {
      running = requestAnimationFrame(under);
      busy(true, false);
    }
  }
  function relabel() {
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-label]").forEach(function (node) {
      node.textContent = words()[node.getAttribute("data-label")];
    });
    document.querySelectorAll("#finish option").forEach(function (option) {
      option.textContent = words()[option.value];
    });
    $("setup").hidden = !words().setup;
    heads(chosen());
    bars(chosen(), [], 0);
  }
  var counts = [];
  data.tables.forEach(function (t) {
    if (counts.indexOf(t.players) < 0) { counts.push(t.players); }
  });
  counts.forEach(function (n) {
    var option = document.createElement("option");
    option.value = String(n);
    option.textContent = String(n);
    $("players").appendChild(option);
  });
  $("players").value = String(data.players);
  if (data.finish) { $("finish").value = data.finish; }
  $("finish-box").hidden = !data.finish;
  data.languages.forEach(function (code) {
    var option = document.createElement("option");
    option.value = code;
    option.textContent = data.labels[code].language_name;
    $("language").appendChild(option);
  });
  $("language").value = lang;
  $("language").addEventListener("change", function () {
    lang = $("language").value;
    halt();
    $("rows").textContent = "";
    relabel();
  });
  $("players").addEventListener("change", function () {
    halt(); $("rows").textContent = ""; relabel(); });
  $("finish").addEventListener("change", function () {
    halt(); $("rows").textContent = ""; relabel(); });
  $("controls").addEventListener("submit", run);
  $("pause").addEventListener("click", pause);
  $("controls").hidden = false;
  $("bars-box").hidden = false;
  relabel();
  document.body.setAttribute("data-ready", "true");
}());
