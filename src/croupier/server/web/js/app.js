// The single page: sign-in, lobby, tables, history, dealer console; hash routes (#/table/1 …).

import { api, session, ApiError, whenSignedOut } from "./api.js";
import { t, lang, setLang, onLangChange, LANGUAGES } from "./i18n.js";
import { esc, money, presetLabel, tickCountdowns } from "./util.js";
import { rulesFor, differing } from "./rules.js";
import { mountBlackjack } from "./blackjack.js";
import { mountBaccarat } from "./baccarat.js";
import { mountHistory } from "./history.js";
import { mountDealer } from "./dealer.js";
import { mountSupervisor } from "./supervisor.js";
import { mountPit } from "./pit.js";
import { mountCashier } from "./cashier.js";

const main = document.getElementById("main");
const toastBox = document.getElementById("toast");
let current = null; // the mounted view: {unmount(), render()}
let balance = null;

export function toast(message, kind = "error") {
  const item = document.createElement("div");
  item.className = `toast-item ${kind}`;
  item.textContent = message;
  toastBox.appendChild(item);
  setTimeout(() => item.remove(), kind === "error" ? 6000 : 3000);
}

function setBalance(value) {
  balance = value;
  const node = document.getElementById("balance");
  if (!node) return;
  if (value === null || value === undefined) {
    node.hidden = true;
    return;
  }
  node.hidden = false;
  node.dataset.amount = value;
  node.innerHTML = `<span class="label">${esc(t("balance"))}</span> <span class="amount">${esc(money(value))}</span>`;
}

async function refreshMe() {
  if (!session.token) return null;
  try {
    const me = await api("GET", "/api/me");
    setBalance(me.balance);
    return me;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      session.clear();
      return null;
    }
    throw error;
  }
}

function header() {
  const account = session.account;
  const staff = account && ["dealer", "supervisor"].includes(account.role);
  const nav = document.getElementById("nav");
  nav.innerHTML = account
    ? `<a href="#/">${esc(t("nav.lobby"))}</a>
       ${account.role === "player" ? `<a href="#/history" id="nav-history">${esc(t("nav.history"))}</a>` : ""}
       ${staff ? `<a href="${esc(consoleHref())}" id="nav-dealer">${esc(t("nav.dealer"))}</a>` : ""}
       ${account.role === "supervisor" ? `<a href="#/tables" id="nav-tables">${esc(t("nav.tables"))}</a>` : ""}
       ${account.role === "supervisor" ? `<a href="#/pit" id="nav-pit">${esc(t("nav.pit"))}</a>` : ""}
       ${["cashier", "supervisor"].includes(account.role) ? `<a href="#/cashier" id="nav-cashier">${esc(t("nav.cashier"))}</a>` : ""}`
    : "";
  const who = document.getElementById("who");
  who.textContent = account ? `${account.name} (${t("role." + account.role)})` : "";
  const out = document.getElementById("logout");
  out.hidden = !account;
  out.style.display = account ? "" : "none"; // a button's display rule would otherwise show it signed out
  out.textContent = t("sign_out");
  const everywhere = document.getElementById("logout-all");
  everywhere.hidden = !account;
  everywhere.style.display = account ? "" : "none";
  everywhere.textContent = t("sign_out_everywhere");
  const toggle = document.getElementById("menu-toggle");
  toggle.hidden = !account;
  toggle.style.display = account ? "" : "none";
  toggle.setAttribute("aria-label", t("nav.menu"));
  toggle.title = t("nav.menu");
  languageSwitch();
  setBalance(balance);
}

/** The dealer console of the table on the page (a live table's, the one its dealer deals), else the
 *  lobby's live tables, each with its console. */
