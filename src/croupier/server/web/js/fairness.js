// A provably fair shoe rebuilt in the browser, with Web Crypto only (docs/protocol.md, "History and fairness").
// The same steps as the server, mirrored line for line:
//   croupier/rng.py    HmacStream: HMAC-SHA256(server_seed, "client_seed:nonce:counter"), counter 0, 1, …,
//                      read as big-endian 32-bit words; randbelow(n) rejects a word w >= 2**32 - 2**32 % n
//                      and gives w % n otherwise (no modulo bias);
//   croupier/shoe.py   place_cut_card: a range [low, high] from the end draws once, before the shuffle;
//   croupier/cards.py  new_shoe_order: decks × (S, H, D, C × A…K);
//   croupier/rng.py    fisher_yates: for i from the last index down to 1, swap i and randbelow(i + 1).
// Then the shoe document's start cards and every round's cards are compared with the rebuilt order.

const RANKS = "A23456789TJQK";
const SUITS = "SHDC";
const WORD = 2 ** 32;

export function hexBytes(hex) {
  if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new Error("not hex");
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return bytes;
}

/** SHA-256 of the seed's bytes (the seed is hex), as hex: what the commitment must equal. */
export async function sha256Hex(seedHex) {
  const digest = await crypto.subtle.digest("SHA-256", hexBytes(seedHex));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** croupier.rng.HmacStream. */
export class HmacStream {
  constructor(key, clientSeed, nonce) {
    this.key = key;
    this.clientSeed = clientSeed;
    this.nonce = nonce;
    this.counter = 0;
    this.words = [];
  }

  static async create(seedHex, clientSeed, nonce) {
    const key = await crypto.subtle.importKey("raw", hexBytes(seedHex), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new HmacStream(key, String(clientSeed), nonce);
  }

  async word() {
    if (!this.words.length) {
      const message = new TextEncoder().encode(`${this.clientSeed}:${this.nonce}:${this.counter}`);
      const digest = new DataView(await crypto.subtle.sign("HMAC", this.key, message));
      for (let i = 0; i < 8; i++) this.words.push(digest.getUint32(4 * i, false));
      this.counter += 1;
    }
    return this.words.shift();
  }

  async randbelow(n) {
    if (!(n > 0 && n <= WORD)) throw new Error(`randbelow needs 0 < n <= 2**32, got ${n}`);
    const limit = WORD - (WORD % n);
    for (;;) {
      const word = await this.word();
      if (word < limit) return word % n;
    }
  }
}

/** croupier.shoe.place_cut_card. */
async function placeCut(setting, total, stream) {
  if (setting === null || setting === undefined || typeof setting === "number") return setting ?? null;
  const [low, high] = setting;
  const fromEnd = low + (await stream.randbelow(high - low + 1));
  return Math.max(0, total - fromEnd);
}

/** The shoe a document's seed gives: { cut, order } (cards as "AS", "TD", …, from the top). */
export async function buildShoe(doc) {
  const stream = await HmacStream.create(doc.server_seed, doc.client_seed ?? "", doc.nonce ?? 0);
  const cut = await placeCut(doc.cut_setting, doc.decks * 52, stream);
  const order = [];
  for (let d = 0; d < doc.decks; d++) for (const suit of SUITS) for (const rank of RANKS) order.push(rank + suit);
  for (let i = order.length - 1; i > 0; i--) {
    const j = await stream.randbelow(i + 1);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return { cut, order };
}

/** Check a shoe document: the commitment, then every group of cards (the shoe's start, each round) in order.
 *  Each group: { start, number, round, status, cards, ok, bad: { card, dealt, shown } | null }. */
export async function checkShoe(doc) {
  const digest = await sha256Hex(doc.server_seed);
  const result = { digest, commitmentOk: digest === String(doc.commitment).toLowerCase(), groups: [], cards: 0 };
  if (!result.commitmentOk) return { ...result, ok: false };
  const { cut, order } = await buildShoe(doc);
  const groups = [];
  if ((doc.start_cards || []).length) groups.push({ start: true, cards: doc.start_cards });
  for (const r of doc.rounds || []) groups.push({ start: false, number: r.number, round: r.round, status: r.status, cards: r.cards || [] });
  let position = 0;
  for (const group of groups) {
    group.bad = null;
    group.cards.forEach((shown, index) => {
      const dealt = order[position + index] ?? null;
      if (!group.bad && shown !== dealt) group.bad = { card: index + 1, dealt, shown };
    });
    group.ok = !group.bad;
    position += group.cards.length;
  }
  result.groups = groups;
  result.cards = position;
  result.cut = cut;
  result.cutOk = doc.cut_card === null || doc.cut_card === undefined || doc.cut_card === cut;
  result.ok = result.cutOk && groups.every((g) => g.ok);
  return result;
}
