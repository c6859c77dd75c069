"""The rules of play: trump orders, reservations, Hochzeit, Armut, Sau, announcement windows."""

import pytest

from stichwerk.core.action import Action
from stichwerk.core.errors import IllegalAction
from stichwerk.doppelkopf.cards import CODES, code_of
from stichwerk.doppelkopf.profiles import DDV, WIELANDSTRASSE
from stichwerk.doppelkopf.state import DokoState
from stichwerk.doppelkopf.trumps import order_for, winner_of

from .helpers import deal, play_tricks, run
from .test_crafted_normal import HANDS, TRICKS


def ids(*codes: str) -> list[int]:
    """Card ids for codes, the second copy for a repeated code."""
    seen: dict[str, int] = {}
    out = []
    for c in codes:
        out.append(code_of(c) * 2 + seen.get(c, 0))
        seen[c] = seen.get(c, 0) + 1
    return out


def fill(seat0: str, seat1: str = "") -> list[str]:
    """Four hands: the given ones, the rest of the deck dealt round-robin in code order."""
    given = [seat0.split(), seat1.split()]
    rest = [c for c in CODES for _ in range(2)]
    for hand in given:
        for c in hand:
            rest.remove(c)
    hands = [list(h) for h in given] + [[], []]
    seat = 0
    for c in rest:
        while len(hands[seat]) == 12:
            seat = (seat + 1) % 4
        hands[seat].append(c)
        seat = (seat + 1) % 4
    return [" ".join(h) for h in hands]


def names(state: DokoState, seat: int) -> list[str]:
    return [a.act if a.act != "play" else f"play {a.card}" for a in state.legal_actions(seat)]


# --- trump orders -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scheme", "trumps"),
    [
        ("normal", "H10 CQ SQ HQ DQ CJ SJ HJ DJ DA D10 DK D9"),
        ("kreuz", "H10 CQ SQ HQ DQ CJ SJ HJ DJ CA C10 CK C9"),
        ("herz", "H10 CQ SQ HQ DQ CJ SJ HJ DJ HA HK H9"),
        ("damen", "CQ SQ HQ DQ"),
        ("buben", "CJ SJ HJ DJ"),
        ("fleischlos", ""),
    ],
)
def test_trump_orders(scheme: str, trumps: str) -> None:
    order = order_for(scheme, WIELANDSTRASSE)
    assert " ".join(CODES[c] for c in order.trumps_high_to_low) == trumps


def test_sau_tops_the_order() -> None:
    order = order_for("normal", WIELANDSTRASSE, sau=True)
    assert [CODES[c] for c in order.trumps_high_to_low][:3] == ["DA", "H10", "CQ"]


def test_herz_10_order() -> None:
    trick = ids("H10", "CQ", "H10", "CA")
    # Wielandstraße: the second Herz 10 beats the first; DDV: the first wins.
    assert winner_of(trick, order_for("normal", WIELANDSTRASSE), last=False) == 2
    assert winner_of(trick, order_for("normal", DDV), last=False) == 0
    # With a Sau the first beats the second again (II.1).
    assert winner_of(trick, order_for("normal", WIELANDSTRASSE, sau=True), last=False) == 0
    # The last-trick reversal option.
    rev = WIELANDSTRASSE.with_options({"dulle_last_trick_reversal": True})
    assert winner_of(trick, order_for("normal", rev), last=True) == 0
    assert winner_of(trick, order_for("normal", rev), last=False) == 2


def test_fehl_order_in_solos() -> None:
    # Damen solo: a led Kreuz Bube is beaten by the Kreuz König; queens trump.
    damen = order_for("damen", DDV)
    assert winner_of(ids("CJ", "CK", "C9", "SA"), damen, last=False) == 1
    assert winner_of(ids("CA", "CK", "DQ", "C10"), damen, last=False) == 2
    # Fleischloser: the Dame ranks between König and Bube; nothing trumps.
    meatless = order_for("fleischlos", DDV)
    assert winner_of(ids("CJ", "CQ", "H10", "C9"), meatless, last=False) == 1
    # Of two equal cards the first wins.
    assert winner_of(ids("SA", "SA", "S10", "S9"), meatless, last=False) == 0


