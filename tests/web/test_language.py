"""The page in four languages: refusals said by their code, the language switch, and signing out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.pages import open_table, rest, sign_in, token_of

MACAU, BACCARAT = 1, 4

SEAT_TAKEN = {
    "zh-Hant": "1 號位已有 ana 坐（第 2.3 條）",
    "zh-Hans": "1 号位已有 ana 坐（第 2.3 条）",
    "pt": "O lugar 1 está ocupado por ana (art. 2.3.º)",
}
BAD_PASSWORD = {
    "zh-Hant": "名稱不存在或密碼錯誤",
    "zh-Hans": "名称不存在或密码错误",
    "pt": "Nome desconhecido ou palavra-passe errada",
}
NETWORK = {
    "zh-Hant": "無法連線到伺服器（網絡錯誤），請再試",
    "zh-Hans": "无法连接到服务器（网络错误），请重试",
    "pt": "Sem ligação ao servidor (erro de rede); tente de novo",
}
TRY_TO_SIT = """async (box) => {
  const { api } = await import('/js/api.js');
  try { await api('POST', '/api/tables/1/seats', { box }); return 'seated'; }
  catch (error) { return [error.code, error.message]; }
}"""


def choose(page: Any, language: str) -> None:
    page.select_option("#lang-select", language)
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=language)


@pytest.mark.parametrize("language", ["zh-Hant", "zh-Hans", "pt"])
def test_a_refusal_in_the_pages_language(new_page: Any, base_url: str, language: str) -> None:
    page = new_page()
    page.goto("/#/")
    choose(page, language)
    # sign-in refused: the toast says it by code
    page.fill("#login-name", "ana")
    page.fill("#login-password", "wrong")
    page.click("#login-submit")
    page.wait_for_selector(f".toast-item:has-text('{BAD_PASSWORD[language]}')")
    # no answer at all ("Failed to fetch") is said in the page's language too
    page.route("**/api/login", lambda route: route.abort())
    page.click("#login-submit")
    page.wait_for_selector(f".toast-item:has-text('{NETWORK[language]}')")
    page.unroute("**/api/login")
    # a table's refusal, with its params: ana holds box 1, ben asks for it
    rest(base_url, "POST", f"/api/tables/{MACAU}/seats", token_of(base_url, "ana"), {"box": 1})
    sign_in(page, "ben")
    assert page.evaluate(TRY_TO_SIT, 1) == ["seat.taken", SEAT_TAKEN[language]]
    choose(page, "en")  # English shows the server's own text
    code, message = page.evaluate(TRY_TO_SIT, 1)
    assert code == "seat.taken" and message == "seat 1 is taken by ana (Art. 2.3)"


def test_the_language_switch_offers_four(new_page: Any) -> None:
    page = new_page()
    page.goto("/#/")
    options = page.eval_on_selector_all("#lang-select option", "(os) => os.map((o) => [o.value, o.textContent])")
    assert options == [["en", "English"], ["zh-Hant", "繁體中文"], ["zh-Hans", "简体中文"], ["pt", "Português"]]
    for language, title in (("zh-Hant", "登入"), ("zh-Hans", "登录"), ("pt", "Iniciar sessão"), ("en", "Sign in")):
        choose(page, language)
        page.wait_for_selector(f".login h1:has-text('{title}')")
        for name in ("zh-Hant", "zh-Hans", "pt"):
            problems = page.evaluate("(n) => import('/js/i18n.js').then((m) => m.keyProblems(n))", name)
            assert problems == {"missing": [], "extra": []}, (name, problems)
    assert page.evaluate("localStorage.getItem('croupier.lang')") == "en"


def test_sign_out_is_hidden_signed_out_and_revokes_the_token(new_page: Any, base_url: str) -> None:
    page = new_page()
    page.goto("/#/")
    page.wait_for_selector("#login-form")
    assert not page.is_visible("#logout")  # the sign-in page shows no "Sign out"
    sign_in(page, "chen")
    assert page.is_visible("#logout")
    token = page.evaluate("sessionStorage.getItem('croupier.token')")
    page.click("#logout")
    page.wait_for_selector("#login-form")
    assert not page.is_visible("#logout")
    answer = page.evaluate(
        """async (token) => (await fetch('/api/me', { headers: { Authorization: 'Bearer ' + token } })).status""", token
    )
    assert answer == 401  # revoked at the server, not only forgotten by the page


def test_a_revoked_token_returns_the_page_to_sign_in(new_page: Any, base_url: str) -> None:
    page = new_page()
    sign_in(page, "chen")
    open_table(page, MACAU)
    token = page.evaluate("sessionStorage.getItem('croupier.token')")
    sockets: list[Any] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    rest(base_url, "POST", "/api/logout", token)  # signed out elsewhere
    # the table's WebSocket with that token closes at once with 4401: the page signs out
    page.wait_for_selector("#login-form")
    page.wait_for_selector(".toast-item:has-text('You are signed out; sign in again')")
    assert page.evaluate("sessionStorage.getItem('croupier.token')") is None
    # the table's WebSocket with the revoked token is not retried forever
    page.evaluate(
        """async (token) => { sessionStorage.setItem('croupier.token', token);
           sessionStorage.setItem('croupier.account', JSON.stringify({ id: 3, name: 'chen', role: 'player' })); }""",
        token,
    )
    page.goto("/#/table/1")
    page.wait_for_selector("#login-form")
    page.wait_for_timeout(2500)
    assert len(sockets) <= 1, f"the page reconnected {len(sockets)} times with a revoked token"


def test_screenshots_in_four_languages(new_page: Any, screenshots: Path) -> None:
    for width, height in ((1366, 900), (390, 844)):
        page = new_page(width, height)
        sign_in(page, "chen")
        for language in ("en", "zh-Hant", "zh-Hans", "pt"):
            choose(page, language)
            page.goto("/#/")
            page.wait_for_selector(".table-card")
            page.screenshot(path=str(screenshots / f"lang-lobby-{language}-{width}.png"), full_page=True)
            for table in (MACAU, BACCARAT):
                open_table(page, table)
                page.wait_for_timeout(400)
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                page.screenshot(path=str(screenshots / f"lang-table{table}-{language}-{width}.png"), full_page=True)
        choose(page, "en")
