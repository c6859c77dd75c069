"""The roll-out policy's solo rules (``policy.S_*``), each on a crafted position: with the rule
today's policy plays the card the rule names, without it (``STYLE_V1``, as ``search-v1`` plays)
the card it played before."""

from stichwerk.bots.doppelkopf.policy import STYLE, STYLE_V1, choose_card
from stichwerk.doppelkopf.cards import CODES, code_of
from stichwerk.doppelkopf.fast import FastPlay
from tests.doppelkopf.helpers import deal, run

SUITS = "CSHD"
RANKS = ("A", "A", "10", "10", "K", "K", "Q", "Q", "J", "J", "9", "9")


def hands_with(fixed: dict[int, str]) -> list[str]:
    """The other seats get the rest of the pack, dealt round by round (a bit of every suit)."""
    rest = [s + r for s in SUITS for r in RANKS]
    for cards in fixed.values():
        for c in cards.split():
            rest.remove(c)
    free = [s for s in range(4) if s not in fixed]
    hands = {s: [] for s in free}
    for i, c in enumerate(rest):
        hands[free[i % len(free)]].append(c)
    return [fixed.get(s) or " ".join(hands[s]) for s in range(4)]


def card_of(fast: FastPlay, seat: int, style: int) -> str:
    legal = fast.legal()
    return CODES[choose_card(fast, seat, legal, fast.party, style) >> 1]


def test_a_soloist_cashes_his_aces_before_he_draws_trumps() -> None:
    soloist = "CQ CQ SQ SQ HQ HQ CA C10 SA HA DA D10"
    state = deal(hands_with({0: soloist}), "ddv")
    run(state, "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund; 0 solo damen")
    fast = FastPlay.from_state(state)
    assert fast.to_act == 0 and fast.soloist == 0
    assert card_of(fast, 0, STYLE_V1) == "CQ"  # the sure top trump first
    assert card_of(fast, 0, STYLE) in ("CA", "SA", "HA", "DA")  # an ace nobody can beat yet


def test_a_defender_leads_the_suit_the_soloist_has_shown_out_of() -> None:
    soloist = "CQ CQ SQ SQ HQ HQ DQ CA C10 HA DA D10"  # no Pik
    defender = "S9 S9 SJ C9 C9 CJ HJ H9 H9 DJ D9 D9"  # no trump, no ace
    state = deal(hands_with({2: soloist, 0: defender}), "ddv")
    run(state, "0 gesund; 1 gesund; 2 vorbehalt; 3 gesund; 2 solo damen")
    fast = FastPlay.from_state(state)
    assert fast.to_act == 0 and fast.soloist == 2
    fast.voids[2] |= 1 << fast.order.cls[code_of("SA")]  # he has shown out of Pik
    assert card_of(fast, 0, STYLE_V1) == "C9"  # not into the soloist's trumps
    assert card_of(fast, 0, STYLE) == "S9"  # make him trump: his trumps grow fewer


def test_kontra_leads_trump_from_the_top() -> None:
    kontra = "HQ HQ SJ SJ HJ HJ DJ DJ DK DK D9 D9"  # trumps only, no Kreuz-Dame
    state = deal(hands_with({1: kontra}), "ddv", dealer=0)
    run(state, "1 gesund; 2 gesund; 3 gesund; 0 gesund")
    fast = FastPlay.from_state(state)
    assert fast.to_act == 1 and fast.game_type == "normal" and fast.party[1] == 1
    assert card_of(fast, 1, STYLE_V1) == "D9"  # the cheapest trump
    assert card_of(fast, 1, STYLE) == "SJ"  # the highest below a top that is not sure


def test_a_rule_given_to_one_seat_only_leaves_the_others_alone() -> None:
    soloist = "CQ CQ SQ SQ HQ HQ CA C10 SA HA DA D10"
    state = deal(hands_with({0: soloist}), "ddv")
    run(state, "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund; 0 solo damen")
    fast = FastPlay.from_state(state)
    only_seat_2 = STYLE & ~0xFF | 1 << 2
    assert card_of(fast, 0, only_seat_2) == card_of(fast, 0, STYLE_V1) == "CQ"


def test_the_view_says_who_owes_a_pflicht_solo_and_the_search_values_it_so() -> None:
    """Both profiles let the soloist lead a Pflicht-Solo and Vorhand a Lust-Solo: a seat that
    owes one values its solo led by itself, which is worth more with a strong hand."""
    from stichwerk.bots.doppelkopf.knowledge import read
    from stichwerk.bots.doppelkopf.search import DoppelkopfSearch
    from stichwerk.doppelkopf.profiles import DDV

    assert DDV.duty_solo_leader == "soloist" and DDV.lust_solo_leader == "vorhand"
    strong = "CQ CQ SQ SQ HQ HQ DQ CA SA HA DA D10"
    values = {}
    for owed in ([], [2]):
        state = deal(hands_with({2: strong}), "ddv", duty_solo_owed=owed)
        run(state, "0 gesund; 1 gesund")
        for seat in (None, 0, 1, 2, 3):
            view = state.view(seat)
            assert view["duty_solo_owed"] == owed and view["duty_solo_forced"] is None
        view = state.view(2)
        assert read(view).owes_solo == bool(owed)
        assert not read(state.view(0)).owes_solo
        bot = DoppelkopfSearch(seed=3, worlds=300)
        values[bool(owed)] = {v.action.act: v.mean for v in bot.evaluate(view, 5.0)}
    assert values[True]["vorbehalt"] > values[False]["vorbehalt"] + 3.0  # 19.8 against 11.4
    assert values[True]["gesund"] == values[False]["gesund"]
