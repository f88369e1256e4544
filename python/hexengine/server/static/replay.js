// The replay of a finished game: the full record with the true board after every action,
// whatever the end reason (in Dark Hex this is where every hidden stone is shown).
// Arrow keys step, Home and End jump; the record's result names the winner and its chain.
"use strict";

(async function () {
  const parts = location.pathname.split("/");
  const tableId = parts[2], number = parts[4];
  HX.$("#back").href = "/t/" + tableId;
  for (const id of ["first", "prev", "next", "last"]) HX.$("#" + id).append(HX.icon(id));
  let data;
  try { data = await HX.api("GET", "/api/tables/" + tableId + "/games/" + number); } catch (e) {
    HX.$("#result").textContent = e.message; return;
  }
  const rec = data.record, boards = data.boards;
  const rules = rec.rules;
  const result = rec.result || {};
  HX.$("#title").textContent = HX.describe(Object.assign({}, rec.settings || {}, rules));
  const other = (seat) => (seat === "A" ? "B" : "A");
  const nameOf = (seat) => (rec.players[seat] && rec.players[seat].name) || seat;
  HX.$("#heading").textContent = "Game " + rec.number + ": " + nameOf(rec.red_seat) + " (Red) against " + nameOf(other(rec.red_seat)) + " (Blue)";
  document.title = "Replay of game " + rec.number + " — hexengine";
  const reasons = { connection: "by connection", resignation: "by resignation", timeout: "on time", abort: "" };
  let text;
  if (result.winner) {
    text = HX.colorName(result.winner) + (result.winner_seat ? " (" + nameOf(result.winner_seat) + ")" : "") + " won";
    if (reasons[result.reason]) text += " " + reasons[result.reason];
    text += ".";
    if (result.reason === "connection" && (result.completed_chain || []).length) {
      text += rules.variant === "rex" ? " The losing chain is highlighted at the end." : " The winning chain is highlighted at the end.";
    }
  } else {
    text = result.reason === "abort" ? "The game was aborted." : "The game ended without a winner.";
  }
  HX.$("#result").textContent = text;
  const chain = result.completed_chain || [];

  let flipped = !!HX.prefs.get("flip", false);
  const board = new HX.Board(HX.$("#board"), rules.rows, rules.cols, null, { flipped });
  const actions = rec.actions;
  const list = HX.$("#moves");
  actions.forEach((a, i) => {
    const move = a.result === "swapped" ? "swap" + (a.cell ? " (" + a.cell + ")" : "") : a.cell;
    const text = HX.colorName(a.color) + ": " + move + (a.result === "hit" ? " (hit)" : "") + (a.by === "computer" ? " · computer" : "");
    list.append(HX.el("li", { class: a.color, "data-n": i + 1, onclick: () => go(i + 1) }, text));
  });
  const slider = HX.$("#slider");
  slider.max = String(boards.length - 1);
  let at = boards.length - 1;
  let hints = null;
  function go(n) {
    at = Math.max(0, Math.min(boards.length - 1, n));
    slider.value = String(at);
    const last = at > 0 ? actions[at - 1].cell : null;
    board.paint(boards[at], { last, chain: at === boards.length - 1 ? chain : [], hints: hints && hints.at === at ? hints.cells : [] });
    HX.$("#position").textContent = at + " / " + (boards.length - 1);
    for (const li of list.children) li.classList.toggle("current", Number(li.dataset.n) === at);
    const current = list.querySelector("li.current");
    if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
    HX.replay.onStep(at);
  }
  HX.replay = { go, get at() { return at; }, onStep: () => {}, setHints(h) { hints = h; go(at); }, record: rec, boards, tableId, number };
  HX.$("#first").onclick = () => go(0);
  HX.$("#prev").onclick = () => go(at - 1);
  HX.$("#next").onclick = () => go(at + 1);
  HX.$("#last").onclick = () => go(boards.length - 1);
  HX.$("#flip").onclick = () => { flipped = !flipped; HX.prefs.set("flip", flipped); board.setFlipped(flipped); go(at); };
  slider.oninput = () => go(Number(slider.value));
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const t = event.target;
    if (t === slider || (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA"))) return;
    const step = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: boards.length - 1 }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    go(step);
  });
  window.addEventListener("resize", () => { board.maybeRotate(); go(at); });
  go(at);
})();