def test_following_suit_is_enforced() -> None:
    state = run(deal(HANDS), "0 gesund; 1 gesund; 2 gesund; 3 gesund; 0 play CA")
    before = state.to_record()
    with pytest.raises(IllegalAction, match="seat 1 must follow Kreuz: holds C10 CK"):
        state.apply(Action(1, "play", card="SQ"))
    with pytest.raises(IllegalAction, match="does not hold"):
        state.apply(Action(1, "play", card="CA"))
    with pytest.raises(IllegalAction, match="not seat 2's turn"):
        state.apply(Action(2, "play", card="CA"))
    assert state.to_record() == before
    assert names(state, 1) == ["play C10", "play CK", "kontra", "keine-90", "keine-60",
                               "keine-30", "schwarz"]  # fmt: skip
    state.apply(Action(1, "play", card="Kreuz 10"))
    assert state.actions[-1] == Action(1, "play", card="C10")


# --- reservations -------------------------------------------------------------------------------


def test_solo_ranking_by_type_and_by_seat() -> None:
    script = "0 vorbehalt; 1 vorbehalt; 2 gesund; 3 gesund; 0 solo trumpf; 1 solo damen"
    w = run(deal(HANDS), script)
    assert (w.game_type, w.snapshot().soloist) == ("solo-damen", 1)
    d = deal(HANDS, "ddv")
    run(d, "0 vorbehalt; 1 vorbehalt; 2 gesund; 3 gesund; 0 solo trumpf")
    # Seat order decides under the DDV: seat 1 cannot beat seat 0 and is not asked.
    assert (d.phase, d.game_type) == ("play", "solo-trumpf")


def test_pflicht_solo_beats_lust_solo_and_the_soloist_leads() -> None:
    d = deal(HANDS, "ddv", duty_solo_owed=[1])
    run(d, "0 vorbehalt; 1 vorbehalt; 2 gesund; 3 gesund; 0 solo damen; 1 solo buben")
    assert d.game_type == "solo-buben"
    assert d.to_act == 1  # the Pflicht-Solo's soloist leads
    result = run(d.clone(), "1 forfeit").result()
    assert result is not None and result["duty_solo"] is True


def test_lust_solo_vorhand_leads() -> None:
    w = run(deal(HANDS), "0 gesund; 1 gesund; 2 vorbehalt; 3 gesund; 2 solo fleischlos")
    assert w.game_type == "solo-fleischlos" and w.to_act == 0


def test_top_solo_skips_later_holders() -> None:
    w = run(deal(HANDS), "0 vorbehalt; 1 gesund; 2 vorbehalt; 3 gesund; 0 solo damen")
    assert w.phase == "play"


def test_vorgefuehrt_seat_must_play_a_solo() -> None:
    d = deal(HANDS, "ddv", duty_solo_owed=[2], duty_solo_forced=2)
    assert d.phase == "declarations" and d.to_act == 2
    assert {a.act for a in d.legal_actions()} == {"solo"}
    with pytest.raises(IllegalAction):
        d.apply(Action(2, "hochzeit"))
    run(d, "2 solo kreuz")
    assert d.to_act == 2 and d.game_type == "solo-kreuz"


def test_neu_geben_and_schmeissen() -> None:
    poor = fill("C9 C9 S9 S9 H9 CA CA SA SA HA HA CJ")  # five nines, one trump
    w = run(deal(poor), "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund")
    assert {a.act for a in w.legal_actions()} >= {"schmeissen", "neu-geben", "armut", "solo"}
    run(w, "0 schmeissen")
    result = w.result()
    assert result is not None
    assert result["redeal"] == "schmeissen" and result["counts"] is False
    d = run(deal(poor, "ddv"), "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund")
    with pytest.raises(IllegalAction, match="no Schmeißen"):
        d.apply(Action(0, "schmeissen"))


