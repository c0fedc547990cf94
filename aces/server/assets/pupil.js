"use strict";
// A group's page, made quicker. Without this script the page is plain forms
// and works as well: every form posts, and the server answers with the page.
// Here a form is posted in the background and the page's main part swapped
// for the server's answer; the narration is read out by the live region; a
// post that gets no answer (the server restarting, the Wi-Fi gone) is sent
// again with the same submission id, so it is recorded once, until it gets
// one. No rule is in this script: every roll is decided on the server.
(function () {
  const announce = document.getElementById("announce");
  const status = document.createElement("p");
  status.id = "status";
  status.setAttribute("role", "status");
  document.querySelector("header").append(status);
  let busy = false;

  function sleep(ms) { return new Promise((done) => setTimeout(done, ms)); }

  function swap(html, moved) {
    const next = new DOMParser().parseFromString(html, "text/html");
    const fresh = next.getElementById("main");
    if (!fresh) { return false; }
    document.title = next.title;
    const heading = next.querySelector("header h1");
    if (heading) { document.querySelector("header h1").textContent = heading.textContent; }
    document.getElementById("main").replaceWith(document.adoptNode(fresh));
    enhance();
    const refused = document.getElementById("refused");
    const told = document.getElementById("told");
    if (refused) {
      announce.textContent = refused.textContent;
    } else if (told && told.textContent.trim()) {
      announce.textContent = Array.from(told.children, (line) => line.textContent).join(" ");
    }
    if (moved) {
      const target = refused || document.getElementById("prompt");
      if (target) { target.setAttribute("tabindex", "-1"); target.focus(); }
    }
    return true;
  }

  function offline(lost) {
    status.textContent = lost ? document.body.dataset.offline : "";
  }

  async function post(form, submitter) {
    const data = new URLSearchParams(new FormData(form, submitter));
    busy = true;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const answer = await fetch(form.action, { method: "POST", body: data,
                                                    credentials: "same-origin" });
          if (new URL(answer.url).pathname === "/") { location.assign("/"); return; }
          if (answer.status >= 500) { throw new Error(String(answer.status)); }
          swap(await answer.text(), true);
          offline(false);
          return;
        } catch (error) {
          offline(true);
          await sleep(Math.min(500 * 2 ** attempt, 4000));
        }
      }
    } finally {
      busy = false;
    }
  }

  function receivers(form) {
    const lists = form.querySelectorAll("fieldset.receivers li");
    if (!lists.length) { return; }
    const threes = form.querySelectorAll('label.face input[value="3"]:checked').length;
    lists.forEach((item, index) => { item.hidden = index >= threes; });
    form.querySelector("fieldset.receivers").hidden = threes === 0;
  }

  function enhance() {
    document.querySelectorAll("#main form").forEach((form) => {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        if (!busy) { post(form, event.submitter); }
      });
      form.addEventListener("change", () => receivers(form));
      receivers(form);
    });
  }

  async function poll() {
    // Another device of the group may have recorded a roll: follow it.
    for (;;) {
      await sleep(3000);
      if (busy || document.visibilityState !== "visible") { continue; }
      try {
        const answer = await fetch("/group", { credentials: "same-origin" });
        if (new URL(answer.url).pathname === "/") { location.assign("/"); return; }
        const html = await answer.text();
        offline(false);
        const seq = /data-seq="(\d+)"/.exec(html);
        const main = document.getElementById("main");
        const typing = document.activeElement && document.activeElement.id === "notation"
          && document.activeElement.value;
        if (seq && main && seq[1] !== main.dataset.seq && !typing && !busy) { swap(html, false); }
      } catch (error) {
        offline(true);
      }
    }
  }

  enhance();
  document.body.dataset.ready = "1";
  poll();
}());
