// Small helpers shared by the views.

import { t } from "./i18n.js";

export function esc(value) {
  return String(value ?? "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** An amount as the server writes it ("990.00", "10", "-2.5") as whole cents, exactly (a BigInt: money
 * never goes through binary floating point); null when it is not such an amount. */
export function cents(value) {
  const match = /^([+-])?(\d+)(?:\.(\d*))?$/.exec(String(value ?? "").trim());
  if (!match) return null;
  const fraction = (match[3] || "").padEnd(2, "0");
  if (/[1-9]/.test(fraction.slice(2))) return null; // finer than a cent
  const whole = BigInt(match[2]) * 100n + BigInt(fraction.slice(0, 2));
  return match[1] === "-" ? -whole : whole;
}

/** Cents as text with two places, grouped by thousands unless ``grouped`` is false. */
export function centsText(amount, grouped = true) {
  const negative = amount < 0n;
  const size = negative ? -amount : amount;
  let units = (size / 100n).toString();
  if (grouped) units = units.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${units}.${(size % 100n).toString().padStart(2, "0")}`;
}

/** Money as the server writes it shown with two places. */
export function money(value) {
  if (value === null || value === undefined || value === "") return "";
  const amount = cents(value);
  return amount === null ? String(value) : centsText(amount);
}

/** Cents with their sign: +1.50, −10.00, ±0.00. */
export function signedCents(amount) {
  return (amount > 0n ? "+" : amount < 0n ? "−" : "±") + centsText(amount < 0n ? -amount : amount);
}

export function signed(value) {
  const amount = cents(value);
  return amount === null ? String(value) : signedCents(amount);
}

export function presetLabel(preset, t) {
  return t("preset." + preset);
}

/** Blackjack total of card texts: [total, soft]. */
export function bjTotal(cards) {
  let total = 0;
  let aces = 0;
  for (const card of cards) {
    const rank = card[0];
    if (rank === "A") {
      aces += 1;
      total += 1;
    } else if ("TJQK".includes(rank)) total += 10;
    else total += Number(rank);
  }
  const soft = aces > 0 && total + 10 <= 21;
  return [soft ? total + 10 : total, soft];
}

/** Baccarat total (Art. 5). */
export function bacTotal(cards) {
  let total = 0;
  for (const card of cards) {
    const rank = card[0];
    total += rank === "A" ? 1 : "TJQK".includes(rank) ? 0 : Number(rank);
  }
  return total % 10;
}

export function isoMs(text) {
  if (!text) return 0;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : 0;
}

/** Chip denominations for a table: multiples of its chip within its limits. */
export function chipValues(table) {
  const min = Number(table.min_bet);
  const max = Number(table.max_bet);
  const all = [1, 5, 10, 25, 50, 100, 500, 1000];
  const chip = Number(table.chip) || 1;
  let values = all.filter((v) => v >= min && v <= max && Math.abs(v / chip - Math.round(v / chip)) < 1e-9);
  if (!values.includes(min) && min <= max) values.push(min);
  values = [...new Set(values)].sort((a, b) => a - b);
  return values.slice(0, 6);
}

/** Every element with data-closes-at (ms since the epoch) shows the whole seconds left. */
export function tickCountdowns() {
  const now = Date.now();
  for (const node of document.querySelectorAll("[data-closes-at]")) {
    const at = Number(node.dataset.closesAt);
    if (!at) continue;
    const left = Math.max(0, Math.ceil((at - now) / 1000));
    const text = t("seconds_left", { n: left });
    if (node.textContent !== text) node.textContent = text;
    node.classList.toggle("urgent", left <= 3);
  }
}
