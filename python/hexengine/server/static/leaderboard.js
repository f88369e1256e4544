// The leaderboard: one list per rating pool (a variant and a board size), each player's
// Elo-like rating with a sparkline of its history, and this browser's own ratings.
"use strict";

(function () {
  const poolSelect = HX.$("#pool");
  const params = new URLSearchParams(location.search);
  let first = true;

  // Rows of the history table for one player and pool, fetched once.
  const histories = new Map();
  function history(id, pool) {
    const key = id + " " + pool;
    if (!histories.has(key)) {
      histories.set(key, HX.api("GET", "/api/ratings/" + encodeURIComponent(id) + "?pool=" + encodeURIComponent(pool))
        .then((d) => (d.pools[0] ? d.pools[0].history : []), () => []));
    }
    return histories.get(key);
  }

  async function load() {
    const pool = poolSelect.value, kind = HX.$("#kind").value;
    const q = new URLSearchParams();
    if (pool) q.set("pool", pool);
    if (kind) q.set("kind", kind);
    const data = await HX.api("GET", "/api/leaderboard" + (q.toString() ? "?" + q : ""));
    if (first) {
      first = false;
      const pools = data.pools || [];
      poolSelect.replaceChildren(HX.el("option", { value: "", text: "every game" }),
        ...pools.map((p) => HX.el("option", { value: p.pool, text: HX.poolName(p.pool) + " (" + p.players + ")" })));
      const wanted = params.get("pool") || (pools.length ? pools[0].pool : "");
      if (wanted && pools.some((p) => p.pool === wanted)) { poolSelect.value = wanted; return load(); }
    }
    const all = !data.pool;
    document.querySelectorAll(".for-all").forEach((e) => { e.hidden = !all; });
    HX.$("#rows").replaceChildren(...data.players.map((p, i) => {
      const spark = HX.el("td", { class: "spark-cell" });
      history(p.id, p.pool).then((h) => spark.replaceChildren(HX.sparkline(h.map((x) => x.display))));
      return HX.el("tr", { class: p.kind, "data-player": p.id, "data-pool": p.pool },
        HX.el("td", { text: i + 1 }),
        HX.el("td", { text: p.name + (p.kind === "computer" ? " (computer)" : "") }),
        all ? HX.el("td", { text: HX.poolName(p.pool) }) : null,
        HX.el("td", { class: "num rating", title: "μ " + p.mu.toFixed(2) + ", σ " + p.sigma.toFixed(2), text: p.display }),
        spark,
        HX.el("td", { class: "num", text: p.games }), HX.el("td", { class: "num", text: p.wins }), HX.el("td", { class: "num", text: p.losses }));
    }));
    HX.$("#empty").hidden = data.players.length > 0;
  }

  async function mine() {
    const id = localStorage.getItem("hexengine:rating-id");
    if (!id) return;
    let data;
    try { data = await HX.api("GET", "/api/ratings/" + encodeURIComponent(id)); } catch (e) { return; }
    HX.$("#me").hidden = false;
    HX.$("#my-pools").replaceChildren(...data.pools.map((p) => {
      const h = p.history.map((x) => x.display);
      const recent = h.slice(-6).join(" → ");
      return HX.el("li", { "data-pool": p.pool },
        HX.el("b", { text: HX.poolName(p.pool) + ": " + p.rating.display }), " ",
        HX.sparkline(h), " ",
        HX.el("span", { class: "muted history", text: p.rating.games + (p.rating.games === 1 ? " game" : " games") + (h.length > 1 ? "; " + recent : "") }));
    }));
  }

  poolSelect.addEventListener("change", load);
  HX.$("#kind").addEventListener("change", load);
  load();
  mine();
})();
