"""Who a token signs in, remembered for a few seconds (croupier.server.identities): a token used again is
not read from the database; a revoked one is refused at once on the process that revoked it and, through
Redis, on the others; nothing is remembered past its bound, the token's expiry, or a revocation that came
while it was being read."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta

from croupier.server.auth import Identity
from croupier.server.clock import ManualClock
from croupier.server.identities import Identities
from tests.server.conftest import Server, statements
from tests.server.test_processes import process, shared  # noqa: F401 (the fixture)

ANA = Identity(1, "ana", "player")
BEN = Identity(2, "ben", "player")


def move(clock: ManualClock, seconds: float) -> None:
    asyncio.run(clock.advance(seconds))


def test_a_token_is_remembered_for_its_bound_and_never_past_its_expiry() -> None:
    clock = ManualClock()
    known = Identities(clock, seconds=10)
    known.put("a", ANA, clock.now() + timedelta(hours=1), known.generation)
    known.put("b", BEN, clock.now() + timedelta(seconds=5), known.generation)
    assert known.get("a") == ANA and known.get("b") == BEN
    move(clock, 6)
    assert known.get("b") is None  # its token expired: the database says why
    assert known.get("a") == ANA
    move(clock, 3.9)
    assert known.get("a") == ANA
    move(clock, 0.2)
    assert known.get("a") is None and len(known) == 0  # 10 s after it was read: read again


def test_forgetting_an_account_forgets_its_tokens_only_and_a_lookup_meanwhile_is_not_kept() -> None:
    clock = ManualClock()
    known = Identities(clock)
    later = clock.now() + timedelta(hours=1)
    known.put("a1", ANA, later, known.generation)
    known.put("a2", ANA, later, known.generation)
    known.put("b", BEN, later, known.generation)
    began = known.generation  # a lookup of ana's third token begins, reading the database ...
    known.forget(ANA.id)  # ... while her tokens are revoked
    known.put("a3", ANA, later, began)  # what it read may be the token before its revocation: not kept
    assert [known.get(d) for d in ("a1", "a2", "a3", "b")] == [None, None, None, BEN]


def test_the_least_recently_used_are_forgotten_past_the_most() -> None:
    clock = ManualClock()
    known = Identities(clock, most=2)
    later = clock.now() + timedelta(hours=1)
    known.put("a", ANA, later, known.generation)
    known.put("b", BEN, later, known.generation)
    assert known.get("a") == ANA  # used: b is now the least recently used
    known.put("c", Identity(3, "chen", "player"), later, known.generation)
    assert len(known) == 2 and known.get("b") is None and known.get("a") == ANA


def test_a_token_used_again_is_not_read_from_the_database(server: Server) -> None:
    ana = server.login("ana")
    with statements() as seen:
        for _ in range(3):
            assert server.client.get("/api/me", headers=ana).status_code == 200
    reads = [statement for statement in seen if "JOIN tokens" in statement]
    assert len(reads) == 1, reads


def test_a_remembered_token_signed_out_is_refused_at_once(server: Server) -> None:
    ana = server.login("ana")
    assert server.client.get("/api/me", headers=ana).status_code == 200  # remembered
    assert server.client.post("/api/logout", headers=ana).status_code == 200
    refused = server.client.get("/api/me", headers=ana)
    assert refused.status_code == 401 and "revoked" in refused.text


def test_remembered_tokens_of_an_account_disabled_or_given_a_new_password_are_refused_at_once(
    server: Server,
) -> None:
    ben = server.login("ben")
    ben_elsewhere = server.login("ben")
    sam = server.login("sam")
    for headers in (ben, ben_elsewhere):
        assert server.client.get("/api/me", headers=headers).status_code == 200
    changed = server.client.put(
        "/api/me/password", json={"old_password": "demo", "new_password": "a much longer pass phrase 7"}, headers=ben
    )
    assert changed.status_code == 200, changed.text
    assert server.client.get("/api/me", headers=ben_elsewhere).status_code == 401
    assert server.client.get("/api/me", headers=ben).status_code == 200  # the one that changed it stays
    disabled = server.client.post("/api/accounts/ben/disable", json={"reason": "test"}, headers=sam)
    assert disabled.status_code == 200, disabled.text
    assert server.client.get("/api/me", headers=ben).status_code == 401


def test_a_token_revoked_at_another_process_is_refused_at_this_one(shared: tuple[str, str]) -> None:  # noqa: F811
    url, prefix = shared
    first_client, first = process(url, prefix)
    second_client, second = process(url, prefix)
    try:
        ana = first.login("ana")
        assert second.client.get("/api/me", headers=ana).status_code == 200  # remembered by the second
        assert first.client.post("/api/logout", headers=ana).status_code == 200
        deadline = time.monotonic() + 10
        while (answer := second.client.get("/api/me", headers=ana)).status_code == 200:
            assert time.monotonic() < deadline, "the second process still takes the revoked token"
            time.sleep(0.02)
        assert answer.status_code == 401
        assert second.service.identities.counts["forgotten"] >= 1
    finally:
        second_client.__exit__(None, None, None)
        first_client.__exit__(None, None, None)


def test_the_memory_is_cleared_when_the_hub_may_have_missed_a_revocation(server: Server) -> None:
    ana = server.login("ana")
    assert server.client.get("/api/me", headers=ana).status_code == 200
    assert len(server.service.identities) == 1
    server.client.portal.call(_resync, server)
    deadline = time.monotonic() + 5
    while len(server.service.identities):
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert server.client.get("/api/me", headers=ana).status_code == 200  # read again, and remembered
    assert len(server.service.identities) == 1


async def _resync(server: Server) -> None:
    server.service.hub._resync_all()


def test_a_fault_in_hearing_revocations_forgets_everything_and_listens_again(server: Server) -> None:
    """The task that hears the other processes' revocations outlives a fault of its own: it forgets every
    token (one may have been missed) and hears the next revocation."""
    ana, ben = server.login("ana"), server.login("ben")
    for headers in (ana, ben):
        assert server.client.get("/api/me", headers=headers).status_code == 200
    known = server.service.identities
    forget = known.forget
    calls: list[int] = []

    def failing_once(account_id: int) -> None:
        calls.append(account_id)
        if len(calls) == 1:
            raise RuntimeError("a fault")
        forget(account_id)

    known.forget = failing_once  # type: ignore[method-assign]
    server.client.portal.call(server.service.hub.publish, "identities", {"forget": 999})
    deadline = time.monotonic() + 5
    while len(known):  # the fault: everything forgotten
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert server.client.get("/api/me", headers=ana).status_code == 200  # remembered again
    assert len(known) == 1
    ana_id = server.client.get("/api/me", headers=ana).json()["id"]
    server.client.portal.call(server.service.hub.publish, "identities", {"forget": ana_id})
    while len(known):  # heard again after the fault
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert not server.service._forgetting.done()
