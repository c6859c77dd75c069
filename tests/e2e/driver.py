"""Clicking through a table the way a person would: only what the page offers."""

import random

from playwright.sync_api import Page

DONE = ("between", "finished")


def create_table(
    page: Page,
    base: str,
    game: str,
    *,
    humans: tuple[int, ...] = (0,),
    profile: str | None = None,
    series: int = 1,
    time_limit: int = 60,
    seats: int | None = None,
    settings: dict[str, str] | None = None,
    closing: tuple[str, ...] = (),
    watch: bool = False,
    first_dealer: int | None = 0,
    public: bool = True,
) -> str:
    """Play as a guest and open a table from the lobby (with ``settings`` typed into the
    settings form, the ``closing`` rounds added in order, only watching if ``watch``, the first
    deal dealt by ``first_dealer``, by lot if ``None``, unlisted and private unless ``public``);
    returns the table page's URL."""
    page.goto(base + "/")
    page.wait_for_selector("#lobby-app .account")
    if page.locator("#guest").count():
        page.click("#guest")
    page.wait_for_selector("#create-table")
    page.select_option("#game", game)
    if profile:
        page.select_option("#profile", profile)
    if seats:
        page.select_option("#seat-count", str(seats))
    seats = page.locator("[data-seat-kind]").count()
    for i in range(seats):
        page.select_option(f'[data-seat-kind="{i}"]', "human" if i in humans else "bot")
    if settings:
        page.click("#create-table details summary")
        for key, value in settings.items():
            page.fill(f'[data-setting="{key}"]', value)
    for kind in closing:
        page.click(f'#closing-rounds [data-add-round="{kind}"]')
    if watch:
        page.select_option("#creator-seat", "")
    page.select_option("#first-dealer", "" if first_dealer is None else str(first_dealer))
    page.fill("#series", str(series))
    page.fill("#time-limit", str(time_limit))
    if not public:
        page.uncheck("#public")
    page.click("#create")
    page.wait_for_url("**/t/**")
    page.wait_for_selector("#table-app[data-version]")
    return page.url


def attr(page: Page, name: str) -> str:
    return page.locator("#table-app").get_attribute(f"data-{name}") or ""


def my_turn(page: Page) -> bool:
    return (
        attr(page, "phase") == "playing"
        and attr(page, "waiting") != "1"
        and page.locator("#status.mine").count() > 0
    )


def wait_for_my_turn(page: Page, timeout: float = 60_000) -> None:
    """Until the page's seat is to act: the bots then wait, so no frame re-renders the page
    under a click (a click whose button is replaced between press and release is lost)."""
    page.wait_for_function(
        "() => { const r = document.getElementById('table-app');"
        " return r.dataset.phase === 'playing' && r.dataset.waiting !== '1'"
        " && document.querySelector('#status.mine') !== null; }",
        timeout=timeout,
    )


def hand(page: Page) -> list[str]:
    return [
        c or "" for c in page.locator("#hand .card").evaluate_all("n => n.map(e => e.dataset.card)")
    ]


def trick(page: Page) -> list[str]:
    return [
        c or ""
        for c in page.locator("#trick .card").evaluate_all("n => n.map(e => e.dataset.card)")
    ]


def wait_for_change(page: Page, version: str, timeout: float = 20_000) -> None:
    page.wait_for_function(
        "v => { const r = document.getElementById('table-app');"
        " return r.dataset.version !== v && r.dataset.waiting !== '1'; }",
        arg=version,
        timeout=timeout,
    )


def take_turn(page: Page, rng: random.Random) -> None:
    """One action: a legal card or an offered button, as a person would choose."""
    version = attr(page, "version")
    playable = page.locator("#hand button.card:not([disabled])")
    legal = page.locator("#hand button.card.legal")
    assert playable.count() == legal.count(), "only the legal cards may be playable"
    select = page.locator("section.actions button.act[data-select]")
    if select.count():
        # A choice of several cards (keep, press, return): pick cards until the button allows it.
        for _ in range(legal.count()):
            if select.first.is_enabled():
                break
            page.locator("#hand button.card.legal:not(.selected)").first.click()
        assert select.first.is_enabled()
        select.first.click()
    else:
        buttons = page.locator("section.actions button.act:not([disabled])")
        options = [("button", i) for i in range(buttons.count())]
        options += [("card", i) for i in range(playable.count())]
        assert options, "my turn, but nothing to do"
        kind, index = rng.choice(options)
        if kind == "button":
            buttons.nth(index).click()
        else:
            playable.nth(index).click()
    wait_for_change(page, version)


def drive(pages: list[Page], rng: random.Random, *, stop: object = None, limit: int = 600) -> None:
    """Act for every page whose turn it is until every page shows the deal's end (or ``stop``
    returns true)."""
    for _ in range(limit):
        if all(attr(p, "phase") in DONE for p in pages):
            return
        if callable(stop) and stop():
            return
        acted = False
        for page in pages:
            if my_turn(page):
                take_turn(page, rng)
                acted = True
        if not acted:
            pages[0].wait_for_timeout(60)
    raise AssertionError("the deal did not end")


def next_deal(page: Page, why: str) -> None:
    """Deal the series' next deal, as a person clicks it once a deal has ended (``why``: the
    failure if the series is over instead)."""
    assert attr(page, "phase") == "between", why
    version = attr(page, "version")
    page.click("#next-deal")
    wait_for_change(page, version)


def drive_to_a_game(page: Page, rng: random.Random, *, deals: int = 5) -> None:
    """Play deals until one ends with a game played, not a redeal (Neu Geben, Schmeißen, an
    Armut nobody takes: the deal is random, and a redeal may come before this seat has more
    than one decision). Doppelkopf only: its result card lists facts unless it was a redeal."""
    for _ in range(deals):
        drive([page], rng)
        page.wait_for_selector("#result")
        if page.locator("#result .result-facts").count():
            return
        next_deal(page, "the series ended on a redeal")
    raise AssertionError(f"only redeals in {deals} deals")


def drive_to_a_trick(page: Page, rng: random.Random, *, deals: int = 5) -> None:
    """Play until it is this page's turn with cards in the trick. A deal may end before that
    (a redeal: Schmeißen, Neu Geben, an Armut nobody takes; a Bettel or Piccolo lost early; this
    seat leading every trick), so move on to the next deal then, as a person would: the table
    needs a series of a few deals."""
    for _ in range(deals):
        drive([page], rng, stop=lambda: my_turn(page) and len(trick(page)) > 0)
        if my_turn(page) and trick(page):
            return
        next_deal(page, "the series ended before a trick was played")
    raise AssertionError(f"no trick in {deals} deals")
