// Shared helpers for the hexengine pages: storage, the API, and the SVG board.
// Plain JavaScript, no build step, no third-party code.
"use strict";

const HX = {};

HX.el = function (tag, attrs, ...children) {
  const svg = ["svg", "g", "polygon", "polyline", "text", "circle", "line", "title"].includes(tag);
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

HX.api = async function (method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: res.statusText }; }
  if (!res.ok) throw new Error(data.error || res.statusText);
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

HX.colorName = (c) => (c === "red" ? "Red" : c === "blue" ? "Blue" : "");
HX.cellName = (r, c) => String.fromCharCode(97 + c) + (r + 1);
HX.variantName = { hex: "Hex", rex: "Rex", dark: "Dark Hex", "dark-abrupt": "Dark Hex (abrupt)" };

HX.describe = function (settings) {
  const parts = [HX.variantName[settings.variant] || settings.variant, settings.rows + "×" + settings.cols];
  if (settings.swap && settings.swap !== "off") parts.push("swap (" + settings.swap + ")");
  parts.push(settings.time_limit ? settings.time_limit + " s a move" : "no time limit");
  if (settings.rated) parts.push("rated");
  return parts.join(" · ");
};

// The board: one SVG polygon per cell, carrying its name in data-cell. Red joins the first and
// last rows, Blue the first and last columns; on a portrait screen the drawing turns 90 degrees.
HX.Board = class {
  constructor(container, rows, cols, onCell) {
    this.container = container;
    this.rows = rows;
    this.cols = cols;
    this.onCell = onCell;
    this.rotated = null;
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
    const rot = this.rotated;
    const pt = (x, y) => (rot ? [-y, x] : [x, y]);
    const center = (r, c) => [(c + r / 2) * w, r * 1.5 * s];
    const corner = (r, c, k) => {
      const [cx, cy] = center(r, c);
      const a = ((-90 + 60 * k) * Math.PI) / 180;
      return pt(cx + s * Math.cos(a), cy + s * Math.sin(a));
    };
    const all = [];
    const fmt = (p) => { all.push(p); return p[0].toFixed(2) + "," + p[1].toFixed(2); };
    const svg = HX.el("svg", { class: "board" + (rot ? " rotated" : ""), role: "grid", "aria-label": "board" });
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
        poly.addEventListener("click", () => this.onCell && this.onCell(name));
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
    this.marker = HX.el("circle", { class: "marker", r: s * 0.22, cx: 0, cy: 0, visibility: "hidden" });
    svg.append(this.marker);
    this.center = (name) => {
      const c = name.charCodeAt(0) - 97, r = parseInt(name.slice(1), 10) - 1;
      return pt(...center(r, c));
    };
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

  // board: rows of 0/1/2, or null (nothing shown). opts: {last, chain, legal, mine}
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
    this.svg.classList.toggle("playable", legal.size > 0);
  }
};

HX.clockText = function (seconds) {
  if (seconds === null || seconds === undefined) return "";
  const t = Math.max(0, Math.ceil(seconds));
  return Math.floor(t / 60) + ":" + String(t % 60).padStart(2, "0");
};
