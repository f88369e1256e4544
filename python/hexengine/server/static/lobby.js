// The lobby: quick play (a few presets: variant, size and time, against the computer, a friend
// online or on this device) and, under "More settings", every table setting of the rules
// (variant, size, swap and its form, who plays Red first, alternating, time, rated, grace).
"use strict";

(function () {
  const form = HX.$("#create");
  const size = HX.$("#size");
  const name = HX.$("#name");
  name.value = localStorage.getItem("hexengine:name") || "";
  // What the server accepts (GET /api/options): the board sizes, the settings it knows.
  const options = { sizes: [], default_size: 11, settings: [] };
  for (let n = 7; n <= 19; n++) options.sizes.push(n);

  function fillSizes() {
    const keep = Number(size.value) || options.default_size;
    size.replaceChildren(...options.sizes.map((n) => HX.el("option", { value: n, text: n + " × " + n })));
    size.value = String(options.sizes.includes(keep) ? keep : options.sizes.includes(options.default_size) ? options.default_size : options.sizes[0]);
  }
  fillSizes();

  // ------------------------------------------------------------ opening a table

  async function openTable(mode, settings, extra, errorBox) {
    const body = Object.assign({ mode, name: name.value.trim(), player_id: HX.playerId(), settings }, extra);
    errorBox.textContent = "";
    if (!body.name) { errorBox.textContent = "Write your name first."; name.focus(); return; }
    try {
      const answer = await HX.api("POST", "/api/tables", body);
      localStorage.setItem("hexengine:name", body.name);
      if (answer.player) localStorage.setItem("hexengine:rating-id", answer.player);
      HX.seat.set(answer.table, {
        token: answer.token, recipient: answer.recipient, invite: answer.invite || null,
        mode, created: Date.now(), title: HX.describe(Object.assign({ rows: settings.size, cols: settings.size }, settings)),
      });
      location.href = answer.url;
    } catch (e) {
      errorBox.textContent = e.message;
    }
  }

  // ------------------------------------------------------------ quick play

  const PRESETS = [
    { id: "hex-11-10m", variant: "hex", size: 11, main_time: 600, increment: 5, label: "Hex 11 × 11", note: "the classic board: 10 min + 5 s" },
    { id: "hex-9-3m", variant: "hex", size: 9, main_time: 180, increment: 2, label: "Hex 9 × 9", note: "blitz: 3 min + 2 s" },
    { id: "hex-13-15m", variant: "hex", size: 13, main_time: 900, increment: 10, label: "Hex 13 × 13", note: "15 min + 10 s" },
    { id: "hex-7", variant: "hex", size: 7, label: "Hex 7 × 7", note: "a first game, no clock" },
    { id: "hex-19", variant: "hex", size: 19, label: "Hex 19 × 19", note: "the largest board, no clock" },
    { id: "dark-7", variant: "dark", size: 7, label: "Dark Hex 7 × 7", note: "hidden stones, no clock" },
    { id: "rex-9", variant: "rex", size: 9, label: "Rex 9 × 9", note: "whoever connects loses" },
    { id: "hex-11-3d", variant: "hex", size: 11, days_per_move: 3, label: "Hex 11 × 11", note: "correspondence: 3 days a move", online: true },
    // for a server without main time
    { id: "hex-11", variant: "hex", size: 11, label: "Hex 11 × 11", note: "the classic board, no clock", fallback: "hex-11-10m" },
    { id: "hex-9-30", variant: "hex", size: 9, time_limit: 30, label: "Hex 9 × 9", note: "quick: 30 s a move", fallback: "hex-9-3m" },
  ];
  const quick = { mode: "computer", level: "medium" };

  function presetSettings(p) {
    const dark = p.variant.startsWith("dark");
    const settings = { variant: p.variant, size: p.size, swap: dark ? "off" : "sides", first: "A", alternate: true,
                       rated: quick.mode !== "one-device" && HX.$("#quick-rated").checked, grace: 15 };
    for (const key of ["time_limit", "main_time", "increment", "days_per_move"]) if (p[key] !== undefined) settings[key] = p[key];
    return settings;
  }

  // A preset needs the server to know its time control (older servers know only time_limit).
  function presetKnown(p) {
    return ["main_time", "increment", "days_per_move"].every((k) => p[k] === undefined || options.settings.includes(k));
  }

  function drawPresets() {
    const box = HX.$("#presets");
    const shown = PRESETS.filter((p) => options.sizes.includes(p.size) && presetKnown(p) && (!p.online || quick.mode === "online"));
    const ids = new Set(shown.map((p) => p.id));
    box.replaceChildren(...shown.filter((p) => !(p.fallback && ids.has(p.fallback))).map((p) =>
      HX.el("button", { type: "button", id: "preset-" + p.id, "data-preset": p.id, onclick: () => startPreset(p) },
        HX.el("b", { text: p.label }), HX.el("span", { text: p.note }))));
  }

  function startPreset(p) {
    const extra = {};
    if (quick.mode === "computer") extra.level = quick.level;
    if (quick.mode === "one-device") {
      extra.opponent_name = HX.$("#quick-opponent").value.trim();
      if (!extra.opponent_name) { HX.$("#quick-error").textContent = "Write the second player's name."; HX.$("#quick-opponent").focus(); return; }
    }
    openTable(quick.mode, presetSettings(p), extra, HX.$("#quick-error"));
  }

  function syncQuick() {
    drawPresets();
    for (const b of HX.$("#quick-mode").children) b.setAttribute("aria-pressed", String(b.dataset.mode === quick.mode));
    for (const b of HX.$("#quick-level").children) b.setAttribute("aria-pressed", String(b.dataset.level === quick.level));
    HX.$(".for-quick-computer").hidden = quick.mode !== "computer";
    HX.$(".for-quick-one-device").hidden = quick.mode !== "one-device";
    HX.$(".for-quick-rated").hidden = quick.mode === "one-device";
  }
  HX.$("#quick-mode").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    quick.mode = b.dataset.mode;
    syncQuick();
    // the full form follows, so "More settings" starts from the same choice
    const radio = form.querySelector('input[name=mode][value="' + quick.mode + '"]');
    if (radio) { radio.checked = true; sync(); }
  });
  HX.$("#quick-level").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    quick.level = b.dataset.level;
    HX.$("#level").value = quick.level;
    syncQuick();
  });
  quick.mode = HX.prefs.get("quick-mode", "computer");
  if (!["computer", "online", "one-device"].includes(quick.mode)) quick.mode = "computer";
  HX.$("#quick-mode").addEventListener("click", () => HX.prefs.set("quick-mode", quick.mode));

  // ------------------------------------------------------------ more settings

  function sync() {
    const mode = form.mode.value;
    const dark = form.variant.value.startsWith("dark");
    form.classList.toggle("mode-computer", mode === "computer");
    form.classList.toggle("mode-one-device", mode === "one-device");
    form.classList.toggle("dark", dark);
    HX.$("#swap_on").disabled = dark;
    HX.$("#swap").disabled = dark || !HX.$("#swap_on").checked;
    form.classList.toggle("custom-time", form.time.value === "custom");
    form.classList.toggle("fischer-time", form.time.value === "fischer");
    form.classList.toggle("correspondence-time", form.time.value === "correspondence");
    for (const [value, key] of [["fischer", "main_time"], ["correspondence", "days_per_move"]]) {
      const option = form.time.querySelector('option[value="' + value + '"]');
      option.hidden = option.disabled = !options.settings.includes(key);  // an older server
    }
    HX.$("#opponent_name").required = mode === "one-device";
    if (form.first.value === "alternate") HX.$("#alternate").checked = true;
    HX.$("#first").options[1].textContent = mode === "computer" ? "The computer" : mode === "one-device" ? "The second player" : "Your friend";
  }
  form.addEventListener("change", sync);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const mode = form.mode.value;
    const dark = form.variant.value.startsWith("dark");
    const settings = {
      variant: form.variant.value,
      size: parseInt(form.size.value, 10),
      swap: dark ? "off" : HX.$("#swap_on").checked ? form.swap.value : "off",
      first: form.first.value,
      alternate: HX.$("#alternate").checked,
      rated: HX.$("#rated").checked,
      grace: Number(form.grace.value),
    };
    const time = form.time.value;
    if (time === "fischer") {
      settings.main_time = Math.round(Number(form.main_minutes.value) * 60);
      settings.increment = Number(form.increment.value);
    } else if (time === "correspondence") {
      settings.days_per_move = Number(form.days.value);
    } else {
      settings.time_limit = time === "" ? null : time === "custom" ? Number(form.custom.value) : Number(time);
    }
    const extra = {};
    if (mode === "computer") extra.level = form.level.value;
    if (mode === "one-device") extra.opponent_name = HX.$("#opponent_name").value;
    openTable(mode, settings, extra, HX.$("#error"));
  });

  drawPresets();
  HX.api("GET", "/api/options").then((o) => {
    Object.assign(options, o);
    if (o.max_name) for (const id of ["#name", "#opponent_name", "#quick-opponent"]) HX.$(id).maxLength = o.max_name;
    if (o.max_days_per_move) for (const opt of HX.$("#days").options) opt.hidden = opt.disabled = Number(opt.value) > o.max_days_per_move;
    fillSizes();
    drawPresets();
    sync();
    form.dataset.options = "loaded";
  }, () => { form.dataset.options = "default"; });  // an older server: 7 to 19
  syncQuick();
  const radio = form.querySelector('input[name=mode][value="' + quick.mode + '"]');
  if (radio) radio.checked = true;
  sync();

  HX.recovered.then(() => { HX.$("#identity").hidden = !localStorage.getItem("hexengine:player"); });
  HX.$("#move-identity").addEventListener("click", async () => {
    try {
      const r = await HX.recoveryLink(null);
      HX.$("#identity-link").value = r.link;
      HX.$("#identity-expires").textContent = "The link works once, until " + new Date(r.expires * 1000).toLocaleString() + ".";
      HX.$("#identity-panel").hidden = false;
    } catch (e) { HX.$("#identity-expires").textContent = e.message; HX.$("#identity-panel").hidden = false; }
  });
  HX.$("#copy-identity").addEventListener("click", () => { HX.$("#identity-link").select(); navigator.clipboard && navigator.clipboard.writeText(HX.$("#identity-link").value); });

  const mine = HX.seat.all().slice(0, 10);
  if (mine.length) {
    HX.$("#mine").hidden = false;
    for (const t of mine) {
      HX.$("#tables").append(HX.el("li", {}, HX.el("a", { href: "/t/" + t.table, text: t.title || t.table }), " (" + (t.mode || "") + ")"));
    }
  }
})();
