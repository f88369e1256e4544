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
    const current = list.querySelector("li.current");  // keep it in the list's view, not the page's
    if (current && (current.offsetTop < list.scrollTop || current.offsetTop + current.offsetHeight > list.scrollTop + list.clientHeight)) {
      list.scrollTop = current.offsetTop - list.clientHeight / 2;
    }
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

  // ------------------------------------------------------------ SGF and the engine's analysis

  const base = "/api/tables/" + tableId + "/games/" + number;
  const sgf = HX.$("#sgf");
  sgf.href = base + "/sgf";
  sgf.setAttribute("download", "hexengine-" + tableId + "-" + number + ".sgf");
  sgf.hidden = false;

  // The bot's view of the position on the board: its win rate for the player to move and its
  // top moves, drawn on the cells. This page shows finished games only, so in Dark Hex every
  // stone is already known; the search there sees what the player to move knew.
  const analysis = { on: false, cache: new Map(), timer: null, shown: null };
  const FORCED = {
    win: "a winning move", block: "the only move that stops an immediate loss", "only-move": "the only move",
    "dead-cell": "every other cell is as good", solved: "a win the solver proved", swindle: "the position is lost; the best try",
  };
  const percent = (v) => (v === null || v === undefined ? "?" : Math.round(v * 100) + "%");
  HX.$("#analyse").hidden = false;
  HX.$("#analyse").onclick = () => {
    analysis.on = !analysis.on;
    HX.$("#analyse").setAttribute("aria-pressed", String(analysis.on));
    HX.$("#analyse").textContent = analysis.on ? "Hide the analysis" : "Analyse with the engine";
    HX.$("#analysis").hidden = !analysis.on;
    if (!analysis.on) { HX.replay.setHints(null); return; }
    if (at === boards.length - 1 && at > 0) go(at - 1); else analyse(at);
  };
  HX.$("#depth").onchange = () => analysis.on && analyse(at);
  HX.replay.onStep = (n) => {
    if (!analysis.on || (analysis.shown && analysis.shown.ply === n)) return;
    HX.$("#analysis-head").textContent = "Thinking…";
    clearTimeout(analysis.timer);
    analysis.timer = setTimeout(() => analyse(n), 200);  // holding an arrow key asks once
  };

  async function analyse(n) {
    const sims = HX.$("#depth").value;
    const key = n + ":" + sims;
    HX.$("#analysis-head").textContent = "Thinking…";
    HX.$("#analysis-moves").replaceChildren();
    HX.$("#winbar").hidden = true;
    HX.$("#analysis-note").textContent = "";
    let a = analysis.cache.get(key);
    if (!a) {
      try {
        a = await HX.api("GET", base + "/analysis?ply=" + n + "&simulations=" + sims + "&top=5");
      } catch (e) {
        if (n !== at || !analysis.on) return;
        HX.$("#analysis-head").textContent = e.code === "game-over" ? "The game is over here: step back to see the engine's view of a position." : e.message;
        analysis.shown = { ply: n };
        HX.replay.setHints(null);
        return;
      }
      analysis.cache.set(key, a);
    }
    if (n !== at || !analysis.on) return;  // the player has stepped on meanwhile
    analysis.shown = a;
    const mover = HX.colorName(a.to_move);
    const move = a.move === "swap" ? "the swap" : a.move;
    const forced = FORCED[a.forced] ? " (" + FORCED[a.forced] + ")" : "";
    HX.$("#analysis-head").textContent = mover + " to move: " + (a.value === null || a.value === undefined ? "" : percent(a.value) + " to win; ")
      + "the engine plays " + move + forced + ".";
    const top = a.top.length ? a.top : a.move ? [{ cell: a.move, visits: null, value: a.value }] : [];
    const red = a.to_move === "red" ? a.value : 1 - a.value;
    const bar = HX.$("#winbar");
    bar.hidden = a.value === null || a.value === undefined;
    bar.firstElementChild.style.width = (Math.max(0, Math.min(1, red)) * 100).toFixed(1) + "%";
    bar.title = "Red " + percent(red) + ", Blue " + percent(1 - red);
    HX.$("#analysis-moves").replaceChildren(...top.map((t) =>
      HX.el("li", { "data-cell": t.cell }, t.cell + ": " + (t.visits === null ? (FORCED[a.forced] || "forced") + (t.value === null || t.value === undefined ? "" : ", " + percent(t.value))
        : percent(t.value) + " (" + t.visits + " visits)"))));
    const notes = [];
    if (a.swap_value !== null && a.swap_value !== undefined) notes.push("Swapping: " + percent(a.swap_value) + ".");
    if (a.pv && a.pv.length > 1) notes.push("Line: " + a.pv.join(" ") + ".");
    if (a.forced) notes.push("The engine sees a forced result.");
    notes.push(a.simulations + " simulations" + (rules.variant.startsWith("dark") ? ", from what " + mover + " knew then." : "."));
    HX.$("#analysis-note").textContent = notes.join(" ");
    HX.replay.setHints({ at: n, cells: top.filter((t) => t.cell !== "swap").map((t, i) => ({ cell: t.cell, text: t.visits === null ? "!" : percent(t.value).replace("%", ""), best: i === 0 })) });
  }

  go(at);
  if (location.hash === "#analyse") HX.$("#analyse").click();
})();
