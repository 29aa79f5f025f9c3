// The dealer console of a live table: card entry as a card reader gives it (the card's text then
// Enter), a prompt of what the table waits for next, and misdeal / void with a supervisor's approval
// (the supervisor signs in on the console; their token is used for that one request only). The shoe's
// life (a shuffle, the cut card, the end of the shoe, a card found face up) is reported from here, and
// the table's last faults (a round voided by a fault of the server) are listed for the supervisor.
// At a baccarat table the coup's two sides are drawn, with the live house edges when the server sends
// them (staff, at a table set to show them: `live_edges`).

import { api, watchTable } from "./api.js";
import { esc, money, bjTotal, isoMs } from "./util.js";
import { cardSvg } from "./svg.js";

const CARD = /^(10|[2-9TJQKA])([SHDC])$/i;

export function mountDealer(main, table, ctx) {
  const { t } = ctx;
  if (!table) {
    main.innerHTML = `<p class="panel">${esc(t("table.none"))}</p>`;
    return { unmount() {} };
  }
  const s = { phase: "starting", pending: null, closesAt: 0, round: null, entered: [], events: [], approval: null, connected: false, faults: [] };

  main.innerHTML = `<section class="panel dealer-console" id="dealer-console" data-table="${table.id}">
    <h1>${esc(t("dealer.title", { table: table.name }))}</h1>
    <p class="meta"><span class="phase" id="phase"></span> <span id="dealer-timer" class="countdown"></span></p>
    <p class="next" id="dealer-prompt" role="status" aria-live="assertive"></p>
    <form id="card-form" autocomplete="off">
      <label for="card-input">${esc(t("dealer.card_label"))}</label>
      <input id="card-input" name="card" inputmode="text" maxlength="3" spellcheck="false" autocapitalize="characters" aria-describedby="card-help">
      <button type="submit" class="primary">${esc(t("dealer.send"))} <kbd>Enter</kbd></button>
      <p class="hint" id="card-help">${esc(t("dealer.card_help"))}</p>
    </form>
    <div class="dealer-table" id="dealer-view"></div>
    <h2>${esc(t("dealer.entered"))}</h2><ol class="entered" id="entered"></ol>
    <div class="shoe-reports" role="group" aria-label="${esc(t("dealer.shoe"))}">
      <button type="button" id="shuffle">${esc(t("dealer.shuffle"))}</button>
      <button type="button" id="cut-card">${esc(t("dealer.cut_card"))}</button>
      <button type="button" id="end-shoe">${esc(t("dealer.end_shoe"))}</button>
      <button type="button" id="face-up">${esc(t("dealer.face_up"))}</button>
    </div>
    <div class="supervisor">
      <button type="button" id="misdeal" class="warn">${esc(t("dealer.misdeal"))}</button>
      <button type="button" id="void" class="warn">${esc(t("dealer.void"))}</button>
    </div>
    <dialog id="approval" aria-labelledby="approval-title">
      <form method="dialog" id="approval-form">
        <h2 id="approval-title"></h2>
        <label for="sup-name">${esc(t("dealer.sup_name"))}</label><input id="sup-name" autocomplete="off">
        <label for="sup-password">${esc(t("login.password"))}</label><input id="sup-password" type="password" autocomplete="off">
        <label for="void-reason">${esc(t("dealer.reason"))}</label><input id="void-reason">
        <p><button type="submit" class="primary" id="approve" value="ok">${esc(t("dealer.approve"))}</button>
        <button type="button" id="cancel-approval">${esc(t("dealer.cancel"))}</button></p>
      </form>
    </dialog>
    <h2>${esc(t("dealer.faults"))}</h2><ul class="faults" id="faults" role="log"></ul>
  </section>`;
  const root = main.querySelector("#dealer-console");
  const input = root.querySelector("#card-input");

  function purposeText(purpose) {
    if (!purpose) return "";
    if (purpose === "burn") return t("dealer.p_burn");
    if (purpose === "dealer") return t("dealer.p_dealer");
    if (purpose === "dealer hole card") return t("dealer.p_hole");
    const m = purpose.match(/^box (\d+) hand (\d+)$/);
    if (m) return t("bj.box_hand", { box: m[1], hand: Number(m[2]) + 1 });
    return purpose;
  }

  function promptText() {
    const p = s.pending;
    if (s.phase === "betting") return t("dealer.betting");
    if (p && p.kind === "card") return t("dealer.next_card", { purpose: purposeText(p.purpose) });
    if (p && p.kind === "decision") return t("bj.waiting_for", { player: p.player, where: t("bj.box_hand", { box: p.box, hand: p.hand + 1 }) });
    if (p && p.kind === "insurance") return t("bj.insurance_offered");
    return t("phase." + s.phase);
  }

  function render() {
    root.dataset.phase = s.phase;
    root.dataset.waiting = s.pending && s.pending.kind === "card" ? "card" : "";
    root.querySelector("#phase").textContent = t("phase." + s.phase) + (s.connected ? "" : ` · ${t("offline")}`);
    const timer = root.querySelector("#dealer-timer");
    const at = s.phase === "betting" ? s.closesAt : s.pending && s.pending.closesAt;
    if (at) timer.dataset.closesAt = String(at);
    else {
      delete timer.dataset.closesAt;
      timer.textContent = "";
    }
    const prompt = root.querySelector("#dealer-prompt");
    const text = promptText();
    if (prompt.textContent !== text) prompt.textContent = text;
    const r = s.round;
    let view = "";
    if (r && (r.player_cards || r.banker_cards)) view = coupHtml(r);
    else if (r && r.dealer) {
      const dealer = r.dealer.cards.map((c) => cardSvg(c, t)).join("") + (r.dealer.hole_card ? cardSvg(null, t) : "");
      view = `<div class="dealer-area"><h3>${esc(t("bj.dealer"))}</h3><div class="cards">${dealer}</div></div><div class="boxes">${(r.boxes || [])
        .map(
          (b) => `<div class="box" data-box="${b.box}"><h3>${esc(t("bj.box", { box: b.box }))}</h3><ul class="bets">${Object.entries(b.bets)
            .map(([p, a]) => `<li>${esc(p)}: ${esc(money(a))}</li>`)
            .join("")}</ul><div class="hands">${b.hands
            .map((h, i) => `<div class="hand" data-hand="${i}"><div class="cards">${h.cards.map((c) => cardSvg(c, t)).join("")}</div><p class="total">${h.cards.length ? bjTotal(h.cards)[0] : ""}${h.outcome ? " · " + esc(t("pay_kind." + h.outcome)) : ""}</p></div>`)
            .join("")}</div></div>`,
        )
        .join("")}</div>`;
    }
    const slot = root.querySelector("#dealer-view");
    if (slot.__html !== view) {
      slot.innerHTML = view;
      slot.__html = view;
    }
    root.querySelector("#faults").innerHTML = s.faults
      .slice()
      .reverse()
      .map(
        (f) =>
          `<li class="fault">${esc(
            t("dealer.fault_line", {
              at: f.at,
              during: f.during,
              error: f.error,
              what: f.round ? t("dealer.fault_void", { round: f.round }) : t("dealer.fault_none"),
            }),
          )}</li>`,
      )
      .join("");
    root.querySelector("#entered").innerHTML = s.entered.map((e) => `<li class="${e.ok ? "ok" : "bad"}">${esc(e.card)}${e.ok ? "" : ` — ${esc(e.error)}`}</li>`).join("");
  }

  /** A baccarat coup: both sides' cards (a back for one face down) and, for staff, the live edges. */
  function coupHtml(r) {
    const side = (name, cards) =>
      `<div class="side-cards ${name}"><h3>${esc(t("spot." + name))}</h3><div class="cards">${(cards || []).map((c) => cardSvg(c, t)).join("")}</div></div>`;
    const edges = r.house_edge && Object.keys(r.house_edge).length ? r.house_edge : null;
    const rows = edges
      ? Object.entries(edges)
          .map(([spot, edge]) => `<tr data-spot="${esc(spot)}"><th scope="row">${esc(t("spot." + spot))}</th><td>${esc((Number(edge) * 100).toFixed(3))}%</td></tr>`)
          .join("")
      : "";
    return `<div class="coup">${side("player", r.player_cards)}${side("banker", r.banker_cards)}</div>${
      edges ? `<section class="edges" id="edges" aria-labelledby="edges-title"><h2 id="edges-title">${esc(t("bac.edges"))}</h2><p class="hint">${esc(t("bac.edges_staff"))}</p><table>${rows}</table></section>` : ""
    }`;
  }

  let timer = null;
  async function refresh() {
    try {
      const snapshot = await api("GET", `/api/tables/${table.id}`);
      s.phase = snapshot.phase;
      s.round = snapshot.round;
      s.faults = snapshot.faults || [];
      const p = snapshot.pending || null;
      s.pending = p && ["card", "decision", "insurance"].includes(p.kind) ? { ...p, closesAt: isoMs(snapshot.closes_at) } : null;
      s.closesAt = isoMs(snapshot.closes_at);
      render();
    } catch (error) {
      ctx.toast(error.message);
    }
  }
  function soon() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 30);
  }

  async function sendCard(raw) {
    const text = raw.trim().toUpperCase();
    if (!text) return;
    const m = text.match(CARD);
    if (!m) {
      s.entered.unshift({ card: text, ok: false, error: t("dealer.not_a_card") });
      ctx.toast(t("dealer.not_a_card"));
      render();
      return;
    }
    const card = (m[1] === "10" ? "T" : m[1]) + m[2];
    try {
      await api("POST", `/api/tables/${table.id}/cards`, { card });
      s.entered.unshift({ card, ok: true });
    } catch (error) {
      s.entered.unshift({ card, ok: false, error: error.message });
      ctx.toast(error.message);
    }
    render();
  }

  root.querySelector("#card-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const value = input.value;
    input.value = "";
    sendCard(value);
    input.focus();
  });

  const dialog = root.querySelector("#approval");
  function ask(kind) {
    s.approval = kind;
    root.querySelector("#approval-title").textContent = t(kind === "misdeal" ? "dealer.approve_misdeal" : "dealer.approve_void");
    root.querySelector("#void-reason").value = kind === "void" ? t("dealer.default_reason") : "";
    if (ctx.me.role === "supervisor") {
      supervise(null);
      return;
    }
    if (dialog.showModal) dialog.showModal();
    else dialog.setAttribute("open", "");
    root.querySelector("#sup-name").focus();
  }
  async function supervise(credentials) {
    const kind = s.approval;
    try {
      let token;
      if (credentials) {
        const answer = await api("POST", "/api/login", credentials);
        if (answer.account.role !== "supervisor") throw new Error(t("dealer.needs_supervisor"));
        token = answer.token;
      }
      const reason = root.querySelector("#void-reason").value;
      await api("POST", `/api/tables/${table.id}/${kind}`, kind === "void" ? { reason } : undefined, { token });
      ctx.toast(t(kind === "misdeal" ? "dealer.misdeal_done" : "dealer.void_done"), "info");
    } catch (error) {
      ctx.toast(error.message);
    }
    s.approval = null;
    input.focus();
  }
  async function report(path, body, done) {
    try {
      const answer = await api("POST", `/api/tables/${table.id}/${path}`, body);
      ctx.toast(t(done, { card: answer.voided || "" }), "info");
    } catch (error) {
      ctx.toast(error.message);
    }
    soon();
    input.focus();
  }
  root.querySelector("#shuffle").addEventListener("click", () => report("shuffle", undefined, "dealer.shuffle_done"));
  root.querySelector("#cut-card").addEventListener("click", () => report("cut-card", undefined, "dealer.cut_card_done"));
  root.querySelector("#end-shoe").addEventListener("click", () => report("end-shoe", undefined, "dealer.end_shoe_done"));
  root.querySelector("#face-up").addEventListener("click", () => {
    const raw = (window.prompt(t("dealer.face_up_prompt")) || "").trim().toUpperCase();
    const m = raw.match(CARD);
    if (!m) {
      if (raw) ctx.toast(t("dealer.not_a_card"));
      return;
    }
    const card = (m[1] === "10" ? "T" : m[1]) + m[2];
    report("face-up-card", { card }, "dealer.face_up_done");
  });
  root.querySelector("#misdeal").addEventListener("click", () => ask("misdeal"));
  root.querySelector("#void").addEventListener("click", () => ask("void"));
  root.querySelector("#cancel-approval").addEventListener("click", () => {
    dialog.close();
    s.approval = null;
  });
  root.querySelector("#approval-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = root.querySelector("#sup-name").value.trim();
    const password = root.querySelector("#sup-password").value;
    root.querySelector("#sup-password").value = "";
    dialog.close();
    supervise({ name, password });
  });

  const watcher = watchTable(
    table.id,
    (message) => {
      if (message.type === "snapshot") {
        refresh();
        return;
      }
      const e = message.event || {};
      if (e.type === "betting_open") {
        s.phase = "betting";
        s.closesAt = isoMs(e.closes_at);
        s.pending = null;
        s.entered = [];
      } else if (e.type === "await") {
        s.pending = { ...e, closesAt: isoMs(e.closes_at) };
      } else if (e.type === "fault") {
        s.faults = [...s.faults, e].slice(-10);
        ctx.toast(t("dealer.fault_line", { at: e.at, during: e.during, error: e.error, what: e.round ? t("dealer.fault_void", { round: e.round }) : t("dealer.fault_none") }));
      }
      render();
      soon();
    },
    (state) => {
      s.connected = state === "open";
      render();
    },
  );
  input.focus();
  render();
  return {
    unmount() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
