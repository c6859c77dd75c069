"""Crafted deals for every contract and special game of every profile, played through.

Each score is worked out by hand in the comments: the cards of the losing side, their points,
the Fächer and the written score. Points are half-point exact (K and Trull 4½, Q 3½, R 2½,
J 1½, every other card ½).
"""

from tests.cego.helpers import deal, do, say, tricks

# --- Deal D1: seat 0 is strong in high trumps (a Pflichtsolo under titisee and zego rules).
D1 = [
    "T22 T21 T20 T19 T18 T17 T16 CK CQ H4 H3",
    "T15 T14 T13 T12 SK SQ SR SJ S10 S9 S8",
    "T11 T10 T9 T8 HK HQ HR HJ H1 H2 S7",
    "T7 T6 T5 T4 DK DQ DR DJ D1 D2 D3",
]
D1_BLIND = "T3 T2 T1 CR CJ C10 C9 C8 C7 D4"

# --- Deal D2: the blind is rich; seat 0 holds the Geiß and many Leere.
D2 = [
    "T1 C7 C8 S7 S8 H4 D4 D3 CJ SJ HJ",
    "T16 T15 T14 T13 T12 CQ CR C10 C9 SQ SR",
    "T11 T10 T9 T8 T7 HQ HR H1 H2 H3 S10",
    "T6 T5 T4 T3 T2 DQ DR DJ D1 D2 S9",
]
D2_BLIND = "T22 T21 T20 T19 T18 T17 CK SK HK DK"

# --- Deal D3: seat 0 has ten trumps with the Geiß (an Ulti).
D3 = [
    "T22 T21 T20 T19 T18 T17 T16 T15 T14 T1 CK",
    "T13 T12 CQ CR CJ C10 C9 C8 C7 SK SQ",
    "T11 T10 SR SJ S10 S9 S8 S7 HK HQ HR",
    "T9 T8 HJ H1 H2 H3 H4 DK DQ DR DJ",
]
D3_BLIND = "T7 T6 T5 T4 T3 T2 D1 D2 D3 D4"

# --- Deal D5: seat 0 has the Gstieß and ten Leere (Piccolo); the others share the trumps.
D5 = [
    "T22 C7 C8 C9 S7 S8 S9 H4 H3 D4 D3",
    "T21 T20 T19 T18 T17 T16 T15 CK CQ CR CJ",
    "T14 T13 T12 T11 T10 T9 T8 SK SQ SR SJ",
    "T7 T6 T5 T4 T3 T2 T1 HK HQ HR HJ",
]
D5_BLIND = "C10 S10 H1 H2 DK DQ DR DJ D1 D2"

# --- Deal D6: three players (zego); seat 0 has nine trumps (a Pflichtsolo with three).
D6 = [
    "T22 T21 T20 T19 T18 T17 T16 T15 T14 CK SK C8 S8",
    "T13 T12 T11 T10 T9 CQ CR CJ C10 C9 SQ SR SJ",
    "T8 T7 T6 T5 T4 HK HQ HR HJ H1 H2 H3 H4",
]
D6_BLIND = "T3 T2 T1 S10 S9 DK DQ DR DJ D1 D2 D3"

FORT4 = ("fort", "fort", "fort", "fort")

D1_CEGO_TRICKS = (
    "T22 T12 T8 T4",
    "T21 T13 T9 T5",
    "CR T14 T10 T6",
    "SK S7 T7 T3",
    "DK T2 T15 T11",
    "SQ H2 D3 T1",
    "CJ S8 H1 D2",
    "C10 S9 HJ D1",
    "C9 S10 HR DJ",
    "C8 SJ HQ DR",
    "C7 SR HK DQ",
)

D1_SOLO_TRICKS = (
    "T22 T12 T8 T4",
    "T21 T13 T9 T5",
    "T20 T14 T10 T6",
    "T19 T15 T11 T7",
    "CK S8 S7 D3",
    "CQ S9 H2 D2",
    "H4 S10 H1 D1",
    "HK DJ H3 SJ",
    "HQ DR T18 SR",
    "T17 SQ HR DQ",
    "T16 SK HJ DK",
)

