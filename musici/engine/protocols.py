"""Engine protocols: which decisions the engine asks, as it changed between rules revisions.

A saved game is a list of answers, one per decision *asked*. When a revision makes a
decision forced (a single legal answer is applied without asking), an older save holds an
answer the current engine would not ask for. A game replays under the protocol it was
played with, so every recorded answer meets the decision it was given to; the rules
themselves are those of the current revision.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

PROTOCOLS: Mapping[int, str] = MappingProxyType({
    1: "before rules revision 2: a seller is asked to sell any card of the era asked for, "
       "discovery cards included; a seller holding only discovery cards is still asked",
    2: "rules revision 2 and later: a seller is offered score cards only (P4.BUY.2), so a "
       "seller holding only discovery cards declines without being asked",
})
CURRENT_PROTOCOL = max(PROTOCOLS)


def check_protocol(protocol: object) -> int:
    if type(protocol) is not int or protocol not in PROTOCOLS:
        raise ValueError(f"engine protocol must be one of {sorted(PROTOCOLS)}, got {protocol!r}")
    return protocol


__all__ = ["CURRENT_PROTOCOL", "PROTOCOLS", "check_protocol"]
