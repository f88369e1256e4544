// Shared helpers for the hexengine pages: storage, preferences, the theme, the API, icons,
// sound and the SVG board. Plain JavaScript, no build step, no third-party code.
// Loaded without `defer` so that the theme is set before the page is drawn.
"use strict";

const HX = {};

HX.el = function (tag, attrs, ...children) {
  const svg = ["svg", "g", "polygon", "polyline", "path", "rect", "text", "circle", "line", "title"].includes(tag);
  const node = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) node.append(c);
  return node;
};

HX.$ = (sel) => document.querySelector(sel);

// A refused request throws an Error carrying the server's `code` and the HTTP `status`.
HX.api = async function (method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: res.statusText }; }
  if (!res.ok) {
    const error = new Error((data && data.error) || res.statusText);
    error.status = res.status;
    error.code = data && data.code;
    error.data = data;
    throw error;
  }
  return data;
};

// Seat tokens live in localStorage under the table's id; the server rotates them on every use.
HX.seat = {
  key: (id) => "hexengine:table:" + id,
  get(id) { try { return JSON.parse(localStorage.getItem(this.key(id))); } catch (e) { return null; } },
  set(id, value) { localStorage.setItem(this.key(id), JSON.stringify(value)); },
  update(id, patch) { this.set(id, Object.assign(this.get(id) || {}, patch)); },
  forget(id) { localStorage.removeItem(this.key(id)); },
  all() {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (k && k.startsWith("hexengine:table:")) {
        try { out.push(Object.assign({ table: k.slice(16) }, JSON.parse(localStorage.getItem(k)))); } catch (e) { /* skip */ }
      }
    }
    return out.sort((a, b) => (b.created || 0) - (a.created || 0));
  },
};

// Preferences of this browser (not of a table): confirm moves, sound, board flip, theme.
HX.prefs = {
  get(name, fallback) {
    try {
      const v = localStorage.getItem("hexengine:pref:" + name);
      return v === null ? fallback : JSON.parse(v);
    } catch (e) { return fallback; }
  },
  set(name, value) { try { localStorage.setItem("hexengine:pref:" + name, JSON.stringify(value)); } catch (e) { /* private mode */ } },
};

HX.playerId = function () {
  let id = localStorage.getItem("hexengine:player");
  if (!id) {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem("hexengine:player", id);
  }
  return id;
};

// ------------------------------------------------------------ theme

// The theme follows the system (prefers-color-scheme) until the toggle picks one; the choice is
// kept in localStorage and set on <html data-theme> before the page is drawn.
HX.theme = {
  query: window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null,
  chosen() { const t = HX.prefs.get("theme", null); return t === "dark" || t === "light" ? t : null; },
  current() { return this.chosen() || (this.query && this.query.matches ? "dark" : "light"); },
  apply() {
    const root = document.documentElement;
    const chosen = this.chosen();
    if (chosen) root.dataset.theme = chosen; else delete root.dataset.theme;
    root.classList.toggle("theme-dark", this.current() === "dark");
    const button = document.getElementById("theme");
    if (button) {
      const dark = this.current() === "dark";
      button.textContent = dark ? "Light theme" : "Dark theme";
      button.setAttribute("aria-pressed", dark ? "true" : "false");
    }
  },
  toggle() { HX.prefs.set("theme", this.current() === "dark" ? "light" : "dark"); this.apply(); },
};
HX.theme.apply();
if (HX.theme.query && HX.theme.query.addEventListener) HX.theme.query.addEventListener("change", () => HX.theme.apply());
document.addEventListener("DOMContentLoaded", () => {
  const nav = document.querySelector("header.top nav");
  if (nav && !document.getElementById("theme")) {
    nav.append(HX.el("button", { id: "theme", type: "button", class: "link", onclick: () => HX.theme.toggle() }));
  }
  HX.theme.apply();
});

// ------------------------------------------------------------ names

HX.colorName = (c) => (c === "red" ? "Red" : c === "blue" ? "Blue" : "");
HX.cellName = (r, c) => String.fromCharCode(97 + c) + (r + 1);
HX.variantName = { hex: "Hex", rex: "Rex", dark: "Dark Hex", "dark-abrupt": "Dark Hex (abrupt)" };

HX.duration = function (seconds) {
  const s = Math.round(Number(seconds));
  if (!Number.isFinite(s)) return "";
  if (s >= 86400 && s % 86400 === 0) return s / 86400 + (s === 86400 ? " day" : " days");
  if (s >= 3600 && s % 3600 === 0) return s / 3600 + " h";
  if (s >= 60 && s % 60 === 0) return s / 60 + " min";
  if (s >= 60) return Math.floor(s / 60) + " min " + (s % 60) + " s";
  return s + " s";
};

