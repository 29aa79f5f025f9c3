// A blackjack table (macau-1983 or live-online): seats and boxes, chips and bets, the deal in the rules'
// order with the hole card face down, the legal actions as buttons with shortcuts, the insurance,
// even money and surrender prompts with their timers, split hands side by side, results and balance.
//
// The view is driven by the table's WebSocket: a snapshot, then events applied one by one; it never
// knows a card before the server shows it face up (the hole card is drawn as a back).
//
// Seats (Art. 2.3): each empty box offers "Sit", a taken one names its occupant, your own has "Leave"
// (the server refuses it while you have a bet in the round, and says why). A bet behind another's box
// (Art. 13, macau-1983 bet_behind) carries the bettor's choice to match the decider's doubles and
// splits, which can be changed until the decision (PUT /matching). Where the rules deal the boxes'
// cards face down (Macau 1983, Art. 3.1a) the table sees backs, and a box's bettors get each card
// privately into its face-down slot; the box's cards are shown to all once it has played.
//
// The cut (Art. 2.1): when a new shoe starts with someone seated, the first seated player gets a form
// with a random seed to keep or replace and a "Cut" button, everyone else "NAME cuts the new shoe",
// both with the countdown; the seed then goes to the log with the shoe's commitment, and the header
// shows the shoe's client seed (from GET /api/shoes/{id} when the page joins later).

import { api, newKey, watchTable } from "./api.js";
import { esc, money, signed, signedCents, cents, centsText, bjTotal, isoMs, chipValues } from "./util.js";
import { cardSvg, chipStack } from "./svg.js";
import { rulesFor } from "./rules.js";
import { patch, chipTray, rulesPanel, isTyping, cutHtml, sendCut, cutLine, seedHtml, cutState, stakeOps, localRefusal, consoleLink, rebet, stakeControl } from "./common.js";

const SHORTCUTS = { hit: "H", stand: "S", double: "D", split: "P", surrender: "R", insurance: "I", even_money: "E" };
const DECISIONS = ["hit", "stand", "double", "split", "surrender"];

function emptyRound(number) {
  return { number, dealer: { cards: [], hole: false }, boxes: {}, insurance: [], payments: [] };
}

function fromView(view) {
  const round = emptyRound(view.number);
  round.id = view.id;
  round.dealer = { cards: [...view.dealer.cards], hole: Boolean(view.dealer.hole_card) };
  for (const box of view.boxes || []) {
    round.boxes[box.box] = {
      bets: { ...box.bets },
      decider: box.decider,
      deciderBets: Object.keys(box.bets || {}).length,
      hands: (box.hands || []).map((hand) => fromHand(hand)),
    };
  }
  round.insurance = [...(view.insurance || [])];
  round.payments = [...(view.payments || [])];
  return round;
}

function fromHand(hand, before) {
  return {
    cards: [...hand.cards],
    seen: hand.cards.map(() => false), // dealt face down to the table, seen privately by this viewer
    outcome: hand.outcome ?? (before ? before.outcome : null),
    stakes: { ...(hand.stakes || (before ? before.stakes : {})) },
    doubled: before ? before.doubled : false,
    early: 0,
  };
}

/** A settled round as the felt draws it, rebuilt from its public log (a GET /api/history entry's
 *  `events`): the dealer's cards, each box's hands (face-down cards filled in by `box_shown`, splits
 *  followed), the payments. */
export function roundFromLog(entry) {
  const round = emptyRound(entry.number);
  round.id = entry.round;
  const box = (n) => (round.boxes[n] = round.boxes[n] || { bets: {}, decider: null, hands: [] });
  const hand = (n, i) => {
    const b = box(n);
    while (b.hands.length <= i) b.hands.push({ cards: [], seen: [], outcome: null, stakes: {}, doubled: false, early: 0 });
    return b.hands[i];
  };
  for (const e of entry.events || []) {
    if (e.type === "bet" && e.box !== undefined) box(e.box).bets[e.player] = e.amount;
    else if (e.type === "card" && e.box === 0) {
      if (e.face_up) round.dealer.cards.push(e.card);
      else round.dealer.hole = true;
    } else if (e.type === "card" && e.box !== undefined) {
      const h = hand(e.box, e.hand ?? 0);
      h.cards.push(e.face_up ? e.card : null);
      h.seen.push(false);
    } else if (e.type === "hole_card") {
      round.dealer.hole = false;
      round.dealer.cards.push(e.card);
    } else if (e.type === "box_shown") {
      const b = box(e.box);
      b.hands = (e.hands || []).map((h, i) => fromHand(h, b.hands[i]));
    } else if (e.type === "split") {
      const hands = box(e.box).hands;
      const from = hands[e.hand];
      if (from) hands.splice(e.hand + 1, 0, { cards: from.cards.length ? [from.cards.pop()] : [], seen: [false], outcome: null, stakes: {}, doubled: false, early: 0 });
    } else if (e.type === "double" && round.boxes[e.box]?.hands[e.hand]) round.boxes[e.box].hands[e.hand].doubled = true;
    else if (e.type === "redeal") {
      round.dealer = { cards: [], hole: false };
      for (const b of Object.values(round.boxes)) b.hands = [];
    } else if (e.type === "payment") {
      round.payments.push(e);
      const h = e.hand === null || e.hand === undefined ? null : round.boxes[e.box]?.hands[e.hand];
      if (h) h.outcome = e.kind;
    }
  }
  return round;
}

/** Blackjack total of the cards; [null, false] while any is face down to this viewer. */
function visibleTotal(cards) {
  if (cards.includes(null)) return [null, false];
  return bjTotal(cards);
}