D1_GEGENSOLO_TRICKS = (
    "SK S7 T4 T16",
    "CK C7 T8 T5",
    "HK T6 H3 T1",
    "DK T17 T2 T9",
    "T22 T3 T10 T7",
    "T21 T15 T11 D3",
    "CQ C8 H2 D2",
    "H4 C9 H1 D1",
    "HQ DJ T18 C10",
    "T19 CJ HR DR",
    "T20 CR HJ DQ",
)

D1_HALBE_TRICKS = (
    "H3 T12 H2 T4",
    "SK S7 T5 T2",
    "DK T3 T13 T8",
    "SQ T9 T6 T22",
    "CR T14 T10 T7",
    "SR T11 D3 T1",
    "HK D2 CJ T15",
    "SJ HQ D1 C10",
    "S10 HR DJ C9",
    "S9 HJ DR C8",
    "S8 H1 DQ C7",
)

D1_EINE_TRICKS = (
    "T22 T12 T8 T4",
    "CR T13 T9 T5",
    "SK S7 T6 T2",
    "DK D4 T14 T10",
    "SQ T11 T7 T3",
    "HK D3 T1 T15",
    "SR H2 D2 CJ",
    "SJ H1 D1 C10",
    "S10 HJ DJ C9",
    "S9 HR DR C8",
    "S8 HQ DQ C7",
)

D2_LEERE_TRICKS = (
    "H4 T12 H3 T2",
    "CQ T7 T3 CK",
    "HQ T4 HK T13",
    "SQ S10 S9 SK",
    "T22 T14 T8 T5",
    "T21 T15 T9 T6",
    "T20 T16 T10 D2",
    "T19 C9 T11 D1",
    "T18 C10 H2 DJ",
    "T17 CR H1 DR",
    "DK SR HR DQ",
)

D2_GEISS_TRICKS = (
    "T1 T12 T7 T2",
    "CQ T8 T3 CK",
    "HQ T4 HK T13",
    "SQ S10 S9 SK",
    "T22 T14 T9 T5",
    "T21 T15 T10 T6",
    "T20 T16 T11 D2",
    "T19 C9 H3 D1",
    "T18 C10 H2 DJ",
    "T17 CR H1 DR",
    "DK SR HR DQ",
)

D2_BETTEL_TRICKS = (
    "T1 T12 T7 T2",
    "CQ T8 T3 C7",
    "HQ T4 H4 T13",
    "SQ S10 S9 S7",
    "SR T9 T5 S8",
    "H3 T6 HJ T14",
    "CR T10 D2 C8",
    "H2 D1 CJ T15",
    "C10 T11 DJ SJ",
    "H1 DR D4 T16",
    "C9 HR DQ D3",
)

D2_ZWEI_VERSCHIEDENE_TRICKS = (
    "C7 C9 T7 T2",
    "H4 T12 H3 T3",
    "CQ T8 T4 CK",
    "HQ T5 HK T13",
    "SQ S10 S9 SK",
    "T21 T14 T9 T6",
    "T20 T15 T10 D2",
    "T19 T16 T11 D1",
    "T18 C10 H2 DJ",
    "T17 CR H1 DR",
    "DK SR HR DQ",
)

D2_ZWEI_LEERE_TRICKS = (
    "C7 C9 T7 T2",
    "C8 C10 T8 T3",
    "HQ T4 HK T12",
    "CQ T9 T5 CK",
    "H3 T6 T18 T13",
    "T22 T14 T10 D2",
    "T21 T15 T11 D1",
    "SK SQ S10 S9",
    "T20 T16 H2 DJ",
    "T19 CR H1 DR",
    "DK SR HR DQ",
)

D5_PICCOLO_TRICKS = (
    "T22 T15 T8 T1",
    "C7 CJ T9 T2",
    "SK T3 S7 T16",
    "CQ T10 T4 C8",
    "SQ T5 S8 T17",
    "CR T11 T6 C9",
    "SR T7 S9 T18",
    "CK T12 HJ H4",
    "SJ HR H3 T19",
    "T20 T13 HQ D4",
    "T21 T14 HK D3",
)


def result(state):  # type: ignore[no-untyped-def]
    assert state.is_over
    r = state.result()
    assert r is not None
    assert sum(r["score"]["settlement"]) == 0
    return r