function consoleHref() {
  const match = (location.hash || "").match(/^#\/(?:table|dealer)\/(\d+)/);
  const id = match ? Number(match[1]) : null;
  if (id !== null && (!tableModes.has(id) || tableModes.get(id) === "live")) return `#/dealer/${id}`;
  return "#/live";
}
const tableModes = new Map(); // table id -> mode ("live", "rng"), as the lobby last listed them
function noteTables(tables) {
  for (const table of tables) tableModes.set(table.id, table.mode);
  return tables;
}

/** The phone's menu (the header's links, who is signed in, sign out) opens below the header. While it
 *  is open the focus stays in it: Tab and Shift+Tab cycle through the ☰ button and the menu's links and
 *  buttons, Escape (or a tap outside it) closes it, and Escape gives the focus back to the ☰ button. */
function setMenu(open, focusFirst = false) {
  const top = document.querySelector("header.top");
  top.classList.toggle("open", open);
  document.getElementById("menu-toggle").setAttribute("aria-expanded", String(open));
  if (open && focusFirst) {
    const [, first] = menuStops();
    if (first) first.focus();
  }
}
function menuOpen() {
  const toggle = document.getElementById("menu-toggle");
  // the menu is a drop-down only where the ☰ button is shown (a phone's width)
  return Boolean(document.querySelector("header.top.open")) && toggle.getClientRects().length > 0;
}
/** The ☰ button, then each link and button shown in the menu, in order. */
function menuStops() {
  const items = [...document.querySelectorAll("#menu a[href], #menu button")].filter((node) => !node.hidden && node.getClientRects().length > 0);
  return [document.getElementById("menu-toggle"), ...items];
}
document.getElementById("menu-toggle").addEventListener("click", (event) => {
  // opened by a key (Enter, Space: no pointer, detail 0), the focus moves to the menu's first link
  setMenu(!document.querySelector("header.top").classList.contains("open"), event.detail === 0);
});
document.getElementById("menu").addEventListener("click", (event) => {
  if (event.target.closest("a, button")) setMenu(false);
});
document.addEventListener("click", (event) => {
  if (menuOpen() && !event.target.closest("header.top")) setMenu(false);
});
document.addEventListener("keydown", (event) => {
  if (!menuOpen()) return;
  if (event.key === "Escape") {
    event.preventDefault();
    setMenu(false);
    document.getElementById("menu-toggle").focus();
  } else if (event.key === "Tab") {
    const stops = menuStops();
    const at = stops.indexOf(document.activeElement);
    const next = at < 0 ? (event.shiftKey ? stops.length - 1 : 0) : (at + (event.shiftKey ? -1 : 1) + stops.length) % stops.length;
    event.preventDefault();
    stops[next].focus();
  }
});

/** The language switch: a select offering every language, each named in itself. */
function languageSwitch() {
  let select = document.getElementById("lang-select");
  if (!select) {
    const old = document.getElementById("lang-toggle");
    select = document.createElement("select");
    select.id = "lang-select";
    select.className = "small";
    select.innerHTML = LANGUAGES.map(([code, name]) => `<option value="${code}" lang="${code}">${esc(name)}</option>`).join("");
    select.addEventListener("change", () => setLang(select.value));
    if (old) old.replaceWith(select);
    else document.querySelector("header.top").appendChild(select);
  }
  select.value = lang();
  select.setAttribute("aria-label", t("lang.switch"));
  select.title = t("lang.switch");
}

/** Back to the signed-out page, with `message` (a token that expired or was revoked, or a sign-out). */
function signedOut(message, kind = "error") {
  const had = session.token;
  session.clear();
  setBalance(null);
  if (!had) return;
  if (message) toast(message, kind);
  if (location.hash !== "#/" && location.hash !== "#/login") sessionStorage.setItem("croupier.after", location.hash);
  route();
}
whenSignedOut((error) => signedOut(t("session.ended") + (error.code === "auth.token_expired" ? ` (${error.message})` : "")));

const ctx = {
  t,
  toast,
  setBalance,
  get me() {
    return session.account;
  },
  refreshMe,
  lobby: async () => api("GET", "/api/tables"),
};

function loginView() {
  main.innerHTML = `<section class="panel login">
    <h1>${esc(t("login.title"))}</h1>
    <form id="login-form">
      <label for="login-name">${esc(t("login.name"))}</label>
      <input id="login-name" name="name" autocomplete="username" required>
      <label for="login-password">${esc(t("login.password"))}</label>
      <input id="login-password" name="password" type="password" autocomplete="current-password" required>
      <button type="submit" class="primary" id="login-submit">${esc(t("login.submit"))}</button>
      <p class="hint">${esc(t("login.hint"))}</p>
    </form>
    <form id="register-form">
      <h2>${esc(t("login.register_title"))}</h2>
      <label for="register-name">${esc(t("login.name"))}</label>
      <input id="register-name" name="name" autocomplete="username" maxlength="64" required>
      <label for="register-password">${esc(t("login.password"))}</label>
      <input id="register-password" name="password" type="password" autocomplete="new-password" minlength="10" maxlength="128" aria-describedby="register-rules" required>
      <p class="hint" id="register-rules">${esc(t("login.rules"))}</p>
      <button type="submit" id="register-submit">${esc(t("login.register_submit"))}</button>
    </form></section>`;
  const form = document.getElementById("login-form");
  const opening = document.getElementById("register-form");
  opening.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = opening.elements.name.value.trim();
    const password = opening.elements.password.value;
    try {
      await api("POST", "/api/accounts", { name, password });
      await signIn(name, password);
    } catch (error) {
      toast(error.message); // the password rule or the wait it names, in the page's language
    }
  });
  async function signIn(name, password) {
    const answer = await api("POST", "/api/login", { name, password });
    session.set(answer.token, answer.account);
    await refreshMe();
    const target = sessionStorage.getItem("croupier.after") || "#/";
    sessionStorage.removeItem("croupier.after");
    header();
    if (location.hash === target) route();
    else location.hash = target;
  }
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = form.elements.name.value.trim();
    const password = form.elements.password.value;
    try {
      await signIn(name, password);
    } catch (error) {
      toast(error.message); // a lockout names its wait (auth.throttled)
    }
  });
  document.getElementById("login-name").focus();
  return { unmount() {} };
}

