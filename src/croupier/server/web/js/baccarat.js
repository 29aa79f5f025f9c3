// A baccarat table (Macau, Punto Banco): the seats, bets on every offered spot, the coup card by card,
// the five roads with the ask preview, the exact house edge of each bet for the remaining shoe, and the
// squeeze (Art. 16) as the server enforces it: the seated player with the largest bet on a side holds
// its cards; everyone else sees backs and the squeeze timer until the holder turns them (a "turn"
// action) or the time runs out. The holder gets the cards privately into their face-down slots; each
// `card_turned` event replaces its card by `index` (the coup's dealing order). Nothing dealt after the
// squeezed cards reaches the page before they are turned.
//
// The live house edges are surveillance: the server sends `round.house_edge` to staff only, at a table
// set to show them (`live_edges`); the edges panel is drawn only when the field is there. The cut of
// a new shoe (Art. 2.1) is drawn as at blackjack (common.js), its line kept in the log for the shoe.

import { api, newKey, watchTable } from "./api.js";
import { esc, money, signed, cents, centsText, bacTotal, isoMs, chipValues } from "./util.js";
import { cardSvg, chipStack, roadMark } from "./svg.js";
import { rulesFor } from "./rules.js";
import { patch, chipTray, rulesPanel, isTyping, cutHtml, sendCut, cutLine, seedHtml, cutState, stakeOps, localRefusal, consoleLink, rebet, stakeControl } from "./common.js";

const SPOT_KEYS = { player: "P", banker: "B", tie: "T", player_pair: "Q", banker_pair: "W", lucky_6: "L" };