# ----------------------------------------------------------------------------- schwarzwald


def play_d1_cego(state) -> None:  # type: ignore[no-untyped-def]
    say(state, *FORT4, *FORT4, "cego", "gut", "gut", "gut", "spielen")
    do(state, "keep", "T22 T21")
    do(state, "press", "D4")
    winners = tricks(state, *D1_CEGO_TRICKS)
    assert winners == [0, 0, 1, 3, 1, 0, 0, 0, 0, 0, 0]


def test_schwarzwald_cego_won() -> None:
    # Defenders' tricks: CR T14 T10 T6 (4), SK S7 T7 T3 (6), DK T2 T15 T11 (6) = 16.
    # Declarer 79 - 16 = 63 (tricks 51, laid away 11½, pressed D4 ½).
    # Loser 16 → Fächer ⌈24/5⌉ = 5 → 25 × value 1 = 25 → rounded up 30.
    state = deal(D1, D1_BLIND, dealer=3)
    play_d1_cego(state)
    r = result(state)
    assert r["contract"] == "cego" and r["declarer"] == 0 and r["value"] == 1
    assert r["card_points"] == {"declarer": 63, "defenders": 16, "out_of_play": 0}
    assert r["laid_away"] == ["T20", "T19", "T18", "T17", "T16", "CK", "CQ", "H3", "H4"]
    assert r["pressed"] == ["D4"]
    assert r["tricks"] == [8, 2, 0, 1]
    s = r["score"]
    assert (s["winner"], s["loser_points"], s["faecher"], s["written"]) == ("declarer", 16, 5, 30)
    assert s["settlement"] == [90, -30, -30, -30]


def test_three_card_count_same_deal() -> None:
    # Triples: each card counts its whole value less ⅔. Defenders' 12 cards are worth
    # 3+1+1+1 + 5+1+1+1 + 5+1+1+1 = 22, less 8 → 14; the declarer has 70 - 14 = 56 ≥ 36.
    # Loser 14 → Fächer ⌈22/5⌉ = 5 → 25 → 30.
    state = deal(D1, D1_BLIND, dealer=3, options={"counting": "triples"})
    play_d1_cego(state)
    s = result(state)["score"]
    assert (s["loser_points"], s["faecher"], s["written"]) == (14, 5, 30)


def test_five_table_dealer_sits_and_pays_like_a_defender() -> None:
    # Same deal with a fifth seat: seat 4 deals and sits out; he pays 30 like a defender.
    hands = [*D1, ""]
    state = deal(hands, D1_BLIND, dealer=4, seats=5)
    assert state.players == 4 and state.seats == 5 and state.vorhand == 0
    play_d1_cego(state)
    assert result(state)["score"]["settlement"] == [120, -30, -30, -30, -30]


def test_schwarzwald_raeuber_announcer_loses_double() -> None:
    # Vorhand announces Räuber; everyone plays alone, the blind (12 points) is out of play.
    # Seat 0 takes 63 points (most) and, as the announcer, pays 2 × 40 to everyone.
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "gut", "gut", "gut", "raeuber")
    assert state.contract == "raeuber" and state.announcer == 0 and state.to_act == 0
    tricks(
        state,
        "T16 T12 T8 T4",
        "T17 T13 T9 T5",
        "T18 T14 T10 T6",
        "T19 T15 T11 T7",
        "H3 S8 H2 D3",
        "S7 D2 T20 S9",
        "H4 S10 H1 D1",
        "HJ DJ T21 SJ",
        "CQ SR HR DR",
        "CK SQ HQ DQ",
        "T22 SK HK DK",
    )
    r = result(state)
    assert r["card_points"]["seats"] == [63, 0, 4, 0]
    assert r["card_points"]["out_of_play"] == 12
    assert r["score"]["losers"] == [0]
    assert r["score"]["jungfrauen"] == []
    assert r["score"]["settlement"] == [-240, 80, 80, 80]