def test_lust_solo_outranks_a_redeal_claim() -> None:
    poor = fill("C9 C9 S9 S9 H9 CA CA SA SA HA HA CJ")
    w = run(deal(poor), "0 vorbehalt; 1 vorbehalt; 2 gesund; 3 gesund; 0 neu-geben")
    assert w.to_act == 1
    run(w, "1 solo buben")
    assert w.game_type == "solo-buben"


def test_vorbehalt_refused_without_a_reservation() -> None:
    no_solo = {"solo_types": []}
    w = deal(HANDS, options=no_solo)
    with pytest.raises(IllegalAction, match="no reservation"):
        w.apply(Action(0, "vorbehalt"))


# --- Stilles Solo and Hochzeit ----------------------------------------------------------------

HOCHZEIT = [
    "CA SA HA CQ H10 D9 SK C9 DK CJ CQ CJ",
    HANDS[1],
    "CA SK H9 D10 HQ HQ S9 C9 H9 DA D10 HJ",
    HANDS[3],
]


def test_stilles_solo() -> None:
    w = run(deal(HOCHZEIT), "0 gesund; 1 gesund; 2 gesund; 3 gesund")
    assert w.game_type == "solo-still" and w.to_act == 0
    assert w.view(0)["game_type"] == "solo-still"
    assert w.view(1)["game_type"] == "normal"
    assert w.view(None)["soloist"] is None
    no_silent = deal(HOCHZEIT, options={"silent_solo": False})
    with pytest.raises(IllegalAction, match="must announce a Vorbehalt"):
        no_silent.apply(Action(0, "gesund"))


def test_hochzeit_partner_fehl_led_vs_any_trick() -> None:
    tricks = ["0: D9 H10 D10 DK", "1: S10 SK S9 SK"]
    script = "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund; 0 hochzeit"
    d = run(deal(HOCHZEIT, "ddv"), script)
    play_tricks(d, tricks[:1])
    assert d.view(None)["hochzeit"] == {"seat": 0, "klaerungsstich": 1, "partner": 1}
    assert "re" in names(d, 0)
    w = run(deal(HOCHZEIT), script)
    play_tricks(w, tricks[:1])  # trump-led: does not count under Wielandstraße
    assert w.view(None)["hochzeit"]["partner"] is None
    with pytest.raises(IllegalAction, match="before the Hochzeit partner is known"):
        w.apply(Action(0, "re"))
    play_tricks(w, tricks[1:])
    assert w.view(None)["hochzeit"] == {"seat": 0, "klaerungsstich": 2, "partner": 1}
    # Clarified in trick 2: every deadline drops by one (re with 10 cards, keine 90 with 9).
    assert w.party_of(1) == "re" and w.party_of(2) == "kontra"
    assert "re" in names(w, 0) and "keine-90" in names(w, 0)
    play_tricks(d, tricks[1:])
    assert "re" not in names(d, 0)


def test_hochzeit_without_partner_is_a_karo_solo() -> None:
    w = run(deal(HOCHZEIT), "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund; 0 hochzeit")
    play_tricks(w, ["0: CA C10 CA C10", "0: SA S10 SK S9", "0: HA HK H9 HA"])
    assert w.game_type == "solo-trumpf"
    assert w.view(None)["hochzeit"]["klaerungsstich"] == 3
    # Klärungsstich 3: Re/Kontra until 9 cards (IV.1 "spätestens mit 9 Karten").
    assert "re" in names(w, 0) and "kontra" in names(w, 1)
    w.apply(Action(0, "play", card="CQ"))
    assert "re" not in names(w, 0)
    result = run(w, "0 forfeit").result()
    assert result is not None
    assert result["game_type"] == "solo-trumpf" and result["duty_solo"] is False


