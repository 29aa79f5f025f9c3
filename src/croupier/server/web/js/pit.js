// The supervisor's pit view (#/pit): every table at once, refreshed every few seconds: its phase and
// round, who sits and who bets, the hold today, its faults, and the surveillance figures: each baccarat
// spot's exact house edge for the cards left, and the bets placed while a spot favoured the player
// (GET /api/pit; docs/protocol.md, "The pit").

import { api } from "./api.js";
import { esc, money } from "./util.js";

const REFRESH_MS = 3000;

export function mountPit(main, ctx) {
  const { t, toast } = ctx;
  const s = { tables: null, alive: true, timer: null };

  function edgeText(value) {
    const pct = Number(value) * 100;
    return `${pct >= 0 ? "" : "−"}${Math.abs(pct).toFixed(3)}%`;
  }

  function bets(table) {
    const rows = Object.entries(table.bets || {}).flatMap(([where, players]) =>
      Object.entries(players).map(([name, amount]) => {
        const spot = table.game === "baccarat" ? t("spot." + where) : t("pit.box", { box: where });
        return `<li>${esc(name)} · ${esc(spot)} · ${esc(money(amount))}</li>`;
      }),
    );
    return rows.length ? `<ul class="pit-bets">${rows.join("")}</ul>` : `<p class="muted">${esc(t("pit.no_bets"))}</p>`;
  }

  function edges(table) {
    if (!table.house_edge) return "";
    const cells = Object.entries(table.house_edge)
      .map(([spot, value]) => {
        const favours = Number(value) < 0;
        return `<li class="${favours ? "favours" : ""}"><span>${esc(t("spot." + spot))}</span> <b>${esc(edgeText(value))}</b>${favours ? ` <em>${esc(t("pit.favours"))}</em>` : ""}</li>`;
      })
      .join("");
    return `<h4>${esc(t("pit.edges"))}</h4><ul class="pit-edges">${cells}</ul>`;
  }

  function alerts(table) {
    if (!table.alerts || !table.alerts.length) return "";
    const rows = table.alerts
      .slice(-5)
      .reverse()
      .map(
        (a) =>
          `<li>${esc(t("pit.alert", { player: a.player, spot: t("spot." + a.spot), amount: money(a.amount), edge: edgeText(a.house_edge) }))}</li>`,
      )
      .join("");
    return `<h4 class="alert-title">${esc(t("pit.alerts"))}</h4><ul class="pit-alerts">${rows}</ul>`;
  }

  function card(table) {
    const seats = Object.entries(table.seats || {})
      .map(([seat, name]) => `${esc(seat)}: ${esc(name)}`)
      .join(" · ");
    const faults = (table.faults || []).length;
    const hold = Number(table.hold_today);
    return `<article class="pit-table" data-table="${table.id}">
      <h3><a href="#/table/${table.id}">${esc(table.name)}</a> <span class="phase">${esc(t("phase." + (table.phase || "closed")) || table.phase)}</span></h3>
      <p class="game">${esc(t("game." + table.game))} · ${esc(table.preset)}${table.round ? ` · ${esc(t("pit.round", { n: table.round }))}` : ""}${table.shoe ? ` · ${esc(t("pit.shoe", { n: table.shoe }))}` : ""}</p>
      <p class="hold ${hold < 0 ? "negative" : ""}">${esc(t("pit.hold", { amount: money(table.hold_today), rounds: table.rounds_today }))}</p>
      <p>${esc(t("pit.seats"))}: ${seats || esc(t("pit.nobody"))}</p>
      ${bets(table)}
      ${faults ? `<p class="pit-faults">${esc(t("pit.faults", { n: faults }))}</p>` : ""}
      ${edges(table)}
      ${alerts(table)}
      <p class="links"><a href="#/dealer/${table.id}">${esc(t("nav.dealer"))}</a></p>
    </article>`;
  }

  function render() {
    if (!s.alive) return;
    const body =
      s.tables === null
        ? `<p aria-busy="true">${esc(t("pit.loading"))}</p>`
        : `<div class="pit-grid">${s.tables.map(card).join("")}</div>`;
    main.innerHTML = `<section class="panel pit"><h1>${esc(t("pit.title"))}</h1><p class="muted">${esc(t("pit.intro"))}</p>${body}</section>`;
  }

  async function load() {
    try {
      s.tables = await api("GET", "/api/pit");
      render();
    } catch (error) {
      toast(error.message);
    }
    if (s.alive) s.timer = setTimeout(load, REFRESH_MS);
  }

  render();
  load();
  return {
    render,
    unmount() {
      s.alive = false;
      clearTimeout(s.timer);
    },
  };
}
