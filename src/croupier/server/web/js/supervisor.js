// The supervisor's tables page (#/tables): open a table, change one (it applies at the table's next
// shoe), close or reopen one, and read each table's change log (docs/protocol.md, "Running the tables").

import { api } from "./api.js";
import { esc, money, presetLabel } from "./util.js";

const PRESETS = { blackjack: ["macau-1983", "live-online"], baccarat: ["macau"] };

function overridesText(overrides) {
  return Object.entries(overrides || {})
    .map(([name, value]) => `${name}=${value}`)
    .join("\n");
}

function readOverrides(text, t) {
  const result = {};
  for (const line of text.split(/[\n,]/)) {
    const item = line.trim();
    if (!item) continue;
    const at = item.indexOf("=");
    if (at < 1) throw new Error(t("sup.bad_override", { item }));
    result[item.slice(0, at).trim()] = item.slice(at + 1).trim();
  }
  return result;
}

export function mountSupervisor(main, ctx) {
  const { t, toast } = ctx;
  const s = { tables: [], editing: null, log: null, alive: true };

  function field(id, label, input, hint = "") {
    return `<div class="field"><label for="${id}">${esc(label)}</label>${input}${hint ? `<p class="hint" id="${id}-hint">${esc(hint)}</p>` : ""}</div>`;
  }

  function formHtml() {
    const e = s.editing;
    const v = e || { game: "blackjack", preset: "macau-1983", overrides: {}, min_bet: "", max_bet: "", chip: "1", betting_seconds: 15, decision_seconds: 20, squeeze_seconds: null, mode: "rng", dealer: null, live_edges: false, insurance_to_chip: false };
    const presets = PRESETS[v.game] || [];
    const squeeze = (v.overrides || {}).squeeze === "true";
    return `<form id="table-form" class="admin-form" novalidate data-mode="${e ? "change" : "create"}">
      <h2 id="form-title">${esc(e ? t("sup.change_title", { table: e.name }) : t("sup.create_title"))}</h2>
      ${e ? `<p class="hint">${esc(t("sup.change_hint"))}</p>` : ""}
      <div class="fields">
        ${field("f-name", t("sup.name"), `<input id="f-name" name="name" required maxlength="64" value="${esc(e ? e.name : "")}" ${e ? "disabled" : ""}>`)}
        ${field("f-game", t("sup.game"), `<select id="f-game" name="game" ${e ? "disabled" : ""}>${["blackjack", "baccarat"].map((g) => `<option value="${g}" ${g === v.game ? "selected" : ""}>${esc(t("game." + g))}</option>`).join("")}</select>`)}
        ${field("f-preset", t("sup.preset"), `<select id="f-preset" name="preset">${presets.map((p) => `<option value="${p}" ${p === v.preset ? "selected" : ""}>${esc(presetLabel(p, t))}</option>`).join("")}</select>`)}
        ${field("f-mode", t("sup.mode"), `<select id="f-mode" name="mode"><option value="rng" ${v.mode === "rng" ? "selected" : ""}>${esc(t("sup.mode_rng"))}</option><option value="live" ${v.mode === "live" ? "selected" : ""}>${esc(t("sup.mode_live"))}</option></select>`)}
        ${field("f-min", t("sup.min"), `<input id="f-min" name="min_bet" inputmode="decimal" required value="${esc(v.min_bet)}">`)}
        ${field("f-max", t("sup.max"), `<input id="f-max" name="max_bet" inputmode="decimal" required value="${esc(v.max_bet)}">`)}
        ${field("f-chip", t("sup.chip"), `<input id="f-chip" name="chip" inputmode="decimal" required value="${esc(v.chip)}">`)}
        ${field("f-dealer", t("sup.dealer"), `<input id="f-dealer" name="dealer" maxlength="64" value="${esc(v.dealer || "")}">`)}
        ${field("f-betting", t("sup.betting_seconds"), `<input id="f-betting" name="betting_seconds" type="number" min="1" max="3600" step="any" value="${esc(v.betting_seconds)}">`)}
        ${field("f-decision", t("sup.decision_seconds"), `<input id="f-decision" name="decision_seconds" type="number" min="1" max="3600" step="any" value="${esc(v.decision_seconds)}">`)}
        ${field("f-squeeze-seconds", t("sup.squeeze_seconds"), `<input id="f-squeeze-seconds" name="squeeze_seconds" type="number" min="1" max="3600" step="any" value="${esc(v.squeeze_seconds ?? "")}">`)}
        <div class="field checks">
          <label><input type="checkbox" id="f-squeeze" name="squeeze" ${squeeze ? "checked" : ""} ${v.game === "baccarat" ? "" : "disabled"}> ${esc(t("sup.squeeze"))}</label>
          <label><input type="checkbox" id="f-live-edges" name="live_edges" ${v.live_edges ? "checked" : ""}> ${esc(t("sup.live_edges"))}</label>
          <label><input type="checkbox" id="f-insurance-to-chip" name="insurance_to_chip" ${v.insurance_to_chip ? "checked" : ""}> ${esc(t("sup.insurance_to_chip"))}</label>
        </div>
        ${field("f-overrides", t("sup.overrides"), `<textarea id="f-overrides" name="overrides" rows="3" spellcheck="false" aria-describedby="f-overrides-hint">${esc(overridesText(Object.fromEntries(Object.entries(v.overrides || {}).filter(([k]) => k !== "squeeze"))))}</textarea>`, t("sup.overrides_hint"))}
      </div>
      <p class="form-error" id="form-error" role="alert"></p>
      <p class="buttons"><button type="submit" class="primary" id="form-submit">${esc(e ? t("sup.save_change") : t("sup.create"))}</button>
      ${e ? `<button type="button" id="form-cancel">${esc(t("dealer.cancel"))}</button>` : ""}</p>
    </form>`;
  }

  function statusText(table) {
    if (table.status === "open") return t("phase." + table.phase);
    return t("sup.status_" + table.status);
  }

  function listHtml() {
    return s.tables
      .map(
        (table) => `<article class="admin-table" data-table="${table.id}" data-status="${esc(table.status)}">
        <h3>${esc(table.name)} <span class="phase">${esc(statusText(table))}</span></h3>
        <p>${esc(t("game." + table.game))} · ${esc(presetLabel(table.rules, t))} · ${esc(table.mode === "live" ? t("sup.mode_live") : t("sup.mode_rng"))}</p>
        <p>${esc(t("lobby.limits"))}: ${esc(money(table.min_bet))} – ${esc(money(table.max_bet))} · ${esc(t("sup.chip"))} ${esc(money(table.chip))}</p>
        <p class="buttons">
          <button type="button" class="small edit" data-id="${table.id}">${esc(t("sup.change"))}</button>
          ${table.status === "open" ? `<button type="button" class="small warn close" data-id="${table.id}">${esc(t("sup.close"))}</button>` : ""}
          ${table.status === "closed" ? `<button type="button" class="small reopen" data-id="${table.id}">${esc(t("sup.reopen"))}</button>` : ""}
          <button type="button" class="small show-log" data-id="${table.id}">${esc(t("sup.log"))}</button>
        </p>
        ${s.log && s.log.id === table.id ? logHtml() : ""}
      </article>`,
      )
      .join("");
  }

  function logHtml() {
    return `<ol class="change-log" aria-label="${esc(t("sup.log"))}">${s.log.entries
      .map(
        (c) => `<li><strong>${esc(t("sup.kind_" + c.kind))}</strong> · ${esc(c.by)} · ${esc(c.requested_at.replace("T", " ").slice(0, 19))}
          · ${esc(c.applied_at ? t("sup.applied") : t("sup.pending"))}
          ${Object.keys(c.settings).length && c.kind !== "create" ? `<code>${esc(JSON.stringify(c.settings))}</code>` : ""}</li>`,
      )
      .join("")}</ol>`;
  }

  function render() {
    main.innerHTML = `<section class="panel supervisor-page" id="supervisor-page">
      <h1>${esc(t("sup.title"))}</h1>
      <div class="admin-grid">
        <div class="admin-form-box">${formHtml()}</div>
        <div><h2>${esc(t("lobby.title"))}</h2><div class="admin-list" id="admin-list" aria-live="polite">${listHtml()}</div></div>
      </div>
    </section>`;
    bind();
  }

  function renderList() {
    const list = main.querySelector("#admin-list");
    if (list) list.innerHTML = listHtml();
  }

  async function load() {
    try {
      s.tables = await api("GET", "/api/tables");
    } catch (error) {
      toast(error.message);
      return;
    }
    if (s.alive) renderList();
  }

  function formBody(form) {
    const el = form.elements;
    const body = {
      preset: el.preset.value,
      mode: el.mode.value,
      min_bet: el.min_bet.value.trim(),
      max_bet: el.max_bet.value.trim(),
      chip: el.chip.value.trim(),
      betting_seconds: Number(el.betting_seconds.value),
      decision_seconds: Number(el.decision_seconds.value),
      live_edges: el.live_edges.checked,
      insurance_to_chip: el.insurance_to_chip.checked,
      overrides: readOverrides(el.overrides.value, t),
      dealer: el.dealer.value.trim() || null,
      squeeze_seconds: el.squeeze_seconds.value ? Number(el.squeeze_seconds.value) : null,
    };
    const game = s.editing ? s.editing.game : el.game.value;
    if (game === "baccarat") body.overrides.squeeze = el.squeeze.checked ? "true" : "false";
    if (!s.editing) {
      body.name = el.name.value.trim();
      body.game = game;
      if (body.dealer === null) delete body.dealer;
      if (body.squeeze_seconds === null) delete body.squeeze_seconds;
      return body;
    }
    // a change sends only what differs from the table as it stands (or will, once its pending changes apply)
    const now = s.editing;
    for (const key of Object.keys(body)) {
      const was = key === "overrides" ? JSON.stringify(now.overrides) : String(now[key] ?? "");
      const is = key === "overrides" ? JSON.stringify(body.overrides) : String(body[key] ?? "");
      if (key === "overrides" ? sameOverrides(now.overrides, body.overrides) : was === is) delete body[key];
    }
    return body;
  }

  function sameOverrides(a, b) {
    const keys = new Set([...Object.keys(a || {}), ...Object.keys(b || {})]);
    for (const key of keys) if (String((a || {})[key] ?? "") !== String((b || {})[key] ?? "")) return false;
    return true;
  }

  function bind() {
    const form = main.querySelector("#table-form");
    const game = form.elements.game;
    game.addEventListener("change", () => {
      const presets = PRESETS[game.value];
      form.elements.preset.innerHTML = presets.map((p) => `<option value="${p}">${esc(presetLabel(p, t))}</option>`).join("");
      form.elements.squeeze.disabled = game.value !== "baccarat";
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const error = form.querySelector("#form-error");
      error.textContent = "";
      let body;
      try {
        body = formBody(form);
      } catch (problem) {
        error.textContent = problem.message;
        return;
      }
      try {
        if (s.editing) {
          if (!Object.keys(body).length) throw new Error(t("sup.nothing"));
          const answer = await api("PATCH", `/api/tables/${s.editing.id}`, body);
          toast(answer.applies === "now" ? t("sup.changed_now") : t("sup.changed_later"), "info");
        } else {
          const answer = await api("POST", "/api/tables", body);
          toast(t("sup.created", { table: answer.name }), "info");
        }
        s.editing = null;
        s.log = null;
        await load();
        render();
      } catch (problem) {
        error.textContent = problem.message;
      }
    });
    const cancel = form.querySelector("#form-cancel");
    if (cancel)
      cancel.addEventListener("click", () => {
        s.editing = null;
        render();
      });
    main.querySelector("#admin-list").addEventListener("click", async (event) => {
      const button = event.target.closest("button[data-id]");
      if (!button) return;
      const id = Number(button.dataset.id);
      try {
        if (button.classList.contains("edit")) {
          const settings = await api("GET", `/api/tables/${id}/settings`);
          for (const change of settings.pending || []) Object.assign(settings, change.settings);
          s.editing = settings;
          render();
          main.querySelector("#f-min").focus();
        } else if (button.classList.contains("close")) {
          const table = s.tables.find((x) => x.id === id);
          if (!confirm(t("sup.confirm_close", { table: table ? table.name : id }))) return;
          const answer = await api("DELETE", `/api/tables/${id}`);
          toast(t("sup.status_" + answer.status), "info");
          await load();
        } else if (button.classList.contains("reopen")) {
          await api("POST", `/api/tables/${id}/reopen`);
          await load();
        } else if (button.classList.contains("show-log")) {
          s.log = s.log && s.log.id === id ? null : { id, entries: await api("GET", `/api/tables/${id}/changes`) };
          renderList();
        }
      } catch (problem) {
        toast(problem.message);
      }
    });
  }

  const me = ctx.me;
  if (!me || me.role !== "supervisor") {
    main.innerHTML = `<p class="panel">${esc(t("sup.only"))}</p>`;
    return { unmount() {} };
  }
  render();
  load();
  const timer = setInterval(load, 5000);
  return {
    render,
    unmount() {
      s.alive = false;
      clearInterval(timer);
    },
  };
}
