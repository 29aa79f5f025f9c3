"""``croupier play blackjack``: scripted sessions at a table in the terminal (croupier.terminal.blackjack_play)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from decimal import Decimal

import pytest
from rich.console import Console
from typer.testing import CliRunner

from croupier.blackjack import actions as op
from croupier.blackjack.presets import blackjack_rules
from croupier.blackjack.rules import Rules
from croupier.blackjack.state import Round
from croupier.cards import parse_cards
from croupier.cli import app
from croupier.errors import MoneyError, RulesError
from croupier.money import ZERO, format_amount
from croupier.rng import seeded
from croupier.shoe import Shoe
from croupier.terminal.blackjack_play import PLAYER, Session, parse_bankroll, play, shuffler

Answer = str | Callable[[str], str]


def console() -> Console:
    return Console(file=io.StringIO(), width=100)


def text_of(screen: Console) -> str:
    output = screen.file
    assert isinstance(output, io.StringIO)
    return output.getvalue()


def flat(text: str) -> str:
    """Whitespace-normalised, so that a message wrapped at 100 columns still matches."""
    return " ".join(text.split())


class Player:
    """Answers each prompt by its kind; ``script`` answers come first, in order, whatever the prompt.

    ``rounds`` bets are placed (``bet`` each), then the player types q at the next box prompt.
    Decisions: hit below ``hit_below``, else stand; insurance and even money declined.
    """

    def __init__(self, rounds: int = 3, bet: str = "", hit_below: int = 17, script: list[str] | None = None):
        self.rounds = rounds
        self.bet = bet
        self.hit_below = hit_below
        self.script = list(script or [])
        self.prompts: list[str] = []
        self.seen: list[str] = []  # the session's screen at each prompt
        self.bets = 0
        self.session: Session | None = None
        self.screen = console()

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.session is not None:
            self.seen.append(text_of(self.session.console))
        if prompt.startswith("Bet"):
            self.bets += 1
        self.screen.print(prompt, markup=False)
        if self.script:
            answer = self.script.pop(0)
            if answer == "<EOF>":
                raise EOFError
            if answer == "<Ctrl-C>":
                raise KeyboardInterrupt
            return answer
        if prompt.startswith("Box"):
            return "q" if self.bets >= self.rounds else ""
        if prompt.startswith("Bet"):
            return self.bet
        if prompt.startswith("Your move"):
            assert self.session is not None
            current = self.session.table.round
            assert current is not None and isinstance(current.pending, op.AwaitDecision)
            hand = current.hands[current.pending.box][current.pending.hand]
            return "h" if hand.total < self.hit_below and "h=hit" in prompt else "s"
        return "n"  # insurance, even money


def session(
    rules: Rules,
    player: Player,
    *,
    bankroll: str = "1000",
    seed: str = "7",
    shoes: list[list[str]] | None = None,
) -> tuple[Session, str]:
    """Run a session; ``shoes`` stacks each new shoe (cut card none), else shuffles with ``seed``."""
    shuffle: Callable[[], Shoe]
    if shoes is not None:
        stacked: Iterator[list[str]] = iter(shoes)

        def shuffle() -> Shoe:
            return Shoe.stacked(rules.decks, parse_cards(next(stacked)))
    else:
        shuffle = shuffler(rules, seeded(seed))
    screen = console()
    played = Session(rules, parse_bankroll(bankroll), player, screen, shuffle)
    player.session = played
    final = played.run()
    assert final == played.balance
    return played, text_of(screen)


def total_net(rounds: list[Round]) -> Decimal:
    return sum((r.net().get(PLAYER, ZERO) for r in rounds), ZERO)


def hole_card(current: Round) -> str:
    hidden = [o.card for o in current.operations if isinstance(o, op.CardDealt) and o.box == 0 and not o.face_up]
    assert len(hidden) == 1
    return hidden[0].pretty()


def cards_of(current: Round) -> Iterator[object]:
    for record in current.operations:
        if isinstance(record, op.CardBurned | op.CardDealt):
            yield record


MACAU = blackjack_rules("macau-1983")
ONLINE = blackjack_rules("live-online")
MACAU_BURNS = ["2C"] * 6  # shoe-start burns: as many as decks (Art. 2.1)
ONLINE_BURNS = ["2C"] * 6  # online §3.5


# -------------------------------------------------------------------------------------------------
# whole sessions, shuffled with a seed


@pytest.mark.parametrize("preset", ["macau-1983", "live-online"])
@pytest.mark.parametrize("seed", ["7", "2024"])
def test_full_session_plays_rounds_and_the_balance_is_the_engines_net(preset: str, seed: str) -> None:
    rules = blackjack_rules(preset)
    player = Player(rounds=6, bet="25")
    played, text = session(rules, player, seed=seed)
    assert len(played.rounds) == 6
    assert all(r.ended for r in played.rounds)
    final = Decimal(1000) + total_net(played.rounds)
    assert played.balance == final
    assert f"Final balance: {format_amount(final)}" in text
    # the running balance after each round is the bankroll plus the engine's net so far
    running = Decimal(1000)
    for number, current in enumerate(played.rounds, start=1):
        running += current.net()[PLAYER]
        assert f"Round {number}: " in text
        assert f"balance {format_amount(running)}" in text
    assert f"Blackjack, {preset}" in text
    assert "cards before the cut card" in text
    assert "Traceback" not in text


def test_the_running_balance_is_shown_after_each_round() -> None:
    player = Player(rounds=4, bet="50")
    played, text = session(MACAU, player, seed="11")
    lines = [line for line in text.splitlines() if line.startswith("Round ") and "balance" in line]
    assert len(lines) == 4
    running = Decimal(1000)
    for line, current in zip(lines, played.rounds, strict=True):
        net = current.net()[PLAYER]
        running += net
        sign = "+" if net > 0 else ""
        assert line.endswith(f": {sign}{format_amount(net)} · balance {format_amount(running)}")


def test_the_default_bet_is_the_previous_bet_and_the_default_box_the_previous_box() -> None:
    player = Player(rounds=3, script=["3", "40"])
    played, _ = session(MACAU, player)
    assert [r.boxes for r in played.rounds] == [[3], [3], [3]]
    assert [r.bets[3][PLAYER] for r in played.rounds] == [Decimal(40)] * 3
    assert "Box (1-7) [3]: " in player.prompts
    assert any(p.startswith("Bet on box 3 [40]") for p in player.prompts)


def test_cards_left_before_the_cut_card_count_down() -> None:
    player = Player(rounds=3)
    played, text = session(ONLINE, player)
    counts = [int(line.split("· ")[1].split()[0]) for line in text.splitlines() if "cards before the cut card" in line]
    assert len(counts) == 4  # before each round, and before the q at the fourth round's box prompt
    shoe = played.table.shoe
    assert shoe.cut_card is not None
    assert counts[0] == shoe.cut_card
    for number, count in enumerate(counts):
        assert count == shoe.cut_card - sum(1 for r in played.rounds[:number] for _ in cards_of(r))


def test_last_round_of_the_shoe_then_a_new_shuffled_shoe() -> None:
    # cut_card=8: the cut card comes out with the 9th card (6 burns + 4 dealt), so each shoe's first round
    # is its last
    rules = blackjack_rules("live-online", {"cut_card": "8"})
    player = Player(rounds=3)
    played, text = session(rules, player)
    assert all(r.last_round for r in played.rounds)
    assert text.count("The cut card is out: this is the last round of the shoe.") == 3
    assert text.count("That was the last round of the shoe.") == 3
    assert text.count("The dealer shuffles a new shoe.") == 3  # after each last round, before the next bet
    assert text.count("Balance ") == 4
    assert all(line.endswith("8 cards before the cut card") for line in text.splitlines() if line.startswith("Balance"))
    # each new shoe starts again from its shoe-start burns
    assert all(r.first_of_shoe for r in played.rounds)


def test_single_deck_is_one_round_per_shuffle() -> None:
    rules = blackjack_rules("macau-1983", {"decks": "1"})
    player = Player(rounds=2)
    played, text = session(rules, player)
    assert len(played.rounds) == 2
    assert "one round per shuffle (single deck)" in text
    assert text.count("The dealer shuffles a new shoe.") == 2


# -------------------------------------------------------------------------------------------------
# what the player is shown, from stacked shoes


def test_the_hole_card_is_face_down_until_turned() -> None:
    # live-online: box, dealer up, box, dealer hole (online §3.4); 9+7 against a ten, hole K
    shoe = [*ONLINE_BURNS, "9S", "TH", "7D", "KC", "5H", "5D"]
    player = Player(rounds=1, script=["", "100", "s"])
    played, text = session(ONLINE, player, shoes=[shoe])
    before = player.seen[2]  # the screen when the player was asked to play
    assert "Dealer 10♥ ?? 10 showing (a card face down)" in flat(before)
    assert "K♣" not in before  # never the hole card's value before it is turned
    assert "20" not in flat(before)
    assert hole_card(played.rounds[0]) == "K♣"
    assert "Dealer turns the hole card: K♣" in text
    assert "Dealer 10♥ K♣ = 20" in flat(text)
    assert "Box 1: loses: -100" in text
    assert "Final balance: 900" in text


def test_macau_ace_up_takes_a_face_down_card_at_once() -> None:
    # Art. 3.1a: with an ace up the dealer's second card is dealt face down at once
    shoe = [*MACAU_BURNS, "9S", "8H", "AD", "KC", "3C", "4D", "5H"]
    player = Player(rounds=1, script=["", "100", "n", "s"])
    played, text = session(MACAU, player, shoes=[shoe])
    assert "The dealer shows an ace." in text
    assert "Insurance? i=insurance (up to 50, pays 2:1), n=no [n]: " in player.prompts  # no natural: no even money
    before = text.split("Dealer turns the hole card")[0]
    assert "K♣" not in before
    assert "Dealer A♦ ?? 11 showing (a card face down)" in flat(before)
    assert "Dealer turns the hole card: K♣" in text
    assert "Box 1: loses: -100" in text
    assert played.balance == Decimal(900)


def test_cards_are_pretty_and_red_suits_are_red() -> None:
    shoe = [*MACAU_BURNS, "TH", "9D", "TS", "3C", "8C", "4D", "5H"]
    player = Player(rounds=1, script=["", "100", "s"])
    rules = MACAU
    screen = Console(file=io.StringIO(), width=100, force_terminal=True, color_system="standard")
    stacked = iter([shoe])
    played = Session(rules, Decimal(1000), player, screen, lambda: Shoe.stacked(6, parse_cards(next(stacked))))
    player.session = played
    played.run()
    raw = text_of(screen)
    assert "10♥" in raw and "9♦" in raw and "10♠" in raw
    red = "\x1b[1;31m"
    assert f"{red}10♥" in raw and f"{red}9♦" in raw
    assert f"{red}10♠" not in raw


def test_bonus_678_suited_is_paid_at_once() -> None:
    # Art. 9: 6-7-8 of one suit pays 3:1 at once
    shoe = [*MACAU_BURNS, "6H", "7H", "TS", "8H", "3C", "7C", "9D", "9C"]
    player = Player(rounds=1, script=["", "100", "h"])
    played, text = session(MACAU, player, shoes=[shoe])
    assert "Box 1: 6-7-8 suited! bonus pays 3:1: +300" in text
    assert played.rounds[0].net()[PLAYER] == Decimal(300)
    assert "Final balance: 1300" in text


def test_bonus_777_is_paid_at_once() -> None:
    shoe = [*MACAU_BURNS, "7S", "7H", "9D", "7C", "3C", "8S", "9C", "9H"]
    player = Player(rounds=1, script=["", "20", "h"])
    played, text = session(MACAU, player, shoes=[shoe])
    assert "Box 1: 7-7-7! bonus pays 3:1: +60" in text
    assert played.balance == Decimal(1060)


def test_even_money_under_macau() -> None:
    # Art. 6: a natural against an ace may take 1:1 at once
    shoe = [*MACAU_BURNS, "AS", "KH", "AD", "TC", "3C", "4D", "5H", "9C"]
    player = Player(rounds=1, script=["", "100", "e"])
    played, text = session(MACAU, player, shoes=[shoe])
    assert any(p.startswith("Even money or insurance? e=even money (1:1 now), i=insurance") for p in player.prompts)
    assert "Box 1: even money, paid 1:1: +100" in text
    assert played.balance == Decimal(1100)


def test_no_even_money_under_live_online_but_insurance_is_offered_to_a_natural() -> None:
    shoe = [*ONLINE_BURNS, "AS", "AD", "KH", "9C", "5H"]
    player = Player(rounds=1, script=["", "100", "e", "i", ""])
    played, text = session(ONLINE, player, shoes=[shoe])
    assert "No even money: even money for you on box 1: live-online offers no even money" in flat(text)
    assert "The dealer checks the hole card: no blackjack." in text
    assert "Insurance: no dealer blackjack: insurance is lost: -50" in text
    assert "Box 1: blackjack pays 3:2: +150" in text
    assert played.balance == Decimal(1100)


def test_insurance_is_at_most_half_the_bet() -> None:
    # Art. 8: insurance at most half the bet; the dealer's natural pays it 2:1
    shoe = [*MACAU_BURNS, "9S", "8H", "AD", "KC", "3C"]
    player = Player(rounds=1, script=["", "100", "i", "60", "50", "s"])
    played, text = session(MACAU, player, shoes=[shoe])
    assert "Refused: insurance for you on box 1: insurance is at most half the bet (Art. 8" in flat(text)
    assert "your bet on box 1 is 100, so at most 50; asked 60" in flat(text)
    assert "Insurance: the dealer has blackjack: insurance pays 2:1: +100" in text
    assert "Box 1: loses: -100" in text
    assert played.balance == Decimal(1000)


def test_surrender_offered_against_a_ten_not_against_an_ace() -> None:
    shoe = [*MACAU_BURNS, "TS", "6H", "9D", "3C", "8C", "TD"]
    player = Player(rounds=1, script=["", "100", "r"])
    played, text = session(MACAU, player, shoes=[shoe])
    assert any("r=surrender" in p for p in player.prompts)
    assert "Box 1: surrendered, half the bet is lost: -50" in text
    assert played.balance == Decimal(950)

    shoe = [*MACAU_BURNS, "TS", "6H", "AD", "5C", "3C", "8C", "TD"]
    player = Player(rounds=1, script=["", "100", "n", "r", "s"])
    played, text = session(MACAU, player, shoes=[shoe])
    decisions = [p for p in player.prompts if p.startswith("Your move")]
    assert decisions and all("surrender" not in p for p in decisions)
    assert "You cannot surrender now: surrender on box 1: macau-1983 allows no surrender against an ace" in flat(text)


def test_an_action_not_offered_is_re_prompted() -> None:
    # live-online has no surrender; "x" is no choice at all; both are asked again
    shoe = [*ONLINE_BURNS, "TS", "9H", "6D", "8C", "5H", "TD"]
    player = Player(rounds=1, script=["", "100", "r", "x", "s"])
    played, text = session(ONLINE, player, shoes=[shoe])
    assert "You cannot surrender now: surrender on box 1: live-online offers no surrender (surrender=none)" in flat(
        text
    )
    assert "'x' is not a choice here" in text
    assert len([p for p in player.prompts if p.startswith("Your move")]) == 3
    assert played.rounds[0].ended
    assert "Box 1: loses: -100" in text  # 16 against 9 + 8
    assert played.balance == Decimal(900)


def test_double_on_11_under_macau() -> None:
    shoe = [*MACAU_BURNS, "5S", "6H", "9D", "TC", "3C", "8S", "9C"]
    player = Player(rounds=1, script=["", "100", "d"])
    played, text = session(MACAU, player, shoes=[shoe])
    assert "Box 1 draws 10♣" in text
    assert "Box 1: 21, stands" in text
    assert "Box 1: wins: +200" in text
    assert played.balance == Decimal(1200)


def test_double_not_on_10_under_macau_names_the_article() -> None:
    shoe = [*MACAU_BURNS, "4S", "6H", "9D", "TC", "3C", "8S", "9C"]
    player = Player(rounds=1, script=["", "100", "d", "s"])
    _, text = session(MACAU, player, shoes=[shoe])
    assert (
        "You cannot double now: double on box 1: macau-1983 allows a double only on a first-two-card total of 11"
        in (flat(text))
    )


def test_double_for_less_under_live_online() -> None:
    shoe = [*ONLINE_BURNS, "5S", "TH", "4H", "7D", "9C", "TD"]
    player = Player(rounds=1, script=["", "100", "d", "120", "30"])
    played, text = session(ONLINE, player, shoes=[shoe])
    assert any(p.startswith("Double for how much (1-100) [100]") for p in player.prompts)
    assert "Refused: double on box 1: a double adds more than 0 and at most the bet" in flat(text)
    assert played.rounds[0].hands[1][0].stakes[PLAYER] == Decimal(130)
    assert "Box 1: doubled, stands" in text


def test_split_plays_two_hands() -> None:
    shoe = [*MACAU_BURNS, "8S", "8H", "9D", "3C", "TD", "TC", "3H", "8C", "TH"]
    player = Player(rounds=1, script=["", "100", "p", "s", "s"])
    played, text = session(MACAU, player, shoes=[shoe])
    assert len(played.rounds[0].hands[1]) == 2
    assert "Box 1 hand 2" in text
    assert any(p.startswith("Your move on box 1 hand 2") for p in player.prompts)
    assert played.balance == Decimal(1000) + played.rounds[0].net()[PLAYER]


def test_double_and_split_need_money_the_balance_can_cover() -> None:
    shoe = [*MACAU_BURNS, "5S", "6H", "9D", "TC", "3C", "8S", "9C"]
    player = Player(rounds=1, script=["", "100", "d", "s"])
    played, text = session(MACAU, player, bankroll="150", shoes=[shoe])
    assert "You cannot double now: double needs 100 more; you have 50 free." in text
    assert all("d=double" not in p for p in player.prompts)
    assert played.balance == Decimal(150) + played.rounds[0].net()[PLAYER]


# -------------------------------------------------------------------------------------------------
# bets and leaving


def test_a_bet_above_the_balance_is_refused() -> None:
    player = Player(rounds=1, script=["", "500", "abc", "100"])
    played, text = session(MACAU, player, bankroll="100")
    assert "Refused: a bet of 500 is more than your balance of 100" in text
    assert "Refused: a bet 'abc' is not a decimal number" in text
    assert played.rounds[0].bets[1][PLAYER] == Decimal(100)


def test_table_limits_are_the_engines_message() -> None:
    rules = blackjack_rules("macau-1983", {"min_bet": "10", "max_bet": "200"})
    player = Player(rounds=1, script=["", "500", "5", "0.5", "200"])
    played, text = session(rules, player)
    assert "Refused: the table maximum is 200; you bet 500 on box 1" in text
    assert "Refused: the table minimum is 10; you bet 5 on box 1" in text
    assert played.rounds[0].bets[1][PLAYER] == Decimal(200)
    assert "table limits 10 to 200" in text


def test_exact_decimal_bets() -> None:
    shoe = [*MACAU_BURNS, "AS", "KH", "9D", "3C", "8C", "TD"]
    player = Player(rounds=1, script=["", "10.25"])
    played, text = session(MACAU, player, shoes=[shoe])
    assert played.rounds[0].net()[PLAYER] == Decimal("15.375")
    assert "Box 1: blackjack pays 3:2: +15.375" in text
    assert "Final balance: 1015.375" in text


def test_eof_at_the_first_prompt_quits_cleanly() -> None:
    player = Player(script=["<EOF>"])
    played, text = session(MACAU, player)
    assert played.rounds == []
    assert "Final balance: 1000 (started with 1000; 0 over 0 rounds)" in text


def test_ctrl_c_quits_cleanly() -> None:
    player = Player(script=["", "<Ctrl-C>"])
    played, text = session(ONLINE, player)
    assert played.rounds == []
    assert "Final balance: 1000" in text


@pytest.mark.parametrize("leave", ["q", "<EOF>", "<Ctrl-C>"])
def test_leaving_mid_round_stands_and_settles_the_round(leave: str) -> None:
    shoe = [*MACAU_BURNS, "TS", "6H", "9D", "3C", "8C", "TD"]
    player = Player(rounds=5, script=["", "100", leave])
    played, text = session(MACAU, player, shoes=[shoe])
    assert len(played.rounds) == 1
    assert played.rounds[0].ended
    assert "You leave after this round: your hands stand" in text
    assert "Box 1: loses: -100" in text  # 16 stood against 9 + 8
    assert "Final balance: 900 (started with 1000; -100 over 1 round)" in text


def test_leaving_at_the_insurance_offer_declines_it() -> None:
    shoe = [*MACAU_BURNS, "9S", "8H", "AD", "KC", "3C"]
    player = Player(rounds=5, script=["", "100", "<EOF>"])
    played, text = session(MACAU, player, shoes=[shoe])
    assert played.rounds[0].insurance == {}
    assert "Final balance: 900" in text


def test_the_session_ends_when_the_balance_is_gone() -> None:
    shoe = [*MACAU_BURNS, "TS", "6H", "9D", "3C", "8C", "TD", "5S", "5H"]
    player = Player(rounds=5, script=["", "100", "s"])
    played, text = session(MACAU, player, bankroll="100", shoes=[shoe])
    assert len(played.rounds) == 1
    assert "You have nothing left to bet." in text
    assert "Final balance: 0" in text


def test_a_shoe_without_cut_card_that_runs_out_voids_the_round_and_deals_again() -> None:
    # Art. 2.1: every card of the round is void; the bets stand for a new deal from a new shoe
    short = [*MACAU_BURNS, "TS", "6H"]
    fresh = [*MACAU_BURNS, "TS", "9H", "8D", "3C", "9C"]
    player = Player(rounds=1, script=["", "100", "s"])
    played, text = session(MACAU, player, shoes=[short, fresh])
    assert "The round is void (the shoe ran out of cards)" in text
    assert "The dealer shuffles a new shoe." in text
    assert len(played.rounds) == 1 and played.rounds[0].ended
    assert "Box 1: wins: +100" in text  # 19 against 8 + 9
    assert played.balance == Decimal(1100)


def test_bad_bankroll_and_rules() -> None:
    with pytest.raises(MoneyError):
        parse_bankroll("0")
    with pytest.raises(MoneyError):
        parse_bankroll("lots")
    with pytest.raises(RulesError):
        play("nope", [], "1000", "7")
    with pytest.raises(RulesError):
        play("macau-1983", ["decks"], "1000", "7")


# -------------------------------------------------------------------------------------------------
# the command line


def test_cli_quit_at_once() -> None:
    result = CliRunner().invoke(app, ["play", "blackjack", "--seed", "7"], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Final balance: 1000" in result.output


def test_cli_plays_a_few_rounds_and_ends_at_end_of_input() -> None:
    answers = "\n25\ns\nn\ns\n" * 4
    result = CliRunner().invoke(
        app, ["play", "blackjack", "--rules", "live-online", "--seed", "7", "--bankroll", "500"], input=answers
    )
    assert result.exit_code == 0, result.output
    assert "Round 1" in result.output
    assert "Final balance: " in result.output
    assert "Traceback" not in result.output


def test_cli_overrides() -> None:
    result = CliRunner().invoke(
        app, ["play", "blackjack", "--seed", "7", "--set", "max_bet=50", "--set", "decks=2"], input="\n80\n"
    )
    assert result.exit_code == 0, result.output
    assert "Refused: the table maximum is 50; you bet 80 on box 1" in result.output
    assert "2 decks" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["--rules", "nope"],
        ["--set", "decks=9"],
        ["--set", "nonsense"],
        ["--bankroll", "-5"],
        ["--bankroll", "1e999999999999"],
    ],
)
def test_cli_errors_are_one_line_exit_2(args: list[str]) -> None:
    result = CliRunner().invoke(app, ["play", "blackjack", *args], input="q\n")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


# -------------------------------------------------------------------------------------------------
# the terminal acts through the typed API

NAMED = (
    "hit",
    "stand",
    "double",
    "split",
    "surrender",
    "insure",
    "take_even_money",
    "close_insurance",
    *(f"verify_{name}" for name in ("hit", "stand", "double", "split", "surrender", "insurance", "even_money")),
    "verify_close_insurance",
)
"""The round's named action methods: the typed verify/apply call them, the terminal does not."""


