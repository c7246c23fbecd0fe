"""The follow, review and puzzle pages in a real browser (Debian's Chromium, Playwright).

tests/browser_support.py launches the browser: never Playwright's own download; without
Playwright or /usr/bin/chromium every test here skips and says why.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from click.testing import CliRunner
import browser_support  # noqa: F401 (skips this module when there is no browser)
from web_support import FOLLOWED, FOLLOWED_DEAL, followed_entries, live_server

from solver.cli import main

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with live_server(tmp_path_factory.mktemp("pages")) as base:
        yield base


def new_page(browser, viewport):
    ctx = browser.new_context(viewport=viewport, accept_downloads=True)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # a cap for each wait on the page's state, never a pause: a loaded machine is slow
    pg.set_default_timeout(60_000)
    return ctx, pg, errors


@pytest.fixture
def page(browser):
    ctx, pg, errors = new_page(browser, {"width": 1280, "height": 800})
    yield pg
    ctx.close()
    assert errors == [], errors


@pytest.fixture
def phone(browser):
    ctx, pg, errors = new_page(browser, PHONE)
    yield pg
    ctx.close()
    assert errors == [], errors


def ready(page, url):
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", state="attached")


# ------------------------------------------------------------ following a game

def hand_cards(move: str) -> list[str]:
    """The cards a move takes from its seat's hand: ``8D/JD`` -> JD, ``+JC`` -> JC."""
    if move in ("take", "pass"):
        return []
    body = move.split("/")[-1].lstrip("+>!")
    return body.split(",")


def entries_text(page) -> str:
    return page.evaluate("document.getElementById('fw-entries').textContent")


def click_board_move(page, root: str, move: str, board: str) -> None:
    """Play ``move`` on the board component by clicks: its hand cards, then the button
    or the attack card it covers where the cards have several uses.

    ``board`` is the page's board object: whether the cards already named the move
    is read from its state (a selection still open), not guessed after a pause -- the
    move's request may take any time on a loaded machine."""
    if not hand_cards(move):
        page.click(f"{root} .action[data-move='{move}']")
        return
    for c in hand_cards(move):
        page.click(f"{root} .card.playable[data-card='{c}']")
    if page.evaluate(f"{board}.selected.length") == 0:
        return  # the cards named one move: the board sent it
    act = page.locator(f"{root} .action[data-move='{move}']")
    if act.count():
        act.click()
    elif "/" in move:
        page.click(f"{root} .card.target[data-card='{move.split('/')[0]}']")


def click_entry(page, entry: str, me: int) -> None:
    """Enter one entry of the game by clicks only: your own moves on the board, the
    other seat's cards in the grid of unseen cards (and the choice its buttons offer),
    take/passed as buttons, your drawn cards in the grid."""
    before = entries_text(page)
    changed = "(b) => document.getElementById('fw-entries').textContent !== b"
    if entry.startswith("draw "):
        for c in entry.split()[1:]:
            page.click(f"#fw-grid .card.playable[data-card='{c}']")
    else:
        seat, move = entry.split(":", 1)
        if int(seat) == me:
            click_board_move(page, "#fw-board", move, "Follow.board")
        elif not hand_cards(move):
            page.click(f"#fw-buttons button[data-entry='{entry}']")
        else:
            for c in hand_cards(move):
                page.click(f"#fw-grid .card.playable[data-card='{c}']")
            # a card with one use is entered at once (the page is busy until the answer
            # comes); else the page offers the entry's button
            if not page.evaluate("Follow.busy") and entries_text(page) == before:
                page.click(f"#fw-buttons button[data-entry='{entry}']")
    page.wait_for_function(changed, arg=before)
    assert page.inner_text("#fw-error") == "", (entry, page.inner_text("#fw-error"))


def start_following(page, server) -> None:
    ready(page, f"{server}/follow?new=1")
    page.click(f"#fs-grid .card[data-card='{FOLLOWED_DEAL['trump']}']")
    for c in FOLLOWED_DEAL["deal"]:
        page.click(f"#fs-grid .card[data-card='{c}']")
    page.select_option("#fs-attacker", str(FOLLOWED_DEAL["attacker"]))
    page.click("#fs-start")
    page.wait_for_selector("#game:not([hidden])")


