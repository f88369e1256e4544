// The table page: a thin client of the table's messages (docs/messages.md, docs/web.md).
// It knows no rule: it shows what each message says and sends what the player clicks.
"use strict";

(function () {
  const parts = location.pathname.split("/");
  const tableId = parts[2];
  const watching = parts[3] === "watch";
  const S = { recipient: null, you: null, settings: null, mode: null, seats: {}, series: null,
              curtain: null, state: null, lastSeq: null, clockAt: 0, ratings: null, rematch: null, since: null,
              armed: null, guardUntil: 0, liftSent: false, wasMyTurn: null };
  const pending = new Map();
  const prefs = { confirm: !!HX.prefs.get("confirm", false), sound: !!HX.prefs.get("sound", false), flip: !!HX.prefs.get("flip", false) };
  const GUARD_MS = 700;  // after the curtain lifts, the board ignores taps this long
  let ws = null, board = null, retry = 0, stopped = false, counter = 0;

  function show(id, on) { HX.$(id).hidden = !on; }
  function status(text) { HX.$("#status").textContent = text || ""; }
  function connection(text) { HX.$("#connection").textContent = text || ""; show("#connection", !!text); }

  // ------------------------------------------------------------ joining

  async function start() {
    await HX.recovered;  // a recovery link may bring this page its seat
    const inviteMatch = location.hash.match(/invite=([\w-]+)/);
    const stored = HX.seat.get(tableId);
    if (watching || (!stored && !inviteMatch)) return open(null);
    if (stored && stored.token) return open(stored.token);
    if (!inviteMatch) return open(null);
    let info;
    try { info = await HX.api("GET", "/api/tables/" + tableId); } catch (e) { return fail(e.message); }
    show("#join", true);
    const host = info.seats.A && info.seats.A.name;
    HX.$("#join-text").textContent = (host ? host + " invites you to play " : "Play ") + HX.describe(info.settings) + ".";
    HX.$("#join-name").value = localStorage.getItem("hexengine:name") || "";
    HX.$("#watch-instead").href = "/t/" + tableId + "/watch";
    document.title = "Join the table — hexengine";
    if (!info.invite_open) return seatTaken();
    HX.$("#join-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      HX.$("#join-error").textContent = "";
      try {
        const name = HX.$("#join-name").value;
        const answer = await HX.api("POST", "/api/tables/" + tableId + "/join", { code: inviteMatch[1], name, player_id: HX.playerId() });
        localStorage.setItem("hexengine:name", name);
        if (answer.player) localStorage.setItem("hexengine:rating-id", answer.player);
        HX.seat.set(tableId, { token: answer.token, recipient: answer.recipient, mode: "online", created: Date.now(), title: HX.describe(info.settings) });
        history.replaceState(null, "", location.pathname);
        show("#join", false);
        open(answer.token);
      } catch (e) {
        if (e.status === 409 || e.code === "seat-taken") return seatTaken(e.data && e.data.watch);
        if (e.code === "bad-invite") {  // the link may have been used meanwhile: then the seat is taken
          try {
            const now = await HX.api("GET", "/api/tables/" + tableId);
            if (!now.invite_open) return seatTaken();
          } catch (e2) { /* keep the first error */ }
        }
        HX.$("#join-error").textContent = e.message;
      }
    });
  }

  // Someone else took the invited seat: no "Take the seat" any more, watching instead.
  function seatTaken(watchUrl) {
    show("#join-form", false);
    HX.$("#join-error").textContent = "This seat is taken: someone has already joined with this invite link. You can still watch the game.";
    if (watchUrl) HX.$("#watch-instead").href = watchUrl;
    show("#join-watch", true);
  }

  function fail(text) { status(text); show("#play", true); }

  // A passing note (a takeback declined, withdrawn or done), shown for a few seconds.
  let noteTimer = null;
  function note(text) {
    HX.$("#note").textContent = text;
    show("#note", true);
    clearTimeout(noteTimer);
    noteTimer = setTimeout(() => show("#note", false), 8000);
  }

  // ------------------------------------------------------------ connecting

  function open(token) {
    ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws/" + tableId);
    ws.onopen = () => {
      retry = 0;
      ws.send(JSON.stringify(token ? { type: "hello", token } : { type: "hello", watch: true }));
    };
    ws.onmessage = (event) => receive(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (stopped) return;
      if (event.code === 4001) { connection("This seat was opened in another window."); return; }
      if (event.code === 4003 || event.code === 4404) return;
      const wait = Math.min(5000, 300 * 2 ** retry++);
      connection("Connection lost; reconnecting…");
      setTimeout(() => open(token === null ? null : (HX.seat.get(tableId) || {}).token || token), wait);
    };
  }

  function send(frame) {
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(frame));
  }

  function request(frame) {
    const id = "c" + Date.now().toString(36) + "-" + (counter++);
    frame.id = id;
    if (frame.type === "move") pending.set(id, frame);
    send(frame);
    return id;
  }

  // ------------------------------------------------------------ messages

  function receive(m) {
    if (m.type === "welcome") {
      HX.seat.update(tableId, { token: m.token, recipient: m.recipient });
      send({ type: "saved" });
      S.recipient = m.recipient;
      connection("");
      return;
    }
    if (m.type === "error") {
      if (m.code === "bad-token") { HX.seat.forget(tableId); stopped = true; connection("This seat's key is not valid here any more. Reload to watch."); }
      else connection(m.error);
      return;
    }
    if (m.type === "ack") {
      pending.delete(m.id);
      if (m.of === "lift" || m.of === "raise") S.liftSent = false;
      if (!m.ok && m.code !== "stale") status(m.error);
      return;
    }
    if (m.type === "pong") return;
    if (m.seq !== undefined && m.type !== "snapshot" && S.lastSeq !== null && m.seq !== S.lastSeq + 1) {
      send({ type: "snapshot" });
      return;
    }
    if (m.seq !== undefined) S.lastSeq = m.seq;
    const st = S.state;
    const wasUp = !!(S.curtain && S.curtain.up);
    switch (m.type) {
      case "snapshot":
        Object.assign(S, { settings: m.settings, mode: m.mode, seats: m.seats, you: m.you, series: m.series, curtain: m.curtain, state: m.state });
        S.clockAt = performance.now();
        S.since = m.reason === "curtain-lifted" && m.state ? m.state.since_last_turn : null;
        S.rematch = null;
        connection("");
        if (m.reason === "reconnect" || m.reason === "join") for (const f of pending.values()) send(f);
        break;
      case "game_started":
        S.state = m.state; S.ratings = null; S.rematch = null; S.since = null; S.clockAt = performance.now();
        break;
      case "your_turn": case "turn":
        if (st) {
          Object.assign(st, { to_move: m.color, to_move_seat: m.seat, clock: m.clock, text: m.text,
                              legal_moves: m.legal_moves || [], swap_available: !!m.swap_available });
          S.clockAt = performance.now();
        }
        break;
      case "moved": case "you_hit": case "opponent_moved": case "stone_hit": case "action":
        if (st) {
          st.board = m.board; st.colors = m.colors; st.hidden_stones = m.hidden_stones;
          st.history.push({ n: m.n, color: m.color, seat: m.seat, cell: m.cell, result: m.result, by: m.by });
          st.legal_moves = []; st.swap_available = false; st.text = m.text;
          if (m.type === "stone_hit") st.hits_received = (st.hits_received || 0) + 1;
        }
        break;
      case "clock":
        if (st) { st.clock = m.clock; S.clockAt = performance.now(); }
        break;
      case "curtain":
        S.curtain = m;
        S.liftSent = false;
        if (m.up && st) {  // nothing of the last player's view stays in the page
          st.board = null; st.history = []; st.legal_moves = []; st.since_last_turn = []; st.hits = [];
          S.since = null;
        }
        break;
      case "seat":
        S.seats[m.seat] = m;
        break;
      case "game_over":
        if (st) {
          st.over = true; st.to_move = null; st.to_move_seat = null; st.legal_moves = []; st.board = m.board;
          st.result = { winner: m.winner, winner_seat: m.winner_seat, reason: m.reason, completed_chain: m.completed_chain };
          st.text = m.text;
          if (S.curtain && !m.revealed) S.curtain = Object.assign({}, S.curtain, { up: true, seat: null, text: "The game is over. Each player may look at their own board." });
          if (S.curtain && m.revealed) S.curtain = Object.assign({}, S.curtain, { up: false, seat: null });
        }
        S.series = m.series;
        break;
      case "reveal":
        if (st) { st.board = m.board; st.history = m.history; }
        break;
      case "ratings":
        S.ratings = { changes: m.changes || {}, pool: m.pool, unrated: m.unrated };
        break;
      case "rematch":
        S.rematch = m.ready;
        break;
      case "takeback":
        if (st) st.takeback = m.state === "asked" ? m.seat : null;
        if (m.state !== "asked") note(m.text + ".");
        break;
      case "aborted":
        if (st) {
          st.over = true; st.to_move = null; st.to_move_seat = null; st.legal_moves = []; st.takeback = null;
          st.result = { winner: null, winner_seat: null, reason: "aborted", completed_chain: [] };
          st.text = m.text;
          if (S.curtain) S.curtain = Object.assign({}, S.curtain, { up: true, seat: null, text: "The game was aborted. Each player may look at their own board." });
        }
        break;
      case "replay":
        location.href = "/t/" + tableId + "/replay/" + m.number;
        return;
    }
    // The curtain just lifted: a second tap of the one that lifted it must not reach the board.
    if (wasUp && !(S.curtain && S.curtain.up)) S.guardUntil = performance.now() + GUARD_MS;
    if (m.type !== "clock" && m.type !== "seat" && m.type !== "rematch" && m.type !== "ratings") S.armed = null;
    render();
  }

  // ------------------------------------------------------------ drawing

  function seatOf(color) { return S.state && S.state.colors ? S.state.colors[color] : null; }
  function mySeats() { return S.you ? S.you.seats : []; }
  function nameOf(seat) { return (S.seats[seat] && S.seats[seat].name) || "—"; }
  function who(color) { const seat = seatOf(color); return HX.colorName(color) + (seat ? " (" + nameOf(seat) + ")" : ""); }
  function curtainUp() { return !!(S.curtain && S.curtain.up); }
  function myTurn() {
    const st = S.state;
    return !!(st && !st.over && st.to_move_seat && !curtainUp() && mySeats().includes(st.to_move_seat)
              && !(S.seats[st.to_move_seat] || {}).computer_playing);
  }

  function render() {
    show("#play", true);
    const st = S.state;
    if (S.settings) HX.$("#title").textContent = HX.describe(S.settings);
    const rules = st ? st.rules : S.settings;
    if (rules && (!board || board.rows !== rules.rows || board.cols !== rules.cols)) {
      board = new HX.Board(HX.$("#board"), rules.rows, rules.cols, clickCell, { flipped: prefs.flip });
    }
    const covered = curtainUp();
    // players
    for (const seat of ["A", "B"]) {
      const info = S.seats[seat] || {};
      const box = HX.$("#seat-" + seat);
      const color = st && st.colors ? (st.colors.red === seat ? "red" : "blue") : null;
      box.className = "player " + (color || "") + (st && st.to_move_seat === seat ? " to-move" : "");
      box.querySelector(".chip").textContent = color ? HX.colorName(color) : "";
      box.querySelector(".name").textContent = info.name ? info.name + (mySeats().includes(seat) && S.mode !== "one-device" ? " (you)" : "") : "waiting for a player…";
      const notes = [];
      if (info.kind === "computer") notes.push("computer, " + info.level);
      else if (info.kind && info.computer_playing) notes.push("away: the computer plays for them");
      else if (info.kind && !info.connected) notes.push("away");
      box.querySelector(".note").textContent = notes.join("; ");
    }
    renderClocks();
    // board
    // Right after the curtain lifts the board is not playable yet (a guard against a double tap).
    const guard = S.guardUntil - performance.now();
    if (guard > 0) { clearTimeout(S.guardTimer); S.guardTimer = setTimeout(render, guard + 10); }
    const mine = myTurn() && guard <= 0 ? (st.legal_moves || []).filter((m) => m !== "swap") : [];
    if (S.armed && !mine.includes(S.armed)) S.armed = null;
    if (board) {
      const showBoard = st && st.board && !covered;
      const history = st ? st.history : [];
      const last = history.length ? history[history.length - 1].cell : null;
      board.paint(showBoard ? st.board : null, {
        last: showBoard ? last : null,
        chain: st && st.over && st.result ? st.result.completed_chain : [],
        legal: mine,
        mine: mine.length ? st.to_move : null,
        armed: S.armed,
      });
      HX.$("#board-wrap").classList.toggle("covered", covered);
    }
    renderTurn();
    renderSince();
    // moves
    const list = HX.$("#moves");
    list.replaceChildren(...(st && !covered ? st.history : []).map((h) => HX.el("li", { class: h.color },
      HX.colorName(h.color) + ": " + (h.result === "swapped" ? "swap" + (h.cell ? " (" + h.cell + ")" : "")
        : (h.cell || "a hidden cell") + (h.result === "hit" ? " (hit)" : "")) + (h.by === "computer" && S.seats[h.seat] && S.seats[h.seat].kind !== "computer" ? " · played by the computer" : ""))));
    list.scrollTop = list.scrollHeight;
    // actions
    const seated = mySeats().length > 0;
    const running = st && !st.over;
    show("#resign", seated && running && !covered);
    show("#swap", !!(st && !covered && st.swap_available && myTurn()));
    show("#confirm-move", !!S.armed);
    if (S.armed) HX.$("#confirm-move").textContent = "Play " + S.armed;
    const hasCurtain = S.curtain !== null && S.curtain !== undefined;
    show("#cover", seated && hasCurtain && !covered && !(st && st.over && st.result && st.result.reason === "connection"));
    const dark = !!(S.settings && S.settings.variant.startsWith("dark"));
    const oneDevice = S.mode === "one-device";
    const history = st ? st.history || [] : [];
    show("#abort", !!(seated && running && !covered && history.length < 2));
    const asked = st && st.takeback ? st.takeback : null;
    const moved = oneDevice ? history.length > 0 : history.some((h) => mySeats().includes(h.seat));
    show("#takeback", !!(seated && running && !covered && !dark && !asked && moved));
    HX.$("#takeback").textContent = oneDevice ? "Take back" : "Ask to take back";
    show("#request-box", !!(running && asked && !covered));
    if (running && asked) {
      const mineAsked = mySeats().includes(asked);
      HX.$("#request-text").textContent = mineAsked ? "You asked to take back your last move; waiting for " + nameOf(asked === "A" ? "B" : "A") + "."
        : nameOf(asked) + " asks to take back their last move" + (seated ? "." : " (waiting for the answer).");
      show("#accept-takeback", seated && !mineAsked);
      HX.$("#decline-takeback").textContent = mineAsked ? "Withdraw" : "Decline";
      show("#decline-takeback", seated);
    }
    show("#rematch", seated && st && st.over);
    const finished = st && st.over && !(st.result && st.result.reason === "aborted") ? st.number : null;
    show("#replay", !!finished);
    show("#analyse-link", !!finished);  // only once the game is over: no help during a game
    if (finished) {
      HX.$("#replay").href = "/t/" + tableId + "/replay/" + finished;
      HX.$("#analyse-link").href = "/t/" + tableId + "/replay/" + finished + "#analyse";
    }
    const ready = S.rematch;
    show("#rematch-note", !!ready);
    if (ready) HX.$("#rematch-note").textContent = ["A", "B"].filter((s) => ready[s]).map((s) => nameOf(s)).join(" and ") + " asked for a rematch.";
    if (ready && mySeats().every((s) => ready[s])) HX.$("#rematch").disabled = true; else HX.$("#rematch").disabled = false;
    show("#ratings", !!S.ratings);
    if (S.ratings) HX.$("#ratings").textContent = ratingsText(S.ratings);
    HX.$("#series").textContent = S.series && S.series.games ? "Series: " + nameOf("A") + " " + S.series.wins.A + " – " + S.series.wins.B + " " + nameOf("B") : "";
    // links
    const stored = HX.seat.get(tableId) || {};
    show("#links", S.mode !== "one-device");
    const inviteOpen = !!stored.invite && !(S.seats.B && S.seats.B.kind);
    show("#invite-box", inviteOpen);
    if (inviteOpen) HX.$("#invite").value = location.origin + stored.invite;
    HX.$("#watch-link").href = "/t/" + tableId + "/watch";
    HX.$("#watch-link").textContent = location.origin + "/t/" + tableId + "/watch";
    show("#options", true);
    HX.$("#pref-confirm").parentElement.hidden = !seated;
    HX.$("#pref-sound").parentElement.hidden = !seated || S.mode === "one-device";
    show("#recovery-box", seated && HX.$("#recovery-panel").hidden);
    // curtain
    show("#curtain", covered);
    if (covered) {
      HX.$("#curtain-text").textContent = S.curtain.seat ? S.curtain.text.replace(/, who lifts the curtain$/, "") : (S.curtain.text || "The board is covered.");
      if (S.curtain.seat) HX.$("#lift").textContent = who(S.curtain.color) + ": tap when ready";
      show("#lift", !!S.curtain.seat);
      HX.$("#lift").disabled = S.liftSent;
      show("#lift-either", !S.curtain.seat && st && st.over);
      if (st && st.colors) {
        HX.$("#lift-A").textContent = "Show " + who(st.colors.red === "A" ? "red" : "blue") + "'s board";
        HX.$("#lift-B").textContent = "Show " + who(st.colors.red === "B" ? "red" : "blue") + "'s board";
      }
    }
  }

  // The rating changes of a rated game, on the Elo-like scale, or why it was not rated.
  function ratingsText(r) {
    if (r.unrated) return r.unrated.charAt(0).toUpperCase() + r.unrated.slice(1) + (/[.!]$/.test(r.unrated) ? "" : ".");
    const shown = (x) => (x.display !== undefined ? String(x.display) : x.rating.toFixed(1));
    const parts = ["A", "B"].filter((s) => r.changes[s]).map((s) => {
      const c = r.changes[s], before = c.before.display, after = c.after.display;
      const diff = before !== undefined && after !== undefined ? " (" + (after - before >= 0 ? "+" : "−") + Math.abs(after - before) + ")" : "";
      return nameOf(s) + " " + shown(c.before) + " → " + shown(c.after) + diff;
    });
    return "Ratings" + (r.pool ? " (" + HX.poolName(r.pool) + ")" : "") + ": " + parts.join(", ");
  }

  // Whose turn it is, said plainly: the status line, a coloured stone, and the tab's title
  // ("● Your move — hexengine"); an optional beep when the turn comes to this page's player.
  function renderTurn() {
    const st = S.state;
    const covered = curtainUp();
    let title;
    if (!st) { status(S.mode === null ? "Waiting for the second player." : ""); title = "Waiting for a player"; }
    else if (st.over && st.result) {
      status(st.text || (st.result.winner ? HX.colorName(st.result.winner) + " wins" : "The game was aborted: no result."));
      title = st.result.winner ? HX.colorName(st.result.winner) + " wins" : "Game over";
    } else if (covered) { status("The board is covered."); title = "Board covered"; }
    else { status(turnText(st)); title = myTurn() ? (S.mode === "one-device" ? "● " + HX.colorName(st.to_move) + " to move" : "● Your move") : st.to_move ? who(st.to_move) + " to move" : "hexengine"; }
    document.title = title + " — hexengine";
    const turn = HX.$("#turn");
    const mine = myTurn();
    turn.classList.toggle("mine", mine);
    const stone = turn.querySelector(".stone");
    const color = st && !covered ? (st.over && st.result ? st.result.winner : st.to_move) : null;
    stone.hidden = !color;
    stone.className = "stone " + (color || "");
    if (mine && S.wasMyTurn === false && prefs.sound && S.mode !== "one-device") HX.beep();
    S.wasMyTurn = mine;
  }

  function turnText(st) {
    if (!st.to_move) return "";
    const seat = st.to_move_seat;
    const goal = S.settings.variant === "rex" ? "avoid joining your two " + st.to_move + " edges" : "join your two " + st.to_move + " edges";
    if (myTurn()) {
      const prefix = S.mode === "one-device" ? who(st.to_move) + ", your move" : "Your move: you play " + HX.colorName(st.to_move);
      let text = prefix + " (" + goal + ")" + (st.text && st.text.includes("again") ? ". You hit a stone: move again." : ".");
      if (S.armed) text += " Tap " + S.armed + " again to play it.";
      return text;
    }
    if (mySeats().includes(seat)) return who(st.to_move) + " to move: the computer plays for you while you are away.";
    return who(st.to_move) + " to move.";
  }

  function renderSince() {
    const st = S.state;
    const box = HX.$("#since");
    let since = S.since;
    const seats = mySeats();
    if (st && S.mode !== "one-device" && seats.length === 1 && S.settings && S.settings.variant.startsWith("dark")) {
      const k = st.history.map((h) => h.seat).lastIndexOf(seats[0]);
      since = k >= 0 ? st.history.slice(k + 1) : [];
    }
    if (!since || !since.length || !st || st.over) { box.hidden = true; return; }
    const mine = S.mode === "one-device" ? (S.you && S.you.seat) : seats[0];
    const theirs = since.filter((h) => h.seat !== mine);
    const hits = theirs.filter((h) => h.result === "hit").length;
    const placed = theirs.filter((h) => h.result === "placed").length;
    const parts = [];
    if (placed && theirs.length) parts.push(HX.colorName(theirs[0].color) + " placed " + (placed === 1 ? "a stone" : placed + " stones"));
    if (hits) parts.push(hits === 1 ? "one of your stones was hit" : hits + " of your stones were hit");
    if (!parts.length) { box.hidden = true; return; }
    box.textContent = "Since your last turn: " + parts.join("; ") + ".";
    box.hidden = false;
  }

  // Both clocks. With main time (Fischer) each seat shows its bank (ticking for the seat to
  // move) and the increment; with a limit per move (seconds, or days in correspondence play)
  // the seat to move shows what is left of it. Times come from the last clock object.
  function renderClocks() {
    const st = S.state, set = S.settings || {};
    const c = st && st.clock;
    const elapsed = (performance.now() - S.clockAt) / 1000;
    const over = !st || st.over;
    for (const seat of ["A", "B"]) {
      const el = HX.$("#seat-" + seat + " .clock");
      const mover = !!(c && c.seat === seat && !over);
      const running = mover && c.remaining !== null && c.remaining !== undefined;
      const paused = mover && !running && c.paused !== null && c.paused !== undefined;
      const moveLimit = set.days_per_move ? set.days_per_move * 86400 : set.time_limit;
      let text = "", sub = "", low = false;
      if (set.main_time) {
        const bank = c && c.main_left && c.main_left[seat] !== undefined && c.main_left[seat] !== null ? c.main_left[seat] : (st ? set.main_time : null);
        if (bank !== null) text = HX.clockText(running ? bank - elapsed : bank) + (paused ? " (paused)" : "");
        sub = "+" + (Number(set.increment) || 0) + " s";
        if (moveLimit && running) sub = "move " + HX.clockText(c.remaining - elapsed) + " · " + sub;
        low = running && c.remaining - elapsed < 10;
      } else if (moveLimit && st && !over) {
        if (running) text = HX.clockText(c.remaining - elapsed);
        else if (paused) text = HX.clockText(c.paused) + " (paused)";
        else text = HX.clockText(mover && c.limit ? c.limit : moveLimit);
        low = running && c.remaining - elapsed < (set.days_per_move ? 3600 : 10);
        if (set.days_per_move) sub = mover ? "to move (" + HX.timeControl(set) + ")" : "";
      }
      el.replaceChildren(...[text, sub ? HX.el("small", { text: sub }) : null].filter((x) => x !== null && x !== ""));
      el.classList.toggle("low", low);
      el.classList.toggle("running", running);
    }
  }

  // ------------------------------------------------------------ acting

  function clickCell(cell) {
    const st = S.state;
    if (!st || st.over || curtainUp()) return;
    if (performance.now() < S.guardUntil) return;  // a stray tap of the hand that lifted the curtain
    if (!myTurn() || !st.legal_moves.includes(cell)) return;
    if (prefs.confirm && S.armed !== cell) { S.armed = cell; render(); return; }
    play(cell);
  }

  function play(cell) {
    const st = S.state;
    for (const f of pending.values()) if (f.ply === st.history.length) return;  // one move per turn in flight
    S.armed = null;
    request({ type: "move", ply: st.history.length, cell });
    render();
  }

  HX.$("#confirm-move").addEventListener("click", () => { if (S.armed && myTurn()) play(S.armed); });
  HX.$("#swap").addEventListener("click", () => {
    const st = S.state;
    if (st && st.swap_available) request({ type: "move", ply: st.history.length, cell: "swap" });
  });
  let resignArmed = null;
  HX.$("#resign").addEventListener("click", () => {
    const button = HX.$("#resign");
    if (!resignArmed) {
      button.textContent = "Confirm: resign";
      resignArmed = setTimeout(() => { resignArmed = null; button.textContent = "Resign"; }, 4000);
      return;
    }
    clearTimeout(resignArmed); resignArmed = null; button.textContent = "Resign";
    const frame = { type: "resign" };
    if (S.mode === "one-device" && S.state) frame.seat = S.state.to_move_seat;
    request(frame);
  });
  HX.$("#cover").addEventListener("click", () => request({ type: "raise" }));
  HX.$("#takeback").addEventListener("click", () => request({ type: "takeback" }));
  HX.$("#accept-takeback").addEventListener("click", () => request({ type: "answer_takeback", accept: true }));
  HX.$("#decline-takeback").addEventListener("click", () => request({ type: "answer_takeback", accept: false }));
  let abortArmed = null;
  HX.$("#abort").addEventListener("click", () => {
    const button = HX.$("#abort");
    if (!abortArmed) {
      button.textContent = "Confirm: abort";
      abortArmed = setTimeout(() => { abortArmed = null; button.textContent = "Abort"; }, 4000);
      return;
    }
    clearTimeout(abortArmed); abortArmed = null; button.textContent = "Abort";
    const frame = { type: "abort" };
    if (S.mode === "one-device" && S.state && S.state.to_move_seat) frame.seat = S.state.to_move_seat;
    request(frame);
  });
  HX.$("#rematch").addEventListener("click", () => request({ type: "rematch" }));
  function lift(seat) {
    if (S.liftSent) return;
    S.liftSent = true;
    HX.$("#lift").disabled = true;
    request(seat ? { type: "lift", seat } : { type: "lift" });
  }
  HX.$("#lift").addEventListener("click", () => lift(null));
  HX.$("#lift-A").addEventListener("click", () => lift("A"));
  HX.$("#lift-B").addEventListener("click", () => lift("B"));
  // The curtain swallows every pointer event, so nothing under it is ever touched.
  for (const kind of ["click", "dblclick", "pointerdown", "pointerup", "touchstart", "touchend"]) {
    HX.$("#curtain").addEventListener(kind, (event) => { if (event.target.tagName !== "BUTTON") event.preventDefault(); event.stopPropagation(); });
  }
  HX.$("#recovery").addEventListener("click", async () => {
    const stored = HX.seat.get(tableId) || {};
    try {
      const r = await HX.recoveryLink({ table: tableId, token: stored.token, recipient: stored.recipient || S.recipient, mode: S.mode });
      HX.$("#recovery-link").value = r.link;
      HX.$("#recovery-expires").textContent = "The link works once, until " + new Date(r.expires * 1000).toLocaleString() + ". Opening it moves this game's seat there; this page then lets go of it.";
      show("#recovery-panel", true);
      show("#recovery-box", false);
    } catch (e) { note(e.message); }
  });
  HX.$("#copy-recovery").addEventListener("click", () => { HX.$("#recovery-link").select(); navigator.clipboard && navigator.clipboard.writeText(HX.$("#recovery-link").value); });
  HX.$("#copy-invite").addEventListener("click", () => { HX.$("#invite").select(); navigator.clipboard && navigator.clipboard.writeText(HX.$("#invite").value); });
  // preferences of this browser
  HX.$("#pref-confirm").checked = prefs.confirm;
  HX.$("#pref-sound").checked = prefs.sound;
  HX.$("#pref-confirm").addEventListener("change", (e) => { prefs.confirm = e.target.checked; HX.prefs.set("confirm", prefs.confirm); S.armed = null; render(); });
  HX.$("#pref-sound").addEventListener("change", (e) => {
    prefs.sound = e.target.checked; HX.prefs.set("sound", prefs.sound);
    if (prefs.sound) HX.beep();  // a sample (and the click lets the browser play sound later)
  });
  HX.$("#flip").addEventListener("click", () => { prefs.flip = !prefs.flip; HX.prefs.set("flip", prefs.flip); if (board) board.setFlipped(prefs.flip); });
  window.addEventListener("resize", () => board && board.maybeRotate());
  setInterval(renderClocks, 250);
  setInterval(() => send({ type: "ping" }), 25000);
  start();
})();
