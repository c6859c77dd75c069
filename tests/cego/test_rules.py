"""Unit tests of Cego's rules: deck and counting, each round of speech, the exchange, play."""

from fractions import Fraction

import pytest

from stichwerk.cego import cards as C
from stichwerk.cego import scoring
from stichwerk.cego.profiles import SCHWARZWALD, TITISEE, ZEGO, get_profile
from stichwerk.cego.record import new_deal, score_summary
from stichwerk.cego.state import is_pflichtsolo
from stichwerk.core.action import Action
from stichwerk.core.bits import from_ids
from stichwerk.core.errors import CardError, IllegalAction, RecordError
from tests.cego.helpers import deal, do, say, tricks
from tests.cego.test_deals import D1, D1_BLIND, D2, D2_BLIND, D5, D5_BLIND, FORT4


def pile(codes: str) -> Fraction:
    return scoring.pile_points(SCHWARZWALD, from_ids([C.ID[c] for c in codes.split()]))


# ------------------------------------------------------------------------- deck, counting


def test_deck_totals() -> None:
    assert len(C.CODES) == 54 and len(set(C.CODES)) == 54
    assert scoring.pile_points(SCHWARZWALD, C.ALL) == 79
    three = C.ALL & ~C.REMOVED_FOR_THREE
    assert three.bit_count() == 51
    assert scoring.pile_points(SCHWARZWALD, three) == Fraction(155, 2)
    assert scoring.pile_points(SCHWARZWALD, C.REMOVED_FOR_THREE) == Fraction(3, 2)
    assert scoring.pile_points(get_profile("schwarzwald", {"counting": "triples"}), C.ALL) == 70


def test_pair_counting_examples_of_the_seeds() -> None:
    assert pile("SK S7") == 5
    assert pile("S9 S8") == 1
    assert pile("HQ T5") == 4
    assert pile("SK HQ") == 8
    assert pile("T22 T21 T1") == Fraction(27, 2)


def test_rank_order() -> None:
    # Red pips: the 1 is highest; black pips: the 10.
    assert C.ID["H1"] > C.ID["H2"] > C.ID["H3"] > C.ID["H4"]
    assert C.ID["C10"] > C.ID["C9"] > C.ID["C8"] > C.ID["C7"]
    assert C.ID["CK"] > C.ID["CQ"] > C.ID["CR"] > C.ID["CJ"] > C.ID["C10"]
    assert C.ID["T22"] > C.ID["T21"] > C.ID["T1"]


def test_card_names() -> None:
    assert C.CODES[C.parse("Gstieß")] == "T22"
    assert C.CODES[C.parse("Mund")] == "T21"
    assert C.CODES[C.parse("Geiss")] == "T1"
    assert C.CODES[C.parse("Trumpf 5")] == "T5"
    assert C.CODES[C.parse("Pik Reiter")] == "SR"
    assert C.CODES[C.parse("karo 1")] == "D1"
    with pytest.raises(CardError, match="unknown card 'D5'"):
        C.parse("D5")


# ------------------------------------------------------------------- scoring by the seeds


def test_seed_halbe_lost_34_to_45_writes_20() -> None:
    s = scoring.score_game(
        SCHWARZWALD,
        seats=4,
        declarer=1,
        value=2,
        declarer_points=Fraction(34),
        declarer_tricks=3,
        defender_tricks=8,
    )
    assert (s["winner"], s["faecher"], s["written"]) == ("defenders", 2, 20)
    assert s["settlement"] == [20, -60, 20, 20]


def test_seed_eine_won_41_to_38_writes_20() -> None:
    s = score_summary(
        {
            "game": "cego",
            "profile": "schwarzwald",
            "players": 4,
            "declarer": 1,
            "contract": "eine",
            "gegensolo": False,
            "declarer_points": 41,
            "declarer_tricks": 5,
            "defender_tricks": 6,
        }
    )
    assert (s["winner"], s["loser_points"], s["faecher"], s["written"]) == ("declarer", 38, 1, 20)
    assert s["settlement"] == [-20, 60, -20, -20]