def test_a_whole_game_followed_by_clicks_on_a_phone_downloads_the_hand_written_record(
        phone, server):
    page = phone
    start_following(page, server)
    assert page.inner_text("#fw-prompt") == "Your move: lead a card"
    hinted = False
    for i, entry in enumerate(followed_entries()):
        if i >= 10 and not hinted and entry.startswith("1:") and \
                page.inner_text("#fw-prompt").startswith("Your move"):
            hinted = True  # a hint mid-game: the hint table for seat 1, every public fact known
            page.click("#fw-hint")
            page.wait_for_selector("#fw-hint-result table.hint-table", timeout=60_000)
            assert page.inner_text("#fw-hint-result .verdict").startswith("recommended: ")
        if i == 20:
            assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        click_entry(page, entry, me=1)
    assert hinted
    assert page.inner_text("#fw-prompt").startswith("Game over: draw")
    with page.expect_download() as dl:
        page.click("#fw-record")
    assert Path(dl.value.path()).read_text() == FOLLOWED
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # the review right here: every chance marked exact or an estimate, the page's width kept
    page.click("#fw-review-here")
    page.wait_for_selector("#fw-hint-result .review-table", timeout=120_000)
    hows = page.locator("#fw-hint-result .review-table td .how").all_inner_texts()
    assert hows and all(h == "exact" or h.startswith(("est. ", "all ")) for h in hows), hows
    assert "exact" in hows and any(h.startswith("est. ") for h in hows)
    # chances and losses as percentages, the exact ones as values; every column shown
    heads = page.locator("#fw-hint-result .review-table th").all_inner_texts()
    assert heads[1].split() == ["played", "chance"] and heads[3] == "loss"
    assert heads[2].split() == ["best", "best", "chance"]
    losses = page.locator("#fw-hint-result .review-table tbody td.loss").all_inner_texts()
    assert losses and all(re.fullmatch(r"\d+%", x) for x in losses), losses
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_an_impossible_entry_shows_the_rule_and_a_reload_goes_on(page, server):
    start_following(page, server)
    for e in followed_entries()[:4]:  # 1:QC 2:take draw QH 1:KD
        click_entry(page, e, me=1)
    # a card the other seat cannot have played is not offered; an entry typed by hand
    # (the API) would be refused with its rule, and the game is not lost
    assert page.locator("#fw-grid .card.playable[data-card='9D']").count() == 0
    page.click("#fw-grid .card.playable[data-card='AD']")  # one use: covers KD
    page.wait_for_function("document.getElementById('fw-entries').textContent.includes('A')")
    page.click("#fw-undo")
    page.wait_for_function("!document.getElementById('fw-entries').textContent.includes('A\u2666')")
    page.reload()
    page.wait_for_selector("body[data-ready='1']", state="attached")
    assert page.inner_text("#fw-prompt").startswith("Seat 2 defends")
    page.evaluate("fetch(`/api/follow/${Follow.id}/enter`, {method: 'POST', headers: "
                  "{'Content-Type': 'application/json'}, body: JSON.stringify({entry: '2:KD/7H'})})"
                  ".then(r => r.json()).then(d => { window.refused = d.error; })")
    page.wait_for_function("window.refused !== undefined")
    assert page.evaluate("window.refused") == "'2:KD/7H': 7H is seen twice: it is in seat 1's hand"


# ------------------------------------------------------------ the review

@pytest.fixture(scope="module")
def match_record(tmp_path_factory) -> str:
    d = tmp_path_factory.mktemp("match")
    r = CliRunner().invoke(main, ["match", "--a", "random", "--b", "random", "--games", "1",
                                  "--players", "2", "--seed", "1", "--record", str(d)])
    assert r.exit_code == 0, r.stderr
    return (d / "deal0000-a1.txt").read_text()