def test_schwarzwald_solo_won_counts_double() -> None:
    # Defenders: H4 S10 H1 D1 (2) and HK DJ H3 SJ (8) = 10; the soloist has 69 with the
    # untouched blind (12). Loser 10 → ⌈30/5⌉ = 6 Fächer → 30 → 30, doubled for a won Solo: 60.
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, "solo", "fort", "fort", "fort")
    assert state.phase == "gegensolo" and state.to_act == 1
    say(state, "fort", "fort", "fort")
    assert state.contract == "solo" and state.to_act == 0
    tricks(state, *D1_SOLO_TRICKS)
    r = result(state)
    assert r["card_points"]["declarer"] == 69
    s = r["score"]
    assert (s["loser_points"], s["faecher"], s["written"]) == (10, 6, 60)
    assert s["settlement"] == [180, -60, -60, -60]


def test_schwarzwald_gegensolo_berg() -> None:
    # Seat 1 goes against seat 0's Solo: he holds Cego at value 1 + 1 = 2; the soloist may
    # not bid. Seat 1 takes no trick, so he is Berg: 2 × 40 = 80 to each, and his laid-away
    # cards count for the defenders (79 points).
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, "solo", "fort", "fort", "fort", "gegensolo")
    assert state.phase == "auction" and state.to_act == 2
    say(state, "gut", "gut")
    assert state.contract == "cego" and state.declarer == 1 and state.value == 2
    do(state, "keep", "T15 SK")
    do(state, "press", "D4")
    winners = tricks(state, *D1_GEGENSOLO_TRICKS)
    assert 1 not in winners
    r = result(state)
    assert r["gegensolo"] is True
    assert r["card_points"]["declarer"] == 0 and r["card_points"]["defenders"] == 79
    s = r["score"]
    assert s["berg"] is True and s["written"] == 80
    assert s["settlement"] == [80, -240, 80, 80]


def test_schwarzwald_halbe_lost() -> None:
    # Seat 0 lays out H3, keeps T22, lays away 15½, presses D4 (½): 16 before play.
    # He wins only SQ T9 T6 T22 (9): 25 in all. Loser 25 → ⌈15/5⌉ = 3 → 15 × 2 = 30.
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "halbe", "selbst", "gut", "gut", "gut")
    assert state.contract == "halbe" and state.declarer == 0
    do(state, "lay-out", "H3")
    do(state, "keep", "T22")
    do(state, "press", "D4")
    tricks(state, *D1_HALBE_TRICKS)
    r = result(state)
    assert r["card_points"]["declarer"] == 25
    s = r["score"]
    assert (s["winner"], s["loser_points"], s["faecher"], s["written"]) == (
        "defenders",
        25,
        3,
        30,
    )
    assert s["settlement"] == [-90, 30, 30, 30]


def test_schwarzwald_eine_lost() -> None:
    # Seat 0 keeps T22 and lays away 16; he wins only the first trick (6): 22.
    # Loser 22 → ⌈18/5⌉ = 4 → 20 × 3 = 60.
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, *FORT4, "cego", "halbe", "selbst", "eine", "selbst", "gut", "gut", "gut")
    assert state.contract == "eine"
    do(state, "keep", "T22")
    assert state.phase == "play" and state.hands[0].bit_count() == 11
    tricks(state, *D1_EINE_TRICKS)
    s = result(state)["score"]
    assert (s["loser_points"], s["faecher"], s["written"]) == (22, 4, 60)
    assert s["settlement"] == [-180, 60, 60, 60]


def test_schwarzwald_leere_berg_legage_to_defenders() -> None:
    # Seat 0 lays out H4 and keeps only the blind; he takes no trick: Berg, 4 × 40 = 160.
    state = deal(D1, D1_BLIND, dealer=3)
    say(
        state,
        *FORT4,
        *FORT4,
        "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst", "gut", "gut", "gut",
    )  # fmt: skip
    do(state, "lay-out", "H4")
    tricks(
        state,
        "H4 T12 H2 T4",
        "SK S7 T5 T2",
        "DK D4 T13 T8",
        "SQ T9 T6 T3",
        "HK T7 T1 T14",
        "SR T10 D3 CJ",
        "HQ D2 C7 T15",
        "SJ T11 D1 C8",
        "HR DJ C9 S8",
        "HJ DR C10 S9",
        "H1 DQ CR S10",
    )
    r = result(state)
    assert r["card_points"] == {"declarer": 0, "defenders": 79, "out_of_play": 0}
    assert r["score"]["settlement"] == [-480, 160, 160, 160]