// The time control of a table's settings in words: Fischer (main time + increment),
// correspondence (days per move), or the older time per move.
HX.timeControl = function (settings) {
  const s = settings || {};
  if (s.days_per_move) return s.days_per_move + (Number(s.days_per_move) === 1 ? " day" : " days") + " a move";
  const parts = [];
  if (s.main_time) parts.push(HX.duration(s.main_time) + " + " + (Number(s.increment) || 0) + " s");
  if (s.time_limit) parts.push(s.time_limit + " s a move");
  return parts.join(", ") || "no time limit";
};

HX.describe = function (settings) {
  const parts = [HX.variantName[settings.variant] || settings.variant, settings.rows + "×" + settings.cols];
  if (settings.swap && settings.swap !== "off") parts.push("swap (" + settings.swap + ")");
  parts.push(HX.timeControl(settings));
  if (settings.rated) parts.push("rated");
  return parts.join(" · ");
};

// A rating pool ("hex:11x11") in words ("Hex 11×11").
HX.poolName = function (pool) {
  const m = /^([a-z-]+):(\d+)x(\d+)$/.exec(pool || "");
  return m ? (HX.variantName[m[1]] || m[1]) + " " + m[2] + "×" + m[3] : String(pool || "");
};

// A small line of a rating's history (oldest first); its title lists the numbers.
HX.sparkline = function (values, width, height) {
  width = width || 90; height = height || 22;
  const svg = HX.el("svg", { class: "spark", width, height, viewBox: "0 0 " + width + " " + height, role: "img",
    "aria-label": values.length ? "rating history: " + values.join(", ") : "no history" });
  svg.append(HX.el("title", { text: values.join(" → ") }));
  if (!values.length) return svg;
  const lo = Math.min(...values), hi = Math.max(...values), span = hi - lo || 1, pad = 3;
  const x = (i) => (values.length === 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (values.length - 1));
  const y = (v) => (hi === lo ? height / 2 : pad + ((hi - v) * (height - 2 * pad)) / span);
  if (values.length > 1) svg.append(HX.el("polyline", { points: values.map((v, i) => x(i).toFixed(1) + "," + y(v).toFixed(1)).join(" ") }));
  svg.append(HX.el("circle", { cx: x(values.length - 1).toFixed(1), cy: y(values[values.length - 1]).toFixed(1), r: 2.2 }));
  return svg;
};

// ------------------------------------------------------------ icons and sound

// Small inline SVG icons (no font needs to have the glyphs).
HX.icons = {
  first: "M5 4h2v16H5zM19 4v16L8 12z",
  prev: "M17 4v16L6 12z",
  next: "M7 4v16l11-8z",
  last: "M17 4h2v16h-2zM5 4v16l11-8z",
};
HX.icon = function (name) {
  return HX.el("svg", { class: "icon", viewBox: "0 0 24 24", width: 16, height: 16, "aria-hidden": "true", focusable: "false" },
    HX.el("path", { d: HX.icons[name], fill: "currentColor" }));
};

// A short beep (WebAudio); `HX.beeps` counts them, so a test can see the sound was asked for.
HX.beeps = 0;
HX.beep = function () {
  HX.beeps += 1;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    HX.audio = HX.audio || new Ctx();
    const ctx = HX.audio;
    if (ctx.state === "suspended") ctx.resume();
    const osc = ctx.createOscillator(), gain = ctx.createGain();
    osc.type = "sine";
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.0001, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.18);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.2);
  } catch (e) { /* no sound here */ }
};

// ------------------------------------------------------------ the board

