"""The game in English, Lithuanian and Russian (issue 64): the catalogues complete and
in step with the code, plural forms, the language chosen at the terminal and by the
browser, Russian rank letters, the pages served translated, puzzles in three languages,
and --json, records and files left in the canonical English notation."""
from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from english_words import left_in_english
from web_support import client

from solver.cli import main
from solver.game.cards import make_card, parse_card
from solver.games.narration import Told
from solver.i18n import (LANGUAGES, catalogue_json, ngettext, translations,
                         use_language)
from solver.i18n.choose import for_request, from_accept_language, from_environment
from solver.notation.people import card_text, move_text, move_word, people_text
from solver.puzzles.collection import WORD_LANGUAGES, load_all
from solver.i18n.html import translate
from solver.web.pages import messages, source

babel = pytest.importorskip("babel", reason="the catalogue checks need Babel (the test extra)")
from solver.i18n import tools  # noqa: E402  (Babel first)

ROOT = Path(__file__).resolve().parent.parent
PAGES = ("index", "follow", "review", "puzzles", "rules", "pair")


# ------------------------------------------------------------------ the catalogues

@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_the_code_marks_is_translated_in_each_catalogue(lang):
    """No message missing, fuzzy or untranslated; every placeholder ({seat}) and every
    HTML tag of the English in the translation; no message the code no longer uses."""
    assert tools.problems(lang) == []


def test_the_check_fails_on_a_missing_a_fuzzy_and_a_changed_placeholder(tmp_path):
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    template = Catalog(domain="durak")
    template.add("Seat {seat} takes")
    template.add("Pile")
    template.add("Trump")
    template.add(("{n} card", "{n} cards"))
    template.add('Use <a href="#" id="go">this</a>')
    cat = Catalog(locale="ru", domain="durak")
    cat.add("Seat {seat} takes", "Игрок {игрок} берёт")         # a placeholder translated
    cat.add("Pile", "Колода", flags=["fuzzy"])                   # fuzzy
    cat.add(("{n} card", "{n} cards"), ("{n} карта", "{n} карты"))  # a form short
    cat.add('Use <a href="#" id="go">this</a>', "Откройте это")  # the link lost
    path = tmp_path / "durak.po"
    with path.open("wb") as f:
        write_po(f, cat)
    found = "\n".join(tools.problems("ru", path, template))
    assert "'Seat {seat} takes': placeholders" in found
    assert "'Pile': fuzzy" in found
    assert "'Trump': missing" in found
    assert "'{n} card': untranslated" in found  # its third form (5 карт) is missing
    assert "HTML tags differ" in found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_compiled_catalogue_holds_what_its_source_says(lang):
    """The .mo Python reads at run time is the .po of the repository, compiled (the build
    compiles it: setup.py; after an edit, `python -m solver.i18n.tools compile`)."""
    from babel.messages.pofile import read_po

    with tools.po_path(lang).open("rb") as f:
        source = read_po(f, locale=lang)
    t = translations(lang)
    assert type(t).__name__ == "GNUTranslations", "the .mo is missing: compile the catalogues"
    for m in source:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, tuple):
            for i, form in enumerate(m.string):
                n = next(k for k in range(1, 200) if t.plural(k) == i)
                got = (t.npgettext(m.context, m.id[0], m.id[1], n) if m.context
                       else t.ngettext(m.id[0], m.id[1], n))
                assert got == form, (m.context, m.id, n)
        elif m.context:
            assert t.pgettext(m.context, m.id) == m.string
        else:
            assert t.gettext(m.id) == m.string


