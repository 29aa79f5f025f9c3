"""Who a bearer token signs in, remembered for a few seconds (:class:`Identities`), so that a player's
requests do not each read it from the database.

A request that names a token the process has looked up in the last :data:`IDENTITY_SECONDS` (and whose
own expiry has not come) is answered from memory; any other is looked up in the database, as before, and
remembered. A token is revoked only by a request to some process (signing out, out everywhere, a new
password, a supervisor's disabling, a sign-in that pushes the account past its most tokens): that process
forgets the account's tokens before it answers, and tells every other process through the hub (Redis,
signed with the deployment's key), which forgets them as the message comes. A revocation is thus in force
at once on the process that made it and within the hub's delivery on the others. Where the hub may have
lost such a message (Redis went away, this process fell behind), the process forgets every token it
remembered, and however a message were lost, no token outlives its revocation by more than
:data:`IDENTITY_SECONDS`.

A lookup that began before a revocation and ended after it is not remembered (a generation counter): it
could have read the token as it was before.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime

from croupier.server.auth import Identity
from croupier.server.clock import Clock

IDENTITY_SECONDS = 10.0
"""The longest a token's identity is taken from memory before the database is asked again."""
MOST = 100_000
"""The most tokens remembered (the least recently used are forgotten first)."""
CHANNEL = "identities"
"""The hub's channel of revocations: ``{"forget": account_id}``."""


class Identities:
    """The identities of recently used tokens, by the token's digest, each for at most ``seconds`` (on
    ``clock``'s monotonic time) and never past the token's own expiry (on ``clock``'s time)."""

    def __init__(self, clock: Clock, seconds: float = IDENTITY_SECONDS, most: int = MOST) -> None:
        self.clock = clock
        self.seconds = seconds
        self.most = most
        self.generation = 0
        """Changed by every forgetting: a lookup remembered only if none happened while it ran."""
        self._known: OrderedDict[str, tuple[Identity, datetime, float]] = OrderedDict()
        self._tokens: dict[int, set[str]] = {}  # each account's remembered digests
        self.counts = {"hits": 0, "lookups": 0, "forgotten": 0}

    def __len__(self) -> int:
        return len(self._known)

    def get(self, digest: str) -> Identity | None:
        """Who the token of ``digest`` signs in, if it is remembered and still valid; else None."""
        entry = self._known.get(digest)
        if entry is None:
            self.counts["lookups"] += 1
            return None
        identity, expires, until = entry
        if self.clock.monotonic() >= until or expires <= self.clock.now():
            self._drop(digest)
            self.counts["lookups"] += 1
            return None
        self._known.move_to_end(digest)
        self.counts["hits"] += 1
        return identity

    def put(self, digest: str, identity: Identity, expires: datetime, generation: int) -> None:
        """Remember the token of ``digest`` (read from the database when :attr:`generation` was
        ``generation``), unless a revocation came since."""
        if generation != self.generation:
            return
        self._drop(digest)
        self._known[digest] = (identity, expires, self.clock.monotonic() + self.seconds)
        self._tokens.setdefault(identity.id, set()).add(digest)
        while len(self._known) > self.most:
            self._drop(next(iter(self._known)))

    def forget(self, account_id: int) -> None:
        """Every remembered token of ``account_id`` forgotten (some of them were revoked)."""
        self.generation += 1
        self.counts["forgotten"] += 1
        for digest in self._tokens.pop(account_id, set()):
            self._known.pop(digest, None)

    def clear(self) -> None:
        """Every token forgotten (a revocation may have been missed)."""
        self.generation += 1
        self._known.clear()
        self._tokens.clear()

    def _drop(self, digest: str) -> None:
        entry = self._known.pop(digest, None)
        if entry is None:
            return
        tokens = self._tokens.get(entry[0].id)
        if tokens is not None:
            tokens.discard(digest)
            if not tokens:
                del self._tokens[entry[0].id]
