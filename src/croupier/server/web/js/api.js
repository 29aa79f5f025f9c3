// REST and WebSocket access to `croupier serve` (docs/protocol.md).

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

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
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
    throw new ApiError(0, String(error.message || error));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || `HTTP ${response.status}`);
  }
  return data;
}

/** A table's live view: calls `onMessage(message)` for the snapshot and each event; reconnects. */
export function watchTable(tableId, onMessage, onState) {
  let socket = null;
  let closed = false;
  let retry = 300;
  function open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const token = session.token ? `?token=${encodeURIComponent(session.token)}` : "";
    socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}${token}`);
    socket.onopen = () => {
      retry = 300;
      onState && onState("open");
    };
    socket.onmessage = (message) => {
      try {
        onMessage(JSON.parse(message.data));
      } catch (error) {
        console.error(error);
      }
    };
    socket.onclose = () => {
      onState && onState("closed");
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
