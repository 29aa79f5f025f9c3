"""Accounts as a regulator expects: sign-in throttled per name and per
address, the same work for an unknown name as for a wrong password, argon2 off the event loop; sign
out, sign out everywhere, a password change and a supervisor's disabling revoke tokens and close
sockets; a password policy; look-alike names refused."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from argon2 import PasswordHasher
from argon2.exceptions import VerificationError
from sqlalchemy import func, select
from starlette.websockets import WebSocketDisconnect

from croupier.server import auth, throttle
from croupier.server.models import Account, Settlement, Token
from croupier.server.names import BadName, check_name, name_key
from croupier.server.passwords import WeakPassword, check_password, common_passwords
from tests.server.conftest import Server

MACAU = 1
GOOD = "a long pass phrase"


class FakeHasher:
    """A hasher that counts its calls and the threads they ran in (argon2's work, without its cost)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self.gate: threading.Event | None = None
        self.lock = threading.Lock()

    def hash(self, password: str) -> str:
        with self.lock:
            self.calls.append(("hash", threading.get_ident()))
        return "fake$" + password

    def verify(self, hash: str, password: str) -> bool:
        with self.lock:
            self.calls.append(("verify", threading.get_ident()))
        if self.gate is not None:
            self.gate.wait(5)
        if hash.startswith("$argon2"):  # the demo's accounts, made before the fake came
            return bool(PasswordHasher().verify(hash, password))
        if hash != "fake$" + password:
            raise VerificationError("wrong")
        return True

    def kinds(self) -> list[str]:
        return [kind for kind, _ in self.calls]


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHasher]:
    hasher = FakeHasher()
    monkeypatch.setattr(auth, "_HASHER", hasher)
    yield hasher


def login(server: Server, name: str, password: str) -> Any:
    return server.client.post("/api/login", json={"name": name, "password": password})


def register(server: Server, name: str, password: str = GOOD) -> Any:
    return server.client.post("/api/accounts", json={"name": name, "password": password})


def run(server: Server, work: Any) -> Any:
    async def call() -> Any:
        async with server.service.session() as session:
            return await work(session)

    return server.client.portal.call(call)


# --------------------------------------------------------------------------------------------------
# throttling


def test_sixty_wrong_guesses_are_throttled_and_the_right_password_waits(server: Server) -> None:
    answers = [login(server, "ana", f"guess-{n}") for n in range(60)]
    statuses = [answer.status_code for answer in answers]
    assert statuses[: throttle.NAME.free + 1] == [401] * (throttle.NAME.free + 1)
    assert statuses[throttle.NAME.free + 1 :] == [429] * (59 - throttle.NAME.free)
    locked = answers[-1]
    assert locked.json()["code"] == "auth.throttled"
    assert locked.json()["params"] == {"whose": "account", "seconds": 2}
    assert locked.headers["Retry-After"] == "2"
    # the right password during the lockout is refused too, and the message says so
    right = login(server, "ana", "demo")
    assert right.status_code == 429 and "even the right password is refused" in right.json()["error"]
    # "ANA" is the same name: the lock holds for it
    assert login(server, "ANA", "demo").status_code == 429
    server.advance(3)  # past the lock
    assert login(server, "ana", "demo").status_code == 200  # and the failures are forgotten
    assert [login(server, "ana", "wrong").status_code for _ in range(2)] == [401, 401]


def test_the_lockout_grows_with_each_further_failure(server: Server) -> None:
    for _ in range(throttle.NAME.free + 1):
        login(server, "ben", "wrong")
    waits = []
    for _ in range(4):
        waits.append(login(server, "ben", "wrong").json()["params"]["seconds"])
        server.advance(waits[-1])
        assert login(server, "ben", "wrong").status_code == 401  # one guess after each lock
    assert waits == [2, 4, 8, 16]
    assert throttle.lock_seconds(throttle.NAME, 1000) == throttle.NAME.cap