def test_schwarzwald_leere_won() -> None:
    # D2: seat 0 lays out H4 (never wins), lays away 12 and plays the rich blind.
    # Defenders: H4 T12 H3 T2 (2), CQ T7 T3 CK (9), HQ T4 HK T13 (9) = 20.
    # Loser 20 → ⌈20/5⌉ = 4 → 20 × 4 = 80.
    state = deal(D2, D2_BLIND, dealer=3)
    say(
        state,
        *FORT4,
        *FORT4,
        "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst", "gut", "gut", "gut",
    )  # fmt: skip
    do(state, "lay-out", "H4")
    tricks(state, *D2_LEERE_TRICKS)
    s = result(state)["score"]
    assert (s["winner"], s["loser_points"], s["faecher"], s["written"]) == ("declarer", 20, 4, 80)
    assert s["settlement"] == [240, -80, -80, -80]


def test_schwarzwald_zwei_leere_forced_press_of_lowest_blind_trump() -> None:
    # Seat 0 lays out C7 C8 and must press the lowest trump of the blind, T17. He leads
    # both laid-out Leere, trick 2 too although seat 2 won trick 1.
    # Defenders: 2 + 2 + 9 + 9 = 22 → ⌈18/5⌉ = 4 → 20 × 5 = 100.
    state = deal(D2, D2_BLIND, dealer=3)
    say(
        state,
        *FORT4,
        *FORT4,
        "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst", "zwei-leere", "selbst",
        "gut", "gut", "gut",
    )  # fmt: skip
    do(state, "lay-out", "C7 C8")
    assert state.phase == "play"
    winners = tricks(state, D2_ZWEI_LEERE_TRICKS[0])
    assert winners == [2] and state.to_act == 0
    tricks(state, *D2_ZWEI_LEERE_TRICKS[1:])
    r = result(state)
    assert r["forced_press"] == ["T17"]
    assert r["card_points"]["declarer"] == 57
    s = r["score"]
    assert (s["loser_points"], s["faecher"], s["written"]) == (22, 4, 100)


def test_schwarzwald_zwei_verschiedene_forced_press_of_highest_blind_trump() -> None:
    # Seat 0 lays out C7 and H4; the highest blind trump T22 (4½) is pressed and counts for
    # him. Defenders: 2 + 2 + 9 + 9 = 22 → 4 Fächer → 20 × 6 = 120.
    state = deal(D2, D2_BLIND, dealer=3)
    say(
        state,
        *FORT4,
        *FORT4,
        "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst", "zwei-leere", "selbst",
        "gut", "zwei-verschiedene", "selbst", "gut", "gut",
    )  # fmt: skip
    assert state.contract == "zwei-verschiedene" and state.value == 6
    do(state, "lay-out", "C7 H4")
    tricks(state, *D2_ZWEI_VERSCHIEDENE_TRICKS)
    r = result(state)
    assert r["forced_press"] == ["T22"]
    assert r["card_points"]["declarer"] == 57
    assert r["score"]["written"] == 120
    assert r["score"]["settlement"] == [360, -120, -120, -120]


def test_schwarzwald_geiss_won() -> None:
    # Dealer 0, so seat 1 is Vorhand; seat 0 raises to Geiß last. He lays out T1 and leads
    # it to trick 1, which it cannot win. Defenders: 6 + 9 + 9 = 24 → 4 Fächer → 20 × 7 = 140.
    state = deal(D2, D2_BLIND, dealer=0)
    say(
        state,
        *FORT4,
        *FORT4,
        "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst", "zwei-leere", "selbst",
        "zwei-verschiedene", "gut", "gut", "geiss", "gut",
    )  # fmt: skip
    assert state.contract == "geiss" and state.declarer == 0 and state.value == 7
    do(state, "lay-out", "T1")
    tricks(state, *D2_GEISS_TRICKS)
    r = result(state)
    assert r["card_points"]["declarer"] == 55
    s = r["score"]
    assert (s["loser_points"], s["faecher"], s["written"]) == (24, 4, 140)
    assert s["settlement"] == [420, -140, -140, -140]


