// Every rule parameter of each preset (docs: docs/rules.md §3, §4), for the rules panel and the
// lobby's "rules that differ". A table's overrides (GET /api/tables) replace the preset's values.

import { t } from "./i18n.js";

const BLACKJACK = {
  "macau-1983": {
    decks: 6,
    boxes: 7,
    hole_card: "none",
    dealer_hits_soft_17: false,
    dealer_blackjack_takes: "all",
    double_on: "11",
    double_after_split: false,
    double_for_less: false,
    max_split_hands: 4,
    split_aces_one_card: true,
    resplit_aces: false,
    surrender: "early_not_ace",
    blackjack_pays: "3:2",
    insurance_pays: "2:1",
    even_money: true,
    bonus_678_suited: "3:1",
    bonus_777: "3:1",
    bet_behind: true,
    max_boxes_per_player: 7,
    dealer_draws_when_moot: true,
    burn_at_shoe_start: "decks",
    burn_each_round: 1,
    burn_before_dealer_second: 1,
    burn_after_misdeal: 0,
  },
  "live-online": {
    decks: 8,
    boxes: 7,
    hole_card: "peek_ace",
    dealer_hits_soft_17: true,
    dealer_blackjack_takes: "original",
    double_on: "any_two",
    double_after_split: true,
    double_for_less: true,
    max_split_hands: 2,
    split_aces_one_card: true,
    resplit_aces: false,
    surrender: "none",
    blackjack_pays: "3:2",
    insurance_pays: "2:1",
    even_money: false,
    bonus_678_suited: "none",
    bonus_777: "none",
    bet_behind: false,
    max_boxes_per_player: 1,
    dealer_draws_when_moot: false,
    burn_at_shoe_start: 6,
    burn_each_round: 0,
    burn_before_dealer_second: 0,
    burn_after_misdeal: 3,
  },
};

const BACCARAT = {
  macau: {
    decks: 8,
    burn: "first_card_value",
    at_cut_card: "one_more",
    commission: "5pct",
    tie_pays: "8:1",
    pair_pays: "11:1",
    lucky_6: false,
    tie_bets: "push",
    banker_bet_multiple_of_min: true,
  },
};

function normalise(value) {
  if (value === "true") return true;
  if (value === "false") return false;
  if (value === null) return "none";
  return value;
}

export function rulesFor(game, preset, overrides = {}) {
  const base = (game === "baccarat" ? BACCARAT : BLACKJACK)[preset] || {};
  const rules = { ...base };
  for (const [name, value] of Object.entries(overrides || {})) rules[name] = normalise(value);
  if (game === "baccarat") {
    rules.spots = ["player", "banker", "tie", "player_pair", "banker_pair"];
    if (rules.lucky_6 === true) rules.spots.push("lucky_6");
  }
  return rules;
}

function describe(name, value) {
  const key = `rule.${name}.${value}`;
  const text = t(key);
  if (text !== key) return text;
  if (value === true) return t("yes");
  if (value === false) return t("no");
  return String(value);
}

/** [name, label, value text, changed?] for every parameter of the table's rules. */
export function ruleRows(game, preset, overrides = {}) {
  const base = (game === "baccarat" ? BACCARAT : BLACKJACK)[preset] || {};
  const rules = rulesFor(game, preset, overrides);
  return Object.keys(base).map((name) => [
    name,
    t("param." + name),
    describe(name, rules[name]),
    Object.prototype.hasOwnProperty.call(overrides || {}, name),
  ]);
}

/** The rules a table sets differently from the other preset of its game, in words (the lobby). */
export function differing(game, preset, overrides = {}) {
  const rules = rulesFor(game, preset, overrides);
  const keys =
    game === "baccarat"
      ? ["commission", "tie_pays", "lucky_6"]
      : ["decks", "hole_card", "double_on", "surrender", "bonus_678_suited", "bet_behind", "dealer_hits_soft_17"];
  const rows = keys.map((name) => `${t("param." + name)}: ${describe(name, rules[name])}`);
  for (const name of Object.keys(overrides || {})) {
    if (!keys.includes(name)) rows.push(`${t("param." + name)}: ${describe(name, rules[name])}`);
  }
  return rows;
}

/** Payout lines of the rules panel. */
export function payouts(game, rules) {
  if (game === "baccarat") {
    const lines = [
      [t("spot.player"), "1:1"],
      [t("spot.banker"), rules.commission === "5pct" ? "0.95:1" : t("rule.commission.none_super6")],
      [t("spot.tie"), rules.tie_pays],
      [t("spot.player_pair"), rules.pair_pays],
      [t("spot.banker_pair"), rules.pair_pays],
    ];
    if (rules.lucky_6 === true) lines.push([t("spot.lucky_6"), t("pay.lucky_6")]);
    return lines;
  }
  const lines = [
    [t("pay.win"), "1:1"],
    [t("pay.blackjack"), rules.blackjack_pays],
    [t("pay.insurance"), rules.insurance_pays],
  ];
  if (rules.even_money === true) lines.push([t("pay.even_money"), "1:1"]);
  if (rules.bonus_678_suited && rules.bonus_678_suited !== "none") lines.push([t("pay.bonus_678"), rules.bonus_678_suited]);
  if (rules.bonus_777 && rules.bonus_777 !== "none") lines.push([t("pay.bonus_777"), rules.bonus_777]);
  if (rules.surrender && rules.surrender !== "none") lines.push([t("pay.surrender"), t("pay.surrender_half")]);
  return lines;
}