@pytest.mark.parametrize("lang, forms", [
    ("en", {1: "1 card", 2: "2 cards", 5: "5 cards", 11: "11 cards", 21: "21 cards",
            22: "22 cards", 25: "25 cards"}),
    ("lt", {1: "1 korta", 2: "2 kortos", 5: "5 kortos", 10: "10 kortų", 11: "11 kortų",
            21: "21 korta", 22: "22 kortos", 25: "25 kortos", 30: "30 kortų"}),
    ("ru", {1: "1 карта", 2: "2 карты", 5: "5 карт", 11: "11 карт", 21: "21 карта",
            22: "22 карты", 25: "25 карт", 111: "111 карт"}),
])
def test_plural_forms_of_cards(lang, forms):
    with use_language(lang):
        got = {n: ngettext("{n} card", "{n} cards", n).format(n=n) for n in forms}
    assert got == forms


@pytest.mark.parametrize("lang, told", [
    ("lt", {1: "Žaidėjas 2 traukia 1 kortą", 2: "Žaidėjas 2 traukia 2 kortas",
            5: "Žaidėjas 2 traukia 5 kortas", 21: "Žaidėjas 2 traukia 21 kortą",
            22: "Žaidėjas 2 traukia 22 kortas", 25: "Žaidėjas 2 traukia 25 kortas"}),
    ("ru", {1: "Игрок 2 добирает 1 карту", 2: "Игрок 2 добирает 2 карты",
            5: "Игрок 2 добирает 5 карт", 21: "Игрок 2 добирает 21 карту",
            22: "Игрок 2 добирает 22 карты", 25: "Игрок 2 добирает 25 карт"}),
])
def test_the_narration_counts_cards_in_the_plural_forms(lang, told):
    with use_language(lang):
        got = {n: Told("draw", 2, 1, (), n).text() for n in told}
    assert got == told


def test_the_board_script_gets_the_catalogues_own_plural_rule():
    """The rule the page's script evaluates (i18n.js) is the catalogue's header, and it
    picks the same forms as gettext: 1, 21 / 2, 22 / 5, 11, 25."""
    for lang in LANGUAGES:
        data = catalogue_json(lang)
        rule = data["plural"]
        py = (rule.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
              .replace(" not =", "!="))
        py = re.sub(r"(.+?)\?(.+?):(.+)", lambda m: f"({m.group(2)} if {m.group(1)} else "
                    f"({_ternary(m.group(3))}))", py)
        for n in (0, 1, 2, 5, 11, 12, 21, 22, 25, 101, 111):
            assert eval(py, {"n": n}) == translations(lang).plural(n), (lang, n, rule)
        assert data["messages"]["{n} card"][0]


def _ternary(expr: str) -> str:
    m = re.match(r"(.+?)\?(.+?):(.+)", expr)
    return f"({m.group(2)} if {m.group(1)} else {_ternary(m.group(3))})" if m else expr


def test_modules_that_translate_never_shadow_the_translation_function():
    """``head, _, tail = ...`` in a module that imports ``_`` breaks every message after
    it in the same function (UnboundLocalError)."""
    bad = []
    for p in (ROOT / "solver").rglob("*.py"):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        if not any(isinstance(n, ast.ImportFrom) and n.module == "solver.i18n"
                   and any(a.name == "_" for a in n.names) for n in tree.body):
            continue
        bad += [f"{p.relative_to(ROOT)}:{n.lineno}" for n in ast.walk(tree)
                if isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store)]
    assert bad == []


# ------------------------------------------------------------------ choosing the language

