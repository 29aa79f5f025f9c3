// REST and WebSocket access to `croupier serve` (docs/protocol.md).

import { errorText } from "./i18n.js";

export const session = {
  get token() {
    return sessionStorage.getItem("croupier.token");
  },
  get account() {
    const text = sessionStorage.getItem("croupier.account");
    return text ? JSON.parse(text) : null;
  },
  set(token, account) {
    sessionStorage.setItem("croupier.token", token);
    sessionStorage.setItem("croupier.account", JSON.stringify(account));
  },
  clear() {
    sessionStorage.removeItem("croupier.token");
    sessionStorage.removeItem("croupier.account");
  },
};

/** A refused request: `message` in the page's language (by the answer's `code`, with its `params`),
 * `english` the server's text; status 0 and code "network" when no answer came at all. */
export class ApiError extends Error {
  constructor(status, english, code = null, params = null) {
    super(errorText(code, params, english));
    this.status = status;
    this.english = english;
    this.code = code;
    this.params = params;
  }
}

/** Called when the server answers 401 to a signed-in request: the token has expired or was revoked. */
let onSignedOut = null;
export function whenSignedOut(handler) {
  onSignedOut = handler;
}

export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** fetch JSON; `token` overrides the session's (the supervisor's approval at a dealer console). */
export async function api(method, path, body, { key, token } = {}) {
  const headers = { Accept: "application/json" };
  const bearer = token || session.token;
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers["Idempotency-Key"] = key;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new ApiError(0, String(error.message || error), "network");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const refused = new ApiError(response.status, (data && data.error) || `HTTP ${response.status}`, data && data.code, data && data.params);
    if (response.status === 401 && bearer && !token && bearer === session.token && onSignedOut) onSignedOut(refused);
    throw refused;
  }
  return data;
}

/** A table's live view: calls `onMessage(message)` for the snapshot and each event; reconnects, except
 * after close code 4401 (the token expired or was revoked: the page signs out) or 4404 (no such table). */
export function watchTable(tableId, onMessage, onState) {
  let socket = null;
  let closed = false;
  let retry = 300;
  function open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // batch=1: the events that come together (a deal's cards) arrive as one message
    const token = session.token ? `&token=${encodeURIComponent(session.token)}` : "";
    socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}?batch=1${token}`);
    socket.onopen = () => {
      retry = 300;
      onState && onState("open");
    };
    socket.onmessage = (message) => {
      let parsed;
      try {
        parsed = JSON.parse(message.data);
      } catch (error) {
        console.error(error);
        return;
      }
      for (const one of parsed.type === "events" ? parsed.events : [parsed]) {
        try {
          onMessage(one);
        } catch (error) {
          console.error(error);
        }
      }
    };
    socket.onclose = (event) => {
      onState && onState("closed");
      if (event.code === 4401 && session.token) {
        closed = true;
        if (onSignedOut) onSignedOut(new ApiError(401, event.reason || "signed out", "auth.token_revoked"));
        return;
      }
      if (event.code === 4404) closed = true;
      if (!closed) {
        setTimeout(open, retry);
        retry = Math.min(retry * 2, 5000);
      }
    };
  }
  open();
  return {
    close() {
      closed = true;
      if (socket) socket.close();
    },
  };
}