@pytest.mark.parametrize(
    ("loser", "faecher"),
    [(39.5, 1), (39, 1), (35, 1), (34.5, 2), (30, 2), (29, 3), (25, 3), (20, 4), (15, 5),
     (10, 6), (5, 7), (4.5, 8), (0, 8)],
)  # fmt: skip
def test_faecher_bands(loser: float, faecher: int) -> None:
    assert scoring.faecher(SCHWARZWALD, Fraction(loser)) == faecher


def test_written_scores_round_up_to_ten_and_solo_doubles_after() -> None:
    def written(points: float, value: int, solo: bool = False) -> int:
        s = scoring.score_game(
            SCHWARZWALD,
            seats=4,
            declarer=0,
            value=value,
            declarer_points=Fraction(points),
            declarer_tricks=6,
            defender_tricks=5,
            solo=solo,
        )
        return int(s["written"])

    assert written(41, 3) == 20  # 5 × 3 = 15 → 20
    assert written(41, 1, solo=True) == 20  # 5 → 10, doubled
    assert written(39, 1, solo=True) == 10  # a lost Solo counts once
    assert written(58, 7) == 140  # loser 21 → 4 Fächer → 20 × 7
    assert written(54, 3) == 50  # loser 25 → 3 Fächer → 15 × 3 = 45 → 50
    assert written(20, 2) == 40  # loser 20 → 4 Fächer → 20 × 2 = 40


def test_berg_on_the_score_sheet() -> None:
    base = {
        "game": "cego",
        "players": 4,
        "declarer": 2,
        "contract": "halbe",
        "declarer_points": 45,
        "declarer_tricks": 6,
        "defender_tricks": 5,
    }
    assert score_summary(base)["settlement"] == [-20, -20, 60, -20]
    broken = score_summary({**base, "berg": "declarer"})
    assert broken["berg"] is True and broken["settlement"] == [80, 80, -240, 80]
    gegen = score_summary({**base, "gegensolo": True})
    assert gegen["value"] == 3 and gegen["written"] == 30


def test_summary_errors_are_one_line() -> None:
    good = {
        "game": "cego",
        "players": 4,
        "declarer": 1,
        "contract": "eine",
        "declarer_points": 41,
        "declarer_tricks": 5,
        "defender_tricks": 6,
    }
    cases = [
        ({**good, "contract": "halbe", "profile": "zego"}, "not on this profile's ladder"),
        ({**good, "declarer_points": 41.25}, "whole or half"),
        ({**good, "declarer_points": 80}, "between 0 and 79"),
        ({**good, "defender_tricks": 7}, "add up to 11"),
        ({**good, "declarer": 4}, "seat dealt in"),
        ({**good, "contract": "skat"}, "unknown Cego contract"),
        ({**good, "contract": "ulti", "profile": "zego"}, "not played"),
        ({**good, "players": 6}, "3 or 4"),
        ({**good, "extra": 1}, "unknown key 'extra'"),
        ({**good, "options": {"ulti_value": "x"}}, "whole number"),
        ({**good, "options": {"nonsense": 1}}, "unknown Cego setting"),
    ]
    for summary, message in cases:
        with pytest.raises(RecordError, match=message):
            score_summary(summary)


def test_raeuber_ties_all_lose() -> None:
    s = scoring.score_raeuber(
        SCHWARZWALD,
        seats=4,
        playing=[0, 1, 2, 3],
        points={0: Fraction(20), 1: Fraction(20), 2: Fraction(15), 3: Fraction(12)},
        tricks={0: 3, 1: 3, 2: 3, 3: 2},
        announcer=0,
    )
    # Seat 0 (announcer) pays 80 to seats 2 and 3; seat 1 pays 40 to each of them.
    assert s["losers"] == [0, 1]
    assert s["settlement"] == [-160, -80, 120, 120]