def test_schwarzwald_ulti_won() -> None:
    # Seat 0 draws the trumps and wins the last trick with the Geiß: 80 from each opponent.
    state = deal(D3, D3_BLIND, dealer=3)
    say(state, "ulti")
    assert state.contract == "ulti" and state.phase == "play"
    tricks(
        state,
        "T22 T12 T10 T8",
        "T21 T13 T11 T9",
        "CK CQ S7 H4",
        "T20 C7 S8 H3",
        "T19 C8 S9 H2",
        "T18 C9 S10 H1",
        "T17 C10 SJ HJ",
        "T16 CJ SR DJ",
        "T15 CR HR DR",
        "T14 SQ HQ DQ",
        "T1 SK HK DK",
    )
    r = result(state)
    assert r["last_trick_with_geiss"] is True
    assert r["score"]["written"] == 80
    assert r["score"]["settlement"] == [240, -80, -80, -80]


def test_schwarzwald_ulti_lost_ends_when_the_geiss_falls() -> None:
    state = deal(D2, D2_BLIND, dealer=3)
    say(state, "ulti")
    tricks(state, "T1 T12 T7 T2")
    r = result(state)
    assert r["score"]["settlement"] == [-240, 80, 80, 80]
    assert r["tricks"] == [0, 1, 0, 0]


def test_schwarzwald_bettel_won() -> None:
    # Seat 0 gets rid of the Geiß at once and takes no trick: 30 from each.
    state = deal(D2, D2_BLIND, dealer=3)
    say(state, *FORT4, "bettel", "fort", "fort", "fort")
    assert state.contract == "bettel"
    winners = tricks(state, *D2_BETTEL_TRICKS)
    assert 0 not in winners
    assert result(state)["score"]["settlement"] == [90, -30, -30, -30]


def test_schwarzwald_piccolo_won() -> None:
    # Seat 0 takes exactly one trick (the Gstieß) and nothing else: 40 from each.
    state = deal(D5, D5_BLIND, dealer=3)
    say(state, *FORT4, "piccolo")
    assert state.contract == "piccolo" and state.phase == "play"
    tricks(state, *D5_PICCOLO_TRICKS)
    r = result(state)
    assert r["tricks"][0] == 1
    assert r["score"]["settlement"] == [120, -40, -40, -40]


def test_schwarzwald_piccolo_lost_ends_at_the_second_trick() -> None:
    state = deal(D1, D1_BLIND, dealer=3)
    say(state, *FORT4, "piccolo")
    tricks(state, "T22 T12 T8 T4", "T21 T13 T9 T5")
    r = result(state)
    assert r["tricks"] == [2, 0, 0, 0]
    assert r["score"]["settlement"] == [-120, 40, 40, 40]


# -------------------------------------------------------------------------------- titisee


def test_titisee_raeuber_nach_regeln_with_jungfrau() -> None:
    # T22 falls in trick 1, T21 in trick 2 (seat 1 must play it although he holds clubs),
    # T1 in trick 3. Seat 1 has most points (34) and pays 40 to seats 0 and 2; seat 3 took no
    # trick (Jungfrau) and gets 80 from every other seat.
    state = deal(D5, D5_BLIND, dealer=3, profile="titisee")
    say(state, *FORT4, *FORT4, "cego", "gut", "gut", "gut", "raeuber")
    tricks(
        state,
        "T22 T15 T8 T2",
        "C7 T21 T9 T3",
        "CJ T10 T1 C8",
        "SK T4 S7 T16",
        "CQ T11 T5 C9",
        "SQ T6 S8 T17",
        "CR T12 T7 H4",
        "SR HJ S9 T18",
        "CK T13 HR H3",
        "SJ HQ D4 T19",
        "T20 T14 HK D3",
    )
    r = result(state)
    assert r["card_points"]["seats"] == [6, 34, 24, 0]
    s = r["score"]
    assert s["losers"] == [1] and s["jungfrauen"] == [3]
    assert s["settlement"] == [-40, -160, -40, 240]
    assert s["money"] == {"stake": "ums Ganze", "cents": [-40, -160, -40, 240]}