def test_a_match_record_reviewed_and_its_decisive_move_jumped_to(page, server, match_record):
    ready(page, f"{server}/review")
    page.fill("#rv-text", match_record)
    page.fill("#rv-time", "600")  # the whole review, however busy the machine
    page.click("#rv-go")
    page.wait_for_selector("#rv-progress:not([hidden])")
    # the table and the chart fill in while the review goes on
    page.wait_for_selector("#rv-chart .pt")
    page.wait_for_selector("#rv-summary .status-line", timeout=300_000)
    want = json.loads(CliRunner().invoke(main, ["review", "--json", "--max-time", "600", "-"],
                                         input=match_record).stdout)
    assert want["decisive"] == [65]
    assert page.locator("#rv-chart .pt").count() == len(want["decisions"])
    assert page.locator("#rv-moves tr.decisive").count() == 1
    # each chance as `durak review` prints it: a percentage, an exact value in words; a
    # move as good as the best within the noise marked so (moves 1, 16, 19 and 26 here)
    shown = dict(page.evaluate("""[...document.querySelectorAll('#rv-moves tr[data-move]')]
        .map(tr => [tr.dataset.move, tr.cells[3].textContent])"""))
    for d in want["decisions"]:
        text = d["played_value"] if d["exact"] else f"{100 * d['played_chance']:.0f}%"
        as_good = d["as_good"] and d["best"] != d["played"]
        assert shown[str(d["move"])] == text + ("=" if as_good else ""), d
    assert [d["move"] for d in want["decisions"] if d["as_good"] and d["best"] != d["played"]] \
        == [1, 16, 19, 26]
    page.click("#rv-moves tr[data-move='1']")
    assert page.inner_text("#rv-detail .detail") == "best chance 48%; best 9\u2660: 48%; loss 0%"
    assert page.inner_text("#rv-as-good") == "= as good as the best within the noise"
    mean = want["summary"][0]["mean_loss"]
    assert page.inner_text("#rv-summary .status-line").endswith(f"; mean loss {100 * mean:.1f}%")
    page.click("#rv-summary .decisive-link")
    assert page.inner_text("#rv-where").startswith("before move 65 of")
    assert "Decisive:" in page.inner_text("#rv-detail")
    assert page.locator("#rv-moves tr.current[data-move='65']").count() == 1
    # a point of the chart jumps there too
    page.click("#rv-first")
    page.click("#rv-chart .pt[data-move='65']")
    assert page.inner_text("#rv-where").startswith("before move 65 of")
    # the pile is empty there: the exact analysis is one click away, in a tab of its
    # own with the analysis started; the review stays where it was
    assert page.inner_text("#rv-analyse") == "Analyse this position exactly"
    assert page.get_attribute("#rv-analyse", "target") == "_blank"
    with page.context.expect_page() as tab:
        page.click("#rv-analyse")
    board = tab.value
    board.wait_for_selector("#analysis-result .verdict", timeout=60_000)
    assert board.locator("#analysis-result table.moves tbody tr").count() > 0
    board.close()
    assert page.inner_text("#rv-where").startswith("before move 65 of")
    assert page.locator("#rv-chart .pt").count() == len(want["decisions"])


def test_a_review_whose_time_runs_out_lists_the_moves_not_reached(page, server, tmp_path):
    """Issue 73: the review's seconds are the whole review's; the decisions it did not
    reach are listed under the table, never guessed."""
    r = CliRunner().invoke(main, ["match", "--a", "greedy", "--b", "random", "--games", "1",
                                  "--players", "2", "--seed", "5", "--record", str(tmp_path)])
    assert r.exit_code == 0, r.stderr
    ready(page, f"{server}/review")
    page.fill("#rv-text", (tmp_path / "deal0000-a1.txt").read_text())
    page.fill("#rv-time", "0.05")
    page.click("#rv-go")
    page.wait_for_selector("#rv-summary .not-reached", timeout=120_000)
    text = page.inner_text("#rv-summary .not-reached")
    assert text.startswith("Not reached: move") and "raise the seconds above" in text


def test_a_kept_game_opens_in_the_review_by_its_id(page, server):
    with page.expect_response(lambda r: r.url.endswith("/api/follow") and
                              r.request.method == "POST") as resp:
        page.goto(f"{server}/follow?new=1")
        page.wait_for_selector("body[data-ready='1']", state="attached")
        page.evaluate("document.getElementById('fs-record').value = " + json.dumps(FOLLOWED))
        page.click("#fs-open")
    gid = resp.value.json()["id"]
    ready(page, f"{server}/review?id={quote(gid)}")
    page.wait_for_selector("#rv-moves tr[data-move]")
    moves = [e for e in followed_entries() if not e.startswith("draw")]
    assert page.locator("#rv-moves tr[data-move]").count() == len(moves)
    if page.is_visible("#rv-cancel"):  # (reviewed before in this module: the kept answer)
        page.click("#rv-cancel")