def test_money_ums_halbe() -> None:
    rules = get_profile("titisee", {"stake": "halbe"})
    s = scoring.with_money(rules, {"settlement": [25, -25, 0, 0]})
    assert s["money"] == {"stake": "ums Halbe", "cents": [12.5, -12.5, 0, 0]}


# ---------------------------------------------------------------------- rounds of speech


def words(state) -> list[str]:  # type: ignore[no-untyped-def]
    return [a.act for a in state.legal_actions()]


def test_solo_round_offers_and_ranks() -> None:
    state = deal(D2, D2_BLIND, dealer=3)
    assert words(state) == ["fort", "solo", "ulti"]  # seat 0 holds the Geiß
    say(state, "solo")
    assert words(state) == ["fort"]  # seat 1 has no Geiß; a second Solo is not offered
    with pytest.raises(IllegalAction, match="a Solo already stands"):
        state.apply(Action(1, "solo"))
    with pytest.raises(IllegalAction, match="does not hold the Geiß"):
        state.apply(Action(1, "ulti"))


def test_a_later_ulti_outbids_a_solo() -> None:
    state = deal(D2, D2_BLIND, dealer=0)  # seat 1 is Vorhand, seat 0 speaks last
    say(state, "solo", "fort", "fort", "ulti")
    assert state.contract == "ulti" and state.declarer == 0 and state.phase == "play"


def test_no_gegensolo_against_ulti_and_soloist_out_of_the_auction() -> None:
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, "solo", "fort", "fort", "fort", "fort", "gegensolo")
    assert state.phase == "auction" and state.to_act == 3  # seat 0 (soloist) is skipped
    say(state, "halbe", "selbst", "gut", "gut")
    assert state.declarer == 2 and state.value == 3
    joined = deal(D1, D1_BLIND, dealer=3, options={"soloist_bids_after_gegensolo": True})
    say(joined, "solo", "fort", "fort", "fort", "fort", "gegensolo", "gut")
    assert joined.to_act == 0


def test_special_round() -> None:
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, "bettel")
    assert words(state) == ["fort", "piccolo"]
    say(state, "piccolo")
    assert state.contract == "piccolo" and state.declarer == 1


def test_auction_rules_and_messages() -> None:
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4)
    assert words(state) == ["cego"]
    with pytest.raises(IllegalAction, match="Vorhand must open the auction with 'cego'"):
        state.apply(Action(0, "gut"))
    say(state, "cego")
    with pytest.raises(IllegalAction, match="exactly one step: the next is 'halbe'"):
        state.apply(Action(1, "eine"))
    with pytest.raises(IllegalAction, match="it is seat 1's turn, not seat 2's"):
        state.apply(Action(2, "halbe"))
    say(state, "halbe")
    assert words(state) == ["selbst", "gut"]
    say(state, "selbst")
    with pytest.raises(IllegalAction, match="the challenger must raise"):
        state.apply(Action(1, "selbst"))
    say(state, "eine", "gut")
    assert state.view(None)["auction"] == {
        "holder": 1,
        "level": "eine",
        "challenger": 2,
        "dropped": [0],
    }


def test_a_bid_the_hand_cannot_play_is_refused() -> None:
    # D1: seat 0's Leere are H4 H3 (one suit), so he cannot hold zwei-verschiedene;
    # seat 3 holds no Geiß, so he cannot raise to geiss.
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "gut", "halbe", "selbst", "eine", "selbst", "leere")
    say(state, "selbst", "zwei-leere", "selbst", "zwei-verschiedene")
    assert words(state) == ["gut"]
    with pytest.raises(IllegalAction, match="cannot play zwei-verschiedene: holds no Leere of two"):
        state.apply(Action(0, "selbst"))
    say(state, "gut")
    assert state.to_act == 3 and words(state) == ["gut"]
    with pytest.raises(IllegalAction, match="cannot play geiss: does not hold the Geiß"):
        state.apply(Action(3, "geiss"))