def typed_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make each named action method fail unless called from inside the round's typed faces."""
    depth = [0]

    def entry(name: str) -> Callable[..., object]:
        original = getattr(Round, name)

        def wrapper(self: Round, *args: object, **kwargs: object) -> object:
            depth[0] += 1
            try:
                return original(self, *args, **kwargs)
            finally:
                depth[0] -= 1

        return wrapper

    def guarded(name: str) -> Callable[..., object]:
        original = getattr(Round, name)

        def wrapper(self: Round, *args: object, **kwargs: object) -> object:
            assert depth[0], f"Round.{name} called directly; the terminal goes through Round.verify/apply"
            return original(self, *args, **kwargs)

        return wrapper

    for name in ("verify", "can", "apply", "legal_actions", "verify_first"):
        monkeypatch.setattr(Round, name, entry(name))
    for name in NAMED:
        monkeypatch.setattr(Round, name, guarded(name))


@pytest.mark.parametrize(
    "scripted",
    [
        test_even_money_under_macau,
        test_no_even_money_under_live_online_but_insurance_is_offered_to_a_natural,
        test_insurance_is_at_most_half_the_bet,
        test_an_action_not_offered_is_re_prompted,
        test_double_not_on_10_under_macau_names_the_article,
        test_double_for_less_under_live_online,
        test_split_plays_two_hands,
        test_leaving_at_the_insurance_offer_declines_it,
        lambda: test_leaving_mid_round_stands_and_settles_the_round("q"),
        lambda: test_full_session_plays_rounds_and_the_balance_is_the_engines_net("live-online", "7"),
    ],
)
def test_the_terminal_acts_through_verify_and_apply_only(
    scripted: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> None:
    typed_only(monkeypatch)
    scripted()
