"""docs/rules.md is the project's specification: it names every rule parameter the engines take, with
the article it comes from, so a parameter added to the code without its reading fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from croupier.baccarat.rules import PARAMS as BACCARAT_PARAMS
from croupier.blackjack.rules import PARAMS as BLACKJACK_PARAMS

RULES_MD = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The text of the ``## N. title`` section of docs/rules.md, up to the next ``## `` heading."""
    match = re.search(rf"^## \d+\. {re.escape(title)}.*?(?=^## )", RULES_MD, re.S | re.M)
    assert match, f"docs/rules.md has no section {title!r}"
    return match.group(0)


@pytest.mark.parametrize("name", sorted(BLACKJACK_PARAMS))
def test_every_blackjack_parameter_is_named_in_the_rules(name: str) -> None:
    text = section("Blackjack — common rules") + section("Blackjack presets")
    assert f"`{name}`" in text, f"docs/rules.md names no blackjack rule parameter `{name}`"


@pytest.mark.parametrize("name", sorted(BACCARAT_PARAMS))
def test_every_baccarat_parameter_is_named_in_its_table(name: str) -> None:
    rows = [
        line for line in section("Baccarat").splitlines() if line.startswith("| ") and f"`{name}`" in line.split("|")[1]
    ]
    assert rows, f"docs/rules.md's baccarat table has no row for `{name}`"
    assert re.search(r"(Art\. \d+|amendment)", rows[0]), f"the row of `{name}` cites no article: {rows[0]}"


def test_every_blackjack_parameter_cites_its_article_in_the_code() -> None:
    missing = [p.name for p in BLACKJACK_PARAMS.values() if not re.search(r"(Art\. \d+|§\d)", p.article)]
    assert not missing, f"parameters without an article: {missing}"