export function mountBlackjack(main, table, ctx) {
  const { t } = ctx;
  const B = (key, vars) => [key, vars];
  const rules = rulesFor("blackjack", table.rules, table.overrides);
  const chips = chipValues(table);
  const me = ctx.me;
  const player = me && me.role === "player" ? me.name : null;
  const s = {
    phase: "starting",
    closesAt: 0,
    round: emptyRound(1),
    pending: null,
    actions: [],
    last: null,
    log: [],
    banner: "",
    chip: chips[0],
    stake: 0,
    stakeChips: [], // the chips of the stake being built, in order (Undo takes the last)
    note: "", // the last refusal of a bet, local or the server's
    lastBets: [], // this player's bets of the last round dealt: [{spot: box, amount}] (Re-bet, Double bet)
    snapSeq: -1, // the snapshot's seq: events up to it are in it already
    insuranceDismissed: false,
    shoe: null,
    commitment: null,
    shoeEnded: null,
    cut: null, // the cut window: {player, closesAt, initial}
    seed: null, // the shoe's client seed: {shoe, value, by}
    connected: false,
    busy: false,
    awaits: 0,
    ended: 0,
    logStart: 0,
    seats: {}, // box -> occupant (Art. 2.3)
    match: {}, // box -> this player matches the decider's doubles and splits there (Art. 13)
    mine: null, // this player's latest round at this table from GET /api/history, until a new one settles here
  };
  const { openCut, loadSeed } = cutState(s, player, B, () => update());
  const stake = stakeOps(s, chips);

  main.innerHTML = `<section class="table-view blackjack" id="bj-table" data-table="${table.id}" data-preset="${esc(table.rules)}">
    <div class="table-head" id="sec-head"></div>
    <div class="felt">
      <div class="dealer-area" id="dealer" aria-live="polite"></div>
      <div class="round-result" id="round-result" aria-live="polite"></div>
      <div class="banner" id="banner" role="status" aria-live="assertive"></div>
      <div class="boxes" id="boxes"></div>
    </div>
    <div class="controls">
      <div class="prompt" id="prompt" aria-live="polite"></div>
      <div class="tray" id="tray"></div>
    </div>
    <div class="results" id="results" aria-live="polite"></div>
    <div class="side">
      <div id="rules-slot"></div>
      <details class="log" id="log-panel" open><summary id="log-title"></summary><ol id="log"></ol></details>
    </div>
  </section>`;
  const root = main.querySelector("#bj-table");

  // ------------------------------------------------------------------------------------------------
  // the model

  function box(n) {
    if (!s.round.boxes[n]) s.round.boxes[n] = { bets: {}, decider: null, hands: [] };
    return s.round.boxes[n];
  }

  function hand(n, index) {
    const b = box(n);
    while (b.hands.length <= index) b.hands.push({ cards: [], seen: [], outcome: null, stakes: { ...b.bets }, doubled: false, early: 0 });
    return b.hands[index];
  }

  function where(b, h) {
    return b === 0 ? t("bj.dealer") : t("bj.box_hand", { box: b, hand: Number(h ?? 0) + 1 });
  }

  function note(text) {
    s.log.push(text);
  }

  function applySnapshot(snapshot) {
    s.snapSeq = Number(snapshot.seq ?? -1);
    const last = snapshot.last_round;
    if (last && !last.voided && ((last.boxes || []).length || (last.payments || []).length)) {
      s.last = fromView({ ...last, number: last.number ?? (snapshot.round ? snapshot.round.number - 1 : null) });
    }
    s.phase = snapshot.phase;
    s.shoe = snapshot.shoe ? snapshot.shoe.id : null;
    s.commitment = snapshot.shoe ? snapshot.shoe.commitment : null;
    if (snapshot.round && snapshot.phase !== "cut") s.round = fromView(snapshot.round);
    s.seats = { ...(snapshot.seats || {}) };
    const pending = snapshot.pending || {};
    s.closesAt = isoMs(snapshot.closes_at);
    s.pending = pending.kind === "decision" || pending.kind === "insurance" || pending.kind === "card" ? { ...pending, closesAt: s.closesAt } : null;
    s.actions = snapshot.your_actions || [];
    s.banner = s.phase === "betting" ? B("bj.place_bets") : "";
    s.cut = null;
    if (s.phase === "cut" && snapshot.cutter) openCut(snapshot.cutter, s.closesAt);
    else loadSeed();
    loadMine();
  }

  /** After a (re)connect: this player's latest round, from the history (GET /api/history), where it was
   *  played at this table and is not the round in play. A server restart forgets the snapshot's
   *  `last_round`, and a hand the timer stood meanwhile is then told to its player only here. */
  async function loadMine() {
    if (!player) return;
    let latest;
    try {
      [latest] = await api("GET", "/api/history?limit=1");
    } catch {
      return; // the felt still shows what the snapshot holds
    }
    if (!latest || latest.table !== table.name || latest.game !== "blackjack") return;
    if (s.round.id !== undefined && latest.round === s.round.id && !s.round.payments.length) return;
    if (s.mine && s.mine.round > latest.round) return;
    s.mine = latest;
    update();
  }

  /** "Your last round, TABLE round N: box 2 hand 1 stood by the timer, lose −5.00 …" */
  function mineHtml() {
    const r = s.mine;
    if (!r) return "";
    const events = r.events || [];
    const timedOut = (box, hand) =>
      events.some((e) => e.type === "timeout" && e.kind === "decision" && e.player === player && e.box === box && (e.hand ?? 0) === (hand ?? 0));
    const parts = events
      .filter((e) => e.type === "payment" && e.player === player)
      .map((e) => {
        const at = e.hand === null || e.hand === undefined ? t("bj.box", { box: e.box }) : where(e.box, e.hand);
        const stood = e.hand !== null && e.hand !== undefined && timedOut(e.box, e.hand) ? ` ${t("bj.stood_by_timer")},` : "";
        return `${at}${stood} ${t("pay_kind." + e.kind)} ${signed(e.amount)}`;
      });
    if (!parts.length && r.status === "voided") parts.push(t("status.voided"));
    if (!parts.length) return "";
    const stood = events.some((e) => e.type === "timeout" && e.kind === "decision" && e.player === player);
    return `<p class="your-last" id="your-last" data-round="${esc(r.round)}" data-stood-by-timer="${stood}">${esc(
      t("bj.your_last_round", { table: r.table, number: r.number, result: parts.join("; ") }),
    )}</p>`;
  }

  function apply(event) {
    const e = event;
    switch (e.type) {
      case "betting_open": {
        const r = s.round;
        if (Object.keys(r.boxes).length || r.payments.length) s.last = r;
        s.round = emptyRound(e.round);
        s.phase = "betting";
        s.closesAt = isoMs(e.closes_at);
        s.pending = null;
        s.actions = [];
        s.log = s.log.slice(s.logStart); // the last round's deal stays, above this one's
        s.logStart = s.log.length;
        note(t("log.round", { number: e.round }));
        s.banner = B("bj.place_bets");
        s.cut = null;
        loadSeed();
        break;
      }
      case "bet":
        box(e.box).bets[e.player] = e.amount;
        note(t("log.bet", { player: e.player, amount: money(e.amount), where: t("bj.box", { box: e.box }) }));
        break;
      case "bet_returned": {
        // Art. 2.3, judged when betting closes: a bet behind an occupant who did not bet is returned
        const b = box(e.box);
        delete b.bets[e.player];
        if (!Object.keys(b.bets).length) delete s.round.boxes[e.box]; // nothing is dealt to it
        note(t("log.bet_returned", { player: e.player, amount: money(e.amount), box: e.box, reason: e.reason }));
        break;
      }
      case "no_more_bets":
        if (player) {
          const mine = Object.entries(s.round.boxes)
            .filter(([, b]) => b.bets[player])
            .map(([n, b]) => ({ spot: Number(n), amount: Number(b.bets[player]) }));
          if (mine.length) s.lastBets = mine;
        }
        s.phase = "playing";
        s.closesAt = 0;
        s.banner = B("bj.no_more_bets");
        note(t("bj.no_more_bets"));
        for (const [n, b] of Object.entries(s.round.boxes)) if (!b.hands.length) hand(Number(n), 0);
        break;
      case "burn":
        note(t("log.burn"));
        break;
      case "card":
        if (e.box === 0) {
          if (e.face_up) s.round.dealer.cards.push(e.card);
          else s.round.dealer.hole = true;
        } else if (e.face_up && e.private) {
          // Art. 3.1a: the card of a face-down slot, to this box's bettors only: it fills the slot
          const h = hand(e.box, e.hand);
          const slot = h.cards.indexOf(null);
          if (slot >= 0) {
            h.cards[slot] = e.card;
            h.seen[slot] = true;
          } else {
            h.cards.push(e.card); // ahead of its public face-down event, which then adds nothing
            h.seen.push(true);
            h.early += 1;
          }
          note(t("log.private_card", { where: where(e.box, e.hand), card: e.card }));
          break;
        } else if (e.face_up) {
          const h = hand(e.box, e.hand);
          h.cards.push(e.card);
          h.seen.push(false);
        } else {
          const h = hand(e.box, e.hand);
          if (h.early > 0) h.early -= 1;
          else {
            h.cards.push(null);
            h.seen.push(false);
          }
        }
        note(t("log.card", { where: where(e.box, e.hand), card: e.face_up ? e.card : t("card.face_down") }));
        break;
      case "box_shown": {
        const b = box(e.box);
        b.hands = (e.hands || []).map((h, i) => fromHand(h, b.hands[i]));
        const cards = b.hands.map((h) => h.cards.join(" ")).join(" | ");
        note(t("log.box_shown", { box: e.box, cards }));
        break;
      }
      case "seated":
        s.seats[e.box] = e.player;
        note(t("log.seated", { player: e.player, box: e.box }));
        break;
      case "left":
        if (s.seats[e.box] === e.player) delete s.seats[e.box];
        note(t("log.left", { player: e.player, box: e.box }));
        break;
      case "hole_card":
        s.round.dealer.hole = false;
        s.round.dealer.cards.push(e.card);
        note(t("log.hole_card", { card: e.card }));
        break;
      case "card_voided":
        note(t("log.card_voided", { card: e.card }));
        break;
      case "cut_card":
        note(t("log.cut_card"));
        break;
      case "insurance":
        s.round.insurance.push({ player: e.player, box: e.box, amount: e.amount });
        if (e.player === player) s.actions = s.actions.filter((a) => !(a.box === e.box && ["insurance", "even_money"].includes(a.type)));
        note(t("log.insurance", { player: e.player, box: e.box, amount: money(e.amount) }));
        break;
      case "even_money":
        if (e.player === player) s.actions = s.actions.filter((a) => !(a.box === e.box && ["insurance", "even_money"].includes(a.type)));
        note(t("log.even_money", { player: e.player, box: e.box }));
        break;
      case "insurance_closed":
        s.actions = s.actions.filter((a) => !["insurance", "even_money"].includes(a.type));
        if (s.pending && s.pending.kind === "insurance") s.pending = null;
        note(t("log.insurance_closed"));
        break;
      case "peek":
        note(e.natural ? t("log.peek_natural") : t("log.peek_none"));
        break;
      case "hit":
      case "stand":
      case "double":
      case "split":
      case "surrender": {
        note(t("log.decision", { player: e.player, action: t("action." + e.type), where: where(e.box, e.hand) }));
        const hands = box(e.box).hands;
        if (e.type === "split" && hands[e.hand]) {
          const from = hands[e.hand];
          const moved = from.cards.length ? [from.cards.pop()] : [];
          const seen = from.seen.length ? [from.seen.pop()] : [];
          hands.splice(e.hand + 1, 0, { cards: moved, seen, outcome: null, stakes: { ...from.stakes }, doubled: false, early: 0 });
        }
        if (e.type === "double" && hands[e.hand]) hands[e.hand].doubled = true;
        if (s.pending && s.pending.kind === "decision") s.pending = null;
        break;
      }
      case "hand_stood":
        note(t("log.hand_stood", { where: where(e.box, e.hand), reason: t("reason." + e.reason) }));
        break;
      case "dealer_stood":
        note(t("log.dealer_stood", { total: e.total }));
        break;
      case "payment": {
        s.round.payments.push(e);
        if (player && e.player === player && s.mine && s.round.id !== s.mine.round) s.mine = null; // a newer round of yours
        if (e.hand !== null && e.hand !== undefined) {
          const h = box(e.box).hands[e.hand];
          if (h) h.outcome = e.kind;
        }
        note(t("log.payment", { player: e.player, kind: t("pay_kind." + e.kind), amount: signed(e.amount), where: e.hand === null ? t("bj.box", { box: e.box }) : where(e.box, e.hand) }));
        break;
      }
      case "round_ended":
        s.ended = s.round.number;
        s.phase = "settling";
        s.pending = null;
        s.actions = [];
        s.banner = B("bj.round_over");
        note(t("bj.round_over"));
        break;
      case "round_voided":
        s.banner = B("bj.round_void", { reason: e.reason });
        note(t("bj.round_void", { reason: e.reason }));
        break;
      case "redeal":
        s.round.dealer = { cards: [], hole: false };
        for (const b of Object.values(s.round.boxes)) b.hands = [];
        for (const n of Object.keys(s.round.boxes)) hand(Number(n), 0);
        s.banner = B("bj.redeal", { burn: e.burn });
        note(t("bj.redeal", { burn: e.burn }));
        break;
      case "round_over":
        s.ended = s.round.number;
        s.phase = "idle";
        s.pending = null;
        s.actions = [];
        s.closesAt = 0;
        if (e.voided) {
          s.round.voided = true; // its bets are returned (a misdeal's round_voided is not: the redeal plays on)
          s.banner = B("bj.round_void", { reason: "" });
        }
        break;
      case "await":
        s.awaits += 1;
        s.pending = { ...e, closesAt: isoMs(e.closes_at) };
        if (e.kind === "insurance") s.insuranceDismissed = false;
        if (e.kind === "decision") s.banner = "";
        break;
      case "timeout":
        note(e.kind === "insurance" ? t("log.timeout_insurance") : t("log.timeout_decision", { player: e.player, where: where(e.box, e.hand) }));
        s.pending = null;
        break;
      case "new_shoe":
        s.shoe = e.shoe;
        s.commitment = e.commitment;
        s.seed = null;
        s.cut = null;
        if (s.round.voided) s.round = emptyRound(s.round.number); // a void ended the shoe: a clear felt
        note(t("log.new_shoe", { shoe: e.shoe }));
        break;
      case "cut":
        s.phase = "cut";
        s.closesAt = isoMs(e.closes_at);
        s.pending = null;
        openCut(e.player, s.closesAt);
        note(t("cut.by", { name: e.player }));
        break;
      case "cut_made":
        s.seed = { shoe: s.shoe, value: e.client_seed, by: e.player };
        s.cut = null;
        s.banner = "";
        note(cutLine(t, e, s.shoe, s.commitment));
        break;
      case "shoe_ended":
        s.shoeEnded = e.shoe;
        note(t("log.shoe_ended", { shoe: e.shoe }));
        break;
      case "balance":
        ctx.setBalance(e.balance);
        break;
      default:
        break;
    }
  }

  // ------------------------------------------------------------------------------------------------
  // what is drawn

  function myBoxes() {
    return Object.entries(s.round.boxes)
      .filter(([, b]) => player && b.bets[player])
      .map(([n]) => Number(n));
  }

  /** The box this player sits at (Art. 2.3: one seat each), or null. */
  function mySeat() {
    if (!player) return null;
    const entry = Object.entries(s.seats).find(([, who]) => who === player);
    return entry ? Number(entry[0]) : null;
  }

  /** A bet on `n` would be a bet behind another player's box (Art. 13). */
  function behind(n) {
    const occupant = s.seats[n];
    if (occupant) return occupant !== player;
    const b = s.round.boxes[n];
    return Boolean(b && Object.keys(b.bets).some((p) => p !== player));
  }

  /** What the server allows (Art. 2.3, 13; online §4.5): your own box; an empty box while you sit
   *  nowhere (the bet seats you); another's box only behind its occupant, where the rules have it. */
  function canBetOn(n) {
    if (!player || s.phase !== "betting") return false;
    const b = s.round.boxes[n];
    if (b && b.bets[player]) return false;
    if (myBoxes().length >= Number(rules.max_boxes_per_player || 1)) return false;
    if (behind(n)) return Boolean(rules.bet_behind);
    if (!s.seats[n]) return mySeat() === null;
    return true;
  }

  /** The "match doubles and splits" choice is offered on a bet behind, until the round is settled. */
  function offersMatch(n) {
    if (!player || !rules.bet_behind || !behind(n)) return false;
    const b = s.round.boxes[n];
    if (b && b.bets[player]) {
      // the decider's own double or split is theirs: the choice is the other bettors'
      return (s.phase === "betting" || s.phase === "playing") && deciderOf(b) !== player;
    }
    return canBetOn(n);
  }

  // a card is drawn with the dealing animation once, the first time it is shown
  let seen = new Set();
  let seenRound = null;
  function fresh(key) {
    const round = shown();
    if (round !== seenRound) {
      seenRound = round;
      seen = new Set();
    }
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }

  /** The round whose cards are drawn: the last one stays on the felt until the new one has a bet. */
  function shown() {
    const r = s.round;
    const dealt = r.dealer.cards.length || r.dealer.hole || Object.values(r.boxes).some((b) => b.hands.some((h) => h.cards.length));
    if (s.last && !dealt && !r.payments.length) return s.last;
    return r;
  }

  /** The round whose result is on the felt: this one once settled, else the last one until the next
   *  round's deal starts (its first card). */
  function resultRound() {
    if (s.round.payments.length) return s.round;
    return shown() === s.last ? s.last : null;
  }

  /** The round of yours that the felt shows after a (re)connect when it shows none of yours: your latest
   *  round here from the history (a restarted server's snapshot has no last round), until a deal starts. */
  function mineOnFelt() {
    const r = s.mine;
    if (!r || r.status !== "settled" || !player) return null;
    const onFelt = resultRound();
    if (onFelt && onFelt.payments.some((p) => p.player === player)) return null;
    const r0 = s.round;
    if (r0.dealer.cards.length || Object.values(r0.boxes).some((b) => b.hands.some((h) => h.cards.length))) return null;
    const round = roundFromLog(r);
    return round.payments.some((p) => p.player === player) ? round : null;
  }

  function feltResultHtml() {
    const own = mineOnFelt();
    const r = own || resultRound();
    if (!r || !r.payments.length) return "";
    const events = own ? s.mine.events || [] : [];
    const timedOut = (p) =>
      events.some((e) => e.type === "timeout" && e.kind === "decision" && e.player === player && e.box === p.box && (e.hand ?? 0) === (p.hand ?? 0));
    const mine = r.payments.filter((p) => player && p.player === player);
    const dealer = r.dealer.cards;
    const [dealerTotal] = bjTotal(dealer);
    const rows = mine
      .map((p) => {
        const h = p.hand === null || p.hand === undefined ? null : r.boxes[p.box]?.hands[p.hand];
        const cards = h ? h.cards.filter(Boolean).map((c) => cardSvg(c, t)).join("") : "";
        const amount = cents(p.amount) ?? 0n;
        const badge = p.kind === "blackjack" ? `<span class="badge blackjack">${esc(t("tbl.blackjack"))}</span>` : "";
        return `<li class="result-hand ${esc(p.kind)}" data-kind="${esc(p.kind)}"><span class="result-label">${esc(p.hand === null || p.hand === undefined ? t("bj.box", { box: p.box }) : where(p.box, p.hand))}</span>
          <span class="mini-cards">${cards}</span>${badge}<span class="result-kind">${esc(t("pay_kind." + p.kind))}</span>${
            timedOut(p) ? `<span class="result-stood">${esc(t("bj.stood_by_timer"))}</span>` : ""
          }
          <strong class="result-amount ${amount > 0n ? "win" : amount < 0n ? "lose" : "push"}">${esc(signedCents(amount))}</strong></li>`;
      })
      .join("");
    const net = mine.reduce((sum, p) => sum + (cents(p.amount) ?? 0n), 0n);
    const kind = net > 0n ? "win" : net < 0n ? "lose" : "push";
    const outcome = mine.length
      ? `<p class="result-net ${kind}" id="result-net" data-net="${centsText(net, false)}" data-outcome="${kind}">${esc(
          kind === "win" ? t("tbl.you_win", { amount: money(centsText(net, false)) }) : kind === "lose" ? t("tbl.you_lose", { amount: money(centsText(-net, false)) }) : t("tbl.push"),
        )}</p>`
      : "";
    const title = own
      ? `${esc(t("tbl.your_last_round", { table: s.mine.table, number: r.number ?? "" }))}`
      : `${esc(t("bj.results", { number: r.number ?? "" }))}${r === s.round ? "" : ` <small>${esc(t("bj.last_round"))}</small>`}`;
    return `<div class="result-card" data-round="${esc(r.number ?? "")}"${own ? ` data-mine="true" data-id="${esc(r.id)}"` : ""}>
      <p class="result-title">${title}</p>
      <p class="result-dealer"><span class="result-label">${esc(t("bj.dealer"))} ${dealer.length ? esc(String(dealerTotal)) : ""}</span><span class="mini-cards">${dealer.map((c) => cardSvg(c, t)).join("")}</span></p>
      ${rows ? `<ul class="result-hands">${rows}</ul>` : ""}${outcome}</div>`;
  }

  /** Art. 13: the highest bet decides; on equal highest bets the first of them to have bet (the seated
   *  player sits first). The snapshot's `decider` is kept until a bet event changes the box. */
  function deciderOf(b) {
    if (b.decider && b.deciderBets === Object.keys(b.bets).length) return b.decider;
    let best = null;
    for (const [who, amount] of Object.entries(b.bets)) if (best === null || cents(amount) > cents(b.bets[best])) best = who;
    return best;
  }

  function handHtml(n, index, h) {
    const [total, soft] = visibleTotal(h.cards);
    const hidden = total === null;
    const active = s.pending && s.pending.kind === "decision" && s.pending.box === n && s.pending.hand === index;
    const bonus = h.outcome === "bonus";
    const seen = h.seen || [];
    // a card dealt face down keeps its slot: a back, or (to the box's bettors) the card, marked as private
    const cards = h.cards
      .map((c, i) =>
        cardSvg(c, t, seen[i] ? `data-private="true" title="${esc(t("bj.private_card"))}"` : "", fresh(`${n}.${index}.${i}.${c ?? "down"}`)),
      )
      .join("");
    const totalText = !h.cards.length ? "" : hidden ? "?" : (soft ? t("bj.soft") + " " : "") + total;
    return `<div class="hand${active ? " active" : ""}${bonus ? " bonus" : ""}" data-box="${n}" data-hand="${index}" ${active ? 'aria-current="true"' : ""}>
      <div class="cards">${cards}</div>
      <p class="total" data-total="${h.cards.length && !hidden ? total : ""}"${hidden ? ` data-hidden="true" title="${esc(t("bj.total_hidden"))}"` : ""}>${esc(totalText)}${h.doubled ? ` · ${esc(t("bj.doubled"))}` : ""}</p>
      ${h.outcome ? `<p class="outcome ${esc(h.outcome)}" data-outcome="${esc(h.outcome)}">${esc(t("pay_kind." + h.outcome))}${bonus ? ` ${esc(t("bj.bonus_paid"))}` : ""}</p>` : ""}
    </div>`;
  }

  function boxesHtml() {
    const count = Number(table.boxes || rules.boxes || 7);
    let html = "";
    for (let n = 1; n <= count; n++) {
      const b = s.round.boxes[n];
      const bets = b ? Object.entries(b.bets) : [];
      const mine = b && player && b.bets[player];
      const decider = b ? deciderOf(b) : null;
      const betList = bets
        .map(
          ([who, amount]) =>
            `<li data-player="${esc(who)}" class="${who === player ? "mine" : ""}">${esc(who)}: ${esc(money(amount))}${decider === who && bets.length > 1 ? ` <span class="decider">${esc(t("bj.decides"))}</span>` : ""}</li>`,
        )
        .join("");
      const drawn = shown().boxes[n];
      const hands = drawn ? drawn.hands.map((h, i) => handHtml(n, i, h)).join("") : "";
      const button = canBetOn(n)
        ? `<button type="button" class="bet-here" id="bet-box-${n}" data-box="${n}" aria-keyshortcuts="${n}">${esc(behind(n) ? t("bj.bet_behind") : t("bj.bet_here"))} <kbd>${n}</kbd></button>`
        : "";
      const occupant = s.seats[n];
      const seated = occupant && occupant === player;
      const total = bets.reduce((sum, [, a]) => sum + (cents(a) ?? 0n), 0n);
      const stack = total > 0n ? `<div class="stack-slot">${chipStack(centsText(total, false), chips, esc(money(centsText(total, false))))}</div>` : "";
      const oneBet = mine && s.phase === "betting" ? `<p class="one-bet">${esc(t("tbl.one_bet_per_box"))}</p>` : "";
      html += `<div class="box${mine ? " mine" : ""}${bets.length ? " taken" : ""}${seated ? " seated" : ""}" data-box="${n}" role="group" aria-label="${esc(t("bj.box", { box: n }))}">
        <h3><span class="box-long">${esc(t("bj.box", { box: n }))}</span><span class="box-short" aria-hidden="true">${n}</span></h3>
        ${seatHtml(n)}
        ${stack}<ul class="bets">${betList || `<li class="open">${esc(t("bj.no_bets"))}</li>`}</ul>
        <div class="hands">${hands}</div>
        ${button}${oneBet}${matchHtml(n)}
      </div>`;
    }
    return html;
  }

  function seatHtml(n) {
    const occupant = s.seats[n];
    if (occupant && occupant === player) {
      return `<div class="seat mine" data-occupant="${esc(occupant)}"><span class="seat-name">${esc(t("seat.yours"))}</span>
        <button type="button" class="small leave" id="leave-box-${n}" data-box="${n}" aria-label="${esc(t("seat.leave_box", { box: n }))}">${esc(t("seat.leave"))}</button></div>`;
    }
    if (occupant) {
      return `<div class="seat" data-occupant="${esc(occupant)}"><span class="seat-name" title="${esc(t("seat.occupant"))}">${esc(occupant)}</span></div>`;
    }
    if (player && mySeat() === null) {
      return `<div class="seat open"><button type="button" class="small sit" id="sit-box-${n}" data-box="${n}" aria-label="${esc(t("seat.sit_box", { box: n }))}">${esc(t("seat.sit"))}</button></div>`;
    }
    return `<div class="seat open"><span class="seat-name empty">${esc(t("seat.empty"))}</span></div>`;
  }

  function matchHtml(n) {
    if (!offersMatch(n)) return "";
    const on = s.match[n] !== false;
    return `<label class="match" for="match-box-${n}" title="${esc(t("bj.match_help"))}"><input type="checkbox" id="match-box-${n}" data-box="${n}" ${on ? "checked" : ""}> ${esc(t("bj.match"))}</label>`;
  }

  function dealerHtml() {
    const previous = shown() !== s.round;
    const d = shown().dealer;
    const cards =
      d.cards.map((c, i) => cardSvg(c, t, "", fresh(`0.${i}.${c}`))).join("") +
      (d.hole ? cardSvg(null, t, 'data-hole="true"', fresh("0.hole")) : "");
    const [total] = bjTotal(d.cards);
    return `<h2>${esc(t("bj.dealer"))}${previous ? ` <small class="previous">${esc(t("bj.last_round"))}</small>` : ""}</h2><div class="cards" id="dealer-cards" data-round="${previous ? "last" : "current"}">${cards}</div>
      <p class="total" id="dealer-total">${d.cards.length ? esc(String(total)) + (d.hole ? " + ?" : "") : ""}</p>`;
  }

  function actionButton(action, label, extra = "") {
    const key = SHORTCUTS[action.type];
    const id = `act-${action.type}` + (action.type === "insurance" || action.type === "even_money" ? `-${action.box}` : "");
    return `<button type="button" class="action ${action.type}" id="${id}" data-action="${action.type}" data-box="${action.box}" ${action.hand !== undefined ? `data-hand="${action.hand}"` : ""} aria-keyshortcuts="${key}" ${s.busy ? "disabled" : ""} ${extra}>${esc(label)} <kbd>${key}</kbd></button>`;
  }

  function promptHtml() {
    const p = s.pending;
    if (s.phase === "cut") return cutHtml(t, s.cut, player);
    if (s.phase === "betting") {
      return `<p class="phase-line">${esc(t("bj.betting_closes"))} <span class="countdown" id="countdown" data-closes-at="${s.closesAt}"></span></p>`;
    }
    if (!p) return "";
    const timer = p.closesAt ? ` <span class="countdown" id="decision-timer" data-closes-at="${p.closesAt}"></span>` : "";
    if (p.kind === "insurance") {
      const mine = s.actions.filter((a) => a.type === "insurance" || a.type === "even_money");
      let buttons = "";
      if (mine.length && !s.insuranceDismissed) {
        buttons = mine
          .map((a) =>
            a.type === "insurance"
              ? actionButton(a, t("bj.take_insurance", { box: a.box, amount: money(a.max_amount) }))
              : actionButton(a, t("bj.take_even_money", { box: a.box })),
          )
          .join("");
        buttons += `<button type="button" class="action decline" id="act-no-insurance" aria-keyshortcuts="N">${esc(t("bj.no_insurance"))} <kbd>N</kbd></button>`;
      }
      return `<div class="offer insurance-prompt" id="insurance-prompt"><p>${esc(t("bj.insurance_offered"))}${timer}</p><div class="actions" id="actions">${buttons}</div></div>`;
    }
    if (p.kind === "decision") {
      const mine = p.player === player;
      if (!mine) return `<p class="waiting">${esc(t("bj.waiting_for", { player: p.player, where: where(p.box, p.hand) }))}${timer}</p>`;
      const actions = s.actions.filter((a) => DECISIONS.includes(a.type) && a.box === p.box && (a.hand ?? 0) === p.hand);
      const h = s.round.boxes[p.box]?.hands[p.hand];
      const [total, soft] = h ? visibleTotal(h.cards) : [0, false];
      const buttons = actions
        .map((a) => {
          if (a.type === "double" && Number(a.min_amount) < Number(a.max_amount)) {
            // double for less (online §2.6): any amount up to the bet
            return `<label class="double-amount" for="double-amount">${esc(t("bj.double_amount"))}
              <input id="double-amount" type="number" inputmode="decimal" min="${esc(a.min_amount)}" max="${esc(a.max_amount)}" step="any" value="${esc(a.max_amount)}"></label>${actionButton(a, t("action.double"))}`;
          }
          if (a.type === "double") return actionButton(a, t("action.double") + ` (+${money(a.max_amount)})`);
          return actionButton(a, t("action." + a.type));
        })
        .join("");
      const surrender = actions.some((a) => a.type === "surrender")
        ? `<p class="offer surrender-prompt" id="surrender-prompt">${esc(t("bj.surrender_offered"))}</p>`
        : "";
      return `<div class="your-turn" id="your-turn"><p><strong>${esc(t("bj.your_turn", { where: where(p.box, p.hand) }))}</strong> — ${esc(total === null ? "?" : (soft ? t("bj.soft") + " " : "") + total)}${timer}</p>${surrender}<div class="actions" id="actions">${buttons}</div></div>`;
    }
    if (p.kind === "card") return `<p class="waiting">${esc(t("bj.waiting_card"))}</p>`;
    return "";
  }

  function resultsHtml() {
    const r = s.round.payments.length ? s.round : s.last;
    if (!r || !r.payments.length) return "";
    const rows = r.payments
      .filter((p) => !player || p.player === player)
      .map(
        (p) =>
          `<li class="payment ${esc(p.kind)}" data-kind="${esc(p.kind)}">${esc(p.hand === null || p.hand === undefined ? t("bj.box", { box: p.box }) : where(p.box, p.hand))}: ${esc(t("pay_kind." + p.kind))} <strong>${esc(signed(p.amount))}</strong></li>`,
      )
      .join("");
    if (!rows) return "";
    const net = r.payments.filter((p) => p.player === player).reduce((sum, p) => sum + (cents(p.amount) ?? 0n), 0n);
    const bonus = r.payments.some((p) => p.player === player && p.kind === "bonus");
    return `<h2>${esc(t("bj.results", { number: r.number }))}</h2>
      ${bonus ? `<p class="bonus-banner" id="bonus-banner">${esc(t("bj.bonus_banner"))}</p>` : ""}
      <ul>${rows}</ul>${player ? `<p class="net" id="net" data-net="${centsText(net, false)}">${esc(t("bj.net"))}: <strong>${esc(signedCents(net))}</strong></p>` : ""}`;
  }

  function headHtml() {
    const status = s.connected ? "" : ` <span class="offline">${esc(t("offline"))}</span>`;
    return `<h1>${esc(table.name)} <small>${esc(t("preset." + table.rules))}</small></h1>
      <p class="meta"><span>${esc(t("lobby.limits"))}: ${esc(money(table.min_bet))} – ${esc(money(table.max_bet))}</span>
      <span>${esc(t("bj.round_no", { number: s.round.number || "" }))}</span>
      <span class="phase" id="phase" data-phase="${esc(s.phase)}">${esc(t("phase." + s.phase))}</span>${status}
      <a href="#/history">${esc(t("nav.history"))}</a>${consoleLink(t, table, me)}</p>
      <p class="commitment">${esc(t("fair.commitment"))} (${esc(t("fair.shoe", { shoe: s.shoe ?? "–" }))}): <code id="commitment">${esc(s.commitment || t("fair.live_shoe"))}</code>${seedHtml(t, s.seed)}</p>`;
  }

  let scheduled = false;
  function render() {
    scheduled = false;
    root.dataset.phase = s.phase;
    root.dataset.bettingCloses = s.phase === "betting" ? String(s.closesAt) : "0";
    root.dataset.pending = s.pending ? `${s.pending.kind}:${s.pending.player || ""}:${s.pending.box ?? ""}:${s.pending.hand ?? ""}` : "";
    root.dataset.round = String(s.round.number || "");
    root.dataset.awaits = String(s.awaits);
    root.dataset.ended = String(s.ended);
    const myTurn = Boolean(player && s.pending && s.pending.kind === "decision" && s.pending.player === player);
    root.classList.toggle("my-turn", myTurn);
    patch(root, {
      "#sec-head": headHtml(),
      "#dealer": dealerHtml(),
      "#round-result": feltResultHtml(),
      "#banner": s.banner ? `<p>${esc(t(s.banner[0], s.banner[1]))}</p>` : "",
      "#boxes": boxesHtml(),
      "#prompt": promptHtml(),
      "#tray": player
        ? chipTray(t, chips, s.chip, s.stake, s.phase === "betting", "chip.hint", { chips: s.stakeChips, lastBets: s.lastBets, note: s.note, busy: s.busy })
        : `<p class="hint">${esc(t("bj.watching"))}</p>`,
      "#results": mineHtml() + resultsHtml(),
      "#rules-slot": rulesPanel(t, table),
      "#log-title": esc(t("log.title")),
      "#log": s.log.map((line) => `<li>${esc(line)}</li>`).join(""),
    });
    const log = root.querySelector("#log");
    if (log) log.scrollTop = log.scrollHeight;
    const logPanel = root.querySelector("#log-panel");
    if (logPanel) logPanel.hidden = s.log.length === 0; // no empty "The deal, in order" before the first card
    if (myTurn && s.awaits !== turnSeen) {
      turnSeen = s.awaits;
      showTurn();
    }
  }

  /** Your decision: the dealer's cards and your hand in view above the controls (a phone's sticky bar). */
  let turnSeen = -1;
  function showTurn() {
    const dealer = root.querySelector("#dealer-cards");
    const hand = root.querySelector(".hand.active") || root.querySelector(".box.mine");
    const bar = root.querySelector(".controls");
    if (!dealer || !hand || !bar) return;
    const top = dealer.getBoundingClientRect().top;
    const bottom = hand.getBoundingClientRect().bottom;
    const barTop = getComputedStyle(bar).position === "sticky" ? Math.min(bar.getBoundingClientRect().top, innerHeight) : innerHeight;
    if (top >= 0 && bottom <= barTop) return;
    const felt = root.querySelector(".felt");
    window.scrollBy({ top: felt.getBoundingClientRect().top - 4, behavior: "instant" });
  }
  function update() {
    if (!scheduled) {
      scheduled = true;
      requestAnimationFrame(render);
    }
  }

  // ------------------------------------------------------------------------------------------------
  // doing things

  /** A refused stake is not kept: the next click starts a new one. */
  function refuse(reason) {
    s.note = reason;
    stake.clear();
    ctx.toast(reason);
    update();
  }

  async function placeBet(n) {
    if (!canBetOn(n) || s.busy) return;
    const amount = s.stake || s.chip;
    const local = localRefusal(t, table, rules, String(n), amount);
    if (local) {
      refuse(local);
      return;
    }
    const body = { spot: String(n), amount: String(amount) };
    if (behind(n)) body.match = s.match[n] !== false; // Art. 13: match the decider's doubles and splits
    s.busy = true;
    try {
      const answer = await api("POST", `/api/tables/${table.id}/bets`, body, { key: newKey() });
      ctx.setBalance(answer.balance);
      stake.clear();
      s.note = "";
    } catch (error) {
      refuse(error.message);
    }
    s.busy = false;
    update();
  }

  /** Re-bet (times 1) or Double bet (times 2) the last round's bets, each its own bet with its own
   *  Idempotency-Key, stopping at the first refusal with its reason. */
  async function again(times) {
    if (!player || s.phase !== "betting" || s.busy || !s.lastBets.length) return;
    const bets = s.lastBets.map((b) => {
      const body = behind(b.spot) ? { match: s.match[b.spot] !== false } : {};
      return { spot: b.spot, amount: b.amount * times, body };
    });
    await rebet(s, bets, { t, table, rules, ctx, refuse, update });
  }

  async function sit(n) {
    try {
      await api("POST", `/api/tables/${table.id}/seats`, { box: n });
    } catch (error) {
      ctx.toast(error.message);
    }
    update();
  }

  async function leave(n) {
    try {
      await api("DELETE", `/api/tables/${table.id}/seats/${n}`);
    } catch (error) {
      ctx.toast(error.message); // e.g. a bet in this round: the occupant handles the box until it settles
    }
    update();
  }

  async function setMatch(n, on) {
    const before = s.match[n] !== false;
    s.match[n] = on;
    update();
    const b = s.round.boxes[n];
    if (!(b && player && b.bets[player])) return; // not bet yet: the choice goes with the bet
    try {
      await api("PUT", `/api/tables/${table.id}/matching`, { box: n, match: on });
    } catch (error) {
      s.match[n] = before;
      ctx.toast(error.message);
      update();
    }
  }

  async function act(action) {
    if (s.busy) return;
    const body = { type: action.type, box: Number(action.box) };
    if (action.hand !== undefined && action.hand !== null) body.hand = Number(action.hand);
    let key;
    if (action.type === "double") {
      const field = root.querySelector("#double-amount");
      body.amount = field && field.value ? String(field.value) : action.max_amount;
      key = newKey();
    } else if (action.type === "split") key = newKey();
    else if (action.type === "insurance") {
      body.amount = action.max_amount;
      key = newKey();
    }
    s.busy = true;
    update();
    try {
      await api("POST", `/api/tables/${table.id}/actions`, body, { key });
    } catch (error) {
      ctx.toast(error.message);
    }
    s.busy = false;
    update();
  }

  // Decline every insurance or even-money offer of this player: once all offers at the table are
  // answered the server closes the offer without waiting for its timer (online §3.6).
  async function declineInsurance() {
    s.insuranceDismissed = true;
    update();
    for (const offer of s.actions.filter((a) => a.type === "no_insurance")) {
      try {
        await api("POST", `/api/tables/${table.id}/actions`, { type: "no_insurance", box: Number(offer.box) });
      } catch (error) {
        ctx.toast(error.message);
      }
    }
  }

  function visibleAction(type, box) {
    const p = s.pending;
    if (!p) return null;
    if (p.kind === "insurance") {
      if (s.insuranceDismissed) return null;
      return s.actions.find((a) => a.type === type && (box === undefined || a.box === box)) || null;
    }
    if (p.kind === "decision" && p.player === player) {
      return s.actions.find((a) => a.type === type && a.box === p.box && (a.hand ?? 0) === p.hand) || null;
    }
    return null;
  }

  function onClick(event) {
    const chip = event.target.closest(".chip");
    if (chip && !chip.disabled) {
      stake.add(Number(chip.dataset.value));
      update();
      return;
    }
    if (stakeControl(event.target, stake, update, again)) return;
    const bet = event.target.closest(".bet-here");
    if (bet) {
      placeBet(Number(bet.dataset.box));
      return;
    }
    const sitButton = event.target.closest("button.sit");
    if (sitButton) {
      sit(Number(sitButton.dataset.box));
      return;
    }
    const leaveButton = event.target.closest("button.leave");
    if (leaveButton) {
      leave(Number(leaveButton.dataset.box));
      return;
    }
    if (event.target.closest("#act-no-insurance")) {
      declineInsurance();
      return;
    }
    const button = event.target.closest("button.action");
    if (button && button.dataset.action) {
      const action = visibleAction(button.dataset.action, Number(button.dataset.box));
      if (action) act(action);
    }
  }

  function onKey(event) {
    if (isTyping(event)) return;
    const key = event.key.toLowerCase();
    if (s.phase === "betting" && /^[1-7]$/.test(key)) {
      event.preventDefault();
      placeBet(Number(key));
      return;
    }
    if (s.phase === "betting" && (key === "[" || key === "]")) {
      const i = chips.indexOf(s.chip);
      s.chip = chips[Math.max(0, Math.min(chips.length - 1, i + (key === "]" ? 1 : -1)))];
      update();
      return;
    }
    if (s.phase === "betting" && (key === "=" || key === "+")) {
      stake.add(s.chip);
      update();
      return;
    }
    if (key === "c" && s.phase === "betting") {
      stake.clear();
      update();
      return;
    }
    if (key === "u" && s.phase === "betting") {
      stake.undo();
      update();
      return;
    }
    if ((key === "a" || key === "x") && s.phase === "betting") {
      event.preventDefault();
      again(key === "a" ? 1 : 2);
      return;
    }
    if (key === "n" && s.pending && s.pending.kind === "insurance") {
      declineInsurance();
      return;
    }
    const type = Object.keys(SHORTCUTS).find((name) => SHORTCUTS[name].toLowerCase() === key);
    if (!type) return;
    const action = visibleAction(type);
    if (action) {
      event.preventDefault();
      act(action);
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
  root.addEventListener("change", (event) => {
    const box = event.target.closest(".match input[type='checkbox']");
    if (box) setMatch(Number(box.dataset.box), box.checked);
  });
  document.addEventListener("keydown", onKey);
  const watcher = watchTable(
    table.id,
    (message) => {
      if (message.type === "snapshot") applySnapshot(message.snapshot);
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
