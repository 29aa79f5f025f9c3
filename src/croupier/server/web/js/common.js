// Pieces both table views use: the chip tray, the rules panel, section rendering, shortcuts.

import { esc, money, tickCountdowns } from "./util.js";
import { chipSvg } from "./svg.js";
import { ruleRows, payouts, rulesFor } from "./rules.js";

/** Replace each section's HTML only when it changed, keeping focus where it was. */
export function patch(root, sections) {
  const active = document.activeElement;
  const activeId = active && active.id && root.contains(active) ? active.id : null;
  for (const [selector, html] of Object.entries(sections)) {
    const node = root.querySelector(selector);
    if (node && node.__html !== html) {
      node.innerHTML = html;
      node.__html = html;
    }
  }
  tickCountdowns();
  if (activeId && document.activeElement !== active) {
    const again = document.getElementById(activeId);
    if (again) again.focus();
  }
}

export function chipTray(t, values, selected, stake, enabled, hint = "chip.hint") {
  const chips = values
    .map(
      (value) => `<button type="button" class="chip${value === selected ? " selected" : ""}" id="chip-${value}" data-value="${value}"
        aria-pressed="${value === selected}" aria-label="${esc(t("chip.add", { amount: money(value) }))}" ${enabled ? "" : "disabled"}>${chipSvg(value)}</button>`,
    )
    .join("");
  return `<div class="chips" role="group" aria-label="${esc(t("chip.tray"))}">${chips}</div>
    <p class="stake">${esc(t("chip.stake"))}: <strong id="stake" data-amount="${stake}">${esc(money(stake))}</strong>
    <button type="button" id="clear-stake" class="small" ${enabled && stake ? "" : "disabled"}>${esc(t("chip.clear"))} <kbd>C</kbd></button></p>
    <p class="hint">${esc(t(hint))}</p>`;
}

export function rulesPanel(t, table) {
  const rows = ruleRows(table.game, table.rules, table.overrides)
    .map(
      ([name, label, value, changed]) =>
        `<tr data-param="${esc(name)}"><th scope="row">${esc(label)}<br><code>${esc(name)}</code></th><td>${esc(value)}${changed ? ` <em>(${esc(t("rules.table_setting"))})</em>` : ""}</td></tr>`,
    )
    .join("");
  const rules = rulesFor(table.game, table.rules, table.overrides);
  const pays = payouts(table.game, rules)
    .map(([what, ratio]) => `<tr><th scope="row">${esc(what)}</th><td>${esc(ratio)}</td></tr>`)
    .join("");
  return `<details id="rules-panel" class="rules">
    <summary>${esc(t("rules.title"))} — ${esc(t("preset." + table.rules))}</summary>
    <p>${esc(t("lobby.limits"))}: ${esc(money(table.min_bet))} – ${esc(money(table.max_bet))} · ${esc(t("rules.chip"))} ${esc(money(table.chip))}</p>
    <h3>${esc(t("rules.payouts"))}</h3><table class="pays">${pays}</table>
    <h3>${esc(t("rules.parameters"))}</h3><table class="params">${rows}</table>
    <p class="hint">${esc(t("rules.source." + table.game))}</p>
  </details>`;
}

export function isTyping(event) {
  const target = event.target;
  if (event.ctrlKey || event.metaKey || event.altKey) return true;
  return target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT");
}
