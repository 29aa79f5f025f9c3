"""Accounts at the page: the password rules where an account is opened, the lockout's wait
after failed sign-ins, "sign out everywhere", and a supervisor disabling and enabling a player at the
cashier's screen. Each test uses accounts and names of its own, so no other test's sign-in is locked."""

from __future__ import annotations

import urllib.error
import uuid
from typing import Any

import pytest

from tests.web.pages import rest, sign_in

PASSWORD = "a long pass phrase"


def fresh_name() -> str:
    return "web" + uuid.uuid4().hex[:8]


def open_account(page: Any, name: str, password: str) -> None:
    page.goto("/#/")
    page.fill("#register-name", name)
    page.fill("#register-password", password)
    page.click("#register-submit")


def test_opening_an_account_shows_the_rules_and_refuses_a_common_password(new_page: Any) -> None:
    page = new_page()
    name = fresh_name()
    page.goto("/#/")
    assert "10–128 characters" in page.inner_text("#register-rules")
    open_account(page, name, "password1234")  # long enough, but on the list (the browser's minlength passes)
    page.wait_for_selector(".toast-item:has-text('one of the most common passwords')")
    open_account(page, name, PASSWORD)
    page.wait_for_selector(f"#who:has-text('{name}')", state="attached")


def test_the_sign_in_page_names_the_lockouts_wait(new_page: Any) -> None:
    page = new_page()
    page.goto("/#/")
    page.fill("#login-name", fresh_name())  # an unknown name is throttled as a known one
    page.fill("#login-password", "wrong")
    statuses = []
    for _ in range(7):
        with page.expect_response("**/api/login") as answer:
            page.click("#login-submit")
        statuses.append(answer.value.status)
    assert statuses == [401] * 6 + [429]
    page.wait_for_selector(".toast-item:has-text('even the right password is refused')")


def test_sign_out_everywhere_revokes_the_other_devices(new_page: Any, base_url: str) -> None:
    name = fresh_name()
    rest(base_url, "POST", "/api/accounts", body={"name": name, "password": PASSWORD})
    other = rest(base_url, "POST", "/api/login", body={"name": name, "password": PASSWORD})["token"]
    page = new_page()
    sign_in(page, name, PASSWORD)
    page.click("#logout-all")
    page.wait_for_selector("#login-form")
    with pytest.raises(urllib.error.HTTPError) as refused:
        rest(base_url, "GET", "/api/me", other)
    assert refused.value.code == 401


def test_a_supervisor_disables_and_enables_a_player_at_the_cashier(new_page: Any, base_url: str) -> None:
    name = fresh_name()
    rest(base_url, "POST", "/api/accounts", body={"name": name, "password": PASSWORD})
    token = rest(base_url, "POST", "/api/login", body={"name": name, "password": PASSWORD})["token"]
    page = new_page(1366, 900)
    sign_in(page, "sam")
    page.click("#nav-cashier")
    page.fill("#find-name", name)
    page.click("#find button[type=submit]")
    page.click(f".access[data-account='{name}'][data-action='disable']")
    page.wait_for_selector(".tag.disabled")
    with pytest.raises(urllib.error.HTTPError) as refused:
        rest(base_url, "GET", "/api/me", token)
    assert refused.value.code == 401
    page.click(f".access[data-account='{name}'][data-action='enable']")
    page.wait_for_selector(f".access[data-account='{name}'][data-action='disable']")
    assert rest(base_url, "POST", "/api/login", body={"name": name, "password": PASSWORD})["token"]
