"""Card-set variants shared by tests (helper module, not collected)."""

from __future__ import annotations

from musici.cards import CardSet, cardset_from_data, standard_cardset_data


def corner_swapped_cards() -> CardSet:
    """The bundled set with every music card's authentic and modern corners swapped."""
    data = standard_cardset_data()
    for records in data.values():
        if isinstance(records, list):
            for r in records:
                if isinstance(r, dict) and "authentic" in r and "modern" in r:
                    r["authentic"], r["modern"] = r["modern"], r["authentic"]
    return cardset_from_data(data, "<corner-swapped>")
