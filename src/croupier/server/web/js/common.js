// Pieces both table views use: the chip tray, the rules panel, section rendering, shortcuts.

import { api, newKey } from "./api.js";
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

/** The chip tray: chips, the stake being built with Undo and Clear, and Re-bet / Double bet of the
 *  last round's bets; `note` is the last refusal (local or the server's), shown until the next stake. */
export function chipTray(t, values, selected, stake, enabled, hint = "chip.hint", extra = {}) {
  const chips = values
    .map(
      (value) => `<button type="button" class="chip${value === selected ? " selected" : ""}" id="chip-${value}" data-value="${value}"
        aria-pressed="${value === selected}" aria-label="${esc(t("chip.add", { amount: money(value) }))}" ${enabled ? "" : "disabled"}>${chipSvg(value)}</button>`,
    )
    .join("");
  const chipsPlaced = extra.chips || [];
  const last = extra.lastBets || [];
  const total = last.reduce((sum, b) => sum + Number(b.amount), 0);
  const again = enabled && last.length && !extra.busy;
  return `<div class="chips" role="group" aria-label="${esc(t("chip.tray"))}">${chips}</div>
    <p class="stake">${esc(t("chip.stake"))}: <strong id="stake" data-amount="${stake}" data-chips="${esc(chipsPlaced.join(","))}">${esc(money(stake))}</strong>
    <button type="button" id="undo-stake" class="small" aria-keyshortcuts="U" ${enabled && chipsPlaced.length ? "" : "disabled"}>${esc(t("tbl.undo"))} <kbd>U</kbd></button>
    <button type="button" id="clear-stake" class="small" ${enabled && stake ? "" : "disabled"}>${esc(t("chip.clear"))} <kbd>C</kbd></button></p>
    <p class="rebet-row"><button type="button" id="rebet" class="small" aria-keyshortcuts="A" ${again ? "" : "disabled"}>${esc(t("tbl.rebet"))}${total ? ` ${esc(money(String(total)))}` : ""} <kbd>A</kbd></button>
    <button type="button" id="double-bet" class="small" aria-keyshortcuts="X" ${again ? "" : "disabled"}>${esc(t("tbl.double_bet"))}${total ? ` ${esc(money(String(total * 2)))}` : ""} <kbd>X</kbd></button></p>
    ${extra.note ? `<p class="stake-note" id="stake-note" role="alert">${esc(extra.note)}</p>` : ""}
    <p class="hint">${esc(t(hint))}</p>`;
}

/** The stake being built, chip by chip (Undo takes the last chip off; Clear all, and the smallest chip
 *  is selected again). */
export function stakeOps(s, chips) {
  return {
    add(value) {
      s.chip = value;
      s.stakeChips.push(value);
      s.stake = s.stakeChips.reduce((a, b) => a + b, 0);
      s.note = "";
    },
    undo() {
      s.stakeChips.pop();
      s.stake = s.stakeChips.reduce((a, b) => a + b, 0);
    },
    clear() {
      s.stakeChips = [];
      s.stake = 0;
      s.chip = chips[0];
    },
  };
}

/** What the table's limits refuse before a bet is sent (null: nothing): the server decides the rest. */
export function localRefusal(t, table, rules, spot, amount) {
  const min = Number(table.min_bet);
  const max = Number(table.max_bet);
  if (amount < min) return t("tbl.below_min", { amount: money(String(amount)), min: money(table.min_bet) });
  if (amount > max) return t("tbl.above_max", { amount: money(String(amount)), max: money(table.max_bet) });
  if (spot === "banker" && rules.banker_bet_multiple_of_min === true && Math.abs(amount / min - Math.round(amount / min)) > 1e-9) {
    return t("tbl.banker_multiple", { amount: money(String(amount)), min: money(table.min_bet) });
  }
  return null;
}

/** Send `bets` ([{spot, amount, body?}]) one by one, each with its own Idempotency-Key; stop at the first
 *  refusal. Returns {placed, refused: reason | null}. */
export async function sendBets(tableId, bets, ctx) {
  let placed = 0;
  for (const b of bets) {
    try {
      const answer = await api("POST", `/api/tables/${tableId}/bets`, { ...(b.body || {}), spot: String(b.spot), amount: String(b.amount) }, { key: newKey() });
      ctx.setBalance(answer.balance);
      placed += 1;
    } catch (error) {
      return { placed, refused: error.message };
    }
  }
  return { placed, refused: null };
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

// ------------------------------------------------------------------------------------------------
// The cut (Art. 2.1, docs/rules.md §5): once a new shoe's commitment is out, the first seated player may
// supply the shoe's client seed (POST /cut) until the window closes; nobody cutting leaves the house's
// default seed. Both table views keep `s.cut` = {player, closesAt, initial} while the window is open.

/** A random client seed to start from: 16 bytes from the browser's CSPRNG, as 32 hex digits. */
export function randomSeed() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The server's rule for a client seed: 1-64 printable characters (Python's str.isprintable). */
export function validSeed(seed) {
  if (typeof seed !== "string") return false;
  const chars = [...seed]; // code points, as Python counts them
  return chars.length >= 1 && chars.length <= 64 && chars.every((c) => c === " " || !/[\p{C}\p{Z}]/u.test(c));
}