def test_titisee_pflichtraeuber_vorhand_announces() -> None:
    state = deal(D5, D5_BLIND, dealer=3, profile="titisee", deal_type="pflichtraeuber")
    assert state.contract == "raeuber" and state.announcer == 0 and state.phase == "play"
    assert state.history == []
    # Everyone sees what kind of deal it is (a Räuber nobody chose).
    assert state.view(2)["deal_type"] == state.view(None)["deal_type"] == "pflichtraeuber"
    assert deal(D5, D5_BLIND, dealer=3, profile="titisee").view(0)["deal_type"] is None


def test_titisee_drescher_last_trick_loses() -> None:
    state = deal(D5, D5_BLIND, dealer=3, profile="titisee", deal_type="drescher")
    assert state.contract == "drescher" and state.to_act == 0
    winners = tricks(
        state,
        "T22 T15 T8 T1",
        "C7 CJ T9 T2",
        "SK T3 S7 T16",
        "CQ T10 T4 C8",
        "SQ T5 S8 T17",
        "CR T11 T6 C9",
        "SR T7 S9 T18",
        "CK T12 HJ H4",
        "SJ HR H3 T19",
        "T20 T13 HQ D4",
        "T21 T14 HK D3",
    )
    assert winners[-1] == 1
    assert result(state)["score"]["settlement"] == [40, -120, 40, 40]


def test_titisee_soli_ulti_scored_as_two_games() -> None:
    # Solo: seat 0 takes every trick, so the defenders are Berg: 40, doubled: 80.
    # Ulti: the last trick falls to the Geiß: 50. Each opponent pays 130.
    state = deal(D3, D3_BLIND, dealer=3, profile="titisee")
    say(state, "soli-ulti")
    tricks(
        state,
        "T22 T12 T10 T8",
        "T21 T13 T11 T9",
        "CK CQ S7 H4",
        "T20 C7 S8 H3",
        "T19 C8 S9 H2",
        "T18 C9 S10 H1",
        "T17 C10 SJ HJ",
        "T16 CJ SR DJ",
        "T15 CR HR DR",
        "T14 SQ HQ DQ",
        "T1 SK HK DK",
    )
    s = result(state)["score"]
    assert s["parts"]["solo"]["written"] == 80 and s["parts"]["ulti"]["written"] == 50
    assert s["settlement"] == [390, -130, -130, -130]


def test_titisee_ulti_is_worth_50() -> None:
    state = deal(D2, D2_BLIND, dealer=3, profile="titisee")
    say(state, "ulti")
    tricks(state, "T1 T12 T7 T2")
    assert result(state)["score"]["settlement"] == [-150, 50, 50, 50]


def test_titisee_withdraw_leere_for_the_king_from_the_blind() -> None:
    # Seat 0 lays out H4, finds HK in the blind and lays it out instead; H4 stays in his hand
    # and may never win. Same points as the plain Leere: defenders 20 → 80, paid in cents.
    state = deal(D2, D2_BLIND, dealer=3, profile="titisee")
    say(
        state,
        *FORT4,
        *FORT4,
        "cego", "halbe", "selbst", "eine", "selbst", "leere", "selbst", "gut", "gut", "gut",
    )  # fmt: skip
    do(state, "lay-out", "H4")
    assert {"seat": 0, "act": "withdraw", "cards": ["H4", "HK"]} in [
        a.to_json() for a in state.legal_actions()
    ]
    do(state, "withdraw", "H4 HK")
    tricks(
        state,
        "HK T12 H3 T2",
        "CQ T7 T3 CK",
        "HQ T4 H4 T13",
        "SQ S10 S9 SK",
        "T22 T14 T8 T5",
        "T21 T15 T9 T6",
        "T20 T16 T10 D2",
        "T19 C9 T11 D1",
        "T18 C10 H2 DJ",
        "T17 CR H1 DR",
        "DK SR HR DQ",
    )
    r = result(state)
    assert r["laid_out"] == ["HK", "H4"]
    s = r["score"]
    assert s["written"] == 80 and s["settlement"] == [240, -80, -80, -80]
    assert s["money"]["cents"] == [240, -80, -80, -80]


