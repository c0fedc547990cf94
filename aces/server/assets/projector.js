"use strict";
// The projector, live: one stream of server-sent events for the whole class.
// The browser reconnects by itself and sends the last event's id, and the
// server goes on from there, so no roll is missed or counted twice. The
// tables and the pooled results come rendered by the server, in the
// projector's language; this script only puts them in place.
(function () {
  const status = document.createElement("p");
  status.id = "status";
  status.setAttribute("role", "status");
  document.querySelector("header").append(status);
  let first = true;
  let refreshing = null;

  function fragment(html) {
    const template = document.createElement("template");
    template.innerHTML = html;
    return template.content;
  }

  // A part put in place of another keeps the keyboard's place in it and the
  // folds the teacher opened: a group's row is drawn again at each of its
  // rolls, and a teacher tabbing to its buttons must not be sent back to the
  // top of the page, nor see "take a game out" shut under their hand.
  const CONTROLS = "a[href], button, input, select, textarea, summary";
  function swap(old, fresh) {
    const focused = Array.from(old.querySelectorAll(CONTROLS)).indexOf(document.activeElement);
    const opened = Array.from(old.querySelectorAll("details"), (fold) => fold.open);
    const node = fresh.nodeType === Node.DOCUMENT_FRAGMENT_NODE ? fresh.firstElementChild : fresh;
    old.replaceWith(fresh);
    if (!node) { return; }
    node.querySelectorAll("details").forEach((fold, index) => { fold.open = opened[index] || fold.open; });
    const again = focused >= 0 ? node.querySelectorAll(CONTROLS)[focused] : null;
    if (again) { again.focus({ preventScroll: true }); }
  }

  async function refresh() {
    const answer = await fetch(location.href, { credentials: "same-origin" });
    const next = new DOMParser().parseFromString(await answer.text(), "text/html");
    const fresh = next.getElementById("main");
    if (fresh) { swap(document.getElementById("main"), document.adoptNode(fresh)); }
  }

  const source = new EventSource(document.getElementById("main").dataset.events);
  source.addEventListener("open", () => { status.textContent = ""; });
  source.addEventListener("error", () => { status.textContent = document.body.dataset.offline; });
  source.addEventListener("block", (event) => {
    document.body.dataset.position = event.lastEventId;
  });
  source.addEventListener("tables", (event) => {
    const data = JSON.parse(event.data);
    for (const [group, html] of Object.entries(data.html)) {
      const row = document.getElementById("group-" + group);
      if (row) { swap(row, fragment(html)); } else { refreshing = refreshing || setTimeout(() => { refreshing = null; refresh(); }, 200); }
    }
  });
  source.addEventListener("pool", (event) => {
    const data = JSON.parse(event.data);
    const pool = document.getElementById("pool");
    if (pool) { pool.replaceChildren(fragment(data.html)); }
    document.body.dataset.pooled = JSON.stringify(data.stats);
  });
  source.addEventListener("class", () => {
    if (first) { first = false; return; }
    refreshing = refreshing || setTimeout(() => { refreshing = null; refresh(); }, 200);
  });
  document.body.dataset.ready = "1";
}());