// One SVG polygon per cell, carrying its name in data-cell. Red joins the first and last rows,
// Blue the first and last columns; on a portrait screen the drawing turns 90 degrees, and
// `flipped` turns it half a turn (the same board seen from the other side of the table).
HX.Board = class {
  constructor(container, rows, cols, onCell, options) {
    this.container = container;
    this.rows = rows;
    this.cols = cols;
    this.onCell = onCell;
    this.rotated = null;
    this.flipped = !!(options && options.flipped);
    this.build();
  }

  wantRotation() {
    const portrait = window.innerHeight > window.innerWidth * 1.15;
    const wide = this.cols + this.rows / 2 > this.rows * 0.87;
    return portrait && wide && window.innerWidth < 700;
  }

  build() {
    const s = 20, w = Math.sqrt(3) * s;
    this.rotated = this.wantRotation();
    const rot = this.rotated, flip = this.flipped ? -1 : 1;
    const pt = (x, y) => (rot ? [-y * flip, x * flip] : [x * flip, y * flip]);
    const center = (r, c) => [(c + r / 2) * w, r * 1.5 * s];
    const corner = (r, c, k) => {
      const [cx, cy] = center(r, c);
      const a = ((-90 + 60 * k) * Math.PI) / 180;
      return pt(cx + s * Math.cos(a), cy + s * Math.sin(a));
    };
    const all = [];
    const fmt = (p) => { all.push(p); return p[0].toFixed(2) + "," + p[1].toFixed(2); };
    const svg = HX.el("svg", { class: "board" + (rot ? " rotated" : "") + (this.flipped ? " flipped" : ""), role: "grid", "aria-label": "board" });
    const edges = HX.el("g", { class: "edges" });
    const R = this.rows, C = this.cols;
    const chain = (cells) => cells.map(([r, c, k]) => fmt(corner(r, c, k))).join(" ");
    const top = [], bottom = [], left = [], right = [];
    for (let c = 0; c < C; c++) { top.push([0, c, 5], [0, c, 0]); bottom.push([R - 1, c, 4], [R - 1, c, 3]); }
    top.push([0, C - 1, 1]); bottom.push([R - 1, C - 1, 2]);
    for (let r = 0; r < R; r++) { left.push([r, 0, 5], [r, 0, 4]); right.push([r, C - 1, 1], [r, C - 1, 2]); }
    edges.append(
      HX.el("polyline", { class: "edge red", points: chain(top) }),
      HX.el("polyline", { class: "edge red", points: chain(bottom) }),
      HX.el("polyline", { class: "edge blue", points: chain(left) }),
      HX.el("polyline", { class: "edge blue", points: chain(right) }),
    );
    svg.append(edges);
    const cells = HX.el("g", { class: "cells" });
    this.cells = {};
    for (let r = 0; r < R; r++) {
      for (let c = 0; c < C; c++) {
        const name = HX.cellName(r, c);
        const points = [0, 1, 2, 3, 4, 5].map((k) => fmt(corner(r, c, k))).join(" ");
        const poly = HX.el("polygon", { class: "cell", points, "data-cell": name, "aria-label": name });
        poly.addEventListener("click", (event) => this.onCell && this.onCell(name, event));
        cells.append(poly);
        this.cells[name] = poly;
      }
    }
    svg.append(cells);
    const labels = HX.el("g", { class: "labels" });
    const label = (r, c, text) => {
      const [x, y] = center(r, c);
      const [px, py] = pt(x, y);
      all.push([px, py]);
      labels.append(HX.el("text", { x: px.toFixed(2), y: py.toFixed(2), "text-anchor": "middle", "dominant-baseline": "central", text }));
    };
    for (let c = 0; c < C; c++) { label(-1, c, String.fromCharCode(97 + c)); label(R, c, String.fromCharCode(97 + c)); }
    for (let r = 0; r < R; r++) { label(r, -1, String(r + 1)); label(r, C, String(r + 1)); }
    svg.append(labels);
    this.hints = HX.el("g", { class: "hints" });
    svg.append(this.hints);
    this.marker = HX.el("circle", { class: "marker", r: s * 0.22, cx: 0, cy: 0, visibility: "hidden" });
    svg.append(this.marker);
    this.center = (name) => {
      const c = name.charCodeAt(0) - 97, r = parseInt(name.slice(1), 10) - 1;
      return pt(...center(r, c));
    };
    this.size = s;
    const xs = all.map((p) => p[0]), ys = all.map((p) => p[1]);
    const pad = s * 0.8;
    const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
    svg.setAttribute("viewBox", [minX, minY, Math.max(...xs) - minX + pad, Math.max(...ys) - minY + pad].map((v) => v.toFixed(1)).join(" "));
    this.container.replaceChildren(svg);
    this.svg = svg;
  }

  maybeRotate() {
    if (this.wantRotation() !== this.rotated) { this.build(); if (this.last) this.paint(...this.last); }
  }

  setFlipped(flipped) {
    if (!!flipped === this.flipped) return;
    this.flipped = !!flipped;
    this.build();
    if (this.last) this.paint(...this.last);
  }

  // board: rows of 0/1/2, or null (nothing shown). opts: {last, chain, legal, mine, armed, hints}
  // mine: the colour a click would play (the hover preview); armed: a cell marked by a first tap
  // when moves are confirmed; hints: [{cell, text}] drawn on the cells (the engine's analysis).
  paint(board, opts) {
    opts = opts || {};
    this.last = [board, opts];
    const chain = new Set(opts.chain || []);
    const legal = new Set(opts.legal || []);
    for (let r = 0; r < this.rows; r++) {
      for (let c = 0; c < this.cols; c++) {
        const name = HX.cellName(r, c);
        const v = board ? board[r][c] : 0;
        const cls = ["cell"];
        if (v === 1) cls.push("red");
        if (v === 2) cls.push("blue");
        if (chain.has(name)) cls.push("chain");
        if (legal.has(name)) cls.push("legal");
        if (opts.armed === name && legal.has(name)) cls.push("armed");
        this.cells[name].setAttribute("class", cls.join(" "));
      }
    }
    if (board && opts.last && this.cells[opts.last]) {
      const [x, y] = this.center(opts.last);
      this.marker.setAttribute("cx", x.toFixed(2));
      this.marker.setAttribute("cy", y.toFixed(2));
      this.marker.setAttribute("visibility", "visible");
    } else {
      this.marker.setAttribute("visibility", "hidden");
    }
    const hints = [];
    for (const h of (board && opts.hints) || []) {
      if (!this.cells[h.cell]) continue;
      const [x, y] = this.center(h.cell);
      hints.push(HX.el("text", { x: x.toFixed(2), y: y.toFixed(2), "text-anchor": "middle", "dominant-baseline": "central",
        class: "hint" + (h.best ? " best" : ""), "data-hint": h.cell, text: h.text }));
    }
    this.hints.replaceChildren(...hints);
    this.svg.classList.toggle("playable", legal.size > 0);
    this.svg.classList.toggle("preview-red", legal.size > 0 && opts.mine === "red");
    this.svg.classList.toggle("preview-blue", legal.size > 0 && opts.mine === "blue");
  }
};