@pytest.mark.parametrize("env, lang", [
    ({}, "en"),
    ({"LANG": "lt_LT.UTF-8"}, "lt"),
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"}, "ru"),
    ({"LC_MESSAGES": "ru_RU.UTF-8", "LC_ALL": "lt_LT.UTF-8"}, "lt"),
    ({"LANGUAGE": "de:ru:en", "LANG": "lt_LT.UTF-8"}, "ru"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LC_ALL": "de_DE.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"),
])
def test_the_terminal_language_from_the_environment_as_gettext_reads_it(env, lang):
    assert from_environment(env) == lang


@pytest.mark.parametrize("header, lang", [
    (None, "en"), ("", "en"), ("lt", "lt"), ("ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7", "ru"),
    ("de-DE,de;q=0.9,lt;q=0.8,ru;q=0.7", "lt"), ("en;q=0.5, ru;q=0.9", "ru"),
    ("de, fr", "en"), ("ru;q=0, lt;q=0.1", "lt"), ("*", "en"),
])
def test_the_board_language_from_accept_language(header, lang):
    assert from_accept_language(header) == lang


def test_the_switchers_cookie_wins_over_the_browser():
    assert for_request({"durak_lang": "lt"}, "ru") == "lt"
    assert for_request({"durak_lang": "xx"}, "ru") == "ru"
    assert for_request({}, "ru-RU") == "ru"


# ------------------------------------------------------------------ cards for people

def test_russian_players_read_and_type_v_d_k_t_and_the_english_letters_always():
    ace, king, jack = make_card(14, 0), make_card(13, 1), make_card(11, 3)
    with use_language("ru"):
        assert [card_text(c) for c in (ace, king, jack)] == ["Т♠", "К♥", "В♣"]
        assert card_text(ace, symbols=False) == "AS"  # ASCII: the notation, in any language
        assert move_text("AS/KH".replace("AS", "6S").replace("KH", "AS")) == "6♠/Т♠"
        assert move_text("take") == "беру" and move_text("pass") == "пас"
        assert people_text("the obvious QD loses") == "the obvious Д♦ loses"
        assert move_word("Беру") == "take" and move_word("пас") == "pass"
        assert move_word("take") == "take"
    with use_language("lt"):  # Lithuanian players write the letters of their decks: J Q K A
        assert [card_text(c) for c in (ace, king, jack)] == ["A♠", "K♥", "J♣"]
        assert move_text("take") == "imu" and move_word("imu") == "take"
    for typed, card in [("Т♠", ace), ("тs", ace), ("AS", ace), ("К♥", king), ("KH", king),
                        ("В♣", jack), ("JC", jack), ("Д♦", make_card(12, 2))]:
        assert parse_card(typed) == card
    assert people_text("Т♠/К♥ and 10♠", symbols=False) == "AS/KH and TS"
    assert parse_card("TS") == make_card(10, 0)  # the Latin T stays the ten


# ------------------------------------------------------------------ puzzles

def test_every_puzzle_has_its_title_and_comment_in_each_language():
    missing = []
    for c in load_all():
        for lang in WORD_LANGUAGES:
            for name in ("title", "introduction"):
                if c.text(name, lang) == getattr(c, name):
                    missing.append(f"{c.id} {name}_{lang}")
            for p in c.puzzles:
                for name in ("title", "comment"):
                    if getattr(p, name) and p.text(name, lang) == getattr(p, name):
                        missing.append(f"{p.id} {name}_{lang}")
    assert missing == []


# ------------------------------------------------------------------ the pages

def test_each_page_is_served_in_the_browsers_language_with_nothing_left_in_english(tmp_path):
    """Every message of a page (its texts, titles, placeholders) in the reader's
    language; the only English left is what the catalogue keeps as it is (names,
    notation: durak-solver, API)."""
    same = {lang: {k for k, v in catalogue_json(lang)["messages"].items() if v == k}
            for lang in ("lt", "ru")}
    with client(tmp_path) as c:
        for page, path in zip(PAGES, ("/", "/follow", "/review", "/puzzles", "/rules", "/pair")):
            english = {m for _line, m in messages(source(page))}
            for lang in ("lt", "ru"):
                r = c.get(path, headers={"Accept-Language": f"{lang},en;q=0.5"})
                assert r.status_code == 200
                assert r.headers["content-language"] == lang
                assert f'<html lang="{lang}">' in r.text
                left = {m for _line, m in messages(r.text)} & english
                assert left <= same[lang], (page, lang, sorted(left - same[lang]))
                data = json.loads(re.search(r'<script id="durak-i18n" type="application/json">'
                                            r"(.*?)</script>", r.text, re.S).group(1))
                assert data["lang"] == lang
                assert f'<option value="{lang}" selected ' in r.text
        ru = c.get("/", headers={"Accept-Language": "ru"}).text
        assert "Позиция и анализ" in ru and 'id="goto-editor"' in ru
        # the switcher's cookie wins over the browser's language
        c.cookies.set("durak_lang", "lt")
        assert "Padėtis ir analizė" in c.get("/", headers={"Accept-Language": "ru"}).text
        c.cookies.clear()
        assert ">Position &amp; analysis<" in c.get("/").text


def test_a_page_text_given_a_context_is_a_message_of_its_own(tmp_path):
    """``data-i18n-context``: a page link's short name on a phone ("Review": the review
    page) is not the button's "Review" (review this game); extracted with its context,
    translated with it, and its own text where a catalogue lacks it (issue 69)."""
    src = ('<nav><a><span data-i18n-context="page link">Review</span></a></nav>'
           '<button>Review</button><span data-i18n-context="nowhere">Keep me</span>')
    assert [m for _line, m in messages(src)] == ["page link\x04Review", "Review",
                                                 "nowhere\x04Keep me"]
    ru = translate(src, translations("ru").gettext, "ru")
    assert ">Разбор</span>" in ru and ">Разобрать</button>" in ru and ">Keep me<" in ru
    template = tools.extract()
    assert template.get("Review", context="page link") is not None
    assert template.get("Analysis", context="tab") is not None
    with client(tmp_path) as c:
        page = c.get("/follow", headers={"Accept-Language": "lt"}).text
    assert '<span class="short" data-i18n-context="page link">Sekti</span>' in page


def test_the_catalogue_as_json(tmp_path):
    with client(tmp_path) as c:
        r = c.get("/api/i18n/lt")
        assert r.status_code == 200
        data = r.json()
        assert data["messages"]["card rank\u0004A"] == "A"
        assert data["messages"]["{n} card"] == ["{n} korta", "{n} kortos", "{n} kortų"]
        assert c.get("/api/i18n/ru").json()["messages"]["card rank\u0004K"] == "К"
        assert c.get("/api/i18n/de").status_code == 404


def test_a_game_against_the_engine_is_told_in_the_requests_language_and_kept(tmp_path):
    """The narration and the board's words follow the language of each request: the
    game itself -- moves, cards, record -- is the same in every language."""
    with client(tmp_path) as c:
        g = c.post("/api/games", json={"players": 2, "seed": 3, "engine": "greedy"},
                   headers={"Accept-Language": "ru"}).json()
        gid = g["id"]
        for _try in range(600):  # the engine's moves first: then nothing changes between asks
            if not c.get(f"/api/games/{gid}").json()["thinking"]:
                break
            time.sleep(0.05)
        ru = c.get(f"/api/games/{gid}", headers={"Accept-Language": "ru"}).json()
        lt = c.get(f"/api/games/{gid}", headers={"Accept-Language": "lt"}).json()
        en = c.get(f"/api/games/{gid}").json()
        assert ru["board"]["position"] == lt["board"]["position"] == en["board"]["position"]
        assert [m["move"] for m in ru["board"]["moves"]] == [m["move"] for m in en["board"]["moves"]]
        assert ru["board"]["status"].startswith("Ваш ход") or "Игрок" in ru["board"]["status"]
        assert lt["board"]["status"].startswith("Jūsų ėjimas") or "Žaidėjas" in lt["board"]["status"]
        rec_ru = c.get(f"/api/games/{gid}/record", headers={"Accept-Language": "ru"}).text
        assert rec_ru == c.get(f"/api/games/{gid}/record").text


# ------------------------------------------------------------------ the terminal

def test_json_answers_stay_english_whatever_the_language():
    pos = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"
    r = CliRunner()
    en = r.invoke(main, ["solve", "--json", pos])
    ru = r.invoke(main, ["--lang", "ru", "solve", "--json", pos], env={"LANG": "ru_RU.UTF-8"})
    assert en.exit_code == ru.exit_code == 0
    timeless = [{k: v for k, v in json.loads(out.output).items()
                 if "second" not in k and "node" not in k}  # the search's own counts
                for out in (en, ru)]
    assert timeless[0] == timeless[1]
    # a puzzle's words and a wrong input's message, for programs: English
    en = r.invoke(main, ["puzzle", "list", "--json"])
    ru = r.invoke(main, ["--lang", "ru", "puzzle", "list", "--json"])
    assert en.output == ru.output and "Keep the last trump" in en.output
    bad = r.invoke(main, ["--lang", "lt", "play", "--players", "2", "--seat", "3"])
    assert bad.exit_code == 2 and "prie 2 žaidėjų stalo nėra 3-osios vietos" in bad.output


def test_durak_play_in_the_language_of_lang_or_of_the_environment(tmp_path):
    def play(*args: str, env: dict[str, str]) -> str:
        p = subprocess.run([sys.executable, "-m", "solver.cli", "play", "--seed", "1",
                            "--vs", "greedy", "--record", str(tmp_path / "g.txt"), *args],
                           input="беру\nquit\n", capture_output=True, text=True, timeout=120,
                           env={"PATH": "/usr/bin:/bin", "DURAK_CARDS": "symbols",
                                "DURAK_DATA_DIR": str(tmp_path), **env})
        assert p.returncode == 0, p.stderr
        return p.stdout + p.stderr

    ru = play(env={"LANG": "ru_RU.UTF-8"})
    assert "новая партия: игроков 2, подкидной" in ru and "Ваш ход (вы заходите)" in ru
    assert "В♦" in ru  # the jack of diamonds, as Russian decks print it
    lt = play("--lang", "lt", env={"LANG": "ru_RU.UTF-8"})
    assert "nauja partija: 2 žaidėjai" in lt and "Jūsų ėjimas (puolate)" in lt
    assert "išeita: įrašas (0 įrašų) išsaugotas" in lt
    en = play(env={"LANG": "C.UTF-8"})
    assert "new game: 2 players, podkidnoy" in en and "Your move (you lead)" in en


def test_the_rules_page_in_each_language_keeps_every_rule_id(tmp_path):
    """docs/players/rules.{en,lt,ru}.md on the board's /rules: the same rule ids, in order,
    in each language, each an anchor; the three link to each other."""
    ids = {}
    with client(tmp_path) as c:
        for lang in LANGUAGES:
            page = c.get(f"/rules/{lang}").text
            ids[lang] = re.findall(r'<li id="(R\d+)">', page)
            assert f'<html lang="{lang}">' in page
            assert sum(f'href="/rules/{other}"' in page for other in LANGUAGES) == 2
        assert "Durnius: taisyklės žaidėjams" in c.get("/rules", headers={"Accept-Language": "lt"}).text
        assert c.get("/rules/de").status_code == 404
    assert ids["en"] == [f"R{i}" for i in range(1, 24)]
    assert ids["lt"] == ids["ru"] == ids["en"]


@pytest.mark.parametrize("lang", ["lt", "ru"])
def test_the_terminal_review_has_no_english_word_left(lang):
    """``durak review`` at a terminal in Lithuanian or Russian: the table, the chart's
    legend and its lost-after mark, the summary -- no word of the English catalogue
    is left (the cards are symbols, the moves the player's words)."""
    p = subprocess.run([sys.executable, "-m", "solver.cli", "--lang", lang, "review",
                        str(ROOT / "docs" / "examples" / "full-game.txt")],
                       capture_output=True, text=True, timeout=300,
                       env={"PATH": "/usr/bin:/bin", "DURAK_CARDS": "symbols",
                            "COLUMNS": "120"})
    assert p.returncode == 0, p.stderr
    lost = {"lt": "^ pralaimėta po", "ru": "^ проиграно после хода"}[lang]
    assert lost in p.stdout
    left = left_in_english(p.stdout)
    assert not left, (left, p.stdout)


# ------------------------------------------------------------------ a wrong position or move

#: Seat 1 asks with its own hand hidden (solver.hints.knowledge): 3 unknown cards.
OWN_HAND_HIDDEN = "trump 6H; hands ?3 | 8C 9C AH; attacker 1; pile 30; me 1"
#: A card that names no card (solver.game.cards in solver.notation.build).
UNKNOWN_CARD = "trump H; hands 6S 7S ZZ | 8C 9C AH; attacker 1"
#: A cover that does not beat its attack card: 6S on 7S (R2).
NOT_BEATEN = "trump H; hands 8S KH | 8C 9C AH; table 7S/6S; attacker 1"
#: Three open attack cards against a defender of two (P2, R10).
TOO_MANY = "trump H; hands 6S KH | 8C 9C; table 6D 6C 6H; attacker 1"


@pytest.mark.parametrize("lang, command, position, said", [
    ("en", "hint", OWN_HAND_HIDDEN,
     "me: seat 1 must know its own hand; it holds 3 unknown card(s)"),
    ("lt", "hint", OWN_HAND_HIDDEN,
     "me: žaidėjas 1 turi žinoti savo ranką; joje 3 nežinomos kortos"),
    ("ru", "hint", OWN_HAND_HIDDEN,
     "me: игрок 1 должен знать свою руку; в ней 3 неизвестные карты"),
    ("en", "solve", UNKNOWN_CARD,
     "hands: seat 1's hand: unknown card 'ZZ': bad rank 'Z' at column 22"),
    ("lt", "solve", UNKNOWN_CARD,
     "hands: žaidėjo 1 ranka: nežinoma korta 'ZZ': bloga vertė 'Z' (22 stulpelis)"),
    ("ru", "solve", UNKNOWN_CARD,
     "hands: рука игрока 1: неизвестная карта 'ZZ': неверное достоинство 'Z' (столбец 22)"),
    ("en", "solve", NOT_BEATEN, "table: '6S' does not beat '7S' at column 40 with trump H (R2)"),
    ("ru", "solve", NOT_BEATEN, "table: '6S' не бьёт '7S' (столбец 40) при козыре H (R2)"),
    ("lt", "hint", NOT_BEATEN, "table: '6S' nemuša '7S' (40 stulpelis), kai koziris H (R2)"),
    ("en", "hint", TOO_MANY,
     "table: 3 open attack cards but the defender, seat 2, holds only 2 (P2, R10)"),
    ("lt", "hint", TOO_MANY,
     "table: 3 neatmuštos puolimo kortos, bet gynėjas, žaidėjas 2, turi tik 2 (P2, R10)"),
    ("ru", "solve", TOO_MANY,
     "table: 3 неотбитые карты, а у отбивающегося, игрока 2, всего 2 (P2, R10)"),
])
def test_a_wrong_position_is_told_in_the_players_language(lang, command, position, said):
    """`durak --lang lt hint ...`: the field's name stays notation (``me:``), the rest is
    the player's words; exit 2, one line; English as it always was."""
    p = subprocess.run([sys.executable, "-m", "solver.cli", "--lang", lang, command, position],
                       capture_output=True, text=True, timeout=120,
                       env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    assert p.returncode == 2, p.stderr
    error = {"en": "error", "lt": "klaida", "ru": "ошибка"}[lang]
    assert p.stderr == f"durak: {error}: {said}\n"
    assert p.stdout == ""


@pytest.mark.parametrize("lang, forms", [
    ("lt", {1: "1 nežinoma korta", 2: "2 nežinomos kortos", 5: "5 nežinomos kortos",
            10: "10 nežinomų kortų", 21: "21 nežinoma korta", 22: "22 nežinomos kortos",
            25: "25 nežinomos kortos"}),
    ("ru", {1: "1 неизвестная карта", 2: "2 неизвестные карты", 5: "5 неизвестных карт",
            21: "21 неизвестная карта", 22: "22 неизвестные карты",
            25: "25 неизвестных карт"}),
])
def test_a_hidden_own_hand_counts_its_cards_in_the_plural_forms(lang, forms):
    from solver.errors import PositionError
    from solver.hints.knowledge import knowledge_of
    from solver.notation import parse_position

    got = {}
    for n in forms:  # the face-up 6H, three cards named, n in seat 1's hand, the rest in the pile
        state = parse_position(f"trump 6H; hands ?{n} | 8C 9C AH; attacker 1; "
                               f"pile {33 - n}").state
        with use_language(lang), pytest.raises(PositionError) as e:
            knowledge_of(state, 0)
        # "... в ней 3 неизвестные карты": the count and its words
        got[n] = re.search(r"\d+ \S+ \S+$", str(e.value)).group(0)
    assert got == forms


def test_a_wrong_move_and_card_are_told_in_the_players_language():
    from solver.errors import DurakError
    from solver.game.moves import parse_move_with_seat

    for lang, said in [("en", "bad move '6S,7H': a lead of several cards must be of one rank "
                              "(R8)"),
                       ("lt", "blogas ėjimas '6S,7H': puolant keliomis kortomis, jos turi būti "
                              "vienos vertės (R8)"),
                       ("ru", "неверный ход '6S,7H': заходить несколькими картами можно только "
                              "одного достоинства (R8)")]:
        with use_language(lang), pytest.raises(DurakError) as e:
            parse_move_with_seat("6S,7H")
        assert str(e.value) == said
    with use_language("ru"), pytest.raises(DurakError) as e:
        parse_card("5S")
    assert str(e.value) == "неизвестная карта '5S': её нет в колоде из 36 карт"


def test_the_board_tells_a_wrong_position_in_the_requests_language(tmp_path):
    """The editor and the analysis show the server's error as it comes: in the language
    of the request (the page's), the field named in the notation; a worker's error too."""
    with client(tmp_path) as c:
        said = {}
        for lang in ("lt", "ru", "en"):
            r = c.post("/api/board", json={"position": NOT_BEATEN},
                       headers={"Accept-Language": lang})
            assert r.status_code == 400 and r.json()["field"] == "table"
            said[lang] = r.json()["error"]
        assert said == {"lt": "table: '6S' nemuša '7S' (40 stulpelis), kai koziris H (R2)",
                        "ru": "table: '6S' не бьёт '7S' (столбец 40) при козыре H (R2)",
                        "en": "table: '6S' does not beat '7S' at column 40 with trump H (R2)"}
        # the hint runs in a worker process: its error in the asking request's language
        r = c.post("/api/hint", json={"position": OWN_HAND_HIDDEN, "samples": 10},
                   headers={"Accept-Language": "lt"})
        assert r.status_code == 400, r.text
        assert r.json()["error"] == ("me: žaidėjas 1 turi žinoti savo ranką; joje 3 nežinomos "
                                     "kortos")
        r = c.post("/api/hint", json={"position": OWN_HAND_HIDDEN, "samples": 10})
        assert r.json()["error"] == "me: seat 1 must know its own hand; it holds 3 unknown card(s)"


def test_batch_json_lines_stay_english_whatever_the_language(tmp_path):
    """`durak batch` writes JSON lines for programs: an item's error is English even when
    the player's language is Lithuanian (the answers' words are English too)."""
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "a", "position": UNKNOWN_CARD}) + "\n")
    p = subprocess.run([sys.executable, "-m", "solver.cli", "--lang", "lt", "batch", "solve",
                        str(src)], capture_output=True, text=True, timeout=120,
                       env={"PATH": "/usr/bin:/bin", "LANG": "lt_LT.UTF-8"})
    line = json.loads(p.stdout.splitlines()[0])
    assert line["error"] == "hands: seat 1's hand: unknown card 'ZZ': bad rank 'Z' at column 22"
    assert line["exit_code"] == 2