def test_many_names_from_one_address_lock_the_address(sqlite_server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    server = sqlite_server
    monkeypatch.setattr(throttle, "ADDRESS", throttle.Rule("address", free=3, forget=30))
    statuses = [login(server, f"nobody{n}", "wrong").status_code for n in range(6)]
    assert statuses == [401, 401, 401, 401, 429, 429]
    refused = login(server, "chen", "demo")  # another name, the right password: the address is locked
    assert refused.status_code == 429 and refused.json()["params"]["whose"] == "address"
    server.advance(3)  # past the lock: the fixture's own sign-in at the end


def test_unknown_name_and_wrong_password_do_the_same_work(sqlite_server: Server, fake: FakeHasher) -> None:
    server = sqlite_server
    assert register(server, "dana").status_code == 201
    auth._dummy_hash()  # made once per hasher (on the first unknown name)
    fake.calls.clear()
    assert login(server, "dana", "not the password").status_code == 401
    wrong = fake.kinds()
    fake.calls.clear()
    assert login(server, "nobody-at-all", "not the password").status_code == 401
    unknown = fake.kinds()
    assert wrong == unknown == ["verify"]
    # the answers are the same too
    assert login(server, "dana", "x").json() == login(server, "nobody-at-all", "x").json()


def test_argon2_runs_off_the_event_loop(sqlite_server: Server, fake: FakeHasher) -> None:
    server = sqlite_server
    loop_thread = server.client.portal.call(threading.get_ident)
    assert register(server, "erin").status_code == 201
    assert login(server, "erin", GOOD).status_code == 200
    assert fake.kinds() == ["hash", "verify"]
    assert all(thread != loop_thread for _, thread in fake.calls)


def test_a_slow_sign_in_does_not_hold_up_other_requests(sqlite_server: Server, fake: FakeHasher) -> None:
    server = sqlite_server
    ana = server.login("ana")
    fake.gate = threading.Event()
    order: list[str] = []
    signing_in = threading.Thread(target=lambda: order.append(f"login {login(server, 'ana', 'x').status_code}"))
    signing_in.start()
    try:
        for _ in range(200):  # wait until the sign-in is inside the hasher
            if fake.calls:
                break
            threading.Event().wait(0.01)
        assert fake.calls, "the sign-in never reached the hasher"
        answer = server.client.get("/api/me", headers=ana)  # answered while the hash is still running
        order.append(f"me {answer.status_code}")
    finally:
        fake.gate.set()
        signing_in.join(10)
    assert order == ["me 200", "login 401"]


# --------------------------------------------------------------------------------------------------
# signing out, revoking


def test_sign_out_everywhere_revokes_every_token_and_closes_sockets(sqlite_server: Server) -> None:
    server = sqlite_server
    first, second = server.login("ana"), server.login("ana")
    token = first["Authorization"][7:]
    with server.client.websocket_connect(f"/ws/tables/{MACAU}?token={token}") as socket:
        assert socket.receive_json()["type"] == "snapshot"
        out = server.client.post("/api/logout/everywhere", headers=second)
        assert out.status_code == 200 and out.json()["tokens_revoked"] >= 2
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(50):
                socket.receive_json()
        assert closed.value.code == 4401
    for headers in (first, second):
        answer = server.client.get("/api/me", headers=headers)
        assert answer.status_code == 401 and answer.json()["code"] == "auth.token_revoked"


def test_sign_out_closes_the_socket_of_that_token_only(sqlite_server: Server) -> None:
    server = sqlite_server
    first, second = server.login("ana"), server.login("ana")
    with (
        server.client.websocket_connect(f"/ws/tables/{MACAU}?token={first['Authorization'][7:]}") as one,
        server.client.websocket_connect(f"/ws/tables/{MACAU}?token={second['Authorization'][7:]}") as two,
    ):
        one.receive_json(), two.receive_json()
        assert server.client.post("/api/logout", headers=first).status_code == 200
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(50):
                one.receive_json()
        assert closed.value.code == 4401
        server.advance(10)  # the table moves on: the other socket still hears it
        assert two.receive_json()["type"] == "event"
    assert server.client.get("/api/me", headers=second).status_code == 200


def test_a_password_change_needs_the_old_one_and_revokes_the_other_tokens(sqlite_server: Server) -> None:
    server = sqlite_server
    assert register(server, "fern").status_code == 201
    here, there = server.login("fern", GOOD), server.login("fern", GOOD)
    change = "/api/me/password"
    wrong = server.client.put(
        change, json={"old_password": "nope", "new_password": "another pass phrase"}, headers=here
    )
    assert wrong.status_code == 403 and wrong.json()["code"] == "auth.wrong_old_password"
    weak = server.client.put(change, json={"old_password": GOOD, "new_password": "password123"}, headers=here)
    assert weak.status_code == 422 and weak.json()["code"] == "password.common"
    same = server.client.put(change, json={"old_password": GOOD, "new_password": GOOD}, headers=here)
    assert same.status_code == 422 and same.json()["code"] == "password.unchanged"
    done = server.client.put(change, json={"old_password": GOOD, "new_password": "another pass phrase"}, headers=here)
    assert done.status_code == 200 and done.json() == {"changed": "fern", "tokens_revoked": 1}
    assert server.client.get("/api/me", headers=there).status_code == 401
    assert server.client.get("/api/me", headers=here).status_code == 200
    assert login(server, "fern", GOOD).status_code == 401
    assert login(server, "fern", "another pass phrase").status_code == 200


def test_wrong_old_passwords_are_throttled_as_sign_ins(sqlite_server: Server) -> None:
    server = sqlite_server
    ana = server.login("ana")
    body = {"old_password": "guess", "new_password": "another pass phrase"}
    statuses = [server.client.put("/api/me/password", json=body, headers=ana).status_code for _ in range(8)]
    assert statuses == [403] * (throttle.NAME.free + 1) + [429] * (7 - throttle.NAME.free)
    assert login(server, "ana", "demo").status_code == 429


def test_a_disabled_account_is_signed_out_at_once_and_keeps_its_money(sqlite_server: Server) -> None:
    server = sqlite_server
    sam, cole, ana = server.login("sam"), server.login("cole"), server.login("ana")
    with server.client.websocket_connect(f"/ws/tables/{MACAU}?token={ana['Authorization'][7:]}") as socket:
        socket.receive_json()
        assert server.client.post(f"/api/tables/{MACAU}/seats", json={"box": 1}, headers=ana).status_code == 200
        assert server.bet(ana, MACAU, "1", "100").status_code == 200  # a stake in play
        off = server.client.post("/api/accounts/ana/disable", json={"reason": "self-exclusion"}, headers=sam)
        assert off.status_code == 200 and off.json()["disabled"] is True and off.json()["tokens_revoked"] >= 1
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(50):
                socket.receive_json()
        assert closed.value.code == 4401
    refused = server.client.get("/api/me", headers=ana)
    assert refused.status_code == 401
    signing_in = login(server, "ana", "demo")
    assert signing_in.status_code == 403 and signing_in.json()["code"] == "auth.disabled"
    assert login(server, "ana", "wrong").json()["code"] == "auth.bad_credentials"  # says nothing more
    # the round settles as any other: the stake is not lost, nor left in play
    server.advance(10)  # "No more bets"
    server.play_out(MACAU, {})
    ana_id = run(server, lambda s: s.scalar(select(Account.id).where(Account.name == "ana")))
    settled = run(server, lambda s: s.scalar(select(func.count()).where(Settlement.account_id == ana_id)))
    assert settled == 1
    listed = server.client.get("/api/cashier/accounts?name=ana", headers=cole).json()
    assert listed[0]["account"] == "ana" and listed[0]["disabled"] is True
    paid = server.client.post(
        "/api/cashier/withdrawals",
        json={"account": "ana", "amount": "1"},
        headers={**cole, "Idempotency-Key": uuid.uuid4().hex},
    )
    assert paid.status_code == 200  # the cashier can still pay a disabled player out
    on = server.client.post("/api/accounts/ana/enable", headers=sam)
    assert on.status_code == 200 and on.json()["disabled"] is False
    assert login(server, "ana", "demo").status_code == 200


def test_only_a_supervisor_disables_and_not_themself(sqlite_server: Server) -> None:
    server = sqlite_server
    sam, cole = server.login("sam"), server.login("cole")
    assert server.client.post("/api/accounts/ana/disable", headers=cole).status_code == 403
    self_ = server.client.post("/api/accounts/sam/disable", headers=sam)
    assert self_.status_code == 409 and self_.json()["code"] == "auth.disable_self"
    missing = server.client.post("/api/accounts/nobody/disable", headers=sam)
    assert missing.status_code == 404 and missing.json()["code"] == "account.not_found"
    # a dealer disabled: its token stops working at once
    dora = server.login("dora")
    assert server.client.post("/api/accounts/dora/disable", headers=sam).status_code == 200
    assert server.client.get("/api/me", headers=dora).status_code == 401


def test_tokens_are_bounded_and_expired_ones_deleted(sqlite_server: Server, fake: FakeHasher) -> None:
    server = sqlite_server
    assert register(server, "gus").status_code == 201
    gus_id = run(server, lambda s: s.scalar(select(Account.id).where(Account.name == "gus")))

    async def expired(session: Any) -> None:
        async with session.begin():
            session.add(Token(digest="0" * 64, account_id=gus_id, expires_at=server.clock.now() - timedelta(hours=1)))

    server.client.portal.call(lambda: _with_session(server, expired))
    first = server.login("gus", GOOD)
    assert run(server, lambda s: s.scalar(select(func.count()).where(Token.digest == "0" * 64))) == 0
    for _ in range(auth.MAX_TOKENS):
        server.advance(1)  # each token a second younger than the last, by the server's clock
        server.login("gus", GOOD)
    assert run(server, lambda s: s.scalar(select(func.count()).where(Token.account_id == gus_id))) == auth.MAX_TOKENS
    assert server.client.get("/api/me", headers=first).status_code == 401  # the oldest went


async def _with_session(server: Server, work: Any) -> None:
    async with server.service.session() as session:
        await work(session)


# --------------------------------------------------------------------------------------------------
# the password policy and the names


def test_the_password_policy() -> None:
    assert len(common_passwords()) > 1000
    for password, rule in [
        ("short", "at least 10"),
        ("x" * 129, "at most 128"),
        ("password123", "most common"),
        ("QwertyUiop", "most common"),
        ("ana2024!!!!", "account's name"),
        ("ana-ana-ana", "account's name"),
        ("abababababab", "repeated"),
    ]:
        with pytest.raises(WeakPassword, match=rule):
            check_password(password, "ana")
    check_password("correct horse battery", "ana")
    check_password("bananas are great", "ana")


def test_registration_applies_the_policy(sqlite_server: Server) -> None:
    server = sqlite_server
    cases = {"x": "password.too_short", "1234567890": "password.common", "hana123456789": "password.like_name"}
    for password, code in cases.items():
        answer = register(server, "hana", password)
        assert answer.status_code == 422 and answer.json()["code"] == code, answer.text
    assert register(server, "hana", GOOD).status_code == 201


def test_look_alike_names_are_refused() -> None:
    for name, rule in [
        ("аna", "mix scripts"),  # Cyrillic а
        ("ａｎａ", "write it as 'ana'"),  # full-width
        ("ana²", "write it as 'ana2'"),  # superscript
        ("ΑΝΑ", "looks like a Latin"),  # Greek capitals
        ("١٠", "letters, digits"),  # Arabic-Indic digits
        ("an\u200ba", "letters, digits"),  # a zero-width space
        ("a na", "letters, digits"),
    ]:
        with pytest.raises(BadName, match=rule):
            check_name(name)
    for name in ("ana", "陳大文", "chen陳", "すずき", "김민준", "Дмитрий", "joão", "load-1"):
        assert check_name(name) == name
    assert name_key("Ana") == name_key("ANA") == name_key("ana")
    assert name_key("b0b") == name_key("bob") and name_key("al1") == name_key("all")


def test_look_alike_names_do_not_register_beside_ana(sqlite_server: Server) -> None:
    server = sqlite_server
    expected = {
        "Ana": ("auth.name_taken", 409),
        "аna": ("auth.name_mixed_scripts", 422),
        "ａｎａ": ("auth.name_not_nfkc", 422),
        "ana²": ("auth.name_not_nfkc", 422),
    }
    for name, (code, status) in expected.items():
        answer = register(server, name)
        assert (answer.status_code, answer.json()["code"]) == (status, code), (name, answer.text)
    assert register(server, "陳大文").status_code == 201
    assert login(server, "陳大文", GOOD).status_code == 200
    signed = login(server, "ANA", "demo")  # a name signs in by its key, as the account it is
    assert signed.status_code == 200 and signed.json()["account"]["name"] == "ana"


def test_registration_is_throttled_per_address_and_hashes_even_when_taken(
    sqlite_server: Server, fake: FakeHasher, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = sqlite_server
    monkeypatch.setattr(throttle, "REGISTER", throttle.Rule("register", free=2, forget=180))
    assert register(server, "ivy").status_code == 201
    opened = fake.kinds()
    fake.calls.clear()
    assert register(server, "IVY").status_code == 409
    assert fake.kinds() == opened == ["hash"]  # "taken" costs what an opening costs
    assert register(server, "jay").status_code == 201  # the third is over the two free: it locks the address
    fourth = register(server, "kim")
    assert fourth.status_code == 429 and fourth.json()["code"] == "auth.register_throttled"
    assert int(fourth.headers["Retry-After"]) >= 1


class Tagged:
    """A hasher whose hashes name it."""

    def __init__(self, tag: int) -> None:
        self.tag = tag

    def hash(self, password: str) -> str:
        return f"{self.tag}:{password}"

    def verify(self, hash: str, password: str) -> bool:
        return hash == f"{self.tag}:{password}"


def test_the_dummy_hash_is_made_by_the_hasher_in_use_even_at_a_reused_address(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unknown name is checked against a dummy hash of the hasher in use (the same work as a real
    account's): one cached for a hasher that is gone is not used, even by a new one at its address."""
    monkeypatch.setattr(auth, "_DUMMY", auth._DUMMY)  # restored afterwards, as the hasher is
    monkeypatch.setattr(auth, "_HASHER", Tagged(0))
    assert auth._dummy_hash().startswith("0:")
    address = id(auth._HASHER)
    auth._HASHER = None  # type: ignore[assignment]  # the first hasher is dropped: its address may be reused
    kept = []
    for tag in range(1, 10_000):
        hasher = Tagged(tag)
        if id(hasher) == address:
            break
        kept.append(hasher)
    auth._HASHER = hasher
    assert auth._dummy_hash().startswith(f"{hasher.tag}:")