# --- Armut --------------------------------------------------------------------------------------

POOR = fill("CA CA C10 SA SA S10 HA HA HK C9 CJ DK")  # two trumps


def test_armut_pass_take_return_and_declare() -> None:
    w = run(deal(POOR), "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund; 0 armut")
    assert w.phase == "armut" and w.to_act == 1
    assert w.view(2)["armut"] == {"seat": 0, "taker": None, "cards": 2}
    run(w, "1 decline; 2 take")
    assert w.to_act == 2
    assert w.view(2)["armut"]["passed"] == ["CJ", "DK"]
    assert "passed" not in w.view(1)["armut"]
    with pytest.raises(IllegalAction, match="returns exactly 2 cards"):
        w.apply(Action(2, "return", cards=("CJ",)))
    returns = w.legal_actions(2)
    assert all(len(a.cards) == 2 for a in returns)
    back = returns[0].cards
    w.apply(Action(2, "return", cards=back))
    assert w.phase == "play" and w.game_type == "armut" and w.to_act == 0
    assert (w.party_of(0), w.party_of(2), w.party_of(1)) == ("re", "re", "kontra")
    info = w.view(3)["armut"]
    assert "returned" not in info and "returned_trumps" in info
    assert w.view(0)["armut"]["returned"] == list(back)
    assert w.view(3)["history"][-1] == {
        "seat": 2, "act": "return", "count": 2, "returned_trumps": info["returned_trumps"]
    }  # fmt: skip


def test_armut_nobody_takes_is_a_redeal() -> None:
    w = run(deal(POOR), "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund; 0 armut")
    run(w, "1 decline; 2 decline; 3 decline")
    result = w.result()
    assert result is not None and result["redeal"] == "armut"


def test_armut_refused_with_too_many_trumps() -> None:
    w = run(deal(HANDS), "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund")
    with pytest.raises(IllegalAction, match="Armut needs at most 3 trumps"):
        w.apply(Action(0, "armut"))


# --- Sau ----------------------------------------------------------------------------------------


def test_sau_announced_before_the_first_fox() -> None:
    hands = fill("DA DA CQ H10 CA SA HA C10 S10 HK C9 S9")
    w = run(deal(hands), "0 gesund; 1 gesund; 2 gesund; 3 gesund")
    assert "sau" in names(w, 0)
    assert "sau" not in names(w, 1)
    run(w, "0 sau")
    assert w.view(1)["sau"] == 0
    with pytest.raises(IllegalAction, match="already announced"):
        w.apply(Action(0, "sau"))
    d = run(deal(hands, "ddv"), "0 gesund; 1 gesund; 2 gesund; 3 gesund")
    with pytest.raises(IllegalAction, match="no Sau"):
        d.apply(Action(0, "sau"))


# --- announcement windows ---------------------------------------------------------------------


def start(profile: str = "wielandstrasse") -> DokoState:
    return run(deal(HANDS, profile), "0 gesund; 1 gesund; 2 gesund; 3 gesund")


def test_re_kontra_window_11_cards_and_reply_10() -> None:
    w = start()
    play_tricks(w, TRICKS[:1])  # 11 cards each
    assert "re" in names(w, 0) and "kontra" in names(w, 1)
    play_tricks(w, TRICKS[1:2])  # 10 cards
    assert "re" not in names(w, 0)
    with pytest.raises(IllegalAction, match=r"too late for re: .* at least 11 cards \(holds 10\)"):
        w.apply(Action(0, "re"))
    w = start()
    play_tricks(w, TRICKS[:1])
    run(w, "1 kontra")
    play_tricks(w, TRICKS[1:2])
    assert "re" in names(w, 0)  # the reply, with 10 cards
    play_tricks(w, TRICKS[2:3])
    assert "re" not in names(w, 0)


