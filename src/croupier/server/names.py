"""Account names: what a name may hold, and the key that makes look-alike names one name.

The rules (docs/api.md, "Account names"):

- a name is 1-64 characters, already in Unicode NFKC form: full-width letters (``ａｎａ``), superscripts
  (``ana²``), ligatures and other compatibility characters are refused, with the plain form named;
- it holds letters of any script, the ASCII digits 0-9, ``-`` and ``_``, and at least one letter or
  digit; no spaces, punctuation, symbols, invisible or control characters, and no other digits
  (``١٠``);
- its letters are of one script, or of one of the combinations East Asian names use (Unicode's
  "highly restrictive" level, UTS #39): Latin with Han, Hiragana and Katakana; Latin with Han and
  Bopomofo; Latin with Han and Hangul. So ``陳大文``, ``chen陳`` and ``すずき`` are names; Cyrillic
  ``а`` inside ``аna`` is not;
- combining marks only in scripts that need them (not in Latin, Greek or Cyrillic, where NFKC has
  already joined every accent that has a letter of its own);
- a Greek or Cyrillic name whose every letter looks like a Latin letter (``аса``, ``ΑΝΑ``) is refused:
  it reads as a Latin name;
- names are unique by :func:`name_key`: case folded (``Ana`` is ``ana``), with the look-alikes of
  plain Latin text made one (``0`` and ``o``, ``1`` and ``l``, ``rn`` and ``m``, ``vv`` and ``w``,
  dotless ``ı`` and ``i``). Signing in finds a name by its key, so ``ANA`` signs ``ana`` in.
"""

from __future__ import annotations

import unicodedata

from croupier.errors import CroupierError

MAX_NAME = 64

# the combinations of scripts an East Asian name may mix (UTS #39, "highly restrictive")
_MIXES = (
    frozenset({"Latin", "Han", "Hiragana", "Katakana"}),
    frozenset({"Latin", "Han", "Bopomofo"}),
    frozenset({"Latin", "Han", "Hangul"}),
)
_SCRIPT_WORDS = {"CJK": "Han", "IDEOGRAPHIC": "Han", "KATAKANA-HIRAGANA": "Katakana"}
_NO_MARKS = frozenset({"Latin", "Greek", "Cyrillic"})

# Greek and Cyrillic letters (case folded) one of whose cases looks like a Latin letter
_LATIN_LOOKALIKES = frozenset("авеєзіїјкмнорстухѕһԁԛԝӏαβεζηικμνορτυχϲ")

# within Latin text: characters that read as others, after case folding
_SAME = str.maketrans({"0": "o", "1": "l", "ı": "i", "ɑ": "a", "ɡ": "g", "ʟ": "l"})
_SEQUENCES = (("rn", "m"), ("vv", "w"))


class BadName(CroupierError):
    """A name an account may not have."""


def script(char: str) -> str:
    """The script of a letter or mark, from its Unicode name (``LATIN SMALL LETTER A``: ``Latin``)."""
    word = unicodedata.name(char, "UNKNOWN").split(" ", 1)[0]
    return _SCRIPT_WORDS.get(word, word.capitalize())


def check_name(name: str) -> str:
    """``name`` if an account may have it; else :class:`BadName` naming the rule it breaks."""
    if not name or len(name) > MAX_NAME:
        raise BadName(f"account name {name!r}: 1-{MAX_NAME} letters, digits, - or _")
    normal = unicodedata.normalize("NFKC", name)
    if normal != name:
        raise BadName(
            f"account name {name!r}: write it as {normal!r} (full-width, superscript and other compatibility "
            "characters are refused: NFKC)"
        )
    scripts: set[str] = set()
    marks = False
    for char in name:
        category = unicodedata.category(char)
        if category.startswith("L"):
            scripts.add(script(char))
        elif category.startswith("M"):
            marks = True
        elif not ("0" <= char <= "9" or char in "-_"):
            raise BadName(f"account name {name!r}: 1-{MAX_NAME} letters, digits, - or _ ({char!r} is none)")
    if not scripts and not any("0" <= char <= "9" for char in name):
        raise BadName(f"account name {name!r}: 1-{MAX_NAME} letters, digits, - or _ (and one letter or digit)")
    if len(scripts) > 1 and not any(scripts <= mix for mix in _MIXES):
        raise BadName(
            f"account name {name!r}: its letters mix scripts ({', '.join(sorted(scripts))}); a name is in one "
            "script (or Latin with Han and kana, Bopomofo or Hangul)"
        )
    if marks and scripts & _NO_MARKS:
        raise BadName(f"account name {name!r}: a combining mark in a Latin, Greek or Cyrillic name")
    letters = [char for char in name.casefold() if unicodedata.category(char).startswith("L")]
    if scripts and scripts <= {"Greek", "Cyrillic"} and all(char in _LATIN_LOOKALIKES for char in letters):
        raise BadName(f"account name {name!r}: every letter looks like a Latin letter; it reads as a Latin name")
    return name


def name_key(name: str) -> str:
    """The key names are unique by: NFKC, case folded, Latin look-alikes made one (``Ana``, ``ANA``
    and ``ａｎａ`` all have the key ``ana``; ``bob0`` and ``bobo`` one key)."""
    key = unicodedata.normalize("NFKC", name).casefold().translate(_SAME)
    for sequence, same in _SEQUENCES:
        key = key.replace(sequence, same)
    return key
