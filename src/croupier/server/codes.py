"""Stable codes for the refusals a player meets, so that a page can say them in its own language.

Every error answer is ``{"error": ENGLISH, "code": CODE, "params": {...}}``; ``code`` and ``params``
are there when the refusal is one of those below (docs/protocol.md, "Errors"). A refusal raised with
an explicit code (:class:`~croupier.server.commands.Refused`) keeps it; any other is matched against
the English text, by the small table of patterns below: the engine's messages (``croupier.blackjack``,
``croupier.baccarat``, the ledger and the seats) stay as they are, and the server names what they mean.
A number that names a box, seat or hand is an integer in ``params``; an amount stays decimal text.
"""

# ruff: noqa: E501  (one pattern a line reads best)

from __future__ import annotations

import re
from typing import Any

_AMOUNT = r"[0-9][0-9.,]*"
_NAME = r"[\w.-]+"
_INTS = frozenset(
    {"box", "seat", "hand", "mine", "count", "max", "total", "boxes", "turn_box", "turn_hand"}
    | {"seconds", "minimum", "maximum", "length"}
)

# (code, pattern): the first pattern that matches (re.search) names the refusal; named groups are its params
PATTERNS: tuple[tuple[str, str], ...] = (
    # the table
    ("table.betting_closed", r"^\"No more bets\": betting is closed"),
    ("table.closing", r"^(?:table (?P<table>.+) is closing|the table is closing)"),
    ("table.not_running", r"^table (?P<table>.+) is not running"),
    ("table.stopped", r"^table (?P<table>.+) is stopped: "),
    ("table.recovering", r"^table (?P<table>.+) is recovering from a fault"),
    (
        "table.unreachable",
        r"^table (?P<table>\S+)(?: is not run by this process|: no process answers for it now| moved to another process)",
    ),
    ("table.not_found", r"^table (?P<table>\S+): no such table"),
    ("request.not_stored", r"^the request could not be stored"),
    # bets
    (
        "bet.below_minimum",
        rf"^the table minimum is (?P<min>{_AMOUNT}); (?P<player>{_NAME}) bet (?P<amount>{_AMOUNT}) on box (?P<box>\d+)",
    ),
    (
        "bet.above_maximum",
        rf"^the table maximum is (?P<max_bet>{_AMOUNT}); (?P<player>{_NAME}) bet (?P<amount>{_AMOUNT}) on box (?P<box>\d+)",
    ),
    ("bet.below_minimum", rf"'s minimum bet is (?P<min>{_AMOUNT}) \(Art\. 18\)"),
    ("bet.above_maximum", rf"'s maximum bet is (?P<max_bet>{_AMOUNT}) \(Art\. 14, 18\)"),
    ("bet.banker_multiple", rf"banker bets must be a multiple of the minimum (?P<min>{_AMOUNT})"),
    (
        "bet.not_whole_chips",
        rf"^bet: (?P<amount>{_AMOUNT}) is not a whole number of the table's (?P<chip>{_AMOUNT}) chips",
    ),
    ("bet.not_amount", r"^(?:bet|double|insurance|even money)\S*: '?(?P<amount>.*?)'? is not (?:an|a positive) amount"),
    ("bet.not_positive", r"^a bet must be a positive amount"),
    (
        "bet.one_per_box",
        rf"^one bet per player per box \(Art\. 2\.3\): (?P<player>{_NAME}) already bet on box (?P<box>\d+)",
    ),
    ("bet.one_box_standing", r"^a player without a box may bet on one box only \(Art\. 2\.3\)"),
    ("bet.boxes_per_player", r"allows (?P<count>\d+) box\(es\) per player \(Art\. 2\.3"),
    ("bet.no_bets_behind", rf"takes no bets behind .*: box (?P<box>\d+) is (?P<player>{_NAME})'s"),
    ("bet.no_such_box", r"has boxes 1-(?P<boxes>\d+) \(Art\. 2\.3\); (?:there is )?no box (?P<box>\d+)"),
    (
        "bet.seated_spot",
        rf"^standing players may not bet on a seated player's spot \(Art\. 15\): seat (?P<seat>\d+) is (?P<player>{_NAME})'s",
    ),
    ("bet.empty_seat", r"^seat (?P<seat>\d+) is empty: sit there first to bet at its spot \(Art\. 15\)"),
    (
        "bet.empty_box",
        rf"^box (?P<box>\d+) is empty: a seated player bets on another box only behind its occupant \(Art\. 2\.3\); (?P<player>{_NAME}) sits at box (?P<mine>\d+)",
    ),
    ("bet.unknown_spot", r"^unknown spot '(?P<spot>[^']*)'"),
    (
        "funds.insufficient",
        rf"^(?:(?P<player>{_NAME})'s|the) balance is (?P<balance>{_AMOUNT}); (?P<needed>{_AMOUNT}) is needed",
    ),
    ("role.players_only", r"^only players (?:bet|sit at a table)"),
    # seats (Art. 2.3)
    ("seat.taken", rf"^seat (?P<seat>\d+) is taken by (?P<player>{_NAME}) \(Art\. 2\.3\)"),
    ("seat.one_per_player", rf"^one seat per player \(Art\. 2\.3\): (?P<player>{_NAME}) sits at (?P<mine>\d+)"),
    ("seat.no_such_seat", r"^this table has seats 1-(?P<count>\d+) \(Art\. 2\.3\); there is no seat (?P<seat>\d+)"),
    ("seat.not_yours", rf"^(?P<player>{_NAME}) does not sit at (?P<seat>\d+)"),
    ("seat.bet_in_round", rf"^(?P<player>{_NAME}) has a bet in this round: the occupant handles the box"),
    # turns (Art. 13, 3.2c)
    (
        "turn.not_decider",
        rf"box (?P<box>\d+)'s decisions belong to (?P<decider>{_NAME}), the highest bet \(Art\. 13\); (?P<player>{_NAME}) may not decide",
    ),
    (
        "turn.not_this_hand",
        r"boxes play from box 1 up, each hand to completion .*; box (?P<box>\d+) hand (?P<hand>\d+) is to act",
    ),
    ("turn.hand_finished", r"is finished.*; box (?P<box>\d+) hand (?P<hand>\d+) is to act"),
    ("turn.no_bet", rf"^\w[\w ]*(?: on box \d+)?: (?P<player>{_NAME}) has no bet on box (?P<box>\d+)$"),
    ("turn.no_decision", r"^there is no decision to make now|no hand waits for a decision|^no hand is to act"),
    ("turn.holds_21", r"box (?P<box>\d+) holds 21 and takes no more cards"),
    ("turn.waiting", r": the round waits for |: insurance is still offered; close it first"),
    ("turn.round_over", r": the round is over$|: the round was voided$"),
    ("matching.no_bet", rf"^(?P<player>{_NAME}) has no bet on box (?P<box>\d+) this round"),
    # decisions (Art. 6, 8, 10, 11, 12)
    (
        "insurance.cap",
        rf"insurance is at most half the bet .* so at most (?P<cap>{_AMOUNT})(?:, rounded up.*)?; asked (?P<amount>{_AMOUNT})",
    ),
    ("insurance.once", r"each bettor insures a box once \(Art\. 8\)"),
    (
        "insurance.not_offered",
        r"is offered only when the dealer's up-card is an ace|offers no insurance|offers even money only with the insurance offer|offers no even money",
    ),
    ("insurance.took_even_money", r"took even money on box (?P<box>\d+) \(Art\. 6\)"),
    ("insurance.already_chosen", r"has already chosen insurance or even money"),
    ("even_money.not_natural", r"even money is for a natural against an ace \(Art\. 6\)"),
    ("hit.split_aces", r"^hit on box (?P<box>\d+): split aces take one card each"),
    ("double.first_two", r"^double on box (?P<box>\d+): a double is on the first two cards \(Art\. 11\)"),
    ("double.split_aces", r"^double on box (?P<box>\d+): split aces take one card each"),
    ("double.after_split", r"^double on box (?P<box>\d+): .* allows no double after a split"),
    (
        "double.total",
        r"^double on box (?P<box>\d+): .* allows a double only on a first-two-card total of (?P<allowed>.+) \(Art\. 11\); box \d+ holds (?P<total>\d+)",
    ),
    (
        "double.full_only",
        rf"^double on box (?P<box>\d+): .* doubles for the full bet only .*the bet is (?P<bet>{_AMOUNT})",
    ),
    (
        "double.range",
        rf"^double on box (?P<box>\d+): a double adds more than 0 and at most the bet .*the bet is (?P<bet>{_AMOUNT})",
    ),
    ("split.pair_only", r"^split on box (?P<box>\d+): only two first cards of equal value split \(Art\. 10\)"),
    ("split.max_hands", r"^split on box (?P<box>\d+): .* allows (?P<max>\d+) hand\(s\) per box"),
    ("split.resplit_aces", r"^split on box (?P<box>\d+): .* does not resplit aces"),
    ("surrender.none", r"^surrender on box (?P<box>\d+): .* offers no surrender"),
    ("surrender.after_card", r"^surrender on box (?P<box>\d+): a box surrenders before it takes any card it asks for"),
    ("surrender.after_split", r"^surrender on box (?P<box>\d+): .*a box that split cannot surrender"),
    ("surrender.first_decision", r"^surrender on box (?P<box>\d+): surrender is the box's first decision"),
    ("surrender.against_ace", r"^surrender on box (?P<box>\d+): .* allows no surrender against an ace"),
    ("declined.decider", r"makes the decision \(Art\. 13\) and cannot decline to match it"),
    ("action.bettors_changed", r"the other bettors' balances kept changing; try again"),
    # the cut (Art. 2.1)
    ("cut.not_now", r"^there is no cut now"),
    ("cut.not_cutter", rf"^the first seated player cuts \(Art\. 2\.1\): (?P<cutter>{_NAME}), not (?P<player>{_NAME})"),
    ("cut.bad_seed", r"^cut: the client seed is 1-64 printable characters"),
    # accounts and sign-in
    ("auth.sign_in_first", r"^sign in first"),
    ("auth.bad_credentials", r"^sign in: unknown name or wrong password"),
    ("auth.token_revoked", r"^unknown or revoked token"),
    ("auth.token_expired", r"^the token has expired"),
    ("auth.name_taken", r"^account name '(?P<name>[^']*)' is taken"),
    ("auth.bad_name", r"^account name '(?P<name>[^']*)': (?:1-64 letters|a combining mark)"),
    ("auth.name_not_nfkc", r"^account name '(?P<name>[^']*)': write it as '(?P<normal>[^']*)'"),
    ("auth.name_mixed_scripts", r"^account name '(?P<name>[^']*)': its letters mix scripts \((?P<scripts>[^)]*)\)"),
    ("auth.name_lookalike", r"^account name '(?P<name>[^']*)': every letter looks like a Latin letter"),
    (
        "auth.throttled",
        r"^(?:sign in|change password): too many failed attempts for this (?P<whose>account|address); try again in (?P<seconds>\d+) s",
    ),
    (
        "auth.register_throttled",
        r"^register: too many accounts opened from this address; try again in (?P<seconds>\d+) s",
    ),
    ("auth.disabled", r"^account (?P<name>\S+) is disabled by a supervisor"),
    ("auth.wrong_old_password", r"^change password: the old password is wrong"),
    ("auth.disable_self", r"^a supervisor may not disable their own account"),
    ("account.not_found", r"^account '(?P<name>[^']*)': no such account"),
    ("password.too_short", r"^password: at least (?P<minimum>\d+) characters; this one has (?P<length>\d+)"),
    ("password.too_long", r"^password: at most (?P<maximum>\d+) characters; this one has (?P<length>\d+)"),
    ("password.common", r"^password: it is one of the most common passwords"),
    ("password.like_name", r"^password: it is the account's name"),
    ("password.repeated", r"^password: one or two characters repeated"),
    ("password.unchanged", r"^password: the new password is the old one"),
    ("auth.forbidden", r"^only .* may |^only player accounts may be opened here| is not the dealer of table "),
    # idempotency
    ("idempotency.key_required", r"needs an Idempotency-Key header|it needs an Idempotency-Key header"),
    ("idempotency.key_reused", r"^Idempotency-Key .* was used for a different request"),
)

_COMPILED = tuple((code, re.compile(pattern)) for code, pattern in PATTERNS)
CODES = (*tuple(dict.fromkeys(code for code, _ in PATTERNS)), "request.invalid", "internal")
"""Every code an error answer may carry (docs/protocol.md lists them)."""


def _value(name: str, text: str) -> Any:
    return int(text) if name in _INTS and text.isascii() and text.isdigit() else text


def classify(message: str) -> tuple[str | None, dict[str, Any]]:
    """The code and params of an English refusal, or ``(None, {})`` when it is not one of the table's."""
    for code, pattern in _COMPILED:
        found = pattern.search(message)
        if found is not None:
            params = {k: _value(k, v) for k, v in found.groupdict().items() if v is not None}
            if "max_bet" in params:
                params["max"] = params.pop("max_bet")
            return code, params
    return None, {}


def body(message: str, code: str | None = None, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """An error answer's JSON: the English text, with its code and params where known."""
    if code is None:
        code, found = classify(message)
        params = {**found, **(params or {})}
    answer: dict[str, Any] = {"error": message}
    if code is not None:
        answer["code"] = code
        answer["params"] = params or {}
    return answer
