"""The browser table end to end: headless Chromium (Debian's ``chromium``, driven by
Playwright) plays a whole hand through the page — a declaration, the bury, a tractor
lead, follows, a throw, an illegal click, the last trick, the score screen — then the
next hand starts and the match's replay is loaded back into the page.

``SHENGJI_SCREENSHOTS=DIR`` also saves the table at a bid, a bury, a throw and the score
screen into DIR (how ``docs/screenshots`` was made)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.frontends.player import choose

pytestmark = pytest.mark.slow


def chromium_path() -> str | None:
    return (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )


@pytest.fixture(scope="module")
def page(server):
    executable = chromium_path()
    required = os.environ.get("SHENGJI_REQUIRE_BROWSER") == "1"
    if executable is None:
        if required:
            pytest.fail("no chromium executable (apt-get install chromium, or set CHROMIUM)")
        pytest.skip(
            "no chromium executable: install Debian's chromium (apt-get install chromium) or "
            "set CHROMIUM to a Chromium binary; .ci/run installs it"
        )
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        tab = browser.new_page(viewport={"width": 1100, "height": 720})
        tab.goto(server[0] + "/")
        tab.wait_for_selector("#hand .card")
        yield tab
        browser.close()


def page_state(page) -> dict:
    return page.evaluate("fetch('/api/state').then(r => r.json())")


def shoot(page, name: str) -> None:
    folder = os.environ.get("SHENGJI_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"))


def click(page, selector: str, path: str) -> None:
    """Click and wait until the page has drawn the server's answer to the request it
    sends (the page counts the answers it has drawn in ``body[data-answered]``; the
    response alone arrives before the page has parsed and drawn it)."""
    answered = int(page.evaluate("Number(document.body.dataset.answered || 0)"))
    with page.expect_response(lambda response: response.url.endswith(path)):
        page.locator(selector).first.click()
    page.wait_for_function(f"() => Number(document.body.dataset.answered || 0) > {answered}")


def click_card(page, card: int) -> None:
    click(page, f"#hand .card[data-card='{card}']:not(.selected)", "/api/select")


def press_play(page) -> None:
    click(page, "#play", "/api/play")


def test_a_whole_hand_in_the_browser(page, server):
    tried: dict[str, bool] = {}
    seen: list[str] = []
    decisions = 0
    illegal_checked = last_checked = False
    while page.locator("#score").is_hidden():
        state = page_state(page)
        what, cards = choose(state, tried)
        decisions += 1
        if state["last_trick"] and not last_checked:
            page.click("#show-last")
            assert "won by" in page.inner_text("#last-trick")
            page.click("#show-last")
            last_checked = True
        if what == "declare":
            shoot(page, "bid")
        if what == "bury":
            assert len(state["hand"]) == 33 and "Bury" in page.inner_text("#prompt")
            shoot(page, "bury")
        if what == "follow":
            dim = page.locator("#hand .card.dim")
            if not illegal_checked and dim.count():
                click(page, "#hand .card.dim", "/api/select")
                page.wait_for_function(
                    "() => document.querySelector('#message').textContent.length > 0"
                )
                assert page.inner_text("#message")  # the rule the click breaks
                illegal_checked = True
            while not page_state(page)["can_play"]:
                click_card(page, page_state(page)["legal"][0])
        else:
            for card in cards:
                click_card(page, card)
        if what == "throw":
            shoot(page, "throw")
        tried[what] = True
        seen.append(what)
        press_play(page)
        if what == "declare":
            assert "you" in page.inner_text("#bids")
        if what in ("tractor", "throw"):
            state = page_state(page)
            plays = state["trick"]["plays"] + (state["last_trick"] or {"plays": []})["plays"]
            mine = [play for play in plays if play["seat"] == 0]
            assert mine, "the lead shows on the table"
    for needed in ("declare", "bury", "tractor", "throw", "follow"):
        assert needed in seen, f"the scripted hand had no {needed}"
    assert illegal_checked
    assert last_checked
    text = page.inner_text("#score-text")
    result = page_state(page)["result"]
    assert f"Attackers {result['attacker_points']} points" in text
    shoot(page, "score")
    session = server[1]
    assert session.hands and session.hands[0][-1]["attacker_points"] == result["attacker_points"]
    print(f"browser: 1 hand, {decisions} decisions by the person")
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#score').hidden")
    replay_text = page.evaluate("fetch('/api/replay').then(r => r.text())")
    assert json.loads(replay_text.splitlines()[0])["event"] == "hand"
    page.set_input_files(
        "#load",
        files=[{"name": "match.jsonl", "mimeType": "text/plain", "buffer": replay_text.encode()}],
    )
    page.wait_for_selector("#replay:not([hidden])")
    for _ in range(40):
        if page.locator("[data-testid=replay-result]").count():
            break
        page.click("#replay-next")
    assert f"Attackers {result['attacker_points']} points" in page.inner_text("#replay-body")
    page.click("#replay-close")


def test_a_broken_replay_is_refused_with_the_field(page):
    page.set_input_files(
        "#load",
        files=[{"name": "bad.jsonl", "mimeType": "text/plain", "buffer": b'{"event": "deal"}\n'}],
    )
    page.wait_for_function(
        "() => document.querySelector('#message').textContent.includes('replay')"
    )
    assert "field" in page.inner_text("#message")


def test_a_bot_name_is_shown_as_text_never_as_markup(page, server):
    _, session = server
    names = list(session.names)
    bot = next(seat for seat in range(4) if seat != session.seat)
    session.names[bot] = '<img src=x id="injected">'
    try:
        page.evaluate("refresh()")
        page.wait_for_function("() => state.seats.some((name) => name.includes('<img'))")
        # the bot in the current trick, in the last trick and in the declarations
        page.evaluate(
            f"""() => {{
                const play = {{seat: {bot}, cards: []}};
                state.trick.plays = [play];
                state.bids = [{{seat: {bot}, cards: []}}];
                state.last_trick = {{winner: {bot}, points: 0, plays: [play]}};
                showLast = true;
                draw();
            }}"""
        )
        assert page.locator("#injected").count() == 0
        assert "<img src=x" in page.locator("#trick").inner_text()
    finally:
        session.names[:] = names
        page.evaluate("() => { showLast = false; refresh(); }")


def test_a_second_tab_watches_until_it_starts_its_own_match(page, server):
    _, session = server
    second = page.context.browser.new_page()  # a tab of its own, its own sessionStorage
    second.goto(page.url)
    second.wait_for_function("() => state && document.body.classList.contains('watching')")
    assert "Another tab plays this match" in second.inner_text("#prompt")
    assert second.locator("#play").is_disabled()
    seed = session.seed
    second.once("dialog", lambda dialog: dialog.dismiss())
    second.click("#new")
    second.wait_for_timeout(300)
    assert session.seed == seed, "a dismissed question changes nothing"
    second.once("dialog", lambda dialog: dialog.accept())
    click(second, "#new", "/api/new")
    assert session.seed != seed or session.hands == []
    assert not second.evaluate("document.body.classList.contains('watching')")
    page.evaluate("post('/api/clear')")  # the first tab's next click
    page.wait_for_function("() => document.body.classList.contains('watching')")
    assert "Another tab plays this match" in page.inner_text("#prompt")
    second.close()
