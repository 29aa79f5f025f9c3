"""The password policy (docs/api.md, "Passwords"): what a new password must be.

- 10 to 128 characters (argon2's work does not grow with the length in any way that matters, but a
  request's size does: 128 is plenty for a pass phrase);
- not one of the common passwords of ``data/common-passwords.txt`` (case ignored; loaded once);
- not the account's name, nor its name (or the name repeated) with only digits or symbols around it
  (``ana2024!!!!``, ``ana-ana-ana``);
- not one character, or two, repeated (``aaaaaaaaaa``, ``abababababab``).

There is no rule of character classes (NIST SP 800-63B): length and the list do the work. The policy
applies to passwords set from now on (opening an account, changing a password); a password set before
it still signs in.
"""

from __future__ import annotations

import functools
from importlib import resources

from croupier.errors import CroupierError
from croupier.server.names import name_key

MIN_PASSWORD = 10
MAX_PASSWORD = 128


class WeakPassword(CroupierError):
    """A password the policy refuses."""


@functools.cache
def common_passwords() -> frozenset[str]:
    """The bundled list, lower case (read once)."""
    text = resources.files("croupier.server").joinpath("data/common-passwords.txt").read_text(encoding="utf-8")
    return frozenset(
        line.strip().casefold() for line in text.splitlines() if line.strip() and not line.startswith("# ")
    )


def check_password(password: str, name: str) -> None:
    """Refuse ``password`` for the account ``name`` when the policy does, saying which rule."""
    if len(password) < MIN_PASSWORD:
        raise WeakPassword(f"password: at least {MIN_PASSWORD} characters; this one has {len(password)}")
    if len(password) > MAX_PASSWORD:
        raise WeakPassword(f"password: at most {MAX_PASSWORD} characters; this one has {len(password)}")
    folded = password.casefold()
    if folded in common_passwords():
        raise WeakPassword("password: it is one of the most common passwords; choose another")
    key, letters = name_key(name), "".join(char for char in name_key(name) if char.isalpha())
    core = name_key("".join(char for char in folded if char.isalpha()))  # the letters only: ana2024!!! is ana
    repeated = bool(letters) and bool(core) and core == letters * (len(core) // len(letters))
    if name_key(folded) == key or repeated:
        raise WeakPassword("password: it is the account's name, or the name with digits or symbols; choose another")
    if len(set(password)) <= 2:
        raise WeakPassword("password: one or two characters repeated; choose another")