/** A baccarat table's shoe so far: how often each side won or paired, and its bead plate. */
function shoeSoFar(table) {
  const stats = table.shoe_stats;
  if (!stats) return "";
  const pct = (n) => (stats.coups ? `${Math.round((100 * n) / stats.coups)}%` : "–");
  const line = ["banker", "player", "tie"].map((side) => `${t("spot." + side)} ${stats[side]} (${pct(stats[side])})`).join(" · ");
  const pairs = `${t("spot.banker_pair")} ${stats.banker_pair} · ${t("spot.player_pair")} ${stats.player_pair}`;
  const beads = (table.roads && table.roads.bead_plate) || [];
  const plate = beads.length
    ? `<div class="road-grid lobby-road">${beads
        .slice(-12)
        .map((col) => `<div class="road-col">${col.map((x) => `<span class="bead ${x}">${esc(t("bac.short." + x))}</span>`).join("")}</div>`)
        .join("")}</div>`
    : "";
  return `<p class="shoe-stats">${esc(t("lobby.coups", { n: stats.coups }))}: ${esc(line)}</p><p class="shoe-stats">${esc(pairs)}</p>${plate}`;
}

async function lobbyView(liveOnly = false) {
  main.innerHTML = `<section class="panel"><h1>${esc(t(liveOnly ? "lobby.live_title" : "lobby.title"))}</h1><div id="lobby" class="lobby" aria-busy="true"></div></section>`;
  let alive = true;
  async function load() {
    let tables;
    try {
      tables = noteTables(await api("GET", "/api/tables"));
    } catch (error) {
      toast(error.message);
      return;
    }
    if (liveOnly) tables = tables.filter((table) => table.mode === "live");
    if (!alive) return;
    const me = session.account;
    const staff = me && ["dealer", "supervisor"].includes(me.role);
    const box = document.getElementById("lobby");
    if (!box) return; // the page moved on while the list was on its way
    box.setAttribute("aria-busy", "false");
    box.innerHTML = tables
      .map((table) => {
        const rules = rulesFor(table.game, table.rules, table.overrides);
        const diff = differing(table.game, table.rules, table.overrides);
        const seated = Object.keys(table.seats || {}).length;
        const seats =
          table.game === "blackjack"
            ? `${t("lobby.seats")}: ${seated} / ${table.boxes}`
            : `${t("lobby.spots")}: ${rules.spots.map((s) => t("spot." + s)).join(", ")}`;
        return `<article class="table-card" data-table="${table.id}" data-game="${esc(table.game)}">
          <h2>${esc(table.name)}</h2>
          <p class="game">${esc(t("game." + table.game))} · ${esc(presetLabel(table.rules, t))}${table.mode === "live" ? ` · <span class="live">${esc(t("lobby.live"))}</span>` : ""}</p>
          <p>${esc(t("lobby.limits"))}: ${esc(money(table.min_bet))} – ${esc(money(table.max_bet))}</p>
          <p>${esc(seats)}</p>
          <p>${esc(t("lobby.phase"))}: <span class="phase">${esc(t("phase." + table.phase))}</span></p>
          ${table.game === "baccarat" ? shoeSoFar(table) : ""}
          <ul class="diff">${diff.map((d) => `<li>${esc(d)}</li>`).join("")}</ul>
          <p class="links"><a class="button primary play" href="#/table/${table.id}">${esc(me && me.role === "player" ? t("lobby.play") : t("lobby.watch"))}</a>
          ${staff && table.mode === "live" ? `<a class="button dealer-link" href="#/dealer/${table.id}">${esc(t("nav.dealer"))}</a>` : ""}</p>
        </article>`;
      })
      .join("");
  }
  await load();
  const timer = setInterval(load, 5000);
  return {
    unmount() {
      alive = false;
      clearInterval(timer);
    },
  };
}

