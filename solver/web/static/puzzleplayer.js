// The puzzle player on the puzzles page: the rating, the next puzzle served
// (by rating, of a theme, the streak's, the day's), each first try's result
// sent to the server (solver/web/puzzles.py over solver/puzzles/player.py), and
// the dashboard: the rating over time as a small SVG line, the streaks, the
// accuracy by theme (the weakest first, each with a button to train it).
"use strict";

const PuzzlePlayer = {
  mode: "rated", theme: "", stats: null, served: null,

  init(onServe) {
    this.onServe = onServe;
    $("pz-rated").addEventListener("click", () => { this.mode = "rated"; this.serve(); });
    $("pz-streak").addEventListener("click", () => { this.mode = "streak"; this.serve(); });
    $("pz-daily").addEventListener("click", () => { this.mode = "daily"; this.serve(); });
    $("pz-theme").addEventListener("change", () => { this.theme = $("pz-theme").value; this.mode = "rated"; this.serve(); });
    return this.load();
  },

  async load() {
    const r = await api("/api/puzzles/player");
    if (!r.ok) return;
    this.stats = r.data;
    this.draw();
  },

  // the next puzzle in this mode; a missed one due for review comes first
  async serve() {
    const q = new URLSearchParams({ mode: this.mode });
    if (this.theme && this.mode !== "daily") q.set("theme", this.theme);
    const r = await api(`/api/puzzles/next?${q}`);
    if (!r.ok) { $("pz-mode").textContent = r.data.error; return; }
    const why = { due: gt("due for review"), streak: gt("streak"), daily: gt("daily puzzle"), rating: gt("near your rating") }[r.data.why] || "";
    const rated = gt("puzzle rating {rating}", { rating: r.data.rating });
    $("pz-mode").textContent = why ? `${why} \u00b7 ${rated}` : rated;
    this.served = r.data.id;  // Next puzzle then serves again, in this mode
    await this.onServe(r.data.id);
  },

  // one first try's result: the rating's change (or the streak) shown
  async result(id, solved) {
    // a puzzle opened from the list is rated whatever mode the buttons were in
    const mode = this.served === id ? this.mode : "rated";
    const r = await api(`/api/puzzles/${encodeURIComponent(id)}/result`, { solved, mode });
    if (!r.ok) return null;
    const a = r.data;
    if (a.mode === "streak") {
      $("pz-change").textContent = solved ? gt("streak {n}", { n: a.streak }) : gt("the streak is over");
      if (!solved) this.mode = "rated";
    } else {
      const sign = a.change >= 0 ? "+" : "\u2212";
      $("pz-change").textContent = `${sign}${Math.abs(Math.round(a.change))}`;
    }
    await this.load();
    return a;
  },

  draw() {
    const s = this.stats;
    $("pz-rating").textContent = String(Math.round(s.rating));
    const sel = $("pz-theme");
    if (sel.options.length <= 1) {
      for (const c of s.choices) {
        const o = el("option", null, `${c.words} (${c.count})`);
        o.value = c.theme;
        sel.appendChild(o);
      }
    }
    sel.value = this.theme;
    $("pz-streaks").textContent = gt("Best streak: {best} · reviews due: {due}", { best: s.best_streak, due: s.due });
    this.chart(s.history);
    const ul = $("pz-themes");
    ul.textContent = "";
    if (!s.themes.length) ul.appendChild(el("li", "muted small", gt("No puzzle attempted yet.")));
    for (const t of s.themes) {
      const li = el("li");
      li.appendChild(el("span", "pz-theme-name", t.words));
      li.appendChild(el("span", "muted small", `${t.solved}/${t.attempts} \u00b7 ${Math.round(100 * t.accuracy)}%`));
      const b = el("button", "link-button", gt("Train it"));
      b.type = "button";
      b.addEventListener("click", () => { this.theme = t.theme; this.mode = "rated"; sel.value = t.theme; this.serve(); });
      li.appendChild(b);
      ul.appendChild(li);
    }
  },

  // the rating after each rated attempt, as one SVG polyline that fits its box
  chart(history) {
    const box = $("pz-chart");
    box.textContent = "";
    if (history.length < 2) { box.appendChild(el("div", "muted small", gt("The chart starts after two rated puzzles."))); return; }
    // the highest and the lowest rating reached, written at their lines on the left
    const W = 300, H = 80, pad = 6, left = 34;
    const ys = history.map(h => h.rating);
    const top = Math.max(...ys), bottom = Math.min(...ys);
    const lo = bottom - 10, hi = top + 10;
    const yOf = (y) => (H - pad - (y - lo) * (H - 2 * pad) / (hi - lo)).toFixed(1);
    const pts = ys.map((y, i) => `${(left + i * (W - left - pad) / (ys.length - 1)).toFixed(1)},${yOf(y)}`);
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    for (const y of top === bottom ? [top] : [top, bottom]) {
      const rule = document.createElementNS(ns, "line");
      Object.entries({ x1: left, x2: W - pad, y1: yOf(y), y2: yOf(y), stroke: "currentColor",
                       "stroke-opacity": "0.2", "stroke-dasharray": "3 3" })
        .forEach(([k, v]) => rule.setAttribute(k, v));
      const mark = document.createElementNS(ns, "text");
      Object.entries({ x: left - 4, y: yOf(y), "text-anchor": "end", "dominant-baseline": "middle",
                       "font-size": "10", fill: "currentColor" })
        .forEach(([k, v]) => mark.setAttribute(k, v));
      mark.textContent = String(Math.round(y));  // a rating is written without separators, as chess writes it
      svg.append(rule, mark);
    }
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", gt("Rating over time: {first} to {last}", { first: Math.round(ys[0]), last: Math.round(ys[ys.length - 1]) }));
    const line = document.createElementNS(ns, "polyline");
    line.setAttribute("points", pts.join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", "currentColor");
    line.setAttribute("stroke-width", "2");
    svg.appendChild(line);
    box.appendChild(svg);
    box.appendChild(el("div", "muted small", gt("{first} \u2192 {last} over {n} rated puzzles", { first: Math.round(ys[0]), last: Math.round(ys[ys.length - 1]), n: ys.length })));
  },
};
