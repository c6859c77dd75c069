"""Every word in the reader's language: each page of the app walked in German fails on a visible
English word, and in English on a German one (card codes, names and the games' own words
allowed); an API refusal is said from the catalogue, naming the field the person sees.

The words looked for are those that give a language away (articles, conjunctions, the app's
own nouns), not a dictionary: a false alarm is a word to allow here, with its reason.
"""

import re

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.test_phone_width import LONG_NAMES, World, live_table, pages, phone
from tests.e2e.test_phone_width import world as world  # noqa: PLC0414 (the module's fixture)

ENGLISH = {
    "the", "and", "of", "is", "not", "yet", "with", "from", "must", "be", "by", "for", "to",
    "round", "rounds", "table", "tables", "player", "players", "deal", "deals", "points",
    "point", "guest", "tournament", "tournaments", "rating", "ratings", "results", "score",
    "sheet", "complete", "heuristic", "search", "random", "games", "game", "won", "lost",
    "seat", "seats", "settings", "rules", "none", "no", "yes", "new", "open", "play", "watch",
    "print", "printed", "list", "lists", "ranking", "rankings", "date", "place", "name",
    "bot", "bots", "human", "login", "register", "password", "logout", "share", "links",
}  # fmt: skip
"""Words that give English away on a German page."""

GERMAN = {
    "und", "der", "die", "das", "nicht", "noch", "mit", "von", "für", "ist", "ein", "eine",
    "oder", "auf", "zu", "im", "bei", "nach", "tisch", "tische", "runde", "runden", "spieler",
    "gast", "punkte", "punkt", "turnier", "turniere", "spiele", "wertung", "ranglisten",
    "rangliste", "neu", "offene", "laufende", "meine", "anmelden", "abmelden", "drucken",
    "gedruckt", "platz", "plätze", "regeln", "einstellungen", "ergebnisse", "liste",
}  # fmt: skip
"""Words that give German away on an English page (the games' words are not among them:
Augen, Re, Kontra, Solo, Hochzeit, Pflicht-Solo are the game's own in English too)."""

ALLOWED = {
    "de": {
        "bot",  # the word German players use for a program at the table
        "bots",
        "links",  # German too: "Links und QR-Codes"
        "name",  # German too
    },
    "en": {
        "rangliste",  # the German term beside its English words: "All-time list (Ewige Rangliste)"
        "neu",  # "Neu geben": the Stammtisch's word for a redeal, kept as the game's own
    },
}
"""Words of the other language a page may show, with the reason."""

SETTINGS = "the rule set's settings show their values as ids (rules.js settingValue)"
PENDING = {
    ("/t/", "Gast"): "the table page (table.js) shows a guest's name as stored: words.personName",
    **{("/", w): SETTINGS for w in ("for", "from", "round", "to", "Regeln", "nach", "regeln")},
    **{("/s/", w): SETTINGS for w in ("for", "from", "round", "to", "Regeln", "nach", "regeln")},
}
"""Known gaps, each with where it is to be fixed."""

PROPER = [
    *LONG_NAMES,
    "Frühjahrsturnier im Gasthaus Hirschen",
    "Gasthaus Hirschen, Hinterzarten",
    "Herbstturnier",
    "DoKo-Club Wielandstraße",
    "Resi Schwarzwälder-Kirschtorte",
    "Stichwerk",
    "Cego und Doppelkopf am Schwarzwälder Stammtisch",  # the brand's tagline, German in both
    "DOKO-Turnier-Regeln Wielandstraße",  # the rules' own name
    "stichwerk sheet",  # a command's name
    # A history file's column names: what the file must hold, not words of the page.
    "date, player, place, participants",
    "tournament",
]
"""Names: the players', the tournaments', the club's."""


VISIBLE_TEXT = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    // Ids and codes are marked translate="no" (HTML's own word for it): no language's words.
    if (!parent || parent.closest('[translate="no"], code, script, style')) continue;
    // A menu's choices count when the menu is shown (not inside a closed panel).
    const shown = (parent.closest('select') || parent).getClientRects().length > 0;
    if (shown) out.push(node.textContent);
  }
  return out.join('\\n');
}"""
"""The text a person sees (a menu's choices included), without what is marked not to be
translated."""


def foreign_words(page: Page, lang: str) -> list[str]:
    """The visible words of the other language on ``page``."""
    text: str = page.evaluate(VISIBLE_TEXT)
    title: str = page.title()
    text = f"{text}\n{title}"
    for name in sorted(PROPER, key=len, reverse=True):
        text = text.replace(name, " ")
    # Addresses, ids and file names are no words of a language.
    text = re.sub(r"\S*[/_@]\S*|\S+\.(?:csv|json|jsonl)\b", " ", text)
    tells = ENGLISH if lang == "de" else GERMAN
    found = []
    for word in re.findall(r"[A-Za-zÄÖÜäöüß]+", text):
        low = word.lower()
        if low in tells and low not in ALLOWED[lang]:
            found.append(word)
    return sorted(set(found))


@pytest.mark.parametrize("lang", ["de", "en"])
def test_every_page_speaks_the_readers_language(browser: Browser, world: World, lang: str) -> None:
    context = phone(browser, lang)
    base = world.server.url
    table = live_table(context, base)
    page = context.new_page()
    wrong: list[str] = []
    for path, ready in pages(world, table):
        page.goto(base + path)
        page.wait_for_selector(ready)
        known = {
            w
            for (where, w) in PENDING
            if (path.startswith(where) and where != "/") or path == where
        }
        found = [w for w in foreign_words(page, lang) if w not in known]
        if found:
            wrong.append(f"{path} ({lang}): {', '.join(found)}")
    context.close()
    assert not wrong, "\n".join(wrong)


def test_a_refusal_is_said_in_the_readers_language(browser: Browser, world: World) -> None:
    """The score sheet's refusal names the field of the form; the tournament's 'not yet' is
    German on a German page."""
    context = phone(browser, "de")
    page = context.new_page()
    page.goto(world.server.url + f"/tournaments/{world.waiting.director_token}")
    blocked = page.locator("#next-blocked")
    blocked.wait_for()
    assert blocked.inner_text() == (
        "Noch nicht: Runde 1 ist noch nicht fertig: von Tisch 1, 2 fehlen die Ergebnisse"
    )
    said = page.evaluate(
        """async () => {
          const common = await import('/static/js/common.js');
          return common.refusalText("deal 4: 're_augen' must be from 0 to 240");
        }"""
    )
    assert said == "Spiel 4: Augen von Re müssen zwischen 0 und 240 liegen"
    context.close()


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("de", ["1 Turnier", "2 Turniere", "über 1 Punkt", "über 3 Punkte", "1 Spiel"]),
        ("en", ["1 tournament", "2 tournaments", "over 1 point", "over 3 points", "1 deal"]),
    ],
)
def test_one_thing_is_singular(
    browser: Browser, world: World, lang: str, expected: list[str]
) -> None:
    context = phone(browser, lang)
    page = context.new_page()
    page.goto(world.server.url + "/rankings")
    page.wait_for_selector("#ranking-table")
    said = page.evaluate(
        """async () => {
          const { t, loadTexts } = await import('/static/js/common.js');
          await loadTexts();
          return [
            t('rankings.tournaments_counted', { n: 1 }),
            t('rankings.tournaments_counted', { n: 2 }),
            t('analysis.over', { n: 1 }), t('analysis.over', { n: 3 }),
            t('sheet.n_deals', { n: 1 }),
          ];
        }"""
    )
    assert said == expected
    context.close()
