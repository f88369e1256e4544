// The replay of a finished game: the full record with the true board after every action,
// whatever the end reason (in Dark Hex this is where every hidden stone is shown).
"use strict";

(async function () {
  const parts = location.pathname.split("/");
  const tableId = parts[2], number = parts[4];
  HX.$("#back").href = "/t/" + tableId;
  let data;
  try { data = await HX.api("GET", "/api/tables/" + tableId + "/games/" + number); } catch (e) {
    HX.$("#result").textContent = e.message; return;
  }
  const rec = data.record, boards = data.boards;
  const rules = rec.rules;
  HX.$("#title").textContent = HX.describe(Object.assign({}, rec.settings || {}, rules));
  const red = rec.players[rec.red_seat], blue = rec.players[rec.red_seat === "A" ? "B" : "A"];
  HX.$("#heading").textContent = "Game " + rec.number + ": Red (" + red.name + ") against Blue (" + blue.name + ")";
  const reasons = { connection: "by connection", resignation: "by resignation", timeout: "on time" };
  HX.$("#result").textContent = HX.colorName(rec.winner) + " won " + (reasons[rec.end_reason] || "") + ".";
  const board = new HX.Board(HX.$("#board"), rules.rows, rules.cols, null);
  const actions = rec.actions;
  const list = HX.$("#moves");
  actions.forEach((a, i) => {
    const text = HX.colorName(a.color) + ": " + (a.result === "swapped" ? "swap" : a.cell) + (a.result === "hit" ? " (hit)" : "") + (a.by === "computer" ? " · computer" : "");
    list.append(HX.el("li", { class: a.color, "data-n": i + 1, onclick: () => go(i + 1) }, text));
  });
  const slider = HX.$("#slider");
  slider.max = String(boards.length - 1);
  let at = boards.length - 1;
  function go(n) {
    at = Math.max(0, Math.min(boards.length - 1, n));
    slider.value = String(at);
    const last = at > 0 ? actions[at - 1].cell : null;
    board.paint(boards[at], { last, chain: at === boards.length - 1 ? rec.completed_chain || [] : [] });
    HX.$("#position").textContent = at + " / " + (boards.length - 1);
    for (const li of list.children) li.classList.toggle("current", Number(li.dataset.n) === at);
  }
  HX.$("#first").onclick = () => go(0);
  HX.$("#prev").onclick = () => go(at - 1);
  HX.$("#next").onclick = () => go(at + 1);
  HX.$("#last").onclick = () => go(boards.length - 1);
  slider.oninput = () => go(Number(slider.value));
  window.addEventListener("resize", () => { board.maybeRotate(); go(at); });
  go(at);
})();