/** The cut as the cutter sees it (a form with a prefilled seed) or as everyone else does. */
export function cutHtml(t, cut, me) {
  if (!cut) return "";
  const timer = cut.closesAt ? `<span class="countdown" id="cut-timer" data-closes-at="${cut.closesAt}"></span>` : "";
  if (me && cut.player === me) {
    return `<form class="offer cut-prompt" id="cut-prompt" data-mine="true" autocomplete="off">
      <p class="cut-title"><strong>${esc(t("cut.yours"))}</strong> ${timer}</p>
      <p class="hint">${esc(t("cut.explain"))}</p>
      <label for="cut-seed">${esc(t("cut.seed_label"))}</label>
      <div class="cut-row"><input id="cut-seed" name="seed" maxlength="64" spellcheck="false" autocapitalize="off" value="${esc(cut.initial)}" aria-describedby="cut-default"${cut.sent ? " readonly" : ""}>
      <button type="submit" class="primary" id="cut-submit"${cut.sent ? " disabled" : ""}>${esc(t("cut.submit"))}</button></div>
      <p class="hint" id="cut-default">${esc(t("cut.default"))}</p>
    </form>`;
  }
  return `<div class="offer cut-prompt" id="cut-prompt" data-cutter="${esc(cut.player)}"><p class="cut-title">${esc(t("cut.by", { name: cut.player }))} ${timer}</p>
    <p class="hint">${esc(t("cut.default"))}</p></div>`;
}

/** Send the cutter's seed; true when the server took it. */
export async function sendCut(tableId, seed, ctx) {
  if (!validSeed(seed)) {
    ctx.toast(ctx.t("cut.bad_seed"));
    return false;
  }
  try {
    await api("POST", `/api/tables/${tableId}/cut`, { client_seed: seed });
    ctx.toast(ctx.t("cut.done"), "info");
    return true;
  } catch (error) {
    ctx.toast(error.message);
    return false;
  }
}

/** The log line of a cut: the seed and the commitment, to check the shoe once it ends. */
export function cutLine(t, event, shoe, commitment) {
  return t("log.cut_made", { player: event.player, seed: event.client_seed, shoe: shoe ?? "–", commitment: commitment || "–" });
}

/** The shoe's client seed as the header shows it: the cutter's, or the house's default. */
export function seedHtml(t, seed) {
  if (!seed || !seed.value) return "";
  const who = seed.by ? t("fair.cut_by", { name: seed.by }) : "";
  return ` · ${esc(t("fair.client_seed"))}: <code id="client-seed">${esc(seed.value)}</code>${who ? ` (${esc(who)})` : ""}`;
}

/** The shoe's client seed from its document (GET /api/shoes/{id}); null when it cannot be read. */
export async function shoeSeed(id) {
  if (!id) return null;
  try {
    const doc = await api("GET", `/api/shoes/${id}`);
    return doc.mode === "live" ? null : doc.client_seed;
  } catch {
    return null;
  }
}

/** The cut's page state (Art. 2.1), shared by both games' pages: ``s`` is the page's state, ``me`` the
 *  signed-in player, ``banner(key, args)`` the page's banner text, ``update()`` its redraw. */
export function cutState(s, me, banner, update) {
  function openCut(cutter, closesAt) {
    s.cut = { player: cutter, closesAt, initial: randomSeed() };
    s.banner = cutter === me ? banner("cut.yours") : banner("cut.by", { name: cutter });
  }

  /** The shoe's client seed, for a page that joined after the cut. */
  async function loadSeed() {
    const id = s.shoe;
    if (!id || (s.seed && s.seed.shoe === id)) return;
    const value = await shoeSeed(id);
    if (value && s.shoe === id && !(s.seed && s.seed.shoe === id)) {
      s.seed = { shoe: id, value, by: null };
      update();
    }
  }

  return { openCut, loadSeed };
}

/** A dealer's or supervisor's link from a live table's page to its dealer console (#/dealer/ID). */
export function consoleLink(t, table, me) {
  if (!me || !["dealer", "supervisor"].includes(me.role) || table.mode !== "live") return "";
  return `<a class="button console-link" id="console-link" href="#/dealer/${table.id}">${esc(t("table.console"))}</a>`;
}

/** Re-bet (times 1) or Double bet (times 2) the last round's bets, for either table's page: each its own
 *  bet with its own Idempotency-Key, refused locally first where the table would refuse it, stopping at
 *  the first refusal with its reason. ``bets`` are ``{spot, amount, body?}``; ``s`` is the page's state. */
export async function rebet(s, bets, { t, table, rules, ctx, refuse, update }) {
  for (const b of bets) {
    const local = localRefusal(t, table, rules, String(b.spot), b.amount);
    if (local) {
      refuse(t("tbl.rebet_stopped", { reason: local }));
      return;
    }
  }
  s.busy = true;
  update();
  const { refused } = await sendBets(table.id, bets, ctx);
  s.busy = false;
  if (refused) refuse(t("tbl.rebet_stopped", { reason: refused }));
  else s.note = "";
  update();
}

// A click on the stake's own controls (clear, undo, re-bet, double bet) at either table: true when it was one.
// `again(n)` places the last round's bets n times over (rebet above).
export function stakeControl(target, stake, update, again) {
  if (target.closest("#clear-stake")) {
    stake.clear();
    update();
    return true;
  }
  if (target.closest("#undo-stake")) {
    stake.undo();
    update();
    return true;
  }
  if (target.closest("#rebet")) {
    again(1);
    return true;
  }
  if (target.closest("#double-bet")) {
    again(2);
    return true;
  }
  return false;
}
