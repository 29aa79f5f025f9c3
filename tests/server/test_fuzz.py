"""Fuzzing the live table service's OpenAPI document: no 5xx, no traceback, in any answer.

Schemathesis reads ``/openapi.json`` from a real ``croupier serve`` (a subprocess on a SQLite file, the
demo tables playing with 0.5 s timers) and generates requests for every operation: valid ones (positive mode) and ones
that break the schema (negative mode: wrong types, missing and extra fields, out-of-range numbers,
odd path and query parameters, odd headers). Each is sent anonymously and as each role (player,
dealer, supervisor, cashier). A second test sends bodies that are not JSON at all, or JSON of the
wrong shape, to every operation that takes a body. Every answer must be below 500, carry no Python
traceback, and a 4xx must be ``{"error": "..."}``. The ledger's invariants hold at the end, and the
server logged no fault.

Without schemathesis installed the fuzzing is skipped. The faults it found are pinned by the tests at
the end of this file: path numbers beyond 64 bits, cashier amounts beyond what the ledger holds, and
4xx answers of the framework's own that did not have the ``{"error": ...}`` shape.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from benchmarks.crash import ServerProcess, free_port
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from croupier.server.app import Settings, create_app

EXAMPLES = 20  # per operation, mode and run; about 20 operations
ROLES = ("ana", "dora", "sam", "cole")
SPARE = {"name": "spare", "password": "a spare pass phrase 7"}
"""A player of the fuzzing's own: the operations that end an account's tokens or count as failed sign-ins
(sign-out, sign-out everywhere, a password change) act on it, whoever sends them, so that the roles'
tokens and names stay usable for every later case and test."""
ACCOUNT_STATE = ("/api/logout", "/api/logout/everywhere", "/api/me/password")
TRACEBACK_MARKS = ("Traceback", 'File "', "most recent call last", "Error:", "sqlalchemy", "asyncpg", "aiosqlite")
FUZZ_SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


@dataclass
class Api:
    schema: Any
    headers: dict[str, dict[str, str]]
    base: str
    http: httpx.Client


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    """A real ``croupier serve`` (a subprocess on a SQLite file, 0.5 s timers) and its OpenAPI schema."""
    schemathesis = pytest.importorskip("schemathesis")
    directory = tmp_path_factory.mktemp("fuzz")
    server = ServerProcess(directory / "croupier.db", free_port(), directory / "server.log", 0.5, 0.5)
    server.start()
    try:
        with httpx.Client(base_url=server.base, timeout=30) as http:
            schema = schemathesis.openapi.from_dict(http.get("/openapi.json").json())
            headers: dict[str, dict[str, str]] = {"anonymous": {}}
            assert http.post("/api/accounts", json=SPARE).status_code == 201
            for name in ROLES:
                answer = http.post("/api/login", json={"name": name, "password": "demo"})
                assert answer.status_code == 200, answer.text
                headers[name] = {"Authorization": f"Bearer {answer.json()['token']}"}
            yield Api(schema, headers, server.base, http)
            # a fresh token: the fuzzing may have signed sam's out (POST /api/logout revokes it)
            token = http.post("/api/login", json={"name": "sam", "password": "demo"}).json()["token"]
            ledger = http.get("/api/ledger", headers={"Authorization": f"Bearer {token}"})
            assert ledger.status_code == 200, ledger.text
            assert ledger.json() == {
                "entries_sum": 0,
                "balances_sum": 0,
                "unbalanced_transactions": 0,
                "wallets_match_entries": True,
            }
    finally:
        server.stop()
    log = (directory / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]  # the server met no fault it had to log


def check_answer(label: str, status: int, text: str) -> None:
    assert status < 500, f"{label}: {status} {text[:500]}"
    for mark in TRACEBACK_MARKS:
        assert mark not in text, f"{label}: the answer shows {mark!r}: {text[:500]}"
    if 400 <= status < 500 and text:
        document = json.loads(text)
        assert isinstance(document, dict), f"{label}: {status} {text[:300]}"
        assert "error" in document and set(document) <= {"error", "code", "params"}, f"{label}: {status} {text[:300]}"
        assert isinstance(document["error"], str) and document["error"], label
        assert isinstance(document.get("code", ""), str) and isinstance(document.get("params", {}), dict), label


def fuzz_operation(operation: Any, mode: Any, api: Api) -> None:
    headers = api.headers

    @FUZZ_SETTINGS
    @given(case=operation.as_strategy(generation_mode=mode), who=st.sampled_from(sorted(headers)))
    def fuzz(case: Any, who: str) -> None:
        extra = dict(headers[who])
        if operation.path in ACCOUNT_STATE and who != "anonymous":
            # these revoke tokens or count failed sign-ins: the role's own would be lost to every later case
            token = httpx.post(f"{api.base}/api/login", json=SPARE, timeout=30)
            assert token.status_code == 200, token.text
            extra = {"Authorization": f"Bearer {token.json()['token']}"}
        if case.headers and any(k.lower() == "authorization" for k in case.headers):
            extra = {}  # the generated Authorization header stands
        if "Idempotency-Key" not in (case.headers or {}):
            extra["Idempotency-Key"] = uuid.uuid4().hex
        response = case.call(base_url=api.base, headers=extra)
        sent = response.request
        label = f"{operation.label} as {who} ({mode}): {sent.headers.get('Content-Type')} {sent.body!r:.200}"
        check_answer(label, response.status_code, response.text)

    fuzz()


@pytest.mark.parametrize("name", ["positive", "negative"])
def test_openapi_operations_never_fail_nor_leak(api: Api, name: str) -> None:
    from schemathesis import GenerationMode

    mode = GenerationMode(name)
    operations = [result.ok() for result in api.schema.get_all_operations()]
    assert len(operations) >= 15, [o.label for o in operations]
    fuzzed = []
    for operation in operations:
        try:
            fuzz_operation(operation, mode, api)
        except Unsatisfiable:  # an operation with nothing to get wrong (no parameters, no body)
            assert mode == GenerationMode.NEGATIVE and not operation.body and not operation.path_parameters
            continue
        fuzzed.append(operation.label)
    assert len(fuzzed) >= (15 if mode == GenerationMode.POSITIVE else 10), fuzzed


HOSTILE_TEXT = ["²", "①", "١٠", "１０", "1e999997", "1e999998", "1E+999999", "9" * 19, "1_0", " 1", "true"]
"""Digits that str.isdigit() or Decimal() take and int() does not, or takes as 10; amounts whose
int() is a million digits (the event loop froze) or beyond what a Decimal multiplies (the table stopped)."""

JSON_BODIES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(max_size=30),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(
        st.sampled_from(
            ["name", "password", "role", "spot", "amount", "type", "box", "hand", "card", "reason", "account"]
        ),
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(min_value=-(2**70), max_value=2**70),
            st.floats(),
            st.text(max_size=40),
            st.sampled_from(["1", "10", "-5", "1e9999", "NaN", "Infinity", "0.001", "AS", "hit", "player", "ana"]),
            st.sampled_from(HOSTILE_TEXT),
            st.lists(st.text(max_size=3), max_size=2),
            st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
        ),
        max_size=5,
    ),
)
RAW_BODIES = st.one_of(
    st.binary(max_size=60),
    st.sampled_from([b"", b"{", b"{}}", b'{"name": "ana",}', b"[", b"null", b"\xff\xfe", b'{"amount": 1e999999}']),
    st.sampled_from([b" " * (65 * 1024), b'{"name": "' + b"a" * (100 * 1024) + b'"}']),  # over the body limit
    JSON_BODIES.map(lambda value: json.dumps(value, allow_nan=True).encode()),
)
POSTS = [
    "/api/accounts",
    "/api/login",
    "/api/cashier/deposits",
    "/api/cashier/withdrawals",
    "/api/tables/1/bets",
    "/api/tables/2/actions",
    "/api/tables/3/cards",
    "/api/tables/3/misdeal",
    "/api/tables/2/void",
]


def test_malformed_and_mistyped_bodies(api: Api) -> None:
    headers = api.headers

    @settings(FUZZ_SETTINGS, max_examples=EXAMPLES * 25)  # one strategy covers every path
    @given(
        path=st.sampled_from(POSTS),
        body=RAW_BODIES,
        who=st.sampled_from(sorted(headers)),
        content_type=st.sampled_from(["application/json", "text/plain", "application/x-www-form-urlencoded", None]),
        key=st.one_of(st.none(), st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), max_size=200)),
    )
    def fuzz(path: str, body: bytes, who: str, content_type: str | None, key: str | None) -> None:
        sent = dict(headers[who])
        if content_type:
            sent["Content-Type"] = content_type
        if key is not None:
            sent["Idempotency-Key"] = key
        response = api.http.post(path, content=body, headers=sent)
        check_answer(f"POST {path} as {who} with {body[:40]!r}", response.status_code, response.text)

    fuzz()


# --------------------------------------------------------------------------------------------------
# faults the fuzzing found, each pinned by a test of its own


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    app = create_app(
        Settings(database=f"sqlite:///{tmp_path / 'c.db'}", betting_seconds=30, decision_seconds=30, stagger=False)
    )
    with TestClient(app, raise_server_exceptions=False) as started:
        yield started


def sign_in(client: Any, name: str) -> dict[str, str]:
    return {
        "Authorization": f"Bearer {client.post('/api/login', json={'name': name, 'password': 'demo'}).json()['token']}"
    }


@pytest.mark.parametrize(
    "path", ["/api/shoes/{n}", "/api/rounds/{n}", "/api/rounds/{n}/transcript", "/api/tables/{n}", "/api/shoes/-{m}"]
)
def test_a_path_number_beyond_64_bits_is_a_404_or_422(client: Any, path: str) -> None:
    answer = client.get(path.format(n=2**63, m=2**63 + 1), headers=sign_in(client, "sam"))
    assert answer.status_code in (404, 422), answer.text


@pytest.mark.parametrize("amount", ["99999999999999999999", "1E+30", "1e9999"])
def test_a_deposit_too_large_for_the_ledger_is_refused(client: Any, amount: str) -> None:
    cole = sign_in(client, "cole")
    answer = client.post(
        "/api/cashier/deposits", json={"account": "ana", "amount": amount}, headers={**cole, "Idempotency-Key": amount}
    )
    assert answer.status_code == 422, answer.text


def test_deposits_cannot_push_a_wallet_past_what_the_ledger_holds(client: Any) -> None:
    """A wallet holds at most 10,000,000,000,000.00 (ledger.MAX_BALANCE cents): a deposit that would pass it
    is refused and changes nothing, one that reaches it exactly is taken, and an amount too long to read is
    refused before it reaches the ledger."""
    cole, sam, ana = sign_in(client, "cole"), sign_in(client, "sam"), sign_in(client, "ana")

    def deposit(amount: str) -> Any:
        return client.post(
            "/api/cashier/deposits",
            json={"account": "ana", "amount": amount},
            headers={**cole, "Idempotency-Key": uuid.uuid4().hex},
        )

    taken = deposit("9999999998000")
    assert taken.status_code == 200 and taken.json()["balance"] == "9999999999000.00", taken.text
    over = deposit("1000.01")
    assert over.status_code == 409 and over.json()["error"] == (
        "ana's balance is 9999999999000.00; with 1000.01 more it would pass 10000000000000.00, the most a wallet holds"
    )
    assert deposit("1000").json()["balance"] == "10000000000000.00"  # exactly the most
    assert deposit("0.01").status_code == 409
    one_move = deposit("10000000000001")
    assert one_move.status_code == 409 and "more than one movement may carry" in one_move.json()["error"]
    too_long = deposit("92233720368547758")
    assert too_long.status_code == 422 and "at most 15 digits before the point" in too_long.json()["error"]
    assert client.get("/api/me", headers=ana).json()["balance"] == "10000000000000.00"
    ledger = client.get("/api/ledger", headers=sam)
    assert ledger.status_code == 200, ledger.text
    assert ledger.json()["entries_sum"] == 0 and ledger.json()["wallets_match_entries"] is True


@pytest.mark.parametrize(
    "method, path, body",
    [("POST", "/api/accounts", b"\x80"), ("GET", "/api/nowhere", None), ("DELETE", "/api/tables", None)],
)
def test_every_4xx_has_the_error_shape(client: Any, method: str, path: str, body: bytes | None) -> None:
    answer = client.request(method, path, content=body, headers={"Content-Type": "application/json"})
    assert 400 <= answer.status_code < 500
    assert "error" in answer.json() and set(answer.json()) <= {"error", "code", "params"}, answer.text


# --------------------------------------------------------------------------------------------------
# the hostile inputs, then a table must still deal, and no answer waited on a frozen loop


def hostile_requests() -> Iterator[tuple[str, str, Any, str]]:
    """(method, path, JSON body, who) for every hostile value in every field that takes a number."""
    for value in [*HOSTILE_TEXT, True, 1.0, "1"]:
        yield "POST", "/api/tables/1/bets", {"spot": value, "amount": "10"}, "ana"
        yield "POST", "/api/tables/2/bets", {"spot": "1", "amount": value}, "ana"
        yield "POST", "/api/tables/4/bets", {"spot": "player", "amount": value, "seat": value}, "ana"
        yield "POST", "/api/tables/2/actions", {"type": "double", "box": value, "hand": value, "amount": value}, "ana"
        yield "POST", "/api/tables/2/seats", {"box": value}, "ana"
        yield "PUT", "/api/tables/1/matching", {"box": value, "match": value}, "ana"
        yield "POST", "/api/cashier/deposits", {"account": "ben", "amount": value}, "cole"
        yield "POST", "/api/cashier/withdrawals", {"account": "ben", "amount": value}, "cole"
        yield "PATCH", "/api/tables/2", {"chip": value, "betting_seconds": value, "overrides": {"decks": value}}, "sam"


def test_hostile_inputs_leave_the_tables_dealing_and_the_loop_free(api: Api) -> None:
    """Every hostile value in every numeric field, then the same key with two bodies to two tables at once;
    meanwhile a probe reads the lobby without a pause. No answer is a 5xx; no probe waits more than a
    generous multiple of the lobby's usual time (a million-digit int() on the event loop took ~34 s); and
    a new player's bet is then dealt to its end."""
    import statistics
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    def probe_once(http: httpx.Client) -> float:
        began = time.perf_counter()
        assert http.get("/api/tables").status_code == 200
        return time.perf_counter() - began

    for who in ("ana", "cole", "sam"):  # fresh tokens: the fuzzing's sign-ins may have pushed the first ones out
        signed_in = api.http.post("/api/login", json={"name": who, "password": "demo"})
        assert signed_in.status_code == 200, signed_in.text
        api.headers[who] = {"Authorization": f"Bearer {signed_in.json()['token']}"}
    with httpx.Client(base_url=api.base, timeout=60) as probe:
        baseline = statistics.median(probe_once(probe) for _ in range(15))
        waits: list[float] = []
        done = threading.Event()

        def probing() -> None:
            while not done.is_set():
                waits.append(probe_once(probe))

        prober = threading.Thread(target=probing)
        prober.start()
        try:
            for method, path, body, who in hostile_requests():
                headers = {**api.headers[who], "Idempotency-Key": uuid.uuid4().hex}
                answer = api.http.request(method, path, json=body, headers=headers)
                check_answer(f"{method} {path} {body!r:.120}", answer.status_code, answer.text)
            for n in range(5):  # one key, two bodies, two tables, at once
                key = f"race-{n}-{uuid.uuid4().hex}"
                with ThreadPoolExecutor(max_workers=2) as pool:
                    sent = [
                        pool.submit(
                            api.http.post,
                            f"/api/tables/{table}/bets",
                            json={"spot": "player", "amount": amount}
                            if table == 4
                            else {"spot": "3", "amount": amount},
                            headers={**api.headers["ana"], "Idempotency-Key": key},
                        )
                        for table, spot, amount in ((4, "player", "10"), (2, "3", "20"))
                    ]
                    for future in sent:
                        answer = future.result(timeout=60)
                        check_answer("the key race", answer.status_code, answer.text)
        finally:
            done.set()
            prober.join()
    assert len(waits) >= 5
    assert max(waits) <= max(2.0, 40 * baseline), (baseline, sorted(waits)[-5:])
    # a new player, paid in, bets at the baccarat table (0.5 s windows): the coup is dealt and settled
    name = f"live{uuid.uuid4().hex[:8]}"
    assert api.http.post("/api/accounts", json={"name": name, "password": "a fine password"}).status_code == 201
    token = api.http.post("/api/login", json={"name": name, "password": "a fine password"}).json()["token"]
    player = {"Authorization": f"Bearer {token}"}
    paid = api.http.post(
        "/api/cashier/deposits",
        json={"account": name, "amount": "100"},
        headers={**api.headers["cole"], "Idempotency-Key": uuid.uuid4().hex},
    )
    assert paid.status_code == 200, paid.text
    deadline = time.monotonic() + 60
    while True:
        answer = api.http.post(
            "/api/tables/4/bets",
            json={"spot": "player", "amount": "10"},
            headers={**player, "Idempotency-Key": uuid.uuid4().hex},
        )
        if answer.status_code == 200:
            break
        assert answer.status_code == 409 and time.monotonic() < deadline, answer.text  # between windows: again
        time.sleep(0.1)
    while True:
        history = api.http.get("/api/history", headers=player).json()
        if history and history[0]["status"] in ("settled", "voided"):
            break
        assert time.monotonic() < deadline, history
        time.sleep(0.2)
    assert history[0]["status"] == "settled", history[0]
    lobby = {t["id"]: t for t in api.http.get("/api/tables").json()}
    assert all(t["phase"] not in ("fault", "stopped") for t in lobby.values()), lobby