def test_geiss_is_the_top() -> None:
    state = deal(D2, D2_BLIND, dealer=0)
    say(state, *FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst")
    say(state, "zwei-leere", "selbst", "zwei-verschiedene", "gut", "gut", "geiss")
    assert words(state) == ["gut"]  # seat 2 holds no Geiß, so he cannot say selbst


def test_raeuber_only_after_an_unraised_forced_cego() -> None:
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "halbe", "gut", "gut", "gut")
    assert state.phase == "exchange" and state.contract == "halbe"
    zego = new_deal(profile="zego", seed=1)
    while zego.phase != "auction":
        zego.apply(Action(zego.to_act or 0, "fort"))
    say(zego, "cego", "gut", "gut")
    assert zego.phase == "exchange" and zego.contract == "cego"


def test_pflichtsolo_hands() -> None:
    ids = lambda s: from_ids([C.ID[c] for c in s.split()])  # noqa: E731
    eight = ids("T2 T3 T4 T5 T6 T7 T8 T9 CK SK HK")
    assert is_pflichtsolo(TITISEE, eight, 4)
    assert not is_pflichtsolo(TITISEE, eight, 3)  # three players need nine
    seven_two_high = ids("T18 T19 T4 T5 T6 T7 T8 CK CQ HK H1")
    assert is_pflichtsolo(TITISEE, seven_two_high, 4)
    three_suits = ids("T18 T19 T4 T5 T6 T7 T8 CK SQ HK H1")
    assert not is_pflichtsolo(TITISEE, three_suits, 4)
    one_high = ids("T17 T19 T4 T5 T6 T7 T8 CK CQ HK H1")
    assert not is_pflichtsolo(TITISEE, one_high, 4)
    assert is_pflichtsolo(ZEGO, ids("T1 T2 T3 T4 T5 T6 T7 T8 T9 CK SK HK DK"), 3)


# --------------------------------------------------------------------------- exchange


def test_exchange_offers() -> None:
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "gut", "gut", "gut", "spielen")
    keeps = state.legal_actions()
    assert len(keeps) == 55 and all(a.act == "keep" and len(a.cards) == 2 for a in keeps)
    with pytest.raises(IllegalAction, match="cego keeps exactly 2"):
        do(state, "keep", "T22")
    with pytest.raises(IllegalAction, match="does not hold T1"):
        do(state, "keep", "T22 T1")
    with pytest.raises(IllegalAction, match="must now keep, not 'press'"):
        do(state, "press", "T22")
    do(state, "keep", "T22 T21")
    assert state.hands[0].bit_count() == 12
    assert len(state.legal_actions()) == 12  # press any card of the new hand


def test_halbe_presses_only_a_picked_up_card() -> None:
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "halbe", "selbst", "gut", "gut", "gut")
    with pytest.raises(IllegalAction, match="lay out exactly one Leere, not CK"):
        do(state, "lay-out", "CK")
    assert [a.cards for a in state.legal_actions()] == [("H4",), ("H3",)]
    do(state, "lay-out", "H3")
    with pytest.raises(IllegalAction, match="laid-out card cannot also be kept"):
        do(state, "keep", "H3")
    do(state, "keep", "T22")
    with pytest.raises(IllegalAction, match="must be one picked up"):
        do(state, "press", "T22")
    with pytest.raises(IllegalAction, match="laid-out card cannot be pressed"):
        do(state, "press", "H3")
    assert len(state.legal_actions()) == 10


