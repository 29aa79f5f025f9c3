"""Every language holds every key of English, and no key English lacks.

Reads the dictionaries from the page's sources (no browser): ``js/i18n.js`` (EN, ZH),
``js/i18n-zh-Hans.js`` (ZH_HANS) and ``js/i18n-pt.js`` (PT). A failure lists the missing and extra
keys of each language, so that a new English string can be filled in everywhere:

    PYTHONPATH=src pytest tests/web/test_i18n_keys.py -q
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from croupier.server import codes

JS = Path(__file__).resolve().parents[2] / "src" / "croupier" / "server" / "web" / "js"
PAIR = re.compile(r'(?:"((?:[^"\\]|\\.)+)"|\b([A-Za-z_]\w*)):\s*("(?:[^"\\]|\\.)*")')
SOURCES = {
    "en": ("i18n.js", "EN"),
    "zh-Hant": ("i18n.js", "ZH"),
    "zh-Hans": ("i18n-zh-Hans.js", "ZH_HANS"),
    "pt": ("i18n-pt.js", "PT"),
}


def dictionary(file: str, name: str) -> dict[str, str]:
    text = (JS / file).read_text(encoding="utf-8")
    found = re.search(rf"^(?:export )?const {name} = \{{\n(.*?)^\}};", text, flags=re.MULTILINE | re.DOTALL)
    assert found, f"{file}: no dictionary {name}"
    return {
        json.loads(f'"{m.group(1)}"') if m.group(1) else m.group(2): json.loads(m.group(3))
        for m in PAIR.finditer(found.group(1))
    }


@pytest.mark.parametrize("language", ["zh-Hant", "zh-Hans", "pt"])
def test_every_key_in_every_language(language: str) -> None:
    english = dictionary(*SOURCES["en"])
    other = dictionary(*SOURCES[language])
    missing = [key for key in english if key not in other]
    extra = [key for key in other if key not in english]
    assert not missing and not extra, f"{language}: missing {missing}; extra {extra}"


@pytest.mark.parametrize("language", ["en", "zh-Hant", "zh-Hans", "pt"])
def test_placeholders_match_english(language: str) -> None:
    english = dictionary(*SOURCES["en"])
    other = dictionary(*SOURCES[language])
    wrong = {
        key: text
        for key, text in other.items()
        if key in english and set(re.findall(r"\{(\w+)\}", text)) - set(re.findall(r"\{(\w+)\}", english[key]))
    }
    assert not wrong, f"{language}: placeholders English does not have: {wrong}"


def test_every_error_code_has_a_text() -> None:
    english = dictionary(*SOURCES["en"])
    assert [code for code in codes.CODES if f"err.{code}" not in english] == []
    assert "err.network" in english


def test_macau_words() -> None:
    zh = dictionary(*SOURCES["zh-Hant"])
    assert zh["bac.natural"] == "例牌" and zh["bj.no_more_bets"] == "買定離手" and zh["bj.bet_behind"] == "買馬"
    assert "天生贏家" not in "".join(zh.values())
