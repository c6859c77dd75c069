"""Dates in the reader's language, as people write them: "4. Dezember 2026" / "4 December 2026"
(not ISO), for the server-rendered pages; the scripts' twin is ``words.js`` ``longDate``."""

import datetime as dt

MONTHS = {
    "de": (
        "Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
        "Oktober", "November", "Dezember",
    ),
    "en": (
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    ),
}  # fmt: skip


def long_date(iso: object, lang: str = "de") -> str:
    """``iso`` ("2026-12-04") written out in ``lang``; anything else as it is.

    >>> long_date("2026-12-04", "de"), long_date("2026-12-04", "en"), long_date("soon")
    ('4. Dezember 2026', '4 December 2026', 'soon')
    """
    try:
        day = dt.date.fromisoformat(str(iso))
    except ValueError:
        return str(iso)
    month = MONTHS.get(lang, MONTHS["de"])[day.month - 1]
    return f"{day.day}. {month} {day.year}" if lang == "de" else f"{day.day} {month} {day.year}"