def test_zwei_leere_without_trump_in_the_blind_presses_by_choice() -> None:
    hands = [
        "C7 C8 T22 T21 T20 T19 T18 T17 T16 T15 T14",
        "T13 T12 T11 T10 T9 T8 T7 T6 T5 T4 T3",
        "T2 T1 CK CQ CR CJ C10 C9 SK SQ SR",
        "SJ S10 S9 S8 S7 HK HQ HR HJ H1 H2",
    ]
    blind = "H3 H4 DK DQ DR DJ D1 D2 D3 D4"
    state = deal(hands, blind, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "gut", "halbe", "selbst", "eine", "selbst", "leere")
    say(state, "selbst", "zwei-leere", "selbst", "gut", "gut")
    assert state.contract == "zwei-leere" and state.declarer == 0
    do(state, "lay-out", "C7 C8")
    assert state.forced_press == 0 and state.phase == "exchange"
    assert len(state.legal_actions()) == 10
    do(state, "press", "D4")
    assert state.phase == "play" and state.hands[0].bit_count() == 11


def test_titisee_picture_instead_of_a_leere() -> None:
    hands = [
        "T22 T21 T20 T19 T18 T17 T16 CK CQ HK HQ",
        "T15 T14 T13 T12 SK SQ SR SJ S10 S9 S8",
        "T11 T10 T9 T8 HR HJ H1 H2 H3 H4 S7",
        "T7 T6 T5 T4 DK DQ DR DJ D1 D2 D3",
    ]
    blind = "T3 T2 T1 CR CJ C10 C9 C8 C7 D4"
    plain = deal(hands, blind, dealer=3)
    say(plain, *FORT4, *FORT4, "cego", "halbe")
    assert [a.act for a in plain.legal_actions()] == ["gut"]  # no Leere: no Halbe
    state = deal(hands, blind, dealer=3, profile="titisee")
    say(state, *FORT4, *FORT4, "cego", "halbe", "selbst", "gut", "gut", "gut")
    assert state.contract == "halbe" and state.declarer == 0
    assert [a.cards for a in state.legal_actions() if a.act == "lay-out"] == [
        ("CQ",),
        ("CK",),
        ("HQ",),
        ("HK",),
    ]
    do(state, "lay-out", "CQ")
    assert state.never_wins == 1 << C.ID["CQ"] and state.withdrawable == 0


def test_withdraw_rules() -> None:
    state = deal(D2, D2_BLIND, dealer=3, profile="titisee")
    say(state, *FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst")
    say(state, "gut", "gut", "gut")
    do(state, "lay-out", "H4")
    with pytest.raises(IllegalAction, match="higher card of the same suit found in the blind"):
        do(state, "withdraw", "H4 HJ")  # HJ was his own card, not found in the blind
    with pytest.raises(IllegalAction, match="not a laid-out Leere"):
        do(state, "withdraw", "D4 DK")
    do(state, "withdraw", "H4 HK")
    assert not any(a.act == "withdraw" for a in state.legal_actions())
    assert state.never_wins & (1 << C.ID["H4"]) and not state.never_wins & (1 << C.ID["HK"])
    plain = deal(D2, D2_BLIND, dealer=3)
    say(plain, *FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst")
    say(plain, "gut", "gut", "gut")
    do(plain, "lay-out", "H4")
    with pytest.raises(IllegalAction, match="not played under these rules"):
        do(plain, "withdraw", "H4 HK")


# ------------------------------------------------------------------------------- play


def test_follow_suit_and_must_trump_messages() -> None:
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "gut", "gut", "gut", "spielen")
    do(state, "keep", "T22 T21")
    do(state, "press", "D4")
    tricks(state, "T22 T12 T8 T4", "T21 T13 T9 T5")
    state.apply(Action(0, "play", card="CR"))
    with pytest.raises(
        IllegalAction, match="seat 1 cannot follow clubs and must trump: holds T15 T14"
    ):
        state.apply(Action(1, "play", card="SK"))
    tricks(state, "T14 T10 T6")
    state.apply(Action(1, "play", card="SK"))
    with pytest.raises(IllegalAction, match="seat 2 must follow spades: holds S7"):
        state.apply(Action(2, "play", card="HK"))
    with pytest.raises(IllegalAction, match="seat 2 does not hold T1"):
        state.apply(Action(2, "play", card="T1"))
    with pytest.raises(CardError, match="unknown card 'Z9'"):
        state.apply(Action(2, "play", card="Z9"))


def test_no_duty_to_overtrump() -> None:
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "gut", "gut", "gut", "spielen")
    do(state, "keep", "T22 T21")
    do(state, "press", "D4")
    state.apply(Action(0, "play", card="T22"))
    assert {a.card for a in state.legal_actions()} == {"T15", "T14", "T13", "T12"}


