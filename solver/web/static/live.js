// Two devices on one game, and a phone that lasts the evening (issue 72):
//   DurakLive.watch(...)     polls a game's version (a few bytes, every POLL_MS while
//                            the page is in view) and fetches the game when it moved on
//   DurakLive.outbox(key)    entries kept in the browser's storage until the server has
//                            them: a lost connection loses none, and the entry id the
//                            server remembers means none is entered twice
//   DurakLive.seen(ok)       what api() tells of the connection: lost is shown as such
//   DurakLive.keepAwake(on)  the screen kept on during a game (the Wake Lock API, where
//                            the browser offers it: over https or on this computer)
// Loaded after common.js, before the page's own script.
"use strict";

const DurakLive = (function () {
  const POLL_MS = 500, RETRY_MS = 2000;
  let lost = false, waiting = 0, lock = null, awake = false, pinging = null;
  const retries = [];

  function entryId() {
    const b = new Uint8Array(12);
    window.crypto.getRandomValues(b);
    return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  }

  // ------------------------------------------------------------ the connection
  function banner() {
    let b = document.getElementById("conn-lost");
    if (!b) {
      b = document.createElement("div");
      b.id = "conn-lost";
      b.className = "conn-lost";
      b.setAttribute("role", "status");
      b.hidden = true;
      document.body.appendChild(b);
    }
    return b;
  }
  function draw() {
    const b = banner();
    b.hidden = !lost && !waiting;
    b.textContent = lost
      ? gt("Connection lost: the board does not answer.") + (waiting
        ? " " + ngt("{n} entry is kept on this device and sent when it is back.",
                    "{n} entries are kept on this device and sent when it is back.", waiting) : "")
      : ngt("Sending {n} kept entry…", "Sending {n} kept entries…", waiting);
  }
  function seen(ok) {
    if (ok === !lost) return;
    lost = !ok;
    draw();
    if (lost && !pinging) {
      pinging = setInterval(async () => {
        try { const r = await fetch("/api/status", { cache: "no-store" }); if (r.status) seen(true); } catch (e) { /* still lost */ }
      }, RETRY_MS);
    } else if (!lost) {
      clearInterval(pinging);
      pinging = null;
      for (const f of retries.splice(0)) f();
    }
  }
  // run `f` again once the connection is back
  function whenBack(f) { if (!lost) setTimeout(f, RETRY_MS); else retries.push(f); }
  window.addEventListener("online", () => { for (const f of retries.splice(0)) f(); });

  // ------------------------------------------------------------ watching a game
  function watch(versionUrl, current, refresh) {
    async function tick() {
      const url = versionUrl();
      if (url && document.visibilityState === "visible") {
        const r = await api(url);
        if (r.ok && current() !== null && r.data.version !== current() && versionUrl() === url) {
          try { await refresh(); } catch (e) { /* the next tick tries again */ }
        }
      }
      setTimeout(tick, POLL_MS);
    }
    setTimeout(tick, POLL_MS);
  }

  // ------------------------------------------------------------ the outbox
  function outbox(key) {
    const read = () => { try { return JSON.parse(window.localStorage.getItem(key) || "[]"); } catch (e) { return []; } };
    const write = (items) => {
      if (items.length) window.localStorage.setItem(key, JSON.stringify(items));
      else window.localStorage.removeItem(key);
      waiting = items.length;
      draw();
    };
    return {
      all: read,
      put(item) { write(read().concat([item])); },
      drop(id) { write(read().filter((i) => i.entry_id !== id)); },
      clear() { write([]); },
    };
  }

  // ------------------------------------------------------------ the screen
  async function requestLock() {
    if (!awake || lock || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { lock = null; });
    } catch (e) { lock = null; }  // refused (battery saver, no user gesture yet): the screen may sleep
  }
  function keepAwake(on) {
    awake = on;
    if (on) requestLock();
    else if (lock) { lock.release(); lock = null; }
  }
  document.addEventListener("visibilitychange", requestLock);  // the lock goes when the page is hidden
  document.addEventListener("click", requestLock);

  return { entryId, seen, whenBack, watch, outbox, keepAwake, get lost() { return lost; },
           get awake() { return Boolean(lock); } };
})();
