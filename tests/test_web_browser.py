"""The web board in a real browser: Debian's Chromium driven by Playwright
(tests/browser_support.py: without Playwright or the browser every test here
skips and says why; a browser that is there but fails is a failure).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import browser_support  # noqa: F401 (skips this module when there is no browser)
from web_support import HARD, SMALL, live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with live_server(tmp_path_factory.mktemp("web")) as base:
        yield base


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # a cap for each wait on the page's state, never a pause: a loaded machine is slow
    pg.set_default_timeout(60_000)
    yield pg
    ctx.close()
    assert errors == [], errors


def open_board(page, server, position=SMALL):
    from urllib.parse import quote
    page.goto(f"{server}/?position={quote(position)}")
    page.wait_for_selector("body[data-ready='1']", state="attached")


def status(page, root="#board") -> str:
    return page.locator(f"{root} .status").inner_text()


# ------------------------------------------------------------ the board

def test_the_page_draws_the_position_of_its_url(page, server):
    open_board(page, server)
    assert page.locator("#board .seat").count() == 2
    assert page.locator("#board .seat[data-seat='1'] .hand .card").count() == 3
    assert page.locator("#board .trump-suit").inner_text() == "\u2665"
    assert status(page) == "Seat 1 leads"
    # the seat to move's cards are the ones to click
    playable = page.locator("#board .card.playable")
    assert sorted(playable.evaluate_all("els => els.map(e => e.dataset.card)")) == ["6S", "7S", "KH"]


def test_a_bad_position_shows_the_parsers_line_beside_the_box(page, server):
    open_board(page, server)
    page.fill("#position-text", "trump H; hands 6S 6S; attacker 1")
    page.click("#position-show")
    page.wait_for_function("document.getElementById('position-error').textContent.length > 0")
    assert page.inner_text("#position-error") == \
        "hands: 1 seat(s) given; a game has 2..6 players (R3)"


def test_a_bad_position_from_a_link_is_put_in_the_box_beside_its_error(page, server):
    """A shared link whose position is refused: the text goes into the box, so the
    column the error names is there to be read and mended."""
    bad = "trump H; hands 6S 7S | 8C 5C; attacker 1"
    open_board(page, server, bad)
    assert "unknown card '5C'" in page.inner_text("#position-error")
    assert page.input_value("#position-text") == bad


def test_moves_are_played_by_clicks(page, server):
    open_board(page, server, "trump H; hands 9S KH | 9C AH TD; table 6S/8S 8C; attacker 1")
    assert status(page).startswith("Seat 2 defends")
    # 9C covers 8C and nothing else: one click plays it
    page.click("#board .card.playable[data-card='9C']")
    page.wait_for_function("document.querySelector('#board .status').textContent.startsWith('Seat 1')")
    assert page.locator("#board .pair").count() == 2
    assert page.locator("#board .pair .cover").count() == 2
    page.click("#board .action[data-move='pass']")
    page.wait_for_function("document.querySelector('#board .status').textContent === 'Seat 2 leads'")
    assert page.locator("#board .pair").count() == 0
    page.click("#nav-back")
    assert status(page).startswith("Seat 1 may throw in")


def test_a_multi_card_lead_and_a_cover_choice_by_clicks(page, server):
    open_board(page, server, "trump H; hands 6S 6D 9H | 7S 7D 8D KH; attacker 1")
    page.click("#board .card.playable[data-card='6S']")
    # one card picked: 'Lead 6S' is offered, or more cards of its rank
    assert page.locator("#board .action[data-move='6S']").count() == 1
    page.click("#board .card.playable[data-card='6D']")
    page.wait_for_function("document.querySelector('#board .status').textContent.startsWith('Seat 2')")
    assert page.locator("#board .pair").count() == 2
    # 8D covers 6D, and it could cover nothing else; KH could cover either card
    page.click("#board .card.playable[data-card='KH']")
    targets = page.locator("#board .card.target")
    assert sorted(targets.evaluate_all("els => els.map(e => e.dataset.card)")) == ["6D", "6S"]
    page.click("#board .card.target[data-card='6S']")
    page.wait_for_function("document.querySelectorAll('#board .pair .cover').length === 1")


def test_a_transfer_and_a_take_by_clicks(page, server):
    open_board(page, server, "trump S; hands 9D 8C | 7H TD 8D | JS 9C QC; table 7D; attacker 1; "
                             "rules transfer")
    assert status(page).startswith("Seat 2 defends")
    page.click("#board .card.playable[data-card='7H']")  # its one use: the transfer (R14)
    page.wait_for_function("document.querySelector('#board .status').textContent"
                           ".startsWith('Seat 3 defends')")
    assert page.locator("#board .pair .attack").count() == 2
    page.click("#board .action[data-move='take']")
    # nobody holds a seven to throw in (F2): seat 3 picks both up, seat 1 leads (R18)
    page.wait_for_function("document.querySelector('#board .status').textContent"
                           " === 'Seat 1 leads'")
    assert page.inner_text("#board .seat[data-seat='3'] .seat-size") == "5 cards"


# ------------------------------------------------------------ the analysis

def test_build_a_position_in_the_editor_and_solve_it(page, server):
    open_board(page, server)
    page.click("#tab-editor")
    # the editor opens on the board's position
    page.wait_for_function("document.getElementById('ed-text').textContent === "
                           "'trump H; hands 6S 7S KH | AH 8C 9C; attacker 1'")
    page.click("#ed-clear")
    page.wait_for_function("document.getElementById('ed-text').textContent === "
                           "'trump H; hands - | -'")  # no cards: a finished game
    # seat 1: 6S 7S KH; seat 2: 8C 9C AH (hearts are trump by default)
    for card in ("6S", "7S", "KH"):
        page.click(f"#ed-grid .card[data-card='{card}']")
    page.click("#ed-places button[data-place='h2']")
    for card in ("8C", "9C", "AH"):
        page.click(f"#ed-grid .card[data-card='{card}']")
    page.wait_for_function("document.getElementById('ed-text').textContent === "
                           "'trump H; hands 6S 7S KH | AH 8C 9C; attacker 1'")
    assert page.inner_text("#ed-status") == "\u2713 A position: Seat 1 leads"
    page.click("#ed-use")
    page.wait_for_function("document.getElementById('page-analysis').classList.contains('active')")
    page.click("#analyse-btn")
    page.wait_for_selector("#analysis-result .verdict")
    assert page.inner_text("#analysis-result .verdict") == "Seat 1 wins in 6 plies"
    rows = page.locator("#analysis-result table.moves tbody tr")
    assert rows.count() == 3


def test_an_editor_error_appears_beside_its_field(page, server):
    open_board(page, server)
    page.click("#tab-editor")
    page.fill("#ed-pile", "5")
    page.dispatch_event("#ed-pile", "change")
    spot = "#page-editor .field-error[data-field=trump]"
    page.wait_for_function(f"document.querySelector('{spot}').textContent.length > 0")
    assert "face-up" in page.inner_text(spot)
    assert page.is_disabled("#ed-use")


def test_step_through_the_variation_on_the_board(page, server):
    open_board(page, server)
    page.click("#analyse-btn")
    page.wait_for_selector("#pv-moves button")
    chips = page.locator("#pv-moves button")
    assert chips.all_inner_texts() == ["1. 6\u2660", "2. 6\u2660/A\u2665", "3. 8\u2663",
                                       "4. 8\u2663/K\u2665", "5. 7\u2660", "6. take"]
    # the next move of the variation is marked on the board
    assert page.locator("#board .card.hl[data-card='6S']").count() == 1
    seen = [status(page)]
    for _ in range(6):
        page.click("#pv-next")
        seen.append(status(page))
    assert seen == ["Seat 1 leads", "Seat 2 defends: cover every card or take", "Seat 2 leads",
                    "Seat 1 defends: cover every card or take", "Seat 1 leads",
                    "Seat 2 defends: cover every card or take",
                    "Game over: seat 2 is the durak"]
    page.click("#pv-moves button >> nth=2")
    assert status(page) == "Seat 1 defends: cover every card or take"
    page.click("#pv-prev")
    assert status(page) == "Seat 2 leads"


def test_a_long_analysis_shows_progress_and_can_be_cancelled(page, server):
    open_board(page, server, HARD)
    page.fill("#analyse-time", "60")
    page.click("#analyse-btn")
    page.wait_for_selector("#analysis-progress:not([hidden])")
    page.wait_for_function("document.getElementById('progress-text').textContent.includes('of at most 60 s')")
    page.click("#analyse-cancel")
    page.wait_for_function("document.getElementById('analysis-error').textContent.length > 0")
    assert page.inner_text("#analysis-error") == "cancelled"
    assert page.is_hidden("#analysis-progress")


def test_a_budget_that_runs_out_shows_what_was_proven(page, server):
    open_board(page, server, HARD)
    page.fill("#analyse-time", "2")
    page.click("#analyse-btn")
    page.wait_for_selector("#analysis-result .budget-note", timeout=30_000)
    assert "ran out" in page.inner_text("#analysis-result .budget-note")
    assert re.match(r"Seat 1 (wins|loses|draws)|Seat 1: not proven",
                    page.inner_text("#analysis-result .verdict"))


def test_a_cut_analysis_still_recommends_a_move_with_its_estimate(page, server):
    # issue 54: a 6-6-6 endgame nothing is proven of in 1.5 s; the board names
    # a move, says how it was chosen and shows the estimate beside the table
    hard = "trump C; hands 6S JH AH 7D 9D TD | JS KS 7H TH 9C QC | 7S 9S AS JD 7C AC; attacker 3"
    open_board(page, server, hard)
    page.fill("#analyse-time", "1.5")
    page.click("#analyse-btn")
    page.wait_for_selector("#analysis-result #recommended", timeout=30_000)
    text = page.inner_text("#recommended")
    assert text.startswith("Recommended: ") and "estimated against" in text
    if page.locator("#analysis-result table.moves").count():  # some moves valued
        assert "estimate" in page.inner_text("#analysis-result table.moves thead")
        assert page.locator("#analysis-result table.moves tbody tr.current").count() == 1
    else:  # none valued: the estimate's ranking, the recommended move first
        line = page.inner_text("#analysis-result .estimate-line")
        assert line.startswith("Estimate: " + text.split()[1] + " ")
    assert "Estimate (not a proof)" in page.inner_text("#analysis-result")


#: A hidden hand; on seed 1 at 256 deals the hint recommends 6S,6D while 6D has the top
#: chance, and 6D and 6S are as good (docs/rules.md, "The chance a hint shows").
CLOSE_CALL = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; out 7S 8S 9S TS JS "
              "6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")
ROOT = Path(__file__).resolve().parent.parent
#: The cards as the board shows them, back to the notation the terminal prints to a pipe.
RANKS = {"10": "T", "\u0412": "J", "\u0414": "Q", "\u041a": "K", "\u0422": "A"}
SUITS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}


def ascii_text(text: str) -> str:
    """A line of the board as `durak hint` prints it to a pipe: 6\u2660 as 6S, \u2605 as *."""
    return re.sub(r"(10|[2-9JQKA\u0412\u0414\u041a\u0422])([\u2660\u2665\u2666\u2663])",
                  lambda m: RANKS.get(m[1], m[1]) + SUITS[m[2]], text).replace("\u2605", "*")


def terminal_hint(position: str, seed: int, samples: int, lang: str) -> tuple[list, list, list]:
    """`durak hint` written to a pipe: its table's head, its rows (mark, move, chance,
    95% interval) and the lines under the table."""
    out = subprocess.run([sys.executable, "-m", "solver.cli", "--lang", lang, "hint", position,
                          "--seed", str(seed), "--samples", str(samples)], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    cells = [[c.strip() for c in line.split("\u2502" if line[0] == "\u2502" else "\u2503")[1:-1]]
             for line in out if line[:1] in ("\u2502", "\u2503")]
    end = max(i for i, line in enumerate(out) if line.startswith("\u2514"))
    return cells[0], cells[1:], out[end + 1:]


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_web_hint_table_shows_what_the_terminal_prints(browser, server, lang):
    """The same position and seed: the board's hint table has the terminal's rows in its
    order, each with the same mark (\u2605/*, =), chance and interval, written the same
    way in the player's language; the same head, recommendation, call and footnote."""
    head, rows, under = terminal_hint(CLOSE_CALL, 1, 256, lang)
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, locale=lang,
                              extra_http_headers={"Accept-Language": lang})
    pg = ctx.new_page()
    try:
        open_board(pg, server, CLOSE_CALL)
        pg.evaluate("(pos) => api('/api/hint', {position: pos, seed: 1, samples: 256}).then(r => {"
                    " const out = document.getElementById('analysis-result'); out.textContent = '';"
                    " out.appendChild(hintTable(r.data)); window.hinted = r.data; })", CLOSE_CALL)
        pg.wait_for_selector("#analysis-result table.hint-table")
        ans = pg.evaluate("window.hinted")
        web = pg.evaluate("""[...document.querySelectorAll('#analysis-result table.hint-table tbody tr')]
            .map(tr => [tr.cells[0].textContent, tr.dataset.move, tr.cells[2].textContent,
                        tr.cells[3].textContent])""")
        web_head = pg.locator("#analysis-result table.hint-table th").all_inner_texts()
        lines = pg.evaluate("""[...document.querySelectorAll('#analysis-result :is(.hint-recommended, '
            + '.hint-call, .hint-learned, .hint-foot)')].map(e => e.textContent)""")
    finally:
        ctx.close()
    assert [[ascii_text(c) for c in r] for r in web] == rows
    assert [h.strip() for h in web_head] == head
    assert [ascii_text(x) for x in lines] == [x for x in under if x]
    # the close call of docs/rules.md: the star is not on the top row
    assert ans["best"] == "6S,6D" and ans["top"] == "6D" == rows[0][1]
    assert {r[1]: r[0] for r in rows if r[0]} == {"6D": "=", "6S": "=", "6S,6D": "*"}


def test_the_hint_shows_the_chance_in_a_players_words_and_the_engines_figures_on_request(
        page, server):
    """The hint on the board: the rows in the answer's order, the recommended one starred
    and highlighted, the moves as good as it marked =; none of the engine's words
    (utility, greedy, standard error, kept) in what a player reads; the engine's
    figures per move and how the deals were scored behind the details toggle."""
    open_board(page, server, CLOSE_CALL)
    page.click("#analyse-btn")
    page.wait_for_selector("#analysis-result table.hint-table", timeout=60_000)
    ans = page.evaluate("Analysis.ana.answer")
    rows = page.evaluate("""[...document.querySelectorAll('#analysis-result table.hint-table tbody tr')]
        .map(tr => [tr.dataset.move, tr.cells[0].textContent, tr.classList.contains('recommended')])""")
    assert [r[0] for r in rows] == [m["move"] for m in ans["moves"]]
    for (move, mark, highlighted), m in zip(rows, ans["moves"]):
        assert mark == ("\u2605" if move == ans["best"] else "=" if m["as_good"] else "")
        assert highlighted == (move == ans["best"])
    assert page.inner_text("#analysis-result th.sorted") == "chance \u25bc"
    # what a player reads: the details closed, the server's call aside (its own words)
    view = page.inner_text("#analysis-result")
    assert "recommended: " in view and "deals won" not in view
    own = view.replace(page.inner_text("#analysis-result .hint-call"), "")
    for word in ("utility", "greedy", "standard error", "kept", "win share"):
        assert word not in own.lower(), word
    # the engine's figures, on request
    page.click("#analysis-result details.hint-details summary")
    det = page.inner_text("#analysis-result details.hint-details")
    for col in ("deals won", "drawn", "lost", "mean score", "best in", "card margin"):
        assert col in det
    assert page.locator("#analysis-result table.hint-engine tbody tr").count() == len(ans["moves"])
    assert f"{ans['samples']:,} deals of {ans['deals_total']:,} possible" in det


def test_a_phone_width_window_has_no_sideways_scrolling(browser, server):
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    pg = ctx.new_page()
    try:
        open_board(pg, server, "trump S; hands 7D 9D 6C 8C TC JC | 8D TD QC KC | JS QS AS 7H; "
                               "attacker 1")
        for tab in ("analysis", "editor"):
            pg.click(f"#tab-{tab}")
            pg.wait_for_selector(f"#page-{tab}.active")
            width = pg.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (tab, width)
    finally:
        ctx.close()


# ------------------------------------------------------------ a game

def click_some_move(page) -> None:
    """Make one legal move of the player by clicks: a card (and, where it has several
    uses, the attack card it covers or the first button offered), else a button."""
    cards = page.locator("#play-board .card.playable")
    if cards.count():
        cards.first.click()
        if page.locator("#play-board .card.selected").count():
            targets = page.locator("#play-board .card.target")
            if targets.count():
                targets.first.click()
            else:
                page.locator("#play-board .actions .action").first.click()
    else:
        page.locator("#play-board .actions .action").first.click()


def wait_for_my_turn(page) -> str:
    page.wait_for_function(
        "() => { const s = document.getElementById('play-status').textContent;"
        " return s.startsWith('Your move') || s.startsWith('Game over'); }", timeout=60_000)
    return page.inner_text("#play-status")


def test_a_whole_game_by_clicks_with_a_hint_and_a_reload(page, server):
    page.goto(server + "/")
    page.wait_for_selector("body[data-ready='1']", state="attached")
    page.click("#tab-play")
    page.select_option("#pl-engine", "greedy")
    page.fill("#pl-seed", "7")
    page.click("#pl-start")
    moves, hinted, reloaded = 0, False, False
    for _ in range(400):
        st = wait_for_my_turn(page)
        if st.startswith("Game over"):
            break
        if moves == 3 and not hinted:
            hinted = True
            page.click("#play-hint")
            page.wait_for_selector("#play-hint-result table.hint-table", timeout=60_000)
            assert page.inner_text("#play-hint-result .verdict").startswith("recommended: ")
        if moves == 6 and not reloaded:
            reloaded = True
            history = page.inner_text("#play-log")
            page.reload()
            page.wait_for_selector("body[data-ready='1']", state="attached")
            wait_for_my_turn(page)
            assert page.inner_text("#play-log") == history  # the same game goes on
            continue
        before = page.evaluate("document.getElementById('play-log').textContent")
        click_some_move(page)
        page.wait_for_function(
            "(b) => document.getElementById('play-log').textContent !== b", arg=before)
        moves += 1
    else:
        raise AssertionError("the game did not end")
    assert hinted and reloaded and moves > 6
    # a bout's end tells each other seat that could have added cards as done, dim as
    # at the terminal (the muted colour of the lines that are not moves)
    done = page.locator("#play-log .told-done")
    assert done.count() and done.first.inner_text() == "Seat 2: done"
    colour = "(s) => getComputedStyle(document.querySelector(s)).color"
    assert page.evaluate(colour, "#play-log .told-done") == page.evaluate(colour, "#play-log .told-turn")
    assert re.match(r"Game over: .*; (you win|you lose|a draw for you)$",
                    page.inner_text("#play-status"))
    # the record can be downloaded
    with page.expect_download() as dl:
        page.click("#play-record")
    text = Path(dl.value.path()).read_text()
    assert text.startswith("# durak game record") and "engine 2 greedy" in text