HX.clockText = function (seconds) {
  if (seconds === null || seconds === undefined) return "";
  const t = Math.max(0, Math.ceil(seconds));
  if (t >= 86400) {
    const d = Math.floor(t / 86400), h = Math.floor((t % 86400) / 3600);
    return d + "d " + h + "h";
  }
  if (t >= 3600) return Math.floor(t / 3600) + ":" + String(Math.floor((t % 3600) / 60)).padStart(2, "0") + ":" + String(t % 60).padStart(2, "0");
  return Math.floor(t / 60) + ":" + String(t % 60).padStart(2, "0");
};

// ------------------------------------------------------------ moving to another device

// No accounts: this browser's secret player id is the player's identity (and ratings). A
// one-time recovery link carries it to another device; on a table page it carries the seat
// too, so a game under way moves with it. Links look like /#recover=CODE, or
// /t/ID#recover=CODE&seat=TOKEN&as=A (the server's own /recover#code=CODE works as well).
HX.recoveryLink = async function (seat) {
  const answer = await HX.api("POST", "/api/identity/recovery", { player_id: HX.playerId() });
  const params = new URLSearchParams({ recover: answer.code });
  const name = localStorage.getItem("hexengine:name");
  if (name) params.set("name", name);
  let path = "/";
  if (seat && seat.table && seat.token) {
    path = "/t/" + seat.table;
    params.set("seat", seat.token);
    if (seat.recipient) params.set("as", seat.recipient);
    if (seat.mode) params.set("mode", seat.mode);
  }
  return { link: location.origin + path + "#" + params.toString(), expires: answer.expires, player: answer.player };
};

HX.recovered = (function () {
  const params = new URLSearchParams(location.hash.slice(1));
  const code = location.pathname === "/recover" ? params.get("code") : params.get("recover");
  if (!code) return Promise.resolve(null);
  history.replaceState(null, "", location.pathname === "/recover" ? "/" : location.pathname);
  return HX.api("POST", "/api/identity/claim", { code }).then((answer) => {
    localStorage.setItem("hexengine:player", answer.player_id);
    localStorage.setItem("hexengine:rating-id", answer.player);
    if (params.get("name")) localStorage.setItem("hexengine:name", params.get("name"));
    const table = location.pathname.split("/")[2];
    if (location.pathname.startsWith("/t/") && table && params.get("seat")) {
      HX.seat.set(table, { token: params.get("seat"), recipient: params.get("as") || null,
                           mode: params.get("mode") || null, created: Date.now() });
    }
    return { ok: true, text: "This browser now plays under your identity (your name's ratings)" + (params.get("seat") ? " and holds your seat at this table." : ".") };
  }, (e) => ({ ok: false, text: e.message }));
})();

document.addEventListener("DOMContentLoaded", () => {
  HX.recovered.then((r) => {
    if (!r) return;
    const main = document.querySelector("main");
    if (main) main.prepend(HX.el("p", { id: "recovered", class: r.ok ? "banner" : "banner error", role: "status", text: r.text }));
  });
});
