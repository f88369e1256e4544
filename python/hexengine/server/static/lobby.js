// The lobby: every table setting of the rules (variant, size 7-19, swap and its form, who plays
// Red first, alternating, time limit, rated, grace period), then off to the table page.
"use strict";

(function () {
  const form = HX.$("#create");
  const size = HX.$("#size");
  for (let n = 7; n <= 19; n++) size.append(HX.el("option", { value: n, selected: n === 11, text: n + " × " + n }));
  const name = HX.$("#name");
  name.value = localStorage.getItem("hexengine:name") || "";

  function sync() {
    const mode = form.mode.value;
    const dark = form.variant.value.startsWith("dark");
    form.classList.toggle("mode-computer", mode === "computer");
    form.classList.toggle("mode-one-device", mode === "one-device");
    form.classList.toggle("dark", dark);
    HX.$("#swap_on").disabled = dark;
    HX.$("#swap").disabled = dark || !HX.$("#swap_on").checked;
    form.classList.toggle("custom-time", form.time.value === "custom");
    HX.$("#opponent_name").required = mode === "one-device";
    if (form.first.value === "alternate") HX.$("#alternate").checked = true;
    HX.$("#first").options[1].textContent = mode === "computer" ? "The computer" : mode === "one-device" ? "The second player" : "Your friend";
  }
  form.addEventListener("change", sync);
  sync();

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
      time_limit: form.time.value === "" ? null : form.time.value === "custom" ? Number(form.custom.value) : Number(form.time.value),
      rated: HX.$("#rated").checked,
      grace: Number(form.grace.value),
    };
    const body = { mode, name: name.value, player_id: HX.playerId(), settings };
    if (mode === "computer") body.level = form.level.value;
    if (mode === "one-device") body.opponent_name = HX.$("#opponent_name").value;
    HX.$("#error").textContent = "";
    try {
      const answer = await HX.api("POST", "/api/tables", body);
      localStorage.setItem("hexengine:name", name.value);
      HX.seat.set(answer.table, {
        token: answer.token, recipient: answer.recipient, invite: answer.invite || null,
        mode, created: Date.now(), title: HX.describe(Object.assign({ rows: settings.size, cols: settings.size }, settings)),
      });
      location.href = answer.url;
    } catch (e) {
      HX.$("#error").textContent = e.message;
    }
  });

  const mine = HX.seat.all().slice(0, 10);
  if (mine.length) {
    HX.$("#mine").hidden = false;
    for (const t of mine) {
      HX.$("#tables").append(HX.el("li", {}, HX.el("a", { href: "/t/" + t.table, text: t.title || t.table }), " (" + (t.mode || "") + ")"));
    }
  }
})();