export function mountBaccarat(main, table, ctx) {
  const { t } = ctx;
  const B = (key, vars) => [key, vars];
  const rules = rulesFor("baccarat", table.rules, table.overrides);
  const chips = chipValues(table);
  const me = ctx.me;
  const player = me && me.role === "player" ? me.name : null;
  const s = {
    phase: "starting",
    closesAt: 0,
    coup: null,
    spots: rules.spots,
    bets: {},
    cards: { player: [], banker: [] },
    result: null,
    last: null,
    roads: null,
    squeeze: null,
    edges: null,
    slots: {}, // the coup's card index -> [side, position]
    secret: new Set(), // "side.position": dealt face down to the table, seen here privately (the holder)
    pending: null,
    actions: [],
    awaits: 0,
    seats: {},
    log: [],
    shoeLog: [], // the shoe's lines (its cut), kept above each coup's
    banner: "",
    chip: chips[0],
    stake: 0,
    stakeChips: [], // the chips of the stake being built, in order (Undo takes the last)
    note: "", // the last refusal of a bet, local or the server's
    lastBets: [], // this player's bets of the last coup dealt: [{spot, amount}] (Re-bet, Double bet)
    busy: false,
    snapSeq: -1, // the snapshot's seq: events up to it are in it already
    shoe: null,
    commitment: null,
    voided: false, // the coup on the felt ended void (a supervisor, or a fault): round_over's `voided`
    cut: null, // the cut window: {player, closesAt, initial}
    seed: null, // the shoe's client seed: {shoe, value, by}
    connected: false,
  };
  const { openCut, loadSeed } = cutState(s, player, B, () => update());
  const stake = stakeOps(s, chips);

  main.innerHTML = `<section class="table-view baccarat" id="bac-table" data-table="${table.id}">
    <div class="table-head" id="sec-head"></div>
    <div class="felt">
      <div class="coup" id="coup" aria-live="polite"></div>
      <div class="round-result" id="round-result" aria-live="polite"></div>
      <div class="banner" id="banner" role="status" aria-live="assertive"></div>
      <div class="spots" id="spots"></div>

      <div class="bac-seats" id="seats" role="group"></div>
    </div>
    <div class="controls"><div class="prompt" id="prompt"></div><div class="tray" id="tray"></div></div>
    <div class="results" id="results" aria-live="polite"></div>
    <div class="roads" id="roads"></div>
    <div class="side"><section class="edges" id="edges" hidden aria-labelledby="edges-title"></section><div id="rules-slot"></div>
      <details class="log" id="log-panel"><summary id="log-title"></summary><ol id="log"></ol></details></div>
  </section>`;
  const root = main.querySelector("#bac-table");

  /** A coup as the page keeps it once it is over (the snapshot's `last_round`, or the coup just dealt). */
  function lastOf(view) {
    if (!view || view.voided) return null;
    const cards = { player: [...(view.player_cards || [])], banker: [...(view.banker_cards || [])] };
    if (!cards.player.length && !view.result) return null;
    return { result: view.result || null, cards, bets: view.bets || {}, coup: view.coup };
  }

  function fromSnapshot(snapshot) {
    s.snapSeq = Number(snapshot.seq ?? -1);
    s.phase = snapshot.phase;
    s.closesAt = isoMs(snapshot.closes_at);
    s.shoe = snapshot.shoe ? snapshot.shoe.id : null;
    s.commitment = snapshot.shoe ? snapshot.shoe.commitment : null;
    const r = snapshot.phase === "cut" ? null : snapshot.round; // the cut: the last shoe's coup is over
    s.last = lastOf(snapshot.last_round) || s.last;
    s.cards = { player: [], banker: [] };
    s.slots = {};
    s.result = null;
    s.bets = {};
    if (r) {
      s.coup = r.coup;
      s.spots = r.spots || s.spots;
      s.bets = r.bets || {};
      s.cards = { player: [...(r.player_cards || [])], banker: [...(r.banker_cards || [])] };
      s.slots = slotsOf(s.cards);
      s.result = r.result || null;
      s.roads = r.roads || s.roads;
      s.squeeze = r.squeeze || null;
      s.edges = edgesOf(r);
    }
    s.seats = { ...(snapshot.seats || {}) };
    s.actions = snapshot.your_actions || [];
    const pending = snapshot.pending || {};
    s.pending = pending.kind === "squeeze" ? { ...pending, closesAt: s.closesAt } : null;
    s.secret = new Set();
    for (const action of s.actions.filter((a) => a.type === "turn")) {
      // the holder's cards under the squeeze: both of the first four, or a third card on its own
      const cards = s.cards[action.side];
      const from = cards.length > 2 ? cards.length - 1 : 0;
      for (let i = from; i < cards.length; i++) s.secret.add(`${action.side}.${i}`);
    }
    s.banner = s.phase === "betting" ? B("bac.place_bets") : "";
    s.cut = null;
    if (s.phase === "cut" && snapshot.cutter) openCut(snapshot.cutter, s.closesAt);
    else loadSeed();
  }

  /** The live edges when the server sent them (staff at a live_edges table), else null: no panel. */
  function edgesOf(round) {
    const edges = round && round.house_edge;
    return edges && typeof edges === "object" && Object.keys(edges).length ? edges : null;
  }

  /** Where each of the coup's cards lies, by dealing order: player, banker, player, banker, then the
   *  player's third card (when drawn) and the banker's. */
  function slotsOf(cards) {
    const slots = {};
    [["player", 0], ["banker", 0], ["player", 1], ["banker", 1]].forEach(([side, pos], i) => {
      if (cards[side].length > pos) slots[i] = [side, pos];
    });
    let next = 4;
    if (cards.player.length > 2) slots[next++] = ["player", 2];
    if (cards.banker.length > 2) slots[next] = ["banker", 2];
    return slots;
  }

  /** Put a card (null: face down) in its slot, by the event's index; a new slot at the side's end. */
  function place(e, card) {
    let slot = e.index !== undefined ? s.slots[e.index] : undefined;
    if (!slot) {
      slot = [e.side, s.cards[e.side].length];
      s.cards[e.side].push(card);
      if (e.index !== undefined) s.slots[e.index] = slot;
    } else if (card !== null || s.cards[slot[0]][slot[1]] === undefined) {
      s.cards[slot[0]][slot[1]] = card;
    }
    return slot;
  }

  async function refresh() {
    try {
      const snapshot = await api("GET", `/api/tables/${table.id}`);
      if (snapshot.round) {
        s.roads = snapshot.round.roads || s.roads;
        s.squeeze = snapshot.round.squeeze || null;
        s.edges = edgesOf(snapshot.round);
      }
      update();
    } catch {
      /* the next event tries again */
    }
  }

  /** The coup on the felt, once over, becomes the last coup (its cards and result stay in view until the
   *  next coup's deal starts); the felt is cleared for the next. */
  function keepLast() {
    if (s.result || s.cards.player.length || s.cards.banker.length) s.last = { result: s.result, cards: s.cards, bets: s.bets, coup: s.result ? s.result.coup : s.coup };
    s.cards = { player: [], banker: [] };
    s.result = null;
    s.slots = {};
    s.secret = new Set();
  }

  function apply(e) {
    switch (e.type) {
      case "betting_open":
        keepLast();
        s.voided = false;
        s.phase = "betting";
        s.closesAt = isoMs(e.closes_at);
        s.bets = {};
        s.cards = { player: [], banker: [] };
        s.result = null;
        s.slots = {};
        s.secret = new Set();
        s.pending = null;
        s.actions = [];
        s.log = [];
        s.banner = B("bac.place_bets");
        s.cut = null;
        loadSeed();
        refresh();
        break;
      case "bet":
      {
        // a second bet on the same spot adds up (the server keeps their sum)
        const before = cents((s.bets[e.spot] || {})[e.player]);
        const added = cents(e.amount);
        const sum = before !== null && added !== null ? centsText(before + added, false) : e.amount;
        s.bets[e.spot] = { ...(s.bets[e.spot] || {}), [e.player]: sum };
      }
        s.log.push(t("log.bet", { player: e.player, amount: money(e.amount), where: t("spot." + e.spot) }));
        break;
      case "no_more_bets":
        if (player) {
          const mine = Object.entries(s.bets)
            .filter(([, who]) => who[player])
            .map(([spot, who]) => ({ spot, amount: Number(who[player]) }));
          if (mine.length) s.lastBets = mine;
        }
        s.phase = "playing";
        s.closesAt = 0;
        s.banner = B("bj.no_more_bets");
        s.log.push(t("bj.no_more_bets"));
        break;
      case "coup_started":
        // a new coup's deal: whatever is still on the felt is the last coup's (a page that missed the
        // betting window's opening must not add this coup's cards after it)
        if (s.cards.player.length || s.cards.banker.length || s.result) keepLast();
        s.last = null;
        s.coup = e.coup;
        s.log.push(t(e.demo ? "log.demo_coup" : "log.coup", { coup: e.coup }));
        break;
      case "first_card":
        s.log.push(t("log.first_card", { card: e.card, burns: e.burns }));
        break;
      case "burn":
        s.log.push(t("log.burn"));
        break;
      case "card":
        if (e.side === "player" || e.side === "banker") {
          if (e.face_up && e.private) {
            const [side, pos] = place(e, e.card); // Art. 16: the holder's card, into its face-down slot
            s.secret.add(`${side}.${pos}`);
            s.log.push(t("log.squeezed_card", { where: t("spot." + e.side), card: e.card }));
          } else if (!e.face_up) {
            place(e, null);
            s.log.push(t("log.card", { where: t("spot." + e.side), card: t("bac.squeezed_by", { name: e.holder || "" }) }));
          } else {
            place(e, e.card);
            s.log.push(t("log.card", { where: t("spot." + e.side), card: e.card }));
          }
        }
        s.banner = "";
        break;
      case "card_turned": {
        const slot = s.slots[e.index] || [e.side, Math.max(0, s.cards[e.side].indexOf(null))];
        s.slots[e.index] = slot;
        s.cards[slot[0]][slot[1]] = e.card;
        s.secret.delete(`${slot[0]}.${slot[1]}`);
        s.log.push(t("log.card_turned", { where: t("spot." + e.side), card: e.card }));
        break;
      }
      case "await":
        s.awaits += 1;
        s.pending = e.kind === "squeeze" ? { ...e, closesAt: isoMs(e.closes_at) } : null;
        break;
      case "timeout":
        if (s.pending && s.pending.kind === "squeeze") s.log.push(t("log.squeeze_timeout"));
        break;
      case "squeeze_holder":
        s.squeeze = { ...(s.squeeze || {}), [e.side]: e.player };
        break;
      case "seated":
        s.seats[e.box] = e.player;
        s.log.push(t("log.seated_bac", { player: e.player, seat: e.box }));
        break;
      case "left":
        if (s.seats[e.box] === e.player) delete s.seats[e.box];
        break;
      case "coup_result":
        s.result = e;
        s.pending = null;
        s.secret = new Set();
        if (e.player && e.banker) s.cards = { player: [...e.player.cards], banker: [...e.banker.cards] };
        s.banner = B("bac.winner." + e.winner);
        s.log.push(t("bac.winner." + e.winner));
        break;
      case "coup_voided":
      case "round_voided":
        s.banner = B("bj.round_void", { reason: e.reason });
        break;
      case "cut_card":
        s.log.push(t("log.cut_card"));
        break;
      case "round_over":
        if (e.voided) s.voided = true; // its bets are returned: a new shoe after it starts on a clear felt
        s.phase = "idle";
        refresh();
        break;
      case "new_shoe":
        s.shoe = e.shoe;
        s.commitment = e.commitment;
        s.seed = null;
        s.cut = null;
        s.shoeLog = [t("log.new_shoe", { shoe: e.shoe })];
        if (s.voided) {
          // a void ended the shoe: a clear felt for the cut
          s.voided = false;
          s.bets = {};
          s.cards = { player: [], banker: [] };
          s.slots = {};
          s.secret = new Set();
          s.squeeze = null;
          s.pending = null;
          s.actions = [];
        }
        break;
      case "cut":
        s.phase = "cut";
        s.closesAt = isoMs(e.closes_at);
        s.pending = null;
        openCut(e.player, s.closesAt);
        s.shoeLog.push(t("cut.by", { name: e.player }));
        break;
      case "cut_made":
        s.seed = { shoe: s.shoe, value: e.client_seed, by: e.player };
        s.cut = null;
        s.banner = "";
        s.shoeLog.push(cutLine(t, e, s.shoe, s.commitment));
        break;
      case "balance":
        ctx.setBalance(e.balance);
        break;
      default:
        break;
    }
  }

  /** The coup whose cards are drawn: the last one stays on the table until the new one has a bet. */
  function shownCards() {
    const dealt = s.cards.player.length || s.cards.banker.length;
    return !dealt && s.last ? s.last.cards : s.cards;
  }

  // a card is drawn with the reveal transition the first time it is shown face up (or as a back)
  let seenCards = new Set();
  let seenOf = null;
  function fresh(key) {
    const on = shownCards();
    if (on !== seenOf) {
      seenOf = on;
      seenCards = new Set();
    }
    if (seenCards.has(key)) return false;
    seenCards.add(key);
    return true;
  }

  function turnAction(side) {
    return s.pending ? s.actions.find((a) => a.type === "turn" && a.side === side) : undefined;
  }

  function sideHtml(side) {
    const live = shownCards() === s.cards;
    const cards = shownCards()[side];
    const holder = s.squeeze && s.squeeze[side];
    const secret = (i) => live && s.secret.has(`${side}.${i}`);
    const html = cards
      .map((card, i) => cardSvg(card, t, secret(i) ? `data-private="true" title="${esc(t("bac.only_you"))}"` : "", fresh(`${side}.${i}.${card ?? "down"}`)))
      .join("");
    // the total only once every card is face up to the whole table
    const hidden = cards.some((card, i) => card === null || secret(i));
    const total = cards.length && !hidden ? bacTotal(cards) : "";
    const turn = live && turnAction(side);
    const button = turn
      ? `<button type="button" class="action turn" id="turn-${side}" data-side="${side}" aria-keyshortcuts="T">${esc(t("bac.turn", { side: t("spot." + side) }))} <kbd>T</kbd></button>`
      : "";
    const previous = !live ? ` <small class="previous">${esc(t("tbl.last_coup", { coup: s.last.coup ?? "" }))}</small>` : "";
    return `<div class="side-cards ${side}" data-side="${side}" data-coup="${live ? "current" : "last"}"><h2>${esc(t("spot." + side))}${previous}${holder ? ` <small>(${esc(t("bac.held_by", { name: holder }))})</small>` : ""}</h2>
      <div class="cards">${html}</div><p class="total" data-total="${total}"${hidden ? ' data-hidden="true"' : ""}>${hidden ? "?" : total}</p>${button}</div>`;
  }

  function squeezeHtml() {
    const p = s.pending;
    if (!p || p.kind !== "squeeze") return "";
    const timer = p.closesAt ? ` <span class="countdown" id="squeeze-timer" data-closes-at="${p.closesAt}"></span>` : "";
    if (s.actions.some((a) => a.type === "turn")) {
      return `<div class="offer squeeze-prompt" id="squeeze-prompt" data-mine="true"><p><strong>${esc(t("bac.your_squeeze"))}</strong>${timer}</p></div>`;
    }
    const holders = [...new Set(Object.values(s.squeeze || {}).filter(Boolean))].join(", ");
    return `<p class="waiting squeeze-prompt" id="squeeze-prompt">${esc(t("bac.squeezing", { name: holders }))}${timer}</p>`;
  }

  function seatsHtml() {
    const mine = player ? Object.entries(s.seats).find(([, who]) => who === player) : undefined;
    let html = `<h3>${esc(t("seat.title"))}</h3><ol class="seat-row">`;
    for (let n = 1; n <= 7; n++) {
      const who = s.seats[n];
      let inner;
      if (who && who === player) {
        inner = `<span class="seat-name">${esc(t("seat.yours"))}</span> <button type="button" class="small leave" id="leave-seat-${n}" data-box="${n}" aria-label="${esc(t("seat.leave_seat", { seat: n }))}">${esc(t("seat.leave"))}</button>`;
      } else if (who) inner = `<span class="seat-name">${esc(who)}</span>`;
      else if (player && !mine) inner = `<button type="button" class="small sit" id="sit-seat-${n}" data-box="${n}" aria-label="${esc(t("seat.sit_seat", { seat: n }))}">${esc(t("seat.sit"))}</button>`;
      else inner = `<span class="seat-name empty">${esc(t("seat.empty"))}</span>`;
      html += `<li class="seat${who === player && who ? " mine" : ""}" data-seat="${n}"${who ? ` data-occupant="${esc(who)}"` : ""}><span class="seat-no">${n}</span> ${inner}</li>`;
    }
    return html + `</ol><p class="hint">${esc(t("seat.bac_hint"))}</p>`;
  }

  function spotsHtml() {
    return s.spots
      .map((spot) => {
        const bets = Object.entries(s.bets[spot] || {});
        const mine = player && (s.bets[spot] || {})[player];
        const can = player && s.phase === "betting";
        const total = bets.reduce((sum, [, a]) => sum + (cents(a) ?? 0n), 0n);
        const stack = total > 0n ? chipStack(centsText(total, false), chips, esc(money(centsText(total, false)))) : "";
        const multiple = spot === "banker" && rules.banker_bet_multiple_of_min === true
          ? `<p class="spot-rule">${esc(t("tbl.multiples_of", { min: money(table.min_bet) }))}</p>` : "";
        const label = mine ? t("tbl.add_to_bet") : t("bac.bet_on");
        return `<div class="spot ${spot}${mine ? " mine" : ""}" data-spot="${spot}">
          <h3>${esc(t("spot." + spot))}</h3>${multiple}
          <div class="stack-slot">${stack}</div>
          <ul class="bets">${bets.map(([who, a]) => `<li data-player="${esc(who)}"${who === player ? ' class="mine"' : ""}>${esc(who)}: ${esc(money(a))}</li>`).join("")}</ul>
          ${can ? `<button type="button" class="bet-spot" id="bet-${spot}" data-spot="${spot}" aria-keyshortcuts="${SPOT_KEYS[spot]}">${esc(label)} <kbd>${SPOT_KEYS[spot]}</kbd></button>` : ""}
        </div>`;
      })
      .join("");
  }

  function percent(edge) {
    return `${(Number(edge) * 100).toFixed(3)}%`;
  }

  /** Surveillance (staff only): every offered bet's exact edge for the cards not yet seen. */
  function edgesHtml() {
    if (!s.edges) return "";
    const rows = Object.entries(s.edges)
      .map(([spot, edge]) => `<tr data-spot="${esc(spot)}"><th scope="row">${esc(t("spot." + spot))}</th><td>${esc(percent(edge))}</td></tr>`)
      .join("");
    return `<h2 id="edges-title">${esc(t("bac.edges"))}</h2><p class="hint">${esc(t("bac.edges_staff"))}</p><table>${rows}</table>`;
  }

  function grid(columns, cell) {
    if (!columns || !columns.length) return `<p class="hint">${esc(t("bac.no_coups"))}</p>`;
    return `<div class="road-grid">${columns.map((col) => `<div class="road-col">${col.map(cell).join("")}</div>`).join("")}</div>`;
  }

  function roadsHtml() {
    const r = s.roads;
    if (!r) return "";
    const letter = (x) => `<span class="bead ${x}" title="${esc(t("bac.letter." + x))}">${esc(t("bac.short." + x))}</span>`;
    const big = (entry) =>
      `<span class="ring ${entry.winner}" title="${esc(t("bac.letter." + entry.winner))}">${entry.ties ? entry.ties : ""}${entry.banker_pair ? '<i class="pair banker" aria-hidden="true"></i>' : ""}${entry.player_pair ? '<i class="pair player" aria-hidden="true"></i>' : ""}</span>`;
    const marker = (name) => (colour) => `<span class="mark ${colour} ${name}" data-road="${name}" data-colour="${colour}" title="${esc(t("tbl.colour." + colour))}">${roadMark(name, colour)}</span>`;
    const ask = r.ask
      ? ["B", "P"]
          .map(
            (side) =>
              `<li>${esc(t("bac.ask", { side: t("bac.letter." + side) }))}: ${["big_eye_boy", "small_road", "cockroach_pig"]
                .map((name) => `${esc(t("bac.road." + name))} ${r.ask[side][name] ? marker(name)(r.ask[side][name]) : "–"}`)
                .join(" · ")}</li>`,
          )
          .join("")
      : "";
    return `<h2>${esc(t("bac.roads"))}</h2>
      <h3>${esc(t("bac.road.bead_plate"))}</h3>${grid(r.bead_plate, letter)}
      <h3>${esc(t("bac.road.big_road"))}${r.held_ties ? ` <small>(${esc(t("bac.held_ties", { n: r.held_ties }))})</small>` : ""}</h3>${grid(r.big_road, big)}
      ${["big_eye_boy", "small_road", "cockroach_pig"].map((name) => `<h3>${esc(t("bac.road." + name))}</h3>${grid(r[name], marker(name))}`).join("")}
      <ul class="ask" id="ask">${ask}</ul>`;
  }

  function resultsHtml() {
    const result = s.result || (s.last && s.last.result);
    if (!result) return "";
    const net = player && result.net ? result.net[player] : undefined;
    return `<h2>${esc(t("bac.coup_result", { coup: result.coup }))}</h2>
      <p class="winner ${esc(result.winner)}" data-winner="${esc(result.winner)}">${esc(t("bac.winner." + result.winner))} — ${esc(t("spot.player"))} ${result.player.total} : ${esc(t("spot.banker"))} ${result.banker.total}${result.natural ? ` (${esc(t("bac.natural"))})` : ""}</p>
      ${net !== undefined ? `<p class="net" id="net" data-net="${esc(cents(net) === null ? net : centsText(cents(net), false))}">${esc(t("bj.net"))}: <strong>${esc(signed(net))}</strong></p>` : ""}`;
  }

  /** The last coup's result on the felt, from its result until the next coup's deal starts. */
  function feltResultHtml() {
    const result = s.result || (s.last && s.last.result);
    if (!result || !result.player || !result.banker) return "";
    const net = player && result.net ? result.net[player] : undefined;
    const amount = net === undefined ? null : cents(net);
    const kind = amount === null ? "none" : amount > 0n ? "win" : amount < 0n ? "lose" : "push";
    const outcome =
      kind === "none"
        ? ""
        : `<p class="result-net ${kind}" id="result-net" data-net="${esc(centsText(amount, false))}" data-outcome="${kind}">${esc(
            kind === "win" ? t("tbl.you_win", { amount: money(centsText(amount, false)) }) : kind === "lose" ? t("tbl.you_lose", { amount: money(centsText(-amount, false)) }) : t("tbl.push"),
          )}</p>`;
    const side = (name) =>
      `<span class="result-side ${name}"><span class="result-label">${esc(t("spot." + name))} ${result[name].total}</span><span class="mini-cards">${result[name].cards.map((c) => cardSvg(c, t)).join("")}</span></span>`;
    return `<div class="result-card" data-coup="${result.coup}" data-winner="${esc(result.winner)}">
      <p class="result-title">${esc(t("bac.coup_result", { coup: result.coup }))}${s.result ? "" : ` <small>${esc(t("tbl.last_coup_short"))}</small>`}</p>
      <p class="result-winner ${esc(result.winner)}">${esc(t("bac.winner." + result.winner))}${result.natural ? ` · ${esc(t("bac.natural"))}` : ""}</p>
      <div class="result-sides">${side("player")}${side("banker")}</div>${outcome}</div>`;
  }

  let scheduled = false;
  function render() {
    scheduled = false;
    root.dataset.phase = s.phase;
    root.dataset.bettingCloses = s.phase === "betting" ? String(s.closesAt) : "0";
    root.dataset.pending = s.pending ? `${s.pending.kind}:${s.pending.player || ""}` : "";
    root.dataset.awaits = String(s.awaits);
    patch(root, {
      "#sec-head": `<h1>${esc(table.name)} <small>${esc(t("preset." + table.rules))}</small></h1>
        <p class="meta"><span>${esc(t("lobby.limits"))}: ${esc(money(table.min_bet))} – ${esc(money(table.max_bet))}</span>
        <span class="phase" id="phase" data-phase="${esc(s.phase)}">${esc(t("phase." + s.phase))}</span>${s.connected ? "" : ` <span class="offline">${esc(t("offline"))}</span>`}${consoleLink(t, table, ctx.me)}</p>
        <p class="commitment">${esc(t("fair.commitment"))} (${esc(t("fair.shoe", { shoe: s.shoe ?? "–" }))}): <code id="commitment">${esc(s.commitment || "")}</code>${seedHtml(t, s.seed)}</p>`,
      "#coup": sideHtml("player") + sideHtml("banker"),
      "#round-result": feltResultHtml(),
      "#banner": s.banner ? `<p>${esc(t(s.banner[0], s.banner[1]))}</p>` : "",
      "#spots": spotsHtml(),
      "#edges": edgesHtml(),
      "#prompt":
        s.phase === "betting"
          ? `<p class="phase-line">${esc(t("bj.betting_closes"))} <span class="countdown" id="countdown" data-closes-at="${s.closesAt}"></span></p>`
          : s.phase === "cut"
            ? cutHtml(t, s.cut, player)
            : squeezeHtml(),
      "#seats": seatsHtml(),
      "#tray": player
        ? chipTray(t, chips, s.chip, s.stake, s.phase === "betting", "chip.hint_bac", { chips: s.stakeChips, lastBets: s.lastBets, note: s.note, busy: s.busy })
        : "",
      "#results": resultsHtml(),
      "#roads": roadsHtml(),
      "#rules-slot": rulesPanel(t, table),
      "#log-title": esc(t("log.title")),
      "#log": [...s.shoeLog, ...s.log].map((line) => `<li>${esc(line)}</li>`).join(""),
    });
    root.querySelector("#edges").hidden = !s.edges;
  }
  function update() {
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(render);
    }
  }

  /** A refused stake is not kept: the next click starts a new one. */
  function refuse(reason) {
    s.note = reason;
    stake.clear();
    ctx.toast(reason);
    update();
  }

  async function bet(spot) {
    if (!player || s.phase !== "betting" || s.busy) return;
    const amount = s.stake || s.chip;
    const local = localRefusal(t, table, rules, spot, amount);
    if (local) {
      refuse(local);
      return;
    }
    s.busy = true;
    try {
      const answer = await api("POST", `/api/tables/${table.id}/bets`, { spot, amount: String(amount) }, { key: newKey() });
      ctx.setBalance(answer.balance);
      stake.clear();
      s.note = "";
    } catch (error) {
      refuse(error.message);
    }
    s.busy = false;
    update();
  }

  /** Re-bet (times 1) or Double bet (times 2) the last coup's bets, each its own bet, stopping at the
   *  first refusal with its reason. */
  async function again(times) {
    if (!player || s.phase !== "betting" || s.busy || !s.lastBets.length) return;
    const bets = s.lastBets.map((b) => ({ spot: b.spot, amount: b.amount * times }));
    await rebet(s, bets, { t, table, rules, ctx, refuse, update });
  }

  async function turn(side) {
    if (!turnAction(side)) return;
    try {
      await api("POST", `/api/tables/${table.id}/actions`, { type: "turn", side });
    } catch (error) {
      ctx.toast(error.message);
    }
  }

  async function seat(method, n) {
    try {
      if (method === "POST") await api("POST", `/api/tables/${table.id}/seats`, { box: n });
      else await api("DELETE", `/api/tables/${table.id}/seats/${n}`);
    } catch (error) {
      ctx.toast(error.message);
    }
  }

  function onClick(event) {
    const chip = event.target.closest(".chip");
    if (chip && !chip.disabled) {
      stake.add(Number(chip.dataset.value));
      update();
      return;
    }
    if (stakeControl(event.target, stake, update, again)) return;
    const spot = event.target.closest(".bet-spot");
    if (spot) {
      bet(spot.dataset.spot);
      return;
    }
    const turnButton = event.target.closest("button.turn");
    if (turnButton) {
      turn(turnButton.dataset.side);
      return;
    }
    const sit = event.target.closest("button.sit");
    if (sit) {
      seat("POST", Number(sit.dataset.box));
      return;
    }
    const leave = event.target.closest("button.leave");
    if (leave) seat("DELETE", Number(leave.dataset.box));
  }

  function onKey(event) {
    if (isTyping(event)) return;
    const key = event.key.toUpperCase();
    if (key === "T" && s.pending) {
      event.preventDefault();
      for (const action of s.actions.filter((a) => a.type === "turn")) turn(action.side);
      return;
    }
    if (s.phase !== "betting") return;
    const spot = Object.keys(SPOT_KEYS).find((name) => SPOT_KEYS[name] === key && s.spots.includes(name));
    if (spot) {
      event.preventDefault();
      bet(spot);
    } else if (key === "C") {
      stake.clear();
      update();
    } else if (key === "U") {
      stake.undo();
      update();
    } else if (key === "A") {
      again(1);
    } else if (key === "X") {
      again(2);
    }
  }

  root.addEventListener("click", onClick);
  root.addEventListener("submit", async (event) => {
    if (!event.target.closest("#cut-prompt")) return;
    event.preventDefault();
    const field = root.querySelector("#cut-seed");
    if (!field || !s.cut || s.cut.sent) return;
    const seed = field.value.trim();
    if (await sendCut(table.id, seed, ctx)) {
      if (s.cut) Object.assign(s.cut, { sent: true, initial: seed });
      update();
    }
  });
  document.addEventListener("keydown", onKey);
  const watcher = watchTable(
    table.id,
    (message) => {
      if (message.type === "snapshot") fromSnapshot(message.snapshot);
      else if (message.event && !(message.seq !== undefined && message.seq !== null && message.seq <= s.snapSeq)) {
        apply(message.event);
        if (message.your_actions) s.actions = message.your_actions;
      }
      update();
    },
    (state) => {
      s.connected = state === "open";
      update();
    },
  );
  render();
  return {
    render() {
      for (const node of root.querySelectorAll("[id]")) node.__html = null;
      render();
    },
    unmount() {
      watcher.close();
      document.removeEventListener("keydown", onKey);
    },
  };
}
