// The cashier's screen (#/cashier): find a player, pay money in or out, and read the ledger's proof that
// nothing was created or lost (docs/protocol.md, "Cashier and ledger"); a supervisor also disables and
// enables a player's account here. A payment keeps its
// Idempotency-Key until it is answered, so a retry after a lost connection never pays twice.

import { api, newKey } from "./api.js";
import { esc, money } from "./util.js";

export function mountCashier(main, ctx) {
  const { t, toast } = ctx;
  const s = { found: [], chosen: null, key: newKey(), ledger: null, last: null, alive: true };

  function ledgerHtml() {
    const l = s.ledger;
    if (!l) return "";
    const ok = l.entries_sum === 0 && l.balances_sum === 0 && l.unbalanced_transactions === 0 && l.wallets_match_entries;
    return `<p id="ledger-state" class="${ok ? "ok" : "bad"}">${esc(ok ? t("cash.ledger_ok") : t("cash.ledger_bad"))}</p>`;
  }

  function render() {
    if (!s.alive) return;
    const supervisor = ctx.me && ctx.me.role === "supervisor"; // disables and enables accounts
    const rows = s.found
      .map(
        (a) =>
          `<li><button type="button" class="pick${s.chosen === a.account ? " chosen" : ""}" data-account="${esc(a.account)}">${esc(a.account)}</button> <span class="balance">${esc(money(a.balance))}</span>${
            a.disabled ? ` <span class="tag disabled">${esc(t("cash.disabled"))}</span>` : ""
          }${
            supervisor
              ? ` <button type="button" class="small access" data-account="${esc(a.account)}" data-action="${a.disabled ? "enable" : "disable"}">${esc(t(a.disabled ? "cash.enable" : "cash.disable"))}</button>`
              : ""
          }</li>`,
      )
      .join("");
    main.innerHTML = `<section class="panel cashier">
      <h1>${esc(t("cash.title"))}</h1>
      <form id="find" class="admin-form">
        <div class="field"><label for="find-name">${esc(t("cash.find"))}</label>
          <input id="find-name" name="name" autocomplete="off" maxlength="64"></div>
        <button type="submit" class="button">${esc(t("cash.search"))}</button>
      </form>
      <ul id="found" class="found">${rows || `<li class="muted">${esc(t("cash.none"))}</li>`}</ul>
      <form id="pay" class="admin-form" ${s.chosen ? "" : "hidden"}>
        <h2>${esc(t("cash.for", { name: s.chosen || "" }))}</h2>
        <div class="field"><label for="pay-amount">${esc(t("cash.amount"))}</label>
          <input id="pay-amount" name="amount" inputmode="decimal" autocomplete="off" maxlength="20"></div>
        <p class="buttons">
          <button type="submit" class="button primary" data-kind="deposit">${esc(t("cash.deposit"))}</button>
          <button type="submit" class="button" data-kind="withdrawal">${esc(t("cash.withdraw"))}</button>
        </p>
        ${s.last ? `<p id="paid" role="status">${esc(s.last)}</p>` : ""}
      </form>
      <h2>${esc(t("cash.ledger"))}</h2>
      ${ledgerHtml()}
    </section>`;
    const name = main.querySelector("#find-name");
    if (name) name.value = s.query || "";
  }

  async function find(name) {
    s.query = name;
    s.found = await api("GET", `/api/cashier/accounts?name=${encodeURIComponent(name)}`);
    render();
  }

  async function loadLedger() {
    s.ledger = await api("GET", "/api/ledger");
    render();
  }

  async function pay(kind, amount) {
    const path = kind === "deposit" ? "/api/cashier/deposits" : "/api/cashier/withdrawals";
    const answer = await api("POST", path, { account: s.chosen, amount }, { key: s.key });
    s.key = newKey(); // answered: the next payment is a new request
    s.last = t(kind === "deposit" ? "cash.deposited" : "cash.withdrawn", {
      name: answer.account,
      amount: money(answer[kind]),
      balance: money(answer.balance),
    });
    await find(s.query || "");
    await loadLedger();
  }

  main.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      if (event.target.id === "find") {
        await find(main.querySelector("#find-name").value.trim());
      } else if (event.target.id === "pay") {
        const kind = event.submitter ? event.submitter.dataset.kind : "deposit";
        await pay(kind, main.querySelector("#pay-amount").value.trim());
      }
    } catch (error) {
      toast(error.message);
    }
  });
  async function access(account, action) {
    // a disabled account is signed out everywhere at once; its money stays, as its bets in play
    await api("POST", `/api/accounts/${encodeURIComponent(account)}/${action}`, action === "disable" ? {} : undefined);
    toast(t(action === "disable" ? "cash.disabled_done" : "cash.enabled_done", { name: account }), "info");
    await find(s.query || "");
  }

  main.addEventListener("click", (event) => {
    const button = event.target.closest(".access");
    if (button) {
      access(button.dataset.account, button.dataset.action).catch((error) => toast(error.message));
      return;
    }
    const pick = event.target.closest(".pick");
    if (!pick) return;
    s.chosen = pick.dataset.account;
    s.key = newKey();
    s.last = null;
    render();
  });

  render();
  find("").catch((error) => toast(error.message));
  loadLedger().catch((error) => toast(error.message));
  return {
    render,
    unmount() {
      s.alive = false;
    },
  };
}
