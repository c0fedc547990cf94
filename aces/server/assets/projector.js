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

  async function refresh() {
    const answer = await fetch(location.href, { credentials: "same-origin" });
    const next = new DOMParser().parseFromString(await answer.text(), "text/html");
    const fresh = next.getElementById("main");
    if (fresh) { document.getElementById("main").replaceWith(document.adoptNode(fresh)); }
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
      if (row) { row.replaceWith(fragment(html)); } else { refreshing = refreshing || setTimeout(() => { refreshing = null; refresh(); }, 200); }
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
