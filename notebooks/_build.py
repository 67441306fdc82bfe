"""Write the teaching notebooks of this folder (stored without outputs).

Run from the repository root:  .venv/bin/python notebooks/_build.py

Each notebook is a list of markdown and code cells below; cell ids are fixed so that
rebuilding gives the same files. tests/test_notebooks.py runs every notebook headless.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from musici import economy as E
from musici.rules import RuleSet
from musici.ruletext import default_assignment, default_words, ruling_sentence

HERE = Path(__file__).resolve().parent
# Sentences that state a rule or a default are written from the engine's own numbers
# (musici.economy) and the rulings' words (musici.ruletext) at build time, so a changed
# default reaches the notebooks when they are rebuilt; tests/test_prose_defaults.py checks
# the built notebooks against RuleSet().
DEFAULTS = RuleSet()
MONTHS = DEFAULTS.months
MEDIA_STEP = DEFAULTS.get("RULING-MEDIA-STEP")
SURCHARGE_LINES = " and ".join(str(fame) for fame, _ in sorted(E.SURCHARGES))
HALL_NAMES = {"chapel": "Chapel", "university": "University", "dome": "Dome", "opera": "Opera"}


def _times(num: int, den: int) -> str:
    return f"×{num // den}" if num % den == 0 else f"×{num / den:g}"


def _halls_sentence() -> str:
    """P3.HALL in one line: "Chapel 10 musicians (50 G, free ...), University 30 (100 G), ..."."""
    parts = []
    for i, (area, (rent, tens)) in enumerate(E.HALLS.items()):
        free = ", free for the one player with strictly the least fame, P3.HALL.1" \
            if area == E.FREE_HALL else ""
        parts.append(f"{HALL_NAMES[area]} {tens * 10}{' musicians' if i == 0 else ''} "
                     f"({rent} G{free})")
    return ", ".join(parts)


def _multipliers(kind: str) -> str:
    """The multipliers of the academic (fame) or commercial (income) tours: "×2, ×1.5"."""
    return ", ".join(_times(*(fame_x if kind == "academic" else income_x))
                     for tour, (_, _, fame_x, income_x) in E.TOURS.items() if kind in tour)


def _tour_table() -> str:
    """P3.TOUR as a markdown table, from economy.TOURS."""
    rows = ["| tour | cost | effect on this month's concert |", "|---|---|---|"]
    for tour, (money, fame, fame_x, income_x) in E.TOURS.items():
        cost = f"{money} G" if money else f"{fame} fame"
        effect = (f"no income; fame {_times(*fame_x)}" if fame_x[0]
                  else f"no fame; income {_times(*income_x)}")
        rows.append(f"| {tour.replace('-', ' ')} | {cost} | {effect} |")
    return "\n    ".join(rows)
KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}


def md(text: str) -> tuple[str, str]:
    return ("markdown", textwrap.dedent(text).strip("\n"))


def code(text: str) -> tuple[str, str]:
    return ("code", textwrap.dedent(text).strip("\n"))


def build(name: str, cells: list[tuple[str, str]]) -> Path:
    # imported here: reading the cells (tests/test_prose_defaults.py) needs no nbformat
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    nb = new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    for i, (kind, source) in enumerate(cells):
        cell = new_markdown_cell(source) if kind == "markdown" else new_code_cell(source)
        cell["id"] = f"{name.replace('_', '-')}-{i:02d}"
        nb.cells.append(cell)
    nbformat.validate(nb)
    path = HERE / f"{name}.ipynb"
    nbformat.write(nb, path)
    return path


# ============================================================================ walkthrough
WALKTHROUGH = [
    md(f"""
    # A month of I Musici, phase by phase

    Three or four players each run a newly founded orchestra for a season of {MONTHS} months
    (GOAL.1, RULING-MONTHS). Fame is the score (GOAL.2). Every month has the same five phases (MONTH.1):

    | phase | what happens |
    |---|---|
    | **P1** auction | one special card goes to the highest bidder |
    | **P2** media | a secret bid for the media token, which lifts a concert one level |
    | **P3** venue | everyone books a hall or a tour |
    | **P4** actions | three rounds: hire orchestras, buy or discover scores, hold a concert |
    | **P5** settlement | income, rent, salaries, dissent markers |

    First you get a game to play. Below it, the same deal is played by bots and stopped after
    every phase, so we can read what happened and why. Every effect names its rule id, the
    ids of `docs/rules.md` (e.g. `P3.1`, `RATE.FAIR.3`, `RESTORE.2`).

    Run the notebook from the top (*Run ▸ Run All Cells*).
    """),
    code("""
    from musici.widgets import GameStepper

    stepper = GameStepper(players=("human", "impresario", "merchant", "collector"), seed=7)
    stepper
    """),
    md(f"""
    ## Playing with the stepper

    You are **seat 0**; the three bots are the *impresario* (fame first), the *merchant*
    (money first) and the *collector* (discovery cards and restorations). The stepper opens
    at your first decision (the bots seated before you have played). New to the game?
    `GameStepper(tutorial=True)` plays a guided first month: at each of your decisions it
    outlines the part of the board concerned, says what is decided and why, and introduces
    each rule, in the rulebook's words, the first time it matters; then the game plays on.

    - **next** goes one decision on; **phase**, **month** and **end** let the bots play on to
      the next phase, the next month or the end. They stop whenever *you* must decide: an
      orange box then shows your options, each with what it costs and does (halls and tours
      with rent and room, special cards with their effect, cards drawn as cards), and the
      rule that asks (hover a rule id such as `P1.1` to read the rule).
    - When you choose the orchestras for a concert, the **preview** shows the rating, fame
      and income your choice would give, with the reasons, before you answer.
    - **Since you last decided** lists everything that happened since your last answer or
      button press, month by month and phase by phase; your own concert is highlighted and
      explained.
    - **hint** asks the search bot to estimate each of your options (a few sampled worlds);
      **review** lists your costliest decisions so far, with the better choice and why;
      **bot plays my seat** lets the search bot play for you (press again to take over).
    - The tabs below: the **board** (the eight areas, the fame and month tracks, the media
      token, every seat; only what your seat may see), the **table**, **why?** (any concert
      or payment explained line by line) and the **review**. The stepper opens in your seat's
      view (what seat 0 may see, as at a real table); **view** switches to the teacher's
      view (all hands) or another seat's.
    - The **step** slider and **back** travel in time; **phase**, **month** and **end** then
      replay the recorded answers, yours included; answering differently at a past step
      asks before it drops the later history.
    - The chart shows fame by month and phase, every value at its true place (each seat has
      its own colour, dash and marker, so seats with equal fame share a line); the dashed
      lines at {SURCHARGE_LINES} are where the payroll gets dearer (P5.4); the stars are the
      final fame after the END awards.

    `play.ipynb` has more on playing, and on writing a bot of your own.
    """),
    md("""
    ## Your first game, guided

    The guided first month opens at your first decision with what the game is about; at
    each decision it outlines the part of the board concerned, says what is being decided
    and why it matters, suggests an answer (green) and introduces each rule, in the
    rulebook's words, the first time it fires. After the first month the game plays on
    freely.
    """),
    code("""
    guided = GameStepper(tutorial=True)
    guided.widget.add_class("guided-stepper")
    guided
    """),
    md("""
    ## Teacher mode: four bots at the table

    With no human seat the stepper opens in the teacher's view: every hand open. Press
    **month** to show a whole month in one click, then read it in *since the last button
    press* and on the board.
    """),
    code("""
    teacher = GameStepper(players=("impresario", "merchant", "collector", "search"), seed=7)
    teacher.widget.add_class("teacher-stepper")
    teacher
    """),
    md("""
    ## The same deal, scripted

    The same seed (7) deals the same cards, but now all four seats are bots, so we can stop
    after each phase and read the log. Your seat 0 is played by the simple `greedy` baseline.

    - `Game.play(bots, until="phase")` lets the bots answer until the next phase begins;
    - `describe_event` turns a logged event into words, ending with its rule id.
    """),
    code("""
    import pandas as pd
    from IPython.display import HTML

    from musici import Game
    from musici.analysis import explain_event, game_html
    from musici.describe import describe_event
    from musici.strategies import make_strategy

    LINEUP = ("greedy", "impresario", "merchant", "collector")
    bots = [make_strategy(name) for name in LINEUP]
    game = Game(players=4, seed=7)


    def show(phase, month=1):
        \"\"\"Print the events of one phase of one month, in words.\"\"\"
        for event in game.events:
            if event.month == month and event.phase == phase:
                print(describe_event(event, game.cards))
    """),
    md(f"""
    ### Before the first month: SETUP

    Creating the `Game` already set the table: fame 0 and {E.START_MONEY} G each (SETUP.1, SETUP.4),
    {E.HAND_SIZE} score cards dealt to every hand (SETUP.2), {E.MARKET_SLOTS} score cards and
    {E.MARKET_SLOTS} orchestras face up (SETUP.2, SETUP.3), and
    {ruling_sentence("RULING-START-PLAYER")}. The deals are *private* events: in a seat's view only its own
    deal is visible.
    """),
    code("""
    show("SETUP")
    print()
    print("waiting for:", game.decision.player, game.decision.kind, game.decision.rule)
    """),
    md("""
    The board as the teacher sees it (every hand shown). `game_html(game, seat)` would show
    only what that seat may see.
    """),
    code("""
    HTML(game_html(game))
    """),
    md(f"""
    ### P1: the auction of a special card

    Starting with the start player, everyone in turn raises by exactly {E.AUCTION_STEP} G or drops out for
    good (P1.1, P1.2). The last one left pays the bank and takes the card (P1.3); a permanent
    card works at once, a single-use card waits in hand (P1.4). Then the next special card is
    turned up for next month (P1.6).
    """),
    code("""
    game.play(bots, until="phase")
    show("P1")
    """),
    md(f"""
    ### P2: the media

    Everyone bids at the same time, in secret (P2.1). The highest bid pays and takes the
    media token (P2.2); {ruling_sentence("RULING-MEDIA-ZERO")}. The token lifts the
    holder's concert this month one level: poor becomes fair, fair becomes good (P2.4,
    RATE.MEDIA).

    The bids are private events until the reveal: compare the full log with what seat 2 may
    see in its view.
    """),
    code("""
    game.play(bots, until="phase")
    show("P2")
    print()
    print("seat 2 sees:")
    for event in game.view(2).history:
        if event.phase == "P2":
            print("  ", describe_event(event, game.cards))
    """),
    md(f"""
    ### P3: booking a hall or a tour

    In turn order everyone puts their marker on one of eight places (P3.1); one marker per
    place, so an early pick shuts others out.

    - Halls (P3.HALL) are cheap and limit the stage: {_halls_sentence()}.
    - Tours (P3.TOUR) have no stage limit but change the concert: academic tours cost money
      and multiply fame ({_multipliers("academic")}) with no income; commercial tours cost
      fame and multiply income ({_multipliers("commercial")}) with no fame.
    """),
    code("""
    game.play(bots, until="phase")
    show("P3")
    game.venues
    """),
    md("""
    ### P4: three rounds of actions

    In each round every player, in turn order, does one action or passes (P4.1): hire an
    orchestra (P4.HIRE), buy a score (P4.BUY), search a discovery deck (P4.DISCOVER), appease
    dissent (P4.APPEASE), play a special card (P4.SPECIAL) or hold this month's one concert
    (P4.CONCERT, P4.2). A concert is rated at once and its fame counts at once (P4.CONCERT.4).

    P5 usually asks nobody anything (only a player short of money, or holding certain special
    cards, must choose), so the bots run straight on through the settlement into month 2:
    `until="phase"` stops at the next *decision* in a new phase. The log still keeps the
    phases apart.
    """),
    code("""
    game.play(bots, until="phase")
    show("P4")
    """),
    md("""
    ### Why was a concert rated as it was?

    `explain_event` takes a concert apart, one line per rule: the card and its requirement,
    the musicians brought, each poor condition (RATE.POOR.1–5), then, if none held, each fair
    condition (RATE.FAIR.1–3), the media (RATE.MEDIA), the card's fame for the rating
    (RATE.FAME), the tour (P3.TOUR) and the income (P5.1).

    Bots in month 1 own one or two orchestras, so expect thin concerts: look for
    RATE.POOR.2 (20 or more musicians short) and RATE.POOR.3 (a whole section missing), and
    for the media holder's rating moving up a level.
    """),
    code("""
    concerts = [e for e in game.events if e.kind == "concert" and e.month == 1]
    for concert in concerts:
        print(f"--- seat {concert.player}")
        for line in explain_event(concert, game.cards, game.rules, events=game.events):
            print(line)
    """),
    md(f"""
    ### P5: settlement

    Each player in turn: income of the concert (P5.1), the venue (P5.2), every orchestra's
    salary (P5.3), the surcharge for the famous (P5.4). A player who held no concert pays
    half of every salary (P4.3); as for the venue, {ruling_sentence("RULING-HALF-VENUE")}.
    A player who held no concert and did at most one action gets {E.IDLE_BONUS} G (P4.4).
    Between months the start player moves on one seat (MONTH.3).
    """),
    code("""
    show("P5")
    """),
    md("""
    A payment explained: the first half-price payment of the month (P4.3), if anyone held no
    concert, else the first payment.
    """),
    code("""
    payments = [e for e in game.events if e.month == 1 and e.phase == "P5" and e.kind == "pay"]
    payment = next((e for e in payments if e.rule == "P4.3"), payments[0])
    print(describe_event(payment, game.cards))
    for line in explain_event(payment, game.cards, game.rules):
        print("  ", line)
    """),
    md("""
    After every month the engine records fame and money (`game.monthly`):
    """),
    code("""
    pd.DataFrame([{"month": m["month"], **{f"fame seat {s}": f for s, f in enumerate(m["fame"])},
                   **{f"money seat {s}": g for s, g in enumerate(m["money"])}}
                  for m in game.monthly])
    """),
    md("""
    ## The rest of the year

    Let the bots finish. At the end the awards of END.1–4 are handed out, dissent markers
    cost fame (END.5), and the most fame wins, money breaking ties (END.WIN). Fame can end
    as a fraction: players tied for an award split it evenly (END.6).

    The score sheet reads `game.results`: the winner, each END award with its rule id and
    who took it, and for each seat the fame before the END, the awards, the markers' cost
    and the final fame (`game.standings()` keeps the exact fractions for computing).
    """),
    code("""
    from musici.widgets.summary import score_sheet_html

    game.play(bots)
    NAMES = [f"seat {s} ({name})" for s, name in enumerate(LINEUP)]
    HTML(score_sheet_html(game, names=NAMES))
    """),
    md("""
    Fame through the year, phase by phase (hover a point for the events behind it; the stars
    are the final fame after END).
    """),
    code("""
    from musici.analysis import fame_figure

    fame_figure(game, names=NAMES)
    """),
    md(f"""
    ### A restoration explained

    Discovery cards (P4.DISCOVER) are lost works, worth little on their own. Played after
    music that fits them, they earn a restoration bonus (RESTORE.1): a point for each earlier
    card sharing the composer's nationality or era, and another for the same composer or a
    teaching lineage (RESTORE.2). Under the default readings
    {default_words("RULING-RESTORE-GOOD")} (RESTORE.3), and a
    discovery card gives at most {E.RESTORE_CAP} fame (RESTORE.4). Here is the first discovery card played
    in this game, explained; `rules.ipynb` works through restoration in detail.
    """),
    code("""
    restored = [e for e in game.events if e.kind == "concert" and e.data["restoration"]]
    if restored:
        first = restored[0]
        print(f"month {first.month}, seat {first.player}")
        for line in explain_event(first, game.cards, game.rules):
            print(line)
    else:
        print("nobody played a discovery card in this game")
    """),
    md("""
    ## Where next

    - `rules.ipynb`: concert ratings, restoration and tours, with worked examples;
    - `play.ipynb`: playing against the bots, and writing your own bot;
    - `what_if.ipynb`: switching a ruling, shorter games, other line-ups, with intervals;
    - `balance.ipynb`: a balance report over a batch of games.
    """),
]

# ============================================================================ rules
RULES = [
    md("""
    # The rules that decide a concert: RATE, RESTORE and P3.TOUR

    A concert's fame comes in three steps:

    1. **the rating** (RATE): good, fair or poor, from the style and number of musicians on
       stage and their dissent markers, lifted a level by the media;
    2. **the restoration** (RESTORE), for discovery cards only: a bonus for music you played
       before that fits the rediscovered work;
    3. **the venue** (P3.TOUR): a tour multiplies fame or income.

    Everything below calls the engine's own pure functions in `musici.rating`, on the cards of
    the bundled set, so what you read here is exactly what a game does.
    """),
    code("""
    import networkx as nx
    import pandas as pd

    from musici import Game, standard_cardset
    from musici.describe import card_name
    from musici.economy import RESTORE_CAP
    from musici.rating import FAME_INDEX, rate_concert

    cards = standard_cardset()


    def card_facts(card_id):
        \"\"\"A card's printed numbers.\"\"\"
        c = cards.music[card_id]
        return {"card": card_name(cards, card_id), "kind": c.kind, "era": c.era,
                "fame good/fair/poor": "/".join(map(str, c.fame)), "income": c.income,
                "authentic (instr., vocal)": c.authentic, "modern (instr., vocal)": c.modern}


    pd.DataFrame([card_facts("S04"), card_facts("S05")])
    """),
    md("""
    ## RATE: good, fair or poor

    Requirements count orchestras, tens of musicians: Handel's *Messiah* asks for 2
    instrumental and 2 vocal orchestras in the authentic style, or 3 + 3 modern ones.
    `rate_concert(card, style, brought, markers, media=...)` checks the poor conditions first,
    then the fair ones; if none holds, the concert is good.

    **A good concert.** Two authentic instrumental and two authentic vocal orchestras, no
    dissent markers: nothing poor, nothing fair holds, so RATE.GOOD and the card's first
    fame value, 7.
    """),
    code("""
    messiah = cards.music["S04"]
    good = rate_concert(messiah, "authentic", (2, 2), markers=0)
    good
    """),
    md("""
    `level` is the final rating, `base_level` the rating before the media, and `reasons` the
    RATE ids that held. The fame is the card's value for that level (RATE.FAME):
    """),
    code("""
    messiah.fame[FAME_INDEX[good.level]]
    """),
    md("""
    **A fair concert.** The same card with the modern orchestras that happen to be at hand:
    3 instrumental + 2 vocal, where the modern corner asks for 3 + 3. Exactly one orchestra
    (10 musicians) short in the card's own style is fair (RATE.FAIR.2): 3 fame.
    """),
    code("""
    fair = rate_concert(messiah, "modern", (3, 2), markers=0)
    fair.level, fair.reasons, messiah.fame[FAME_INDEX[fair.level]]
    """),
    md("""
    **A poor concert.** Only 1 + 1 authentic orchestras: two short, so RATE.POOR.2, and the
    card's poor value, −1 fame.
    """),
    code("""
    poor = rate_concert(messiah, "authentic", (1, 1), markers=0)
    poor.level, poor.reasons, messiah.fame[FAME_INDEX[poor.level]]
    """),
    md("""
    **The media upgrade.** The media holder's rating goes up one step after everything else
    (P2.4, RATE.MEDIA): the fair concert becomes good, the poor one fair; a good concert
    stays good. The reasons still say why the concert *was* fair or poor.
    """),
    code("""
    for brought, style in (((3, 2), "modern"), ((1, 1), "authentic"), ((2, 2), "authentic")):
        r = rate_concert(messiah, style, brought, markers=0, media=True)
        print(f"{style:9} {brought}: {r.base_level} -> {r.level}  {r.reasons}")
    """),
    md("""
    ### Every condition, one table

    The rows below follow the worked examples of `docs/rules.md`. Note RATE.POOR.3 (a whole
    section missing: four instrumental orchestras are still poor without singers), the
    dissent markers (one on stage is fair, RATE.FAIR.3; two are poor, RATE.POOR.4), and
    Monteverdi's *L'Orfeo*, written for authentic forces only: modern orchestras are at best
    fair (RATE.FAIR.1) and poor when too few (RATE.POOR.1). Without the media, playing in
    the wrong style is never better than fair.
    """),
    code("""
    EXAMPLES = [
        # card, style, (instrumental, vocal) orchestras, dissent markers, media holder
        ("S04", "authentic", (2, 2), 0, False),
        ("S04", "modern", (3, 2), 0, False),
        ("S04", "modern", (3, 2), 0, True),
        ("S04", "authentic", (1, 1), 0, False),
        ("S04", "authentic", (4, 0), 0, False),
        ("S04", "authentic", (2, 2), 1, False),
        ("S04", "authentic", (2, 2), 2, False),
        ("S04", "authentic", (2, 2), 2, True),
        ("S05", "modern", (2, 2), 0, False),
        ("S05", "modern", (2, 1), 0, False),
        ("S05", "modern", (2, 2), 0, True),
    ]


    def rating_row(card_id, style, brought, markers, media):
        card = cards.music[card_id]
        r = rate_concert(card, style, brought, markers, media=media)
        return {"card": card_id, "style": style, "brought": brought, "required": r.required,
                "markers": markers, "media": media, "before media": r.base_level,
                "rating": r.level, "reasons": ", ".join(r.reasons),
                "fame": card.fame[FAME_INDEX[r.level]]}


    pd.DataFrame([rating_row(*example) for example in EXAMPLES])
    """),
    md("""
    ### The whole map for one card

    Every mix of orchestras for the *Messiah*, in each style, no markers, no media
    (`rating_heatmap` calls `rate_concert` for every cell). The corner (0, 0) and the edges
    with a missing section are poor (RATE.POOR.3); 20 or more musicians short of the total
    required is poor (RATE.POOR.2); exactly one orchestra short with both sections is fair
    (RATE.FAIR.2); the full total with both sections is good, whatever the mix: only totals
    are compared.
    """),
    code("""
    from musici.analysis.rating_map import rating_heatmap

    rating_heatmap(cards, "S04")
    """),
    md(f"""
    ## RESTORE: restoring a discovery card

    A discovery card (COMP.7) is a lost or unfinished work. Its concert earns a bonus for the
    cards you played in *earlier* concerts (RESTORE.1). Each earlier card can give two
    separate points:

    - one if its composer has the discovery composer's nationality **or** its era is the same
      (one point at most);
    - one if it is by the same composer, or the two composers are linked by a teaching
      lineage (teacher → pupil; by default {default_words("RULING-LINEAGE")}: RESTORE.2,
      RULING-LINEAGE).

    The example of `docs/rules.md`: you have played Bach's *Mass in B minor*, C. P. E. Bach's
    *Magnificat*, Corelli's *Christmas Concerto* and Verdi's *Aida*, and now play the
    reconstructed *St Mark Passion* of J. S. Bach (fame 3/1/−1). `bonus_breakdown` lists what
    each card adds, computed by the engine's `musici.rating.restoration`.
    """),
    code("""
    from musici.analysis import bonus_breakdown, bonus_figure

    PLAYED = ["S01", "S22", "S06", "S25"]
    table = bonus_breakdown(cards, "D01", PLAYED)
    print("restoration bonus:", table.attrs["bonus"])
    table[["card", "composer", "nationality_or_era", "composer_or_lineage", "why", "points"]]
    """),
    md(f"""
    The two Bachs give two points each (same composer; C. P. E. Bach was his father's pupil),
    Corelli one (Baroque), Verdi nothing: **+5**.

    **RESTORE.3: by default {default_words("RULING-RESTORE-GOOD")}**
    (`{default_assignment("RULING-RESTORE-GOOD")}`). A good
    concert gives 3 + 5 = 8 fame; a fair one (say one dissent marker on stage) only the
    card's fair value, 1. Under the alternative ruling `lineage-good-only` the three
    nationality/era points count even then: 1 + 3 = 4.

    **RESTORE.5: the Early-music reconstructor** (SPECIAL.P6) acts as one more earlier card
    of the same era for authentic-back discoveries: +1.
    """),
    code("""
    passion = cards.music["D01"]
    cases = {
        "good concert": (True, False, False),
        "fair concert, good-only": (False, False, False),
        "fair concert, lineage-good-only": (False, True, False),
        "good concert + reconstructor (P6)": (True, False, True),
    }
    rows = []
    for name, (good, lineage_only, pioneer) in cases.items():
        t = bonus_breakdown(cards, "D01", PLAYED, good=good, pioneer=pioneer,
                            lineage_only_needs_good=lineage_only)
        card_fame = passion.fame[0 if good else 1]
        rows.append({"case": name, "card fame": card_fame, "bonus": t.attrs["bonus"],
                     "fame": min(RESTORE_CAP, card_fame + t.attrs["bonus"])})
    pd.DataFrame(rows)
    """),
    md(f"""
    **RESTORE.4: at most {E.RESTORE_CAP}.** With a longer programme of German and Baroque
    music the bonus reaches 9, and 3 + 9 = 12 is capped to {E.RESTORE_CAP} fame.
    """),
    code("""
    long_programme = ["S01", "S02", "S22", "S03", "S06", "S04"]
    bonus = bonus_breakdown(cards, "D01", long_programme).attrs["bonus"]
    print(f"bonus +{bonus}: 3 + {bonus} = {3 + bonus}, capped to {min(RESTORE_CAP, 3 + bonus)} (RESTORE.4)")
    """),
    md(f"""
    ### Lineage over several steps (RESTORE.2, RULING-LINEAGE)

    Soler's *Fandango* (Spanish, Classical) after A. Scarlatti's *Cain* (Italian, Baroque):
    no nationality or era point. But Alessandro Scarlatti taught his son Domenico, who taught
    Soler. With `RULING-LINEAGE=any-depth` that is a lineage point; with `direct` nothing
    is found at all, and the concert is poor (RATE.POOR.5). The default is
    `{default_assignment("RULING-LINEAGE")}`.
    """),
    code("""
    from musici.analysis import composer_graph

    graph = composer_graph(cards)
    print(" → ".join(graph.nodes[c]["name"] for c in nx.shortest_path(graph, "a-scarlatti", "soler")))
    for any_depth in (True, False):
        t = bonus_breakdown(cards, "D09", ["S07"], lineage_any_depth=any_depth)
        soler = rate_concert(cards.music["D09"], "authentic", (1, 0), 0, restored=t.attrs["found"])
        print(f"any depth={any_depth}: found={t.attrs['found']}, bonus +{t.attrs['bonus']}, "
              f"rating {soler.level} {soler.reasons}")
    """),
    md("""
    **Nationality is the country.** Hummel was Austrian. Beethoven (German) gives him only
    the era point, Schubert (Austrian) the nationality point, and neither a lineage point:
    all three studied with Salieri, but fellow pupils are not a lineage.
    """),
    code("""
    bonus_breakdown(cards, "D13", ["S17", "S23"])[["card", "composer", "why", "points"]]
    """),
    md("""
    ### The composer graph

    `bonus_figure` draws every composer of the card set by birth year (x), one lane per
    **country** (y), because RESTORE.1 compares the country (Beethoven, German, and Hummel,
    Austrian, give each other no nationality point). Dots are coloured by era. Composers
    who share a surname are named in full (both Bachs, both Scarlattis). For a restoration
    the figure rings the composers who add to the bonus (orange) or add nothing (grey),
    marks the discovery with a star beside its name, and draws the lineage used in orange.
    Hover over a composer for their cards and teachers; *all teaching links* in the legend
    shows every teacher → pupil link.
    """),
    code("""
    bonus_figure(cards, "D01", PLAYED)
    """),
    md("""
    The teaching lineages (RESTORE.2) read best as family trees: teachers on the left, their
    pupils one generation to the right. Soler's restoration (D09) with Alessandro Scarlatti
    played before it counts through Domenico Scarlatti, Alessandro's son and Soler's teacher.
    """),
    code("""
    from musici.analysis import lineage_figure

    lineage_figure(cards, "D09", ["S07"])
    """),
    md("""
    ### Try it: the bonus explorer

    Pick a discovery card, then add the cards played before it: type a composer or a piece
    in *add card* and pick it (or type a card id into the chips); a chip's × removes it.
    Tick whether the concert is good (RESTORE.3) and whether you own the matching pioneer
    card (RESTORE.5). The table beside the graph and the graph itself use the engine's own
    restoration; the buttons switch between the time line and the teaching lineages.
    """),
    code("""
    from musici.widgets import BonusExplorer

    explorer = BonusExplorer(cards, discovery="D01", played=PLAYED)
    explorer
    """),
    md("""
    ### In a real game

    `bonus_for_seat(game, seat, card)` gives the breakdown for a seat of a game: its earlier
    cards, its pioneer card and the game's rulings. For a card already played it equals what
    the concert recorded. Here is a game where the collector restores discovery cards:
    """),
    code("""
    from musici.analysis import bonus_for_seat
    from musici.strategies import make_strategy

    LINEUP = ("greedy", "impresario", "merchant", "collector")
    game = Game(players=4, seed=7).play([make_strategy(name) for name in LINEUP])
    rows = []
    for e in game.events:
        if e.kind == "concert" and e.data["restoration"]:
            _, bonus = bonus_for_seat(game, e.player, e.data["card"])
            rows.append({"month": e.month, "seat": e.player, "card": card_name(cards, e.data["card"]),
                         "rating": e.data["rating"], "bonus recorded": e.data["restoration"]["bonus"],
                         "bonus_for_seat": bonus, "fame": e.data["fame"]})
    pd.DataFrame(rows)
    """),
    md(f"""
    ## P3.TOUR: what a tour does to the numbers

    {_tour_table()}

    A commercial tour gives up the concert's fame only if it was a gain: a loss still counts,
    unmultiplied (P3.TOUR.3). An academic tour multiplies a loss too (−1 becomes −2 on the
    large one). Multiplied amounts are rounded, fame to a point and money to
    {E.MONEY_UNIT} G; by default {ruling_sentence("RULING-ROUNDING")}. The multiplier applies to the
    card's fame after restoration and the cap. `musici.rating.scale` is the engine's rounding.
    """),
    code("""
    from musici.rating import scale
    from musici.state import HALLS, TOURS


    def on_tour(fame, income, area, away_from_zero=False):
        \"\"\"P3.TOUR: the fame and income of a concert worth `fame` and `income` at `area`.\"\"\"
        if area in HALLS:
            return fame, income
        _, _, (fame_num, fame_den), (income_num, income_den) = TOURS[area]
        if fame_num:  # academic: fame multiplied, no income
            return scale(fame, fame_num, fame_den, away_from_zero=away_from_zero), 0
        # commercial: fame given up unless it is a loss (P3.TOUR.3), income multiplied
        return min(fame, 0), scale(income, income_num, income_den, unit=5,
                                   away_from_zero=away_from_zero)


    rows = []  # the Messiah (7/3/-1 fame, 450 G) rated good and rated poor
    for area in ("dome", *TOURS):
        good_fame, good_income = on_tour(7, messiah.income, area)
        poor_fame, poor_income = on_tour(-1, messiah.income, area)
        rows.append({"area": area, "good: fame": good_fame, "good: income": good_income,
                     "poor: fame": poor_fame, "poor: income": poor_income})
    pd.DataFrame(rows)
    """),
    md(f"""
    The rounding: 7 × 1.5 = 10.5 becomes 10 toward zero or 11 away from zero (the default
    is `{default_assignment("RULING-ROUNDING")}`); a card paying 45 G on a small commercial
    tour earns 67.5 G, so 65 G or 70 G.
    """),
    code("""
    for away in (False, True):
        ruling = "away-from-zero" if away else "toward-zero"
        print(f"RULING-ROUNDING={ruling}: 7 fame x1.5 -> {scale(7, 3, 2, away_from_zero=away)}, "
              f"-1 fame x1.5 -> {scale(-1, 3, 2, away_from_zero=away)}, "
              f"45 G x1.5 -> {scale(45, 3, 2, unit=5, away_from_zero=away)} G")
    """),
    md("""
    **Check against the engine.** Every concert of the game above, recomputed with `on_tour`
    from the card fame, the restoration bonus and the RESTORE.4 cap, gives the fame and
    income the engine recorded:
    """),
    code("""
    checked = []
    for e in game.events:
        if e.kind != "concert":
            continue
        d = e.data
        fame = d["card_fame"]
        if d["restoration"]:
            fame = min(RESTORE_CAP, fame + d["restoration"]["bonus"])
        expected = on_tour(fame, cards.music[d["card"]].income, d["venue"])
        assert expected == (d["fame"], d["income"]), (e, expected)
        checked.append(d["venue"])
    pd.Series(checked).value_counts().rename("concerts checked")
    """),
]

# ============================================================================ play
PLAY = [
    md("""
    # Playing against the bots, and writing your own

    The `GameStepper` widget plays a game in the notebook. Seats named `"human"` are yours;
    the others are bots (`random`, `greedy`, `impresario`, `merchant`, `collector`, or any
    strategy of your own, see below). The bots answer by themselves; the stepper stops
    whenever a human seat must decide.
    """),
    code("""
    from musici.widgets import GameStepper

    stepper = GameStepper(players=("human", "greedy", "impresario", "merchant"), seed=3)
    stepper
    """),
    md(f"""
    ## How to answer

    Press **end** (or **month**, **phase**, **next**): the bots play until it is your turn.
    An orange box then shows who decides, what is asked and the rule that asks it, and the
    legal answers. Each decision has one of three shapes (see the decision table in
    `docs/rules.md`):

    - **a choice**: one button per option, e.g. `bid`/`pass` in the auction (P1.1), the free
      places in P3 (P3.1), the actions of a P4 round (P4.1); a dropdown and *answer* when
      there are many options;
    - **an amount**: a number box and *answer*, e.g. your secret media bid in steps of {MEDIA_STEP} G
      (P2.1, RULING-MEDIA-STEP);
    - **a set**: check boxes and *answer*, e.g. the orchestras for a concert, all of one
      style and within the hall's capacity (P4.CONCERT.2–3).

    An illegal answer changes nothing: the box shows the engine's message, naming what would
    have been legal. A choice with only one legal option is never asked: the engine applies
    it (a player who cannot afford the next bid simply passes).

    ## The teacher toggle and time travel

    - **view**: the stepper opens in *seat 0 (you)*, your seat's view: only what your seat
      may see, as at a real table (the other hands are hidden, the log shows only public
      events and your own). *teacher (all hands)* shows every hand and every private event.
      Your answer box shows in your own view and in the teacher's; in another seat's view a
      note says that you must decide.
    - **step** slider, **back**: go to any earlier step. Stepping forward from there follows
      the recorded answers; a *different* answer at a past decision starts a new branch, and
      the old future is dropped. **restart** deals a new game with the seed in the box.
    """),
    md("""
    ## The same, from Python

    Everything the buttons do is a method. A second stepper, to keep yours untouched:
    `advance("end")` plays on until a human decision (or the end); `game.decision` is what
    is asked.
    """),
    code("""
    from musici.widgets import prompt_text

    practice = GameStepper(players=("human", "greedy", "greedy", "random"), seed=11)
    practice.advance("end")
    d = practice.game.decision
    print(prompt_text(d, practice.game.cards))
    print("kind:", d.kind, "| rule:", d.rule, "| legal:", d.describe_legal())
    """),
    md("""
    An illegal answer raises `IllegalAnswer` and leaves the game as it was:
    """),
    code("""
    from musici import IllegalAnswer

    step = practice.game.step
    try:
        practice.answer("a bag of gold")
    except IllegalAnswer as error:
        print(error)
    assert practice.game.step == step
    """),
    md("""
    Answer legally, and the bots play on to your next decision:
    """),
    code("""
    answer = "pass" if "pass" in d.options else d.options[0]
    practice.answer(answer)
    print(f"answered {answer!r}; now at step {practice.game.step}:",
          prompt_text(practice.game.decision, practice.game.cards))
    """),
    md("""
    **The teacher toggle from code.** The stepper opens in the first human seat's view
    (`practice.seat == 0`): the same thing a bot gets as its `view`, where only its own hand
    is known. `practice.view_toggle.value = -1` switches to the teacher view
    (`practice.seat is None`), where the table shows every hand.
    """),
    code("""
    game = practice.game
    secret = game.players[1].hand[0]
    print("a card in seat 1's hand:", secret)
    print("seat 0's view shows it:", f"[{secret}]" in practice.table.value)
    print("what seat 0 knows of seat 1:", game.view(0).player(1).hand_size, "cards in hand")
    practice.view_toggle.value = -1  # the teacher view
    print("the teacher view shows it:", f"[{secret}]" in practice.table.value)
    practice.view_toggle.value = 0  # back to seat 0's view
    """),
    md("""
    **Time travel.** `go(step)` shows the game as it was after that many answers; nothing is
    lost, and `go(history.last)` returns to the present.
    """),
    code("""
    last = practice.history.last
    practice.go(0)
    print("at step", practice.game.step, "of", last, "-", practice.game.month, practice.game.phase)
    practice.go(last)
    print("back at step", practice.game.step)
    practice
    """),
    md("""
    ## Writing your own strategy

    A strategy is any function `(view, decision) -> answer`:

    - `view` is what the seat may see (`view.hand`, `view.me.money`, `view.me.fame`,
      `view.players`, `view.score_market`, `view.history`, ...); never another hand;
    - `decision` says who decides, its `kind` (`auction`, `media_bid`, `venue`, `action`,
      `concert_card`, ...), the rule, and the legal answers (`options` for a choice, `lo`,
      `hi`, `step` for an amount, `items` and limits for a set).

    A tiny bot: play like the greedy baseline, but never spend a coin on the media (P2) or a
    special card (P1). Does saving the money pay?
    """),
    code("""
    from musici.strategies import greedy_strategy


    def stingy(view, decision):
        \"\"\"Greedy, but never bids for the media or a special card.\"\"\"
        if decision.kind == "media_bid":
            return decision.lo  # 0 G: it takes the token only if every bid is 0 (P2.3)
        if decision.kind == "auction":
            return "pass"  # always legal in the auction (P1.1)
        return greedy_strategy(view, decision)
    """),
    md("""
    One game with it in seat 0, against three greedy bots:
    """),
    code("""
    import pandas as pd

    from musici import Game
    from musici.analysis.summary import standings_rows

    game = Game(players=4, seed=1).play([stingy, greedy_strategy, greedy_strategy, greedy_strategy])
    pd.DataFrame(standings_rows(game, names=["stingy", "greedy", "greedy", "greedy"]))
    """),
    md("""
    One game proves little. `simulate` plays a batch, rotating the line-up one seat per game
    so every strategy plays every seat. `GAMES` is small so that the notebook runs in
    seconds; real studies use 1000 games or more.

    A function defined in a notebook works with `jobs=1` (this process), and on Linux with
    worker processes too (`jobs=2`, ...: they are forked from the kernel). Where workers are
    spawned (macOS, Windows), put the bot in a file and name it as `"bots/stingy.py:stingy"`.
    """),
    code("""
    from musici.sim import simulate

    GAMES = 60  # a quick look; real studies use 1000+ games

    result = simulate([stingy, "greedy", "greedy", "greedy"], games=GAMES, seed=0, jobs=1)
    summary = result.summary()
    summary
    """),
    md("""
    Win rate per strategy with its 95 % interval (Wilson). With four players a strategy no
    better than the others wins about a quarter of its seats (the dashed line).
    """),
    code("""
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(
        x=summary.strategy, y=summary.win_rate,
        error_y={"type": "data", "symmetric": False,
                 "array": summary.win_high - summary.win_rate,
                 "arrayminus": summary.win_rate - summary.win_low}))
    fig.add_hline(y=0.25, line_dash="dash", annotation_text="1 in 4")
    fig.update_layout(title=f"Win rate over {GAMES} games (95% intervals)", yaxis_title="win rate",
                      yaxis_range=[0, 1], template="plotly_white", height=350)
    fig
    """),
    md("""
    Why? The concerts frame has one row per concert. Compare the share of good, fair and
    poor ratings: the media lifts a fair concert to good (P2.4, RATE.MEDIA), and against
    bots that bid only a few coins for it, never bidding gives that away.
    """),
    code("""
    result.concerts.groupby("strategy").rating.value_counts(normalize=True).unstack().round(2)
    """),
    md("""
    A sharper test compares the *same* games with and without the change: `compare` plays
    both arms on the same seeds and seats, so the luck of the deal cancels out, and reports
    the paired effect with a 95 % interval. Here seat entry 0 switches from greedy to stingy:
    an interval that lies wholly above or below 0 is a clear effect at this batch size.
    """),
    code("""
    from musici.playtest.compare import Setup, compare

    comparison = compare(Setup(["greedy"] * 4, name="greedy"),
                         Setup([stingy, "greedy", "greedy", "greedy"], name="stingy in entry 0"),
                         games=GAMES, seed=0, jobs=1)
    effects = comparison.effects
    effects[effects.who.str.startswith("entry 0")].round(3)
    """),
    md("""
    ## Play against your bot

    Register it under a name, and every tool that takes a strategy name accepts it: the
    stepper, `simulate`, `compare`. (`replace=True` lets you run the cell again after editing
    the bot.) On the command line, name the file instead:
    `musici simulate --players bots/stingy.py:stingy,greedy,greedy,greedy`.
    """),
    code("""
    from musici.strategies import register_strategy

    register_strategy("stingy", stingy, replace=True)
    GameStepper(players=("human", "stingy", "greedy", "greedy"), seed=5)
    """),
    md("""
    ## A game review

    As a chess analysis board does, `review_game` replays a game and, at each decision of
    one seat that the search bot searches, estimates every option on a few sampled worlds
    (what that seat could see, nothing more). The largest drops from the best option's
    estimate are the costliest decisions. The stepper's **review** button shows the same for
    your seat; in the terminal: `musici play --save game.json ...`, then
    `musici review game.json --seat 0`. Here: two months of the stingy bot, seat 1.
    """),
    code("""
    from musici import Game, RuleSet
    from musici.analysis.review import review_game, review_text
    from musici.strategies import make_strategy

    short = Game(4, seed=5, rules=RuleSet.parse(["RULING-MONTHS=2"]))
    short.play([make_strategy(n) for n in ("greedy", "stingy", "greedy", "greedy")])
    print(review_text(short, 1, review_game(short, 1, worlds=2), top=3))
    """),
]

# ============================================================================ what-if
WHAT_IF = [
    md("""
    # What if? Rulings, shorter games and other line-ups

    Where the designer's rules are silent or vague, the engine plays a named **ruling**
    (`RULING-*`, see `docs/rules.md`); the other readings are options. `compare` answers
    "what changes if ...?" by playing two arms on **common random numbers**: game *i* of
    both arms has the same seed and seating, so the deals and shuffles match as far as the
    change allows, and the *paired* differences have far less noise than two separate
    batches. Each effect comes with a 95 % interval.

    The batches here are small so the notebook runs in seconds. Intervals narrow like
    1/√games: real studies use 1000 games or more (`musici compare ... --games 2000`).

    ## The workbench

    The **base** is any setup you like, not only the rules as written: its rulings, its
    line-up (type a strategy name, Enter; × removes one), a card-set file and card edits.
    Every further **arm** states what it changes from the base (its rulings override the
    base's; an empty line-up or card file means the base's); *add an arm* adds one, and all
    arms are played on the same seeds and seats. Pick a ruling (its full text shows below
    it), its value and the arm (or *every arm*), then *add the ruling*. The **card editor**
    sets one card's numbers in one arm: pick the card and the arm, change its fame per
    rating (good/fair/poor), its income or its orchestra requirements, *set these
    numbers*; the card loader checks them (good ≥ fair ≥ poor, income a multiple of 5, ...).

    Choose the games per arm and the worker processes and press **run**. Then read, for
    each arm against the base, the **verdict in plain words**: what the change does to each
    strategy's win share, final fame and the game, with its 95 % interval and its test
    (paired on the common seeds, Holm-corrected over the strategies and arms), or "no
    detectable change at this sample size (± x points)"; next to it, **how many games the
    change altered** (same seed, a different winner or final fame: a change that never
    comes into play alters none). Below: the edited cards' fame per play in every arm, the
    effects (one panel per metric), the fame of each arm by month **through the END
    awards** (the last point, END, is the final fame), and the balance flags **compared
    across arms** in one table. *every test* lists each test with its p-value before and
    after Holm. Export writes the runs (parquet), the tables, the verdicts and the figures
    (HTML) to a folder.
    """),
    code("""
    from musici.widgets import Workbench

    bench = Workbench(["impresario", "merchant", "collector", "greedy"],
                      rules={"RULING-MONTHS": 6}, games=200, jobs=2)
    bench
    """),
    md("""
    The same workbench can be set up in code: a base with its own rulings and several
    arms, a card edit among them, e.g.
    `Workbench(LINEUP, base_rules={"RULING-MEDIA-STEP": 50}, arms=[{"rules":
    {"RULING-MEDIA-STEP": 100}}, {"card_edits": {"S07": {"fame": [9, 6, 3]}}}])`. After a
    run, `bench.verdicts` holds each arm's verdicts (`musici.playtest.headline`),
    `bench.altered` the games each change altered and `bench.comparisons` the paired
    comparisons.
    """),
    md("""
    ## The same studies in code

    Everything the workbench does is a few calls: `compare` plays the arms,
    `effects_figure` draws the effects, `fan_chart` the months.
    """),
    code("""
    import pandas as pd

    from musici.analysis import fan_chart
    from musici.analysis.whatif import clear_effect, effects_figure
    from musici.playtest.compare import Setup, compare
    from musici.rules import RULE_OPTIONS

    GAMES = 30  # games per arm: a demonstration; real studies use 1000+
    JOBS = 2    # worker processes (1 plays in this process)
    SEED = 1
    LINEUP = ["impresario", "merchant", "collector", "greedy"]
    """),
    md("""
    The rulings, each with its default, every value it accepts and its full text:
    """),
    code("""
    from IPython.display import HTML

    rulings = pd.DataFrame([{"ruling": o.name, "default": o.default,
                             "options": ", ".join(map(str, o.choices)), "what": o.doc}
                            for o in RULE_OPTIONS.values()])
    HTML(rulings.to_html(index=False, border=0).replace("<td>", "<td style='white-space:normal'>"))
    """),
    md("""
    A helper for the effects table, with a column saying whether the interval excludes zero:
    """),
    code("""
    def effects_table(comparison):
        \"\"\"The paired effects (variant - base) with their 95% intervals.\"\"\"
        table = comparison.effects.copy()
        table["clear?"] = clear_effect(table).map({True: "yes", False: ""})
        return table.round(3)
    """),
    md(f"""
    ## 1. A ruling switched: media bids in 100 G steps

    Media bids are multiples of {MEDIA_STEP} G by default
    (P2.6, `{default_assignment("RULING-MEDIA-STEP")}`). What if bids went in steps of 100 G?
    The media token lifts a concert a level (P2.4, RATE.MEDIA), and
    the impresario bids for it when the upgrade pays.
    """),
    code("""
    media = compare(Setup(LINEUP, name="5 G steps"),
                    Setup(LINEUP, rules={"RULING-MEDIA-STEP": 100}, name="100 G steps"),
                    games=GAMES, seed=SEED, jobs=JOBS)
    effects_table(media)
    """),
    md("""
    How to read the table:

    - one block of rows per **line-up entry** (the bot, whichever seat it sat in): its win
      share, final fame and money in the base arm, in the variant, and the mean paired
      **effect** (variant − base), with the interval **low**–**high**;
    - then per **game**: the winner's fame (top fame), the mean fame and the concerts per
      player;
    - an interval that contains 0 means *no clear effect at this batch size*, not *no
      effect*. With many rows, expect about one in twenty to look "clear" by chance.
    """),
    code("""
    effects_figure(media.effects, metrics=["win share", "final fame", "final money"],
                   title="Media bids in 100 G steps: effect per bot")
    """),
    md("""
    A ruling can act through the bots as much as through the game. Look at the greedy
    baseline's money: it bids a random number of *steps* (0 to 7, see
    `musici/strategies/greedy.py`), so with 100 G steps it bids up to 700 G for the token.
    Before trusting a what-if, check that the bots still play sensibly under the new rule.
    """),
    md("""
    ## 2. A short game: six months

    The designer allowed short test games (MONTH.4, `RULING-MONTHS=6`). Fame obviously
    drops; the interesting question is whose share of the wins moves. Which plan needs the
    whole year: the fame-first impresario, the money-first merchant who spends late, or the
    collector whose restorations need earlier cards (RESTORE.1)? Guess, then read the table.
    """),
    code("""
    short = compare(Setup(LINEUP, name="12 months"),
                    Setup(LINEUP, rules={"RULING-MONTHS": 6}, name="6 months"),
                    games=GAMES, seed=SEED, jobs=JOBS)
    effects_table(short)
    """),
    code("""
    effects_figure(short.effects, metrics=["win share", "final fame"],
                   title="Six months instead of twelve")
    """),
    md(f"""
    **Fan charts** show how fame builds up month by month in each arm: the line is each
    bot's median fame after every month (MONTH.3), the shaded bands hold the middle 50 % and
    90 % of games. The dashed lines at {SURCHARGE_LINES} are the salary surcharge levels (P5.4).
    """),
    code("""
    fan_chart(short.base.months, title=short.names[0])
    """),
    code("""
    fan_chart(short.variant.months, title=short.names[1])
    """),
    md("""
    ## 3. A different line-up

    What if the weak greedy baseline (entry 3) is replaced by a second impresario? Arms can
    differ in line-up as well as rules; entry 3's row is labelled `greedy -> impresario`. Do
    the others suffer from a second fame-hungry rival who books the big halls and academic
    tours (P3.1: one marker per place)?
    """),
    code("""
    rivals = compare(Setup(LINEUP, name="greedy in entry 3"),
                     Setup(["impresario", "merchant", "collector", "impresario"],
                           name="impresario in entry 3"),
                     games=GAMES, seed=SEED, jobs=JOBS)
    effects_table(rivals)
    """),
    code("""
    effects_figure(rivals.effects, metrics=["win share", "final fame"],
                   title="A second impresario instead of greedy")
    """),
    md("""
    ## Going further

    - Each arm is a full `SimulationResult`: `media.variant.concerts`, `.venues`,
      `.specials`, `.months` hold every concert, venue choice and auction of the batch.
    - Any single game can be replayed: `Game(seed=int(result.games.seed[i]))` with the
      strategies of `result.players`.
    - The same comparisons on the command line:

      ```sh
      musici compare --players impresario,merchant,collector,greedy \\
          --variant-rule RULING-MONTHS=6 --games 2000
      ```
    """),
]

# ============================================================================ balance
BALANCE = [
    md("""
    # A balance report

    Is the game fair to every seat? Does one plan dominate? Is a card, a venue or a special
    card too strong? `balance_report` turns a batch of games into the tables a designer
    reads, and raises **flags**, simple stated tests that point at something worth a look.

    The batch here is small so the notebook runs in seconds; with few games, few flags can
    fire, because the intervals are wide. Real studies use 1000 games or more.
    """),
    code("""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    from musici.analysis.palette import strategy_colours
    from musici.playtest.balance import MIN_PLAYS, balance_report
    from musici.sim import simulate

    GAMES = 60  # a demonstration; real studies use 1000+ games
    LINEUP = ["impresario", "merchant", "collector", "greedy"]

    result = simulate(LINEUP, games=GAMES, seed=0, jobs=2)
    result
    """),
    md("""
    The line-up rotates one seat per game, so every bot plays every seat equally often.
    The frames of the batch: one row per game, per player, per month, per concert, per venue
    choice and per special card bought.
    """),
    code("""
    result.players.head()
    """),
    md("""
    ## The report

    The report renders as HTML: the flags first, then every table.
    """),
    code("""
    report = balance_report(result)
    report
    """),
    md(f"""
    ## Who wins: by seat and by strategy

    Bars are win rates with 95 % Wilson intervals. A fair seat order gives every seat 1/4
    of the wins (the dashed line). By default {ruling_sentence("RULING-START-PLAYER")},
    and the marker moves on one seat every month (MONTH.3), so no
    seat should be favoured; a seat whose interval excludes 1/4 is flagged.
    """),
    code("""
    def win_bars(table, key, title, colours=None):
        fig = go.Figure(go.Bar(
            x=table[key].astype(str), y=table.win_rate, marker_color=colours,
            error_y={"type": "data", "symmetric": False, "array": table.win_high - table.win_rate,
                     "arrayminus": table.win_rate - table.win_low},
            text=[f"{w:.0%}" for w in table.win_rate], textposition="outside"))
        fig.add_hline(y=1 / len(LINEUP), line_dash="dash", annotation_text="fair share")
        fig.update_layout(title=title, yaxis_title="win rate", yaxis_range=[0, 1],
                          template="plotly_white", height=340)
        return fig


    win_bars(report.by_seat, "seat", f"Win rate by seat, {GAMES} games (95% intervals)")
    """),
    code("""
    win_bars(report.by_strategy, "strategy", f"Win rate by strategy, {GAMES} games (95% intervals)",
             colours=strategy_colours(report.by_strategy.strategy))
    """),
    md("""
    Mean final fame per strategy (fame after the END awards and marker penalties), with
    its 95 % interval:
    """),
    code("""
    s = report.by_strategy
    fig = go.Figure(go.Bar(x=s.strategy, y=s.mean_fame, marker_color=strategy_colours(s.strategy),
                           error_y={"type": "data", "symmetric": False,
                                    "array": s.fame_high - s.mean_fame,
                                    "arrayminus": s.mean_fame - s.fame_low}))
    fig.update_layout(title="Mean final fame by strategy", yaxis_title="fame",
                      template="plotly_white", height=320)
    fig
    """),
    md("""
    ## Cards: fame per play

    For every score and discovery card: how often it was played and the fame it gave per
    play, after restoration (RESTORE) and tours (P3.TOUR). Hover for the printed fame, the
    restoration bonus and the share of good and poor ratings. A card with at least
    `MIN_PLAYS` plays whose fame per play lies more than 2 standard deviations above its
    kind's mean is flagged.
    """),
    code("""
    cards_table = report.cards
    fig = go.Figure()
    for kind, part in cards_table.groupby("kind"):
        fig.add_trace(go.Scatter(
            x=part.plays, y=part.fame_per_play, mode="markers+text", name=kind, text=part.card,
            textposition="top center", textfont={"size": 9},
            hovertext=[f"{r.card}: {r.plays} plays, card fame {r.card_fame_per_play:.1f}, "
                       f"bonus {r.bonus_per_play:.1f}, good {r.good:.0%}, poor {r.poor:.0%}"
                       for r in part.itertuples()], hoverinfo="text"))
    fig.add_vline(x=MIN_PLAYS, line_dash="dot", annotation_text=f"{MIN_PLAYS} plays: enough to flag")
    fig.update_layout(title="Cards: plays and fame per play", xaxis_title="plays",
                      yaxis_title="fame per play", template="plotly_white", height=460)
    fig
    """),
    code("""
    cards_table.head(10).round(2)
    """),
    md("""
    ## Venues: where the bots go, and what it returns

    The share of all venue choices (P3.1) and the *net* fame and money per choice: the
    concert's fame and income (zero in a month without a concert) minus what the hall or
    tour cost (rent and tour fees P5.2, half without a concert P4.3, a commercial tour's
    fame P3.TOUR.3). A venue chosen in more than half of all choices is flagged.
    """),
    code("""
    v = report.venues
    fig = make_subplots(rows=1, cols=3, subplot_titles=("share of choices", "net fame per choice",
                                                        "net money per choice (G)"))
    fig.add_trace(go.Bar(x=v.area, y=v.share, name="share"), row=1, col=1)
    fig.add_trace(go.Bar(x=v.area, y=v.net_fame_per_choice, name="fame"), row=1, col=2)
    fig.add_trace(go.Bar(x=v.area, y=v.net_money_per_choice, name="money"), row=1, col=3)
    fig.update_layout(showlegend=False, template="plotly_white", height=360)
    fig
    """),
    md("""
    ## Special cards: do their owners win?

    For each special card (SPECIAL.P1–P7, S1–S8): how often it was bought at auction (P1.3),
    at what price, and how often its owner won the game, with a 95 % interval. Owners
    winning far above chance (an interval above 1.5 × 1/4, with at least `MIN_PLAYS` owners)
    are flagged. Beware the arrow of cause: a leading player can afford to buy more.
    """),
    code("""
    sp = report.specials
    fig = go.Figure(go.Scatter(
        x=sp.card, y=sp.owner_win_rate, mode="markers",
        marker={"size": [8 + b / 2 for b in sp.bought]},
        error_y={"type": "data", "symmetric": False, "array": sp.owner_win_high - sp.owner_win_rate,
                 "arrayminus": sp.owner_win_rate - sp.owner_win_low},
        hovertext=[f"{r.card}: bought {r.bought} times, mean price {r.mean_price:.0f} G"
                   for r in sp.itertuples()], hoverinfo="text"))
    fig.add_hline(y=1 / len(LINEUP), line_dash="dash", annotation_text="chance")
    fig.update_layout(title="Owners' win rate by special card (marker size: times bought)",
                      yaxis_title="owner win rate", yaxis_range=[0, 1], template="plotly_white",
                      height=360)
    fig
    """),
    md("""
    ## The spread of fame

    Quantiles of the final fame of all players, of the winner, and of the final money.
    """),
    code("""
    report.fame.round(1)
    """),
    md("""
    ## How to read the flags

    Each flag names the test that fired:

    | flag | test |
    |---|---|
    | seat | the seat's win-rate interval excludes 1/n (only when every seat saw the same strategies) |
    | strategy | the strategy's per-seat win-rate interval lies above 1.5/n |
    | card | at least `MIN_PLAYS` plays and fame per play more than 2 sd above its kind's mean |
    | venue | chosen in more than half of all venue choices |
    | special | at least `MIN_PLAYS` owners, win-rate interval above 1.5/n |

    A flag is a pointer, not a proof: with many cards and seats, some flags fire by chance,
    and an unflagged table from a small batch proves nothing either. Chance is 1/n for an
    average player; in a line-up with a weak bot that rarely wins, everyone else wins more
    often than 1/n, and so do the owners of any card the weak bot seldom buys. Re-run a flagged finding
    on a fresh seed and a larger batch before changing a card. The same report as text:
    """),
    code("""
    print("flags:", *(report.flags or ["(none)"]), sep="\\n- ")
    print()
    print(report.to_text(rows=5))
    """),
    md("""
    ## The playtest report: one page to send

    `playtest_report` turns the same batch into **one self-contained HTML page** a designer
    reads in five minutes and sends to a co-designer: the verdicts first, each with its
    interval and its test, stated only where the test clears a Holm–Bonferroni correction
    over every test on the page (a headline question whose test does not clear says "not
    detectable at this sample size (± x points)"); then where fame comes from, every card of
    the set, venues and tours, pacing, seat and turn order, matchups and the playtesters'
    caveat, with plotly figures (plotly.js inside the file: it opens with no network).
    From the shell: `musici report --from DIR --out report.html`, where `DIR` is a
    `musici simulate --out DIR` batch. A `playtest` left as a cell's last line shows the
    whole page in a frame.
    """),
    code("""
    import tempfile
    from pathlib import Path

    from musici.playtest.report import playtest_report
    from musici.playtest.verdicts import headline_summary

    playtest = playtest_report(result)
    print(playtest)  # verdicts stated, of how many tests
    for text, *_ in headline_summary(playtest.verdicts):
        print("-", text)
    for verdict in playtest.stated:
        if verdict.flagged:
            print("- flagged:", verdict.text)
    path = playtest.save(Path(tempfile.gettempdir()) / "musici-playtest-report.html")
    print("the page to send:", path)
    """),
    md("""
    Every figure of the page is in `playtest.figures` and every table in `playtest.tables`;
    `playtest.verdicts` holds every test (`Verdict`: text, estimate, interval, test, p,
    p_adjusted, significant). Where each line's fame comes from:
    """),
    code("""
    playtest.figures["fame-sources"]
    """),
]


NOTEBOOKS = {
    "walkthrough": WALKTHROUGH,
    "rules": RULES,
    "play": PLAY,
    "what_if": WHAT_IF,
    "balance": BALANCE,
}


def main() -> None:
    for name, cells in NOTEBOOKS.items():
        print("wrote", build(name, cells).relative_to(HERE.parent))


if __name__ == "__main__":
    main()
