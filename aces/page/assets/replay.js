/* The replay page's script: it shows one moment of one game at a time, from
   the data the package wrote. Every sentence, number and percentage comes
   from that data; nothing here composes a sentence or knows a rule of the
   games. Untrusted text (names, narration) only ever goes into textContent.
   A page of several games shows the one picked, and the fragment names it:
   #game=2&roll=17&lang=nb. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("aces-data").textContent);
  var several = data.games.length > 1;
  var index = 0;
  var game = data.games[0];
  var count = game.rolls.length;
  var pos = 0;
  var lang = data.lang;
  var timer = null;
  var speeds = { slow: 3000, normal: 1500, fast: 600 };
  /* A reader who asked for less motion starts at the slowest speed. */
  var speed = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "slow" : "normal";
  var PIPS = { 1: [[50, 50]], 2: [[25, 25], [75, 75]], 3: [[25, 25], [50, 50], [75, 75]],
    4: [[25, 25], [75, 25], [25, 75], [75, 75]],
    5: [[25, 25], [75, 25], [50, 50], [25, 75], [75, 75]],
    6: [[25, 25], [75, 25], [25, 50], [75, 50], [25, 75], [75, 75]] };
  var SVG = "http://www.w3.org/2000/svg";

  function $(id) { return document.getElementById(id); }
  function at(k) { return k === 0 ? game.start : game.rolls[k - 1]; }
  function section(i) { return document.querySelectorAll("section.game")[i]; }
  function words() { return data.labels[lang]; }

  function paragraphs(box, lines) {
    box.textContent = "";
    lines.forEach(function (line) {
      var p = document.createElement("p");
      p.textContent = line;
      box.appendChild(p);
    });
  }

  function die(value) {
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 100 100");
    svg.setAttribute("aria-hidden", "true");
    var face = document.createElementNS(SVG, "rect");
    face.setAttribute("x", "4"); face.setAttribute("y", "4");
    face.setAttribute("width", "92"); face.setAttribute("height", "92");
    face.setAttribute("rx", "14"); face.setAttribute("fill", "#fff");
    face.setAttribute("stroke", "#111"); face.setAttribute("stroke-width", "5");
    svg.appendChild(face);
    (PIPS[value] || []).forEach(function (xy) {
      var pip = document.createElementNS(SVG, "circle");
      pip.setAttribute("cx", String(xy[0])); pip.setAttribute("cy", String(xy[1]));
      pip.setAttribute("r", "9"); pip.setAttribute("fill", "#111");
      svg.appendChild(pip);
    });
    return svg;
  }

  function swatch(seat) {
    var sample = document.querySelector("#chart-" + index + " .player-" + seat);
    var svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "swatch");
    svg.setAttribute("viewBox", "0 0 40 10");
    svg.setAttribute("aria-hidden", "true");
    var line = document.createElementNS(SVG, "line");
    line.setAttribute("x1", "0"); line.setAttribute("y1", "5");
    line.setAttribute("x2", "40"); line.setAttribute("y2", "5");
    line.setAttribute("stroke-width", "4");
    if (sample) {
      line.setAttribute("stroke", sample.getAttribute("stroke"));
      var dash = sample.getAttribute("stroke-dasharray");
      if (dash) { line.setAttribute("stroke-dasharray", dash); }
    }
    svg.appendChild(line);
    return svg;
  }

  /* Every word of the page in the language chosen; with ``lists``, the
     narration of every game's list too (the page was written in one). */
  function labelAll(lists) {
    var w = words();
    document.documentElement.lang = lang;
    document.querySelectorAll("[data-label]").forEach(function (node) {
      node.textContent = w[node.getAttribute("data-label")];
    });
    $("play").textContent = timer ? w.pause : w.play;
    document.querySelectorAll("#speed option").forEach(function (option) {
      option.textContent = w[option.value];
    });
    $("held-head").textContent = w[game.holds[0]];
    $("chance-head").textContent = game.measure === "win" ? w.win : w.lose;
    $("middle-head").textContent = w[game.holds[1]];
    $("odds-note").textContent = game.start.chances === null ? w.no_odds
      : (game.exact ? w.exact : w.estimated);
    $("title").textContent = game.start.text[lang][0] || game.name[lang];
    document.title = $("title").textContent;
    document.querySelectorAll("#game option").forEach(function (option, i) {
      option.textContent = data.games[i].name[lang];
    });
    if (!lists) { return; }
    data.games.forEach(function (each, i) {
      var part = section(i);
      var title = part.querySelector(".game-title");
      if (title) { title.textContent = each.start.text[lang][0] || each.name[lang]; }
      part.querySelectorAll(".rolls li").forEach(function (item, k) {
        var now = k === 0 ? each.start : each.rolls[k - 1];
        item.querySelector("a").textContent = now.label[lang];
        paragraphs(item.querySelector(".text"), now.text[lang]);
      });
      part.querySelectorAll(".chart a").forEach(function (link, k) {
        link.setAttribute("aria-label", rollName(k === 0 ? each.start : each.rolls[k - 1]));
      });
    });
  }

  /* A moment as the chart names it: "Roll 9 of 40: Kari rolls 1 and 6", the
     catalog's template filled with the data's words. */
  function rollName(now) {
    if (!now.said) { return now.label[lang]; }
    return words().chart_roll.replace("{moment}", function () { return now.label[lang]; })
      .replace("{roll}", function () { return now.said[lang]; });
  }

  function pick(i) {
    i = Math.max(0, Math.min(data.games.length - 1, i));
    if (i === index && game === data.games[i]) { return; }
    stop();
    section(index).hidden = true;
    index = i;
    game = data.games[i];
    count = game.rolls.length;
    section(index).hidden = false;
    $("game").value = String(index);
    labelAll(false);
  }

  function show(k, announce) {
    pos = Math.max(0, Math.min(count, k));
    var now = at(pos);
    var w = words();
    $("position").textContent = now.label[lang];
    var dice = $("dice");
    dice.textContent = "";
    (now.dice || []).forEach(function (value) { dice.appendChild(die(value)); });
    if (now.said) {
      dice.setAttribute("role", "img");
      dice.setAttribute("aria-label", now.said[lang]);
    } else {
      dice.removeAttribute("role");
      dice.removeAttribute("aria-label");
    }
    var box = $("narration");
    if (announce === false) { box.setAttribute("aria-live", "off"); }
    paragraphs(box, now.text[lang]);
    if (announce === false) { box.setAttribute("aria-live", "polite"); }
    var body = $("seats");
    body.textContent = "";
    game.players.forEach(function (name, seat) {
      var row = document.createElement("tr");
      var head = document.createElement("th");
      head.scope = "row";
      head.appendChild(swatch(seat));
      head.appendChild(document.createTextNode(name));
      if (now.next === seat) {
        row.setAttribute("aria-current", "true");
        var note = document.createElement("span");
        note.textContent = " (" + w.to_roll + ")";
        head.appendChild(note);
      }
      var held = document.createElement("td");
      held.className = "num";
      held.textContent = String(now.held[seat]);
      var chance = document.createElement("td");
      chance.className = "num";
      chance.textContent = now.shown ? now.shown[lang][seat] : "";
      row.appendChild(head); row.appendChild(held); row.appendChild(chance);
      body.appendChild(row);
    });
    $("middle").textContent = String(now.middle);
    var marker = section(index).querySelector(".marker");
    var x = count ? (pos / count) * 1000 : 0;
    marker.setAttribute("x1", String(x)); marker.setAttribute("x2", String(x));
    section(index).querySelectorAll(".rolls li").forEach(function (item, k) {
      if (k === pos) { item.setAttribute("aria-current", "true"); }
      else { item.removeAttribute("aria-current"); }
    });
    $("prev").disabled = pos === 0;
    $("first").disabled = pos === 0;
    $("next").disabled = pos === count;
    $("last").disabled = pos === count;
    var fragment = (several ? "#game=" + game.number + "&" : "#") + "roll=" + pos +
      "&lang=" + lang;
    if (location.hash !== fragment) { history.replaceState(null, "", fragment); }
  }

  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    $("play").textContent = words().play;
  }

  function play() {
    if (timer) { stop(); return; }
    if (pos === count) { show(0); }
    timer = setInterval(function () {
      if (pos >= count) { stop(); return; }
      show(pos + 1);
    }, speeds[speed]);
    $("play").textContent = words().pause;
  }

  function fromFragment() {
    var params = new URLSearchParams(location.hash.replace(/^#/, ""));
    var wanted = params.get("lang");
    if (wanted && data.languages.indexOf(wanted) >= 0 && wanted !== lang) {
      lang = wanted;
      $("language").value = lang;
      labelAll(true);
    }
    var number = parseInt(params.get("game") || "", 10);
    var chosen = -1;
    data.games.forEach(function (each, i) { if (each.number === number) { chosen = i; } });
    if (chosen >= 0 && chosen !== index) { pick(chosen); pos = 0; }
    var roll = parseInt(params.get("roll") || "", 10);
    show(isNaN(roll) ? pos : roll);
  }

  var picker = $("game");
  data.games.forEach(function (each, i) {
    var option = document.createElement("option");
    option.value = String(i);
    option.textContent = each.name[lang];
    picker.appendChild(option);
  });
  picker.addEventListener("change", function () {
    pick(parseInt(picker.value, 10));
    show(0);
  });
  $("game-picker").hidden = !several;
  if ($("games-box")) { $("games-box").hidden = true; }
  document.querySelectorAll("section.game").forEach(function (part, i) {
    part.hidden = i !== index;
  });
  var select = $("language");
  data.languages.forEach(function (code) {
    var option = document.createElement("option");
    option.value = code;
    option.textContent = data.labels[code].language_name;
    select.appendChild(option);
  });
  select.value = lang;
  select.addEventListener("change", function () {
    lang = select.value;
    labelAll(true);
    show(pos, false);
  });
  $("speed").value = speed;
  $("speed").addEventListener("change", function () {
    speed = $("speed").value;
    if (timer) { stop(); play(); }
  });
  $("first").addEventListener("click", function () { stop(); show(0); });
  $("prev").addEventListener("click", function () { stop(); show(pos - 1); });
  $("next").addEventListener("click", function () { stop(); show(pos + 1); });
  $("last").addEventListener("click", function () { stop(); show(count); });
  $("play").addEventListener("click", play);
  window.addEventListener("hashchange", fromFragment);
  document.addEventListener("keydown", function (event) {
    var tag = event.target && event.target.tagName;
    if (tag === "SELECT" || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var key = event.key;
    if (key === "ArrowRight") { stop(); show(pos + 1); }
    else if (key === "ArrowLeft") { stop(); show(pos - 1); }
    else if (key === "Home") { stop(); show(0); }
    else if (key === "End") { stop(); show(count); }
    else { return; }
    event.preventDefault();
  });
  $("controls").hidden = false;
  $("stage").hidden = false;
  document.body.classList.add("enhanced");
  labelAll(false);
  fromFragment();
  document.body.setAttribute("data-ready", "true");
  if (window.performance && performance.mark) { performance.mark("aces-ready"); }
}());
