// Cards and chips as inline SVG: nothing is loaded from anywhere at run time.

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_TEXT = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };

export function rankText(rank) {
  return RANK_TEXT[rank] || rank;
}

export function cardLabel(card, t) {
  if (!card) return t("card.face_down");
  return `${t("rank." + card[0])} ${t("suit." + SUIT_NAMES[card[1]])}`;
}

/** One card face up (`card` "AS", "TD") or, with no card, its back. */
export function cardSvg(card, t, extra = "", fresh = false) {
  const isNew = fresh ? " new" : "";
  if (!card) {
    return `<span class="card back${isNew}" role="img" aria-label="${t("card.face_down")}" ${extra}>
<svg viewBox="0 0 60 84" aria-hidden="true" focusable="false"><rect x="1" y="1" width="58" height="82" rx="5" fill="#1d3a8a" stroke="#f4f4f4" stroke-width="2"/>
<rect x="6" y="6" width="48" height="72" rx="3" fill="none" stroke="#9fb4ff" stroke-width="1.5"/>
<path d="M6 6 L54 78 M54 6 L6 78 M30 6 L30 78 M6 42 L54 42" stroke="#3b5bc4" stroke-width="1.2"/></svg></span>`;
  }
  const rank = card[0];
  const suit = card[1];
  const red = suit === "H" || suit === "D";
  const colour = red ? "#b3141c" : "#111111";
  const r = rankText(rank);
  const s = SUITS[suit] || "?";
  return `<span class="card face ${red ? "red" : "black"}${isNew}" data-card="${card}" role="img" aria-label="${cardLabel(card, t)}" ${extra}>
<svg viewBox="0 0 60 84" aria-hidden="true" focusable="false"><rect x="1" y="1" width="58" height="82" rx="5" fill="#ffffff" stroke="#444" stroke-width="1.5"/>
<text x="5" y="17" font-size="15" font-weight="700" fill="${colour}" font-family="Georgia, serif">${r}</text>
<text x="5" y="31" font-size="13" fill="${colour}">${s}</text>
<text x="30" y="56" font-size="30" text-anchor="middle" fill="${colour}">${s}</text>
<g transform="rotate(180 30 42)"><text x="5" y="17" font-size="15" font-weight="700" fill="${colour}" font-family="Georgia, serif">${r}</text></g></svg></span>`;
}

const CHIP_COLOURS = [
  [1, "#f2f2f2", "#1d3a8a", "#111"],
  [5, "#c0121c", "#ffffff", "#fff"],
  [10, "#1d3a8a", "#ffffff", "#fff"],
  [25, "#0c6b32", "#ffffff", "#fff"],
  [50, "#e06d10", "#111111", "#111"],
  [100, "#111111", "#f5c542", "#fff"],
  [500, "#5b2a86", "#f5c542", "#fff"],
  [1000, "#b8860b", "#111111", "#111"],
];

function chipColours(value) {
  let chosen = CHIP_COLOURS[0];
  for (const entry of CHIP_COLOURS) if (Number(value) >= entry[0]) chosen = entry;
  return chosen;
}

/** A chip of `value` (text such as "25" or "2.50"). */
export function chipSvg(value) {
  const [, body, edge, ink] = chipColours(value);
  const text = String(value).replace(/\.00$/, "");
  const size = text.length > 3 ? 11 : 14;
  let stripes = "";
  for (let i = 0; i < 8; i++) {
    const a = (i * Math.PI) / 4;
    const x = 30 + 24 * Math.cos(a);
    const y = 30 + 24 * Math.sin(a);
    stripes += `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="3.2" fill="${edge}"/>`;
  }
  return `<svg class="chip-svg" viewBox="0 0 60 60" aria-hidden="true" focusable="false"><circle cx="30" cy="30" r="28" fill="${body}" stroke="#000" stroke-width="1.5"/>${stripes}
<circle cx="30" cy="30" r="17" fill="${body}" stroke="${edge}" stroke-width="2" stroke-dasharray="4 3"/>
<text x="30" y="${30 + size / 3}" font-size="${size}" font-weight="700" text-anchor="middle" fill="${ink}" font-family="system-ui, sans-serif">${text}</text></svg>`;
}

/** The chips of `amount` on a spot, as a stack (largest at the bottom, at most 6 drawn) with the amount:
 *  `values` are the table's chip values. */
export function chipStack(amount, values, label) {
  let left = Math.round(Number(amount) * 100);
  const chips = [];
  for (const value of [...values].sort((a, b) => b - a)) {
    const v = Math.round(Number(value) * 100);
    while (v > 0 && left >= v && chips.length < 24) {
      chips.push(value);
      left -= v;
    }
  }
  if (!chips.length) chips.push(values[0]);
  const drawn = chips.slice(0, 6);
  const layers = drawn
    .map((value, i) => `<span class="stack-chip" style="bottom:${i * 5}px">${chipSvg(value)}</span>`)
    .join("");
  return `<span class="chip-stack" data-amount="${amount}" data-chips="${chips.length}"><span class="stack-chips" style="height:${30 + (drawn.length - 1) * 5}px">${layers}</span><span class="stack-amount">${label}</span></span>`;
}

/** A derived road's mark (Macau convention): big eye boy a hollow circle, small road a filled dot,
 *  cockroach pig a slash; red or blue. */
export function roadMark(road, colour) {
  const ink = colour === "red" ? "#c8102e" : "#1546d1";
  let glyph;
  if (road === "big_eye_boy") glyph = `<circle cx="10" cy="10" r="6.5" fill="none" stroke="${ink}" stroke-width="3"/>`;
  else if (road === "small_road") glyph = `<circle cx="10" cy="10" r="7" fill="${ink}"/>`;
  else glyph = `<line x1="4" y1="16" x2="16" y2="4" stroke="${ink}" stroke-width="3.5" stroke-linecap="round"/>`;
  return `<svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">${glyph}</svg>`;
}