async function route() {
  if (current) {
    current.unmount();
    current = null;
  }
  setMenu(false);
  header();
  const hash = location.hash || "#/";
  if (!session.token) {
    if (hash !== "#/login") sessionStorage.setItem("croupier.after", hash);
    current = loginView();
    return;
  }
  let match;
  try {
    if ((match = hash.match(/^#\/table\/(\d+)/))) {
      const id = Number(match[1]);
      const tables = noteTables(await api("GET", "/api/tables"));
      header(); // the dealer console's link: this table's, once its mode is known
      const table = tables.find((x) => x.id === id);
      if (!table) {
        main.innerHTML = `<p class="panel">${esc(t("table.none"))}</p>`;
        return;
      }
      current = table.game === "baccarat" ? mountBaccarat(main, table, ctx) : mountBlackjack(main, table, ctx);
    } else if (hash.startsWith("#/cashier")) {
      current = mountCashier(main, ctx);
    } else if (hash.startsWith("#/pit")) {
      current = mountPit(main, ctx);
    } else if (hash.startsWith("#/tables")) {
      current = mountSupervisor(main, ctx);
    } else if (hash.startsWith("#/history")) {
      current = mountHistory(main, ctx);
    } else if ((match = hash.match(/^#\/dealer\/(\d+)/))) {
      const id = Number(match[1]);
      const tables = await api("GET", "/api/tables");
      current = mountDealer(main, tables.find((x) => x.id === id), ctx);
    } else if (hash.startsWith("#/live")) {
      current = await lobbyView(true);
    } else {
      current = await lobbyView();
    }
  } catch (error) {
    toast(error.message);
  }
}

// countdowns: every element with data-closes-at shows the seconds left
setInterval(tickCountdowns, 200);

onLangChange(() => {
  header();
  if (current && current.render) current.render();
  else route();
});
document.getElementById("logout").addEventListener("click", async () => {
  try {
    await api("POST", "/api/logout"); // the token is revoked at the server, not only forgotten here
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) console.warn("sign out:", error.message);
  }
  signedOut(t("session.signed_out"), "info");
  if (location.hash !== "#/") location.hash = "#/";
});
document.getElementById("logout-all").addEventListener("click", async () => {
  try {
    await api("POST", "/api/logout/everywhere"); // every token of the account, on every device
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 401)) {
      toast(error.message);
      return;
    }
  }
  signedOut(t("session.signed_out_everywhere"), "info");
  if (location.hash !== "#/") location.hash = "#/";
});
window.addEventListener("hashchange", route);

(async () => {
  setLang(lang(), true);
  await refreshMe().catch(() => null);
  route();
})();