def test_titisee_aufdecken_catches_a_solo_schinder() -> None:
    # Seat 0 holds seven trumps with five above 17 and only clubs and hearts: a Pflichtsolo,
    # but says fort. Seat 1 wins Halbe and has all hands shown: seat 0 is Berg at 2 × 40.
    state = deal(D1, D1_BLIND, dealer=3, profile="titisee")
    say(state, *FORT4, *FORT4, "cego", "halbe", "gut", "gut", "gut")
    assert state.declarer == 1 and state.schinder == [0]
    say(state, "aufdecken")
    r = result(state)
    assert r["aufgedeckt"] == {"schinder": [0]}
    assert r["score"]["settlement"] == [-240, 80, 80, 80]


def test_titisee_aufdecken_without_schinder_makes_the_declarer_berg() -> None:
    state = deal(D2, D2_BLIND, dealer=3, profile="titisee")
    say(state, *FORT4, *FORT4, "cego", "gut", "gut", "gut", "spielen")
    do(state, "keep", "T1 CJ")
    say(state, "aufdecken")
    r = result(state)
    assert r["aufgedeckt"] == {"schinder": []}
    assert r["score"]["settlement"] == [-120, 40, 40, 40]


# ----------------------------------------------------------------------------------- zego


def test_zego_three_player_solo() -> None:
    # The soloist counts the untouched blind (20) and the three removed cards (1½).
    # Defenders: C8 CR H2 (3½) + SR H1 S8 (3½) = 7 → ⌈33/5⌉ = 7 Fächer → 35 → 40, doubled: 80.
    state = deal(D6, D6_BLIND, dealer=2, profile="zego")
    say(state, "solo", "fort", "fort", "fort", "fort")
    assert state.contract == "solo"
    tricks(
        state,
        "T22 T9 T4",
        "T21 T10 T5",
        "T20 T11 T6",
        "T19 T12 T7",
        "T18 T13 T8",
        "CK CQ H4",
        "SK SQ H3",
        "C8 CR H2",
        "SR H1 S8",
        "SJ HJ T17",
        "T16 CJ HR",
        "T15 C10 HQ",
        "T14 C9 HK",
    )
    r = result(state)
    assert r["card_points"]["declarer"] == 72
    s = r["score"]
    assert (s["loser_points"], s["faecher"], s["written"]) == (7, 7, 80)
    assert s["settlement"] == [160, -80, -80]


def test_zego_zwei_leere_laid_out_leere_are_ordinary_cards() -> None:
    # Seat 1 lays out C10 C9, need not lead them, and C10 wins trick 8. He presses T1 (the
    # lowest blind trump, 4½). Declarer: 3 + 22 laid away and pressed + 1½ removed = 26½.
    # Loser 26½ → ⌈13½/5⌉ = 3 → 15 × 4 = 60.
    state = deal(D6, D6_BLIND, dealer=2, profile="zego")
    assert state.schinder == []
    say(state, "fort", "fort", "fort")
    assert state.schinder == [0]
    say(state, "cego", "eine", "selbst", "leere", "selbst", "zwei-leere", "gut", "gut")
    assert state.contract == "zwei-leere" and state.declarer == 1 and state.value == 4
    do(state, "lay-out", "C10 C9")
    assert state.forced_press and state.phase == "play"
    winners = tricks(
        state,
        "DK T4 T14",
        "T22 T2 T5",
        "T21 T3 T6",
        "CK C9 T7",
        "HK T20 D3",
        "SK S9 T8",
        "HQ T19 D2",
        "C8 C10 H4",
        "S10 H3 S8",
        "DQ H2 T18",
        "T17 DR H1",
        "T16 DJ HJ",
        "T15 D1 HR",
    )
    assert winners[7] == 1
    r = result(state)
    assert r["card_points"]["declarer"] == 26.5
    s = r["score"]
    assert (s["loser_points"], s["faecher"], s["written"]) == (26.5, 3, 60)
    assert s["settlement"] == [60, -120, 60]


def test_zego_hosen_runter_catches_the_schinder() -> None:
    state = deal(D6, D6_BLIND, dealer=2, profile="zego")
    say(state, "fort", "fort", "fort", "cego", "eine", "gut", "gut")
    assert state.declarer == 1 and state.value == 2
    say(state, "aufdecken")
    assert result(state)["score"]["settlement"] == [-160, 80, 80]