# ------------------------------------------------------------ puzzles

def test_solve_one_puzzle_and_fail_one_with_its_refutation(page, server):
    ready(page, f"{server}/puzzles?id=pod-001")
    assert page.inner_text("#pz-task").startswith("Seat 1 to move and win")
    # a wrong move: the refutation, the position as it was, the puzzle failed
    page.click("#pz-board .action[data-move='take']")
    page.wait_for_selector("#pz-refutation")
    assert page.inner_text("#pz-wrong").startswith("\u2717 Wrong: after take you lose")
    assert page.inner_text("#pz-refutation") == \
        "Refutation: 2:Q\u2665 1:Q\u2665/9\u2666 \u2014 seat 1 is the durak"
    assert json.loads(page.evaluate("localStorage.getItem('durak.puzzles')")) == \
        {"pod-001": "failed"}
    # another puzzle solved by clicks: the solution's moves, the solver's best defence between
    page.click("#pz-next")
    page.wait_for_function("document.getElementById('pz-title').textContent.startsWith('pod-002')")
    play_to_the_end(page, "pod-002")
    page.wait_for_selector("#pz-solved")
    tally = json.loads(page.evaluate("localStorage.getItem('durak.puzzles')"))
    assert tally == {"pod-001": "failed", "pod-002": "solved"}
    assert page.inner_text("#pz-tally").startswith("Solved 1 \u00b7 failed 1 of ")


def play_to_the_end(page, pid: str) -> None:
    """Click a good move (one the server judges ok) until the puzzle is over: the
    solution's moves, the solver's best defence between."""
    over = ("document.getElementById('pz-solved') !== null || "
            "document.getElementById('pz-finished') !== null")
    for _ in range(10):
        if page.evaluate(over):
            return
        moves = page.evaluate("Puzzles.board.view.moves.map(m => m.move)")
        good = None
        for m in moves:
            ok = page.evaluate(
                f"(m) => api(`/api/puzzles/{pid}/move`, {{line: Puzzles.line, move: m}})"
                ".then(r => r.data.ok)", m)
            if ok:
                good = m
                break
        assert good is not None
        before = page.evaluate("Puzzles.line.length")
        click_board_move(page, "#pz-board", good, "Puzzles.board")
        page.wait_for_function(f"Puzzles.line.length > {before} || {over}")
    assert page.evaluate(over)


def test_a_wrong_move_fails_the_puzzle_even_when_start_again_finds_the_right_line(page, server):
    """A wrong move fails the puzzle for that try, whatever follows: Start again and
    the right line are practice; the tally, the list's mark and its count say failed,
    as `durak puzzle train` counts it (tests/test_puzzle_cli.py)."""
    ready(page, f"{server}/puzzles?id=pod-001")
    page.click("#pz-board .action[data-move='take']")
    page.wait_for_selector("#pz-refutation")
    page.click("#pz-restart")
    page.wait_for_function("document.getElementById('pz-verdict').textContent === ''")
    play_to_the_end(page, "pod-001")
    assert page.locator("#pz-solved").count() == 0
    assert "the tally keeps the first try, failed" in page.inner_text("#pz-finished")
    assert json.loads(page.evaluate("localStorage.getItem('durak.puzzles')")) == \
        {"pod-001": "failed"}
    assert page.inner_text("#pz-tally").startswith("Solved 0 \u00b7 failed 1 of ")
    assert page.inner_text("#pz-list li.current .mark-failed") == "\u2717"
    assert "(0 of " in page.inner_text("#pz-list details[open] summary")
    # opened anew from the list and solved cleanly: still the first try's failure
    page.click("#pz-list li.current a")
    page.wait_for_function("document.getElementById('pz-verdict').textContent === ''")
    play_to_the_end(page, "pod-001")
    assert page.locator("#pz-solved").count() == 0
    assert page.inner_text("#pz-tally").startswith("Solved 0 \u00b7 failed 1 of ")
