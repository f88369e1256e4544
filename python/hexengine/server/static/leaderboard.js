"use strict";

(function () {
  async function load() {
    const kind = HX.$("#kind").value;
    const data = await HX.api("GET", "/api/leaderboard" + (kind ? "?kind=" + kind : ""));
    HX.$("#rows").replaceChildren(...data.players.map((p, i) => HX.el("tr", { class: p.kind },
      HX.el("td", { text: i + 1 }), HX.el("td", { text: p.name + (p.kind === "computer" ? " (computer)" : "") }),
      HX.el("td", { text: p.rating.toFixed(1) }), HX.el("td", { text: p.mu.toFixed(2) }), HX.el("td", { text: p.sigma.toFixed(2) }),
      HX.el("td", { text: p.games }), HX.el("td", { text: p.wins }), HX.el("td", { text: p.losses }))));
    HX.$("#empty").hidden = data.players.length > 0;
  }
  HX.$("#kind").addEventListener("change", load);
  load();
})();