def test_wrong_party_is_refused() -> None:
    w = start()
    with pytest.raises(IllegalAction, match="not in the Re party"):
        w.apply(Action(1, "re"))
    with pytest.raises(IllegalAction, match="not in the Kontra party"):
        w.apply(Action(0, "kontra"))


@pytest.mark.parametrize(
    ("profile", "deadlines"),
    [("wielandstrasse", (10, 8, 6, 4)), ("ddv", (10, 9, 8, 7))],
)
def test_absage_windows(profile: str, deadlines: tuple[int, ...]) -> None:
    for level, act in enumerate(("keine-90", "keine-60", "keine-30", "schwarz")):
        need = deadlines[level]
        for held, ok in ((need, True), (need - 1, False)):
            w = start(profile)
            run(w, "0 re")
            # Say the lower levels in time, then wait until seat 0 holds ``held`` cards.
            for lower in ("keine-90", "keine-60", "keine-30", "schwarz")[:level]:
                run(w, f"0 {lower}")
            play_tricks(w, TRICKS[: 12 - held])
            assert (act in names(w, 0)) is ok, (act, held)
            if not ok:
                with pytest.raises(IllegalAction, match=f"too late for {act}"):
                    w.apply(Action(0, act))


def test_skipped_levels_count_while_their_deadlines_are_open() -> None:
    w = start()
    play_tricks(w, TRICKS[:1])
    run(w, "0 keine-60")  # says re, keine 90 and keine 60 at once (11 cards)
    assert w.view(None)["announcements"]["re"] == ["re", "keine-90", "keine-60"]
    w = start()
    run(w, "0 re")
    play_tricks(w, TRICKS[:3])  # 9 cards: keine 90 has passed, so keine 60 cannot skip it
    with pytest.raises(IllegalAction, match=r"too late for keine-90 \(skipped by keine-60\)"):
        w.apply(Action(0, "keine-60"))


def test_ddv_reply_one_card_less_than_the_absage() -> None:
    d = start("ddv")
    run(d, "1 kontra; 1 keine-90")
    play_tricks(d, TRICKS[:3])  # 9 cards: keine 90 needed 10, so Re may reply until 9
    assert "re" in names(d, 0)
    play_tricks(d, TRICKS[3:4])
    assert "re" not in names(d, 0)


def test_announcements_are_offered_out_of_turn() -> None:
    w = start()
    assert w.to_act == 0
    assert names(w, 2) == ["re", "keine-90", "keine-60", "keine-30", "schwarz"]
    run(w, "2 re")
    assert "re" not in names(w, 0)


def test_armut_of_three_cards_and_uncounted_foxes() -> None:
    # Two trumps and two Füchse that do not count: the Armut passes all four trumps.
    opts = {"armut_cards": "three", "armut_fox_is_trump": False}
    hands = fill("DA DA CJ DK CA CA C10 SA SA S10 HA HK")
    w = run(deal(hands, options=opts), "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund")
    offered = [a for a in w.legal_actions() if a.act == "armut"]
    assert offered == [Action(0, "armut", cards=("CJ", "DA", "DA", "DK"))]
    # Two trumps: the Armut chooses one Fehl card to make three.
    hands = fill("CJ DK CA CA C10 SA SA S10 HA HK HK H9")
    w = run(deal(hands, options=opts), "0 vorbehalt; 1 gesund; 2 gesund; 3 gesund")
    offered = [a for a in w.legal_actions() if a.act == "armut"]
    assert len(offered) == 7 and all(len(a.cards) == 3 for a in offered)
    with pytest.raises(IllegalAction, match="passes every trump"):
        w.apply(Action(0, "armut", cards=("CJ", "CA", "SA")))
    run(w, "0 armut CJ DK H9")
    assert w.view(1)["history"][-1] == {"seat": 0, "act": "armut", "count": 3}
    assert w.view(0)["history"][-1]["cards"] == ["CJ", "H9", "DK"]