def test_laid_out_card_never_wins_the_trick_goes_to_the_next_card() -> None:
    # Seat 0 leads his laid-out H4 in Leere; nobody follows hearts or trumps, so the trick
    # goes to the first card played after it.
    hands = [
        "H4 H3 T22 T21 T20 T19 T18 T17 T16 T15 T14",
        "CK CQ CR CJ C10 C9 C8 C7 SK SQ SR",
        "SJ S10 S9 S8 S7 DK DQ DR DJ D1 D2",
        "T13 T12 T11 T10 T9 T8 T7 T6 T5 T4 T3",
    ]
    blind = "T2 T1 HK HQ HR HJ H1 H2 D3 D4"
    state = deal(hands, blind, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst")
    say(state, "gut", "gut", "gut")
    do(state, "lay-out", "H4")
    with pytest.raises(IllegalAction, match="must lead a laid-out card \\(H4\\) to trick 1"):
        state.apply(Action(0, "play", card="T2"))
    winners = tricks(state, "H4 CK SJ T3")
    assert winners == [3]  # the trump wins as usual
    # A trick where no one follows or trumps after a laid-out lead:
    state2 = deal(
        [
            "H4 H3 T22 T21 T20 T19 T18 T17 T16 T15 T14",
            "CK CQ CR CJ C10 C9 C8 C7 SK SQ SR",
            "SJ S10 S9 S8 S7 DK DQ DR DJ D1 D2",
            "T13 T12 T11 T10 T9 T8 T7 T6 T5 T4 D3",
        ],
        "T2 T1 HK HQ HR HJ H1 H2 T3 D4",
        dealer=3,
    )
    say(state2, *FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst")
    say(state2, "gut", "gut", "gut")
    do(state2, "lay-out", "H4")
    state2.apply(Action(0, "play", card="H4"))
    state2.apply(Action(1, "play", card="CK"))
    state2.apply(Action(2, "play", card="SJ"))
    assert {a.card for a in state2.legal_actions()} >= {"T13"}
    state2.apply(Action(3, "play", card="T13"))
    assert state2.last_trick is not None and state2.last_trick[1] == 3


def test_laid_out_card_would_win_goes_to_the_first_after_it() -> None:
    hands = [
        "H4 H3 T22 T21 T20 T19 T18 T17 T16 T15 T14",
        "CK CQ CR CJ C10 C9 C8 C7 SK SQ SR",
        "SJ S10 S9 S8 S7 DK DQ DR DJ D1 D2",
        "D3 D4 T13 T12 T11 T10 T9 T8 T7 T6 T5",
    ]
    blind = "T4 T3 T2 T1 HK HQ HR HJ H1 H2"
    state = deal(hands, blind, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst")
    say(state, "gut", "gut", "gut")
    do(state, "lay-out", "H4")
    # Seat 3 holds trumps, so he must trump; make the lead a trick nobody else can win by
    # playing it out: seats 1 and 2 have no hearts and no trumps.
    state.apply(Action(0, "play", card="H4"))
    state.apply(Action(1, "play", card="CK"))
    state.apply(Action(2, "play", card="SJ"))
    state.apply(Action(3, "play", card="T13"))
    assert state.last_trick is not None and state.last_trick[1] == 3
    # With a pure colour trick (no trump possible) the card after the Leere wins:
    trick = [(0, C.ID["H4"]), (1, C.ID["CK"]), (2, C.ID["SJ"]), (3, C.ID["D3"])]
    assert state._trick_winner(trick) == 1


def test_raeuber_nach_regeln_messages() -> None:
    state = deal(D5, D5_BLIND, dealer=3, profile="titisee")
    say(state, *FORT4, *FORT4, "cego", "gut", "gut", "gut", "raeuber")
    with pytest.raises(IllegalAction, match="T22 must fall in trick 1"):
        state.apply(Action(0, "play", card="C7"))
    state.apply(Action(0, "play", card="T22"))
    with pytest.raises(IllegalAction, match="T21 may not fall before trick 2"):
        state.apply(Action(1, "play", card="T21"))
    tricks(state, "T15 T8 T2")
    state.apply(Action(0, "play", card="C7"))
    assert [a.card for a in state.legal_actions()] == ["T21"]


def test_refused_actions_leave_the_state_unchanged() -> None:
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4, "cego")
    before = (state.to_record(), state.view(1))
    bad = [
        Action(1, "geiss"),
        Action(1, "play", card="SK"),
        Action(0, "halbe"),
        Action(1, "keep", cards=("SK",)),
        Action(7, "gut"),
        Action(1, "gut", card="SK"),
    ]
    for action in bad:
        assert not state.can(action)
        with pytest.raises(ValueError):
            state.apply(action)
        assert (state.to_record(), state.view(1)) == before


def test_nothing_after_the_end() -> None:
    state = deal(D2, D2_BLIND, dealer=3)
    say(state, "ulti")
    tricks(state, "T1 T12 T7 T2")
    assert state.legal_actions() == [] and state.to_act is None
    with pytest.raises(IllegalAction, match="the deal is over"):
        state.apply(Action(1, "play", card="CQ"))


# ------------------------------------------------------------------------------- views


def test_views_hide_what_a_seat_cannot_see() -> None:
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "gut", "gut", "gut", "spielen")
    do(state, "keep", "T22 T21")
    spectator = state.view(None)
    assert spectator["hand"] is None and spectator["legal_actions"] == []
    assert spectator["history"][-1] == {"seat": 0, "act": "keep", "count": 2}
    declarer = state.view(0)
    assert declarer["history"][-1] == {"seat": 0, "act": "keep", "cards": ["T21", "T22"]}
    assert declarer["blind"] == ["T3", "T2", "T1", "CR", "CJ", "C10", "C9", "C8", "C7", "D4"]
    assert "blind" not in state.view(1)
    do(state, "press", "D4")
    assert state.view(2)["history"][-1] == {"seat": 0, "act": "press", "count": 1}
    assert state.view(0)["pressed"] == ["D4"]


def test_zego_shows_the_forced_press_of_zwei_verschiedene() -> None:
    hands = [
        "C8 S8 T22 T21 T20 T19 T18 T17 T16 T15 CK SK T14",
        "T13 T12 T11 T10 T9 CQ CR CJ C10 C9 SQ SR SJ",
        "T8 T7 T6 T5 T4 HK HQ HR HJ H1 H2 H3 H4",
    ]
    blind = "T3 T2 T1 S10 S9 DK DQ DR DJ D1 D2 D3"
    state = deal(hands, blind, dealer=0, profile="zego")  # seat 1 is Vorhand
    say(state, "fort", "fort", "fort", "cego", "eine", "selbst", "leere", "selbst")
    say(state, "zwei-leere", "selbst", "gut", "zwei-verschiedene", "gut")
    assert state.contract == "zwei-verschiedene" and state.declarer == 0
    do(state, "lay-out", "C8 S8")
    assert state.view(2)["shown_press"] == ["T3"]
    assert state.view(None)["shown_press"] == ["T3"]
    assert "shown_press" not in deal(hands, blind, dealer=0).view(None)
