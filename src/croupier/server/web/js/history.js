// History and fairness: the player's last rounds with every card and payment, each shoe's commitment,
// and once the shoe has ended its revealed seed with a one-click check in the browser: the seed's
// SHA-256 against the commitment published before the shoe's first bet, then the shoe rebuilt from the
// seed and every round's cards compared with it (fairness.js, Web Crypto; nothing asked of the server
// but the shoe's document).

import { api } from "./api.js";
import { esc, money, signed } from "./util.js";
import { cardSvg } from "./svg.js";
import { checkShoe, sha256Hex } from "./fairness.js";

export { sha256Hex };

const PAGE = 10; // rounds a page shows; "Older rounds" reads the next page (GET /api/history?before=ID)

export function mountHistory(main, ctx) {
  const { t } = ctx;
  let rounds = [];
  let more = false; // an older page may follow (the last page came full)
  const shoes = {};
  const checks = {};
  let alive = true;

  /** The round's cards in dealing order. A card dealt face down is filled in where the round later
   *  showed it: a Macau box's first two cards by its box_shown (Art. 3.1a), a squeezed baccarat card by
   *  its card_turned (Art. 16); the dealer's hole card is its own line when turned. */
  function cardsOf(round) {
    const lines = [];
    const byIndex = {};
    const hidden = {}; // box -> the lines of its face-down cards, in order
    for (const e of round.events || []) {
      if (e.type === "card" && e.side) {
        if (e.index !== undefined) byIndex[e.index] = lines.length;
        lines.push([t("spot." + e.side), e.face_up ? e.card : null]);
      } else if (e.type === "card") {
        if (!e.face_up && e.box > 0) (hidden[e.box] = hidden[e.box] || []).push(lines.length);
        lines.push([e.box === 0 ? t("bj.dealer") : t("bj.box_hand", { box: e.box, hand: e.hand + 1 }), e.face_up ? e.card : null]);
      } else if (e.type === "hole_card") lines.push([t("bj.dealer_hole"), e.card]);
      else if (e.type === "card_turned" && byIndex[e.index] !== undefined) lines[byIndex[e.index]][1] = e.card;
      else if (e.type === "box_shown") {
        // the box's first two cards: the first hand's first two, or after a split each hand's first
        const hands = e.hands || [];
        const first = hands.length > 1 ? hands.map((h) => h.cards[0]) : (hands[0] || { cards: [] }).cards;
        (hidden[e.box] || []).forEach((line, i) => {
          if (first[i]) lines[line][1] = first[i];
        });
      }
    }
    return lines;
  }

  function roundHtml(round) {
    const cards = cardsOf(round)
      .map(([where, card]) => `<li><span class="where">${esc(where)}</span> ${cardSvg(card, t)}</li>`)
      .join("");
    const payments = (round.events || [])
      .filter((e) => e.type === "payment" && e.player === ctx.me.name)
      .map((e) => `<li data-kind="${esc(e.kind)}">${esc(t("bj.box_hand", { box: e.box, hand: (e.hand ?? 0) + 1 }))}: ${esc(t("pay_kind." + e.kind))} ${esc(signed(e.amount))}</li>`)
      .join("");
    const bacNet = round.result && round.result.net && round.result.net[ctx.me.name];
    const decisions = (round.events || [])
      .filter((e) => ["hit", "stand", "double", "split", "surrender", "insurance", "even_money", "timeout"].includes(e.type))
      .map((e) => `<li>${esc(e.at ? e.at.slice(11, 19) : "")} ${esc(e.player || "")} ${esc(t("action." + e.type))} ${esc(e.box !== undefined ? t("bj.box", { box: e.box }) : "")}</li>`)
      .join("");
    const bets = round.bets.map((b) => `<li>${esc(t("action." + b.kind))} ${esc(b.spot)}: ${esc(money(b.amount))}</li>`).join("");
    return `<article class="round" data-round="${round.round}" data-status="${esc(round.status)}">
      <h2>${esc(t("history.round", { table: round.table, number: round.number, id: round.round }))} <small>${esc(t("status." + round.status))}</small></h2>
      <p class="hint">${esc((round.ended_at || round.started_at || "").replace("T", " ").slice(0, 19))} UTC · ${esc(t("fair.shoe", { shoe: round.shoe }))}</p>
      <div class="cols">
        <div><h3>${esc(t("history.bets"))}</h3><ul>${bets}</ul></div>
        <div><h3>${esc(t("history.cards"))}</h3><ol class="dealt">${cards}</ol></div>
        <div><h3>${esc(t("history.decisions"))}</h3><ul>${decisions || `<li>–</li>`}</ul></div>
        <div><h3>${esc(t("history.payments"))}</h3><ul class="payments">${payments}${bacNet !== undefined && bacNet !== null ? `<li>${esc(signed(bacNet))}</li>` : ""}</ul>
          <p>${esc(t("history.balance"))}: ${esc(money(round.balance_before))} → <strong class="after">${esc(money(round.balance_after ?? round.balance_before))}</strong></p>
          <p><button type="button" class="small transcript" data-round="${round.round}">${esc(t("history.transcript"))}</button></p></div>
      </div></article>`;
  }

  function checkHtml(check) {
    if (check.busy) return `<p class="verify-result busy" role="status">${esc(t("fair.checking"))}</p>`;
    if (check.error) return `<p class="verify-result bad" data-ok="false" role="status">✗ ${esc(check.error)}</p>`;
    if (!check.commitmentOk) {
      return `<p class="verify-result bad" data-ok="false" role="status">${esc(t("fair.mismatch", { digest: check.digest }))}</p>`;
    }
    const where = (g) => (g.start ? t("fair.start") : t("fair.round_n", { number: g.number }));
    const badText = (g) =>
      t("fair.first_bad", { where: where(g), card: g.bad.card, dealt: g.bad.dealt ?? t("fair.no_card"), shown: g.bad.shown });
    const first = check.groups.find((g) => !g.ok);
    const rounds = check.groups.filter((g) => !g.start).length;
    let summary;
    if (first) summary = badText(first);
    else if (!check.cutOk) summary = t("fair.cut_bad", { seed: check.cut, shown: check.cutShown });
    else summary = t(rounds === 1 ? "fair.all_ok_one" : "fair.all_ok", { cards: check.cards, rounds });
    const items = check.groups
      .map((g) => {
        const label = g.ok ? t("fair.group_ok", { where: where(g), cards: g.cards.length }) : badText(g);
        const status = g.status === "voided" ? ` <small>${esc(t("status.voided"))}</small>` : "";
        return `<li class="${g.ok ? "ok" : "bad"}" data-ok="${g.ok}" data-group="${g.start ? "start" : g.number}"${g.start ? "" : ` data-round="${g.round}"`}>${esc(label)}${status}</li>`;
      })
      .join("");
    return `<p class="verify-result ${check.ok ? "ok" : "bad"}" data-ok="${check.ok}" role="status">${esc(summary)}</p>
      <ol class="fair-rounds">${items}</ol>
      <p class="hint">${esc(t("fair.match"))} · ${esc(t("fair.in_browser"))}</p>`;
  }

  function shoeHtml(shoe) {
    const check = checks[shoe.shoe];
    let verify = "";
    if (shoe.mode === "live") verify = `<p>${esc(t("fair.live_shoe"))}</p>`;
    else if (shoe.server_seed) {
      verify = `<p>${esc(t("fair.seed"))}: <code class="seed">${esc(shoe.server_seed)}</code></p>
        <p><button type="button" class="primary verify" data-shoe="${shoe.shoe}" id="verify-${shoe.shoe}">${esc(t("fair.check"))}</button></p>
        ${check ? `<div class="fair-check" data-shoe="${shoe.shoe}">${checkHtml(check)}</div>` : ""}`;
    } else verify = `<p>${esc(t("fair.not_yet"))}</p>`;
    return `<article class="shoe" data-shoe="${shoe.shoe}" data-ended="${shoe.ended}">
      <h3>${esc(t("fair.shoe", { shoe: shoe.shoe }))} · ${esc(shoe.table)} <small>${esc(shoe.ended ? t("fair.ended") : t("fair.in_play"))}</small></h3>
      <p>${esc(t("fair.commitment"))}: <code class="commitment">${esc(shoe.commitment || "–")}</code></p>
      <p class="hint">${esc(t("fair.client_seed"))}: ${esc(shoe.client_seed)} · nonce ${esc(shoe.nonce)}</p>
      ${verify}</article>`;
  }

  function render() {
    const list = rounds.length ? rounds.map(roundHtml).join("") : `<p>${esc(t("history.none"))}</p>`;
    const shoeList = Object.values(shoes)
      .sort((a, b) => b.shoe - a.shoe)
      .map(shoeHtml)
      .join("");
    main.innerHTML = `<section class="panel history" id="history">
      <h1>${esc(t("history.title"))}</h1>
      <div class="fairness" id="fairness"><h2>${esc(t("fair.title"))}</h2><p class="hint">${esc(t("fair.explain"))}</p>${shoeList}</div>
      <div class="rounds" id="rounds">${list}</div>
      ${more ? `<p><button type="button" class="button more" id="history-more">${esc(t("history.more"))}</button></p>` : ""}
      <pre id="transcript" class="transcript-doc" hidden></pre></section>`;
  }

  async function load(older = false) {
    try {
      const before = older && rounds.length ? `&before=${rounds[rounds.length - 1].round}` : "";
      const page = await api("GET", `/api/history?limit=${PAGE}${before}`);
      more = page.length === PAGE;
      rounds = older ? rounds.concat(page) : page;
      const ids = [...new Set(page.map((r) => r.shoe).filter((x) => x && !shoes[x]))];
      await Promise.all(
        ids.map(async (id) => {
          shoes[id] = await api("GET", `/api/shoes/${id}`);
        }),
      );
    } catch (error) {
      ctx.toast(error.message);
    }
    if (alive) render();
  }

  main.onclick = async (event) => {
    if (event.target.closest("#history-more")) {
      await load(true);
      return;
    }
    const button = event.target.closest(".verify");
    if (button) {
      const id = button.dataset.shoe;
      checks[id] = { busy: true };
      render();
      try {
        const doc = await api("GET", `/api/shoes/${id}`); // the document checked is the one the server gives now
        shoes[id] = doc;
        checks[id] = { ...(await checkShoe(doc)), cutShown: doc.cut_card };
      } catch (error) {
        checks[id] = { error: String(error.message) };
      }
      if (!alive) return;
      render();
      document.getElementById(`verify-${id}`)?.focus();
      return;
    }
    const transcript = event.target.closest(".transcript");
    if (transcript && transcript.dataset.round) {
      try {
        const doc = await api("GET", `/api/rounds/${transcript.dataset.round}/transcript`);
        const pre = document.getElementById("transcript");
        pre.hidden = false;
        pre.textContent = JSON.stringify(doc, null, 2);
        pre.scrollIntoView();
      } catch (error) {
        ctx.toast(error.message);
      }
    }
  };
  main.innerHTML = `<p class="panel" aria-busy="true">…</p>`;
  load();
  return {
    render,
    unmount() {
      alive = false;
      main.onclick = null;
    },
  };
}
