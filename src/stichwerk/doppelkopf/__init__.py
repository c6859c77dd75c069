"""The Doppelkopf rules engine: every rule of the ``wielandstrasse`` and ``ddv`` profiles.

The game's own words, explained once:

- **Augen**: card points (A 11, 10 10, K 4, Q 3, J 2, 9 0; 240 in the deck). *Punkte* are the
  score points written on the list.
- **Re** and **Kontra**: the two parties. In a normal game the holders of the Kreuz-Damen ("die
  Alten") are Re; in a solo the soloist is Re alone.
- **Vorbehalt**: a reservation said before play (a solo, a redeal claim, Armut, Hochzeit); *gesund*
  means none. **Vorhand** is the seat after the dealer; it speaks and (usually) leads first.
- **Lust-Solo** / **Pflicht-Solo**: a voluntary solo, and the one solo each player owes per list.
- **Neu Geben** and **Schmeißen**: a redeal claimed for too few trumps or too many nines.
- **Armut**: a hand with few trumps passes them to a partner who takes them and returns as many.
- **Hochzeit**: one seat holds both Kreuz-Damen and announces it; its partner is whoever wins the
  first qualifying trick (the **Klärungsstich**), else it plays a Karo solo. Not announcing it is
  a **Stilles Solo**.
- **Dulle**: the Herz 10; **Fuchs**: the Karo ace; **Karlchen**: the Kreuz Bube winning the last
  trick; **Doppelkopf**: a trick of 40 Augen or more; **Sau**: both Karo aces in one hand,
  announced, which then outrank everything.
- **Ansage** (Re/Kontra) and **Absage** (keine 90/60/30, schwarz): a party's bets, allowed while
  the announcing player still holds enough cards. An **Erwiderung** (reply) is Re against Kontra
  or Kontra against Re, a little after the party's own deadline.
- **Fehl**: every suit card that is not trump.

Modules: ``cards`` (the deck), ``profiles`` (the settings), ``trumps`` (card order per game
type), ``announcements``, ``scoring``, ``state`` (the deal as a state machine), ``view`` (what a
seat may see), ``record`` and ``summary`` (JSON in and out), ``api`` (the registry entry).
This package imports ``stichwerk.core`` only.
"""
