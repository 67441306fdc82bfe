"""Save and load games as JSON: rule options, card-set fingerprint, seed and answers.

A saved game is replayed answer by answer, so loading rebuilds the identical state and
checks every answer again on the way (a tampered file fails at the step it was changed).
Version 2 adds a ``check``: the number of answers and a SHA-256 digest of the file's
contents together with a summary of the state they replay to. So an answer list cut
short, rules or a seed edited to other valid values, or an engine that now replays the
game differently, are refused instead of silently loading another game. (A digest is
not a signature: someone who edits the file and recomputes it is not stopped.)
No pickle: nothing in a file is ever executed.

Version 3 (rules revision 3) also records the rules ``revision`` and engine ``protocol`` the
game was played under (:mod:`musici.engine.protocols`) and the game's final exact
``position``; loading replays the answers under that protocol and checks the replay against
the stored position. A save from before a revision is replayed under the protocol it was
made with (version 1 and 2 files do not say: the current protocol is tried first, then the
older one). A save that cannot be replayed to its end under the current rules (for example
the sale of a discovery card, which revision 2 forbids, P4.BUY.2) opens at its last legal
step, with :attr:`Game.load_note <musici.engine.Game>` naming the step and the rule and a
:class:`SaveReplayWarning`; never a bare refusal.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import warnings
from pathlib import Path
from typing import Any

from musici.atomic import FileTooLargeError, NotRegularFileError, read_bounded, show_bytes, write_text
from musici.cards import CardSet, bundled_cardset, parse_json, standard_cardset
from musici.decisions import IllegalAnswer, Kind, brief
from musici.engine import Game, GameError
from musici.engine.protocols import PROTOCOLS
from musici.rules import RULES_REVISION, RuleOptionError, RuleSet

SAVE_FORMAT = "musici-save"
SAVE_VERSION = 3
READABLE_VERSIONS = (1, 2, 3)  # version 1: without the check; 2: without revision and position
_FIELDS = ("format", "version", "players", "seed", "rules", "cardset", "answers", "seat_rngs")
_FIELDS_V2 = (*_FIELDS, "check")
_FIELDS_V3 = (*_FIELDS_V2, "revision", "protocol", "position")
# The most bytes a saved game may hold. A 12-month 4-player game saved in 30-32 KB in
# format 2 (at most some 550 answers and four generator states of 625 numbers; 60 games of
# the random, greedy, collector and mixed bots); format 3 adds the final position (five more
# generator states): some 70 KB (20 mixed games), 320 KB re-indented by hand with 8 spaces.
# 2 MB is six times that and refuses the wrong file before it fills memory.
MAX_SAVE_BYTES = 2**21


class SaveFileError(ValueError):
    """A saved game that is corrupt, from another version, or does not match its card set."""


class SaveReplayWarning(UserWarning):
    """A saved game opened at its last legal step: a later step breaks the current rules."""


def game_to_dict(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "players": game.n,
        "seed": game.seed,
        "rules": game.rules.to_dict(),
        "cardset": {"name": game.cards.name, "fingerprint": game.cards.fingerprint},
        "answers": [list(a) if isinstance(a, tuple) else a for a in game.answers],
        # The seats' generators (bots draw from them), so a loaded game goes on identically.
        "seat_rngs": [_rng_state(r) for r in game.seat_rngs],
        "revision": RULES_REVISION,
        "protocol": game.protocol,
        "position": game.position(),
    }
    data["check"] = {"steps": game.step, "digest": _digest(data, game)}
    return data


def _state_summary(game: Game) -> list[Any]:
    """What the answers replay to, compactly: enough to tell another game or engine apart."""
    players = [[p.fame, p.money, sorted(p.hand), p.played, p.orchestras, sorted(p.markers.items()),
                p.permanent, p.specials_hand, p.specials_discard] for p in game.players]
    return [game.step, game.month, game.phase, len(game.events), players, game.score_market,
            game.orchestra_market, len(game.score_deck), len(game.orchestra_deck),
            game.special_slot, game.media, sorted(game.venues.items())]


def _digest(data: dict[str, Any], game: Game) -> str:
    names = _FIELDS_V3 if data.get("version") == 3 else _FIELDS
    fields = {k: data[k] for k in names if k not in ("version", "check")}
    text = json.dumps([fields, _state_summary(game)], sort_keys=True, separators=(",", ":"),
                      default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _rng_state(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def _set_rng_state(rng: random.Random, state: Any) -> bool:
    if not (isinstance(state, list) and len(state) == 3 and type(state[0]) is int and state[0] == 3
            and isinstance(state[1], list) and len(state[1]) == 625
            and all(type(x) is int and 0 <= x < 2**32 for x in state[1])
            and (state[2] is None or (type(state[2]) is float and math.isfinite(state[2])))
            and state[1][-1] <= 624):
        return False
    rng.setstate((3, tuple(state[1]), state[2]))
    return True


def dumps(game: Game) -> str:
    return json.dumps(game_to_dict(game), separators=(",", ":"))


def save(game: Game, path: str | Path) -> None:
    """Write the game atomically: a full disk or a crash leaves any previous save intact."""
    write_text(path, dumps(game))


def game_from_dict(data: Any, cards: CardSet | None = None, source: str = "<memory>") -> Game:
    """Rebuild a game from :func:`game_to_dict` data by replaying its answers."""
    def fail(message: str) -> SaveFileError:
        return SaveFileError(f"{source}: {message}")

    if not isinstance(data, dict):
        raise fail("expected a JSON object at the top level")
    if data.get("format") != SAVE_FORMAT:
        raise fail(f"not a musici saved game (format {brief(data.get('format'), 60)}, "
                   f"expected {SAVE_FORMAT!r})")
    version = data.get("version")
    if type(version) is not int or version not in READABLE_VERSIONS:  # not True, not 1.0
        raise fail(f"saved-game version {brief(version, 60)} is not supported; "
                   f"this musici reads versions {', '.join(map(str, READABLE_VERSIONS))}")
    fields = _FIELDS_V3 if version >= 3 else _FIELDS_V2 if version >= 2 else _FIELDS
    missing = [f for f in fields if f not in data]
    if missing:
        raise fail(f"missing field(s): {', '.join(missing)}")
    check: Any = data.get("check")  # checked below for version 2
    if version >= 2 and not (isinstance(check, dict) and set(check) == {"steps", "digest"}
                             and type(check["steps"]) is int and isinstance(check["digest"], str)):
        raise fail("field 'check' must be an object with an integer 'steps' and a 'digest'")
    extra = sorted(set(data) - set(fields))
    if extra:
        raise fail(f"unknown field(s): {', '.join(extra)}")
    meta = data["cardset"]
    if not isinstance(meta, dict) or not isinstance(meta.get("fingerprint"), str):
        raise fail("field 'cardset' must be an object with a 'fingerprint'")
    if cards is None:  # the bundled set it was played with, current or past (revision 2)
        cards = bundled_cardset(meta["fingerprint"]) or standard_cardset()
    if meta["fingerprint"] != cards.fingerprint:
        raise fail(f"card set mismatch: the game was played with {brief(meta.get('name'), 60)} "
                   f"(fingerprint {meta['fingerprint'][:12]}…), not {cards.name!r} "
                   f"({cards.fingerprint[:12]}…); load it with that card set")
    if not isinstance(data["rules"], dict):
        raise fail("field 'rules' must be an object of rule options")
    try:
        rules = RuleSet.from_saved(data["rules"])  # options newer than the file: its reading
    except (RuleOptionError, ValueError) as exc:  # ValueError: int("²") in a numeric option
        raise fail(f"field 'rules': {_line(exc)}") from None
    answers = data["answers"]
    if not isinstance(answers, list):
        raise fail("field 'answers' must be a list")
    if version >= 2 and check["steps"] != len(answers):
        raise fail(f"the file records {brief(check['steps'], 30)} answers but holds {len(answers)}: "
                   f"the answer list was cut short or extended")
    if type(data["players"]) is not int:  # Game() would take 3.0 for 3, then fail deep inside
        raise fail(f"field 'players' must be the integer 3 or 4, got {brief(data['players'], 60)}")
    if version >= 3:
        revision, protocol = data["revision"], data["protocol"]
        if type(revision) is not int or not 1 <= revision <= RULES_REVISION:
            raise fail(f"rules revision {brief(revision, 30)}: this musici knows revisions 1 to "
                       f"{RULES_REVISION}; a newer musici made this file")
        if type(protocol) is not int or protocol not in PROTOCOLS:
            raise fail(f"engine protocol {brief(protocol, 30)} is not one of {sorted(PROTOCOLS)}")
        protocols = [protocol]
    else:  # the file does not say: a past bundled card set was played before revision 2
        old_set = meta["fingerprint"] != standard_cardset().fingerprint and \
            bundled_cardset(meta["fingerprint"]) is not None
        protocols = sorted(PROTOCOLS, reverse=not old_set)
    failures: list[SaveFileError] = []
    for protocol in protocols:
        try:
            return _replay(data, version, rules, cards, protocol, fail)
        except SaveFileError as exc:
            failures.append(exc)
    raise failures[0] if len(failures) == 1 else fail(
        "it replays under no engine protocol: " + "; ".join(
            f"protocol {p}: {str(e).split(': ', 1)[-1]}" for p, e in zip(protocols, failures,
                                                                       strict=True)))


def _replay(data: dict[str, Any], version: int, rules: RuleSet, cards: CardSet, protocol: int,
            fail: Any) -> Game:
    """The saved game replayed under ``protocol``, checked against what the file records."""
    try:
        game = Game(players=data["players"], seed=data["seed"], rules=rules, cards=cards,
                    protocol=protocol)
    except GameError as exc:
        raise fail(_line(exc)) from None
    answers = data["answers"]
    for step, answer in enumerate(answers):
        if game.decision is None:
            raise fail(f"answer {step} comes after the end of the game")
        broken = _broken_by_a_revision(game, answer)
        if broken:
            game.load_note = (f"opened at step {step} of {len(answers)} (month {game.month} "
                              f"{game.phase}): step {step} {broken}")
            warnings.warn(f"{game.load_note}", SaveReplayWarning, stacklevel=4)
            return game
        try:
            game.answer(answer)
        except IllegalAnswer as exc:
            raise fail(f"answer {step} does not replay: {exc}") from None
    seat_rngs = data["seat_rngs"]
    if not isinstance(seat_rngs, list) or len(seat_rngs) != game.n or not all(
            _set_rng_state(r, st) for r, st in zip(game.seat_rngs, seat_rngs, strict=True)):
        raise fail("field 'seat_rngs' must hold one generator state per seat")
    if version >= 2 and _digest(data, game) != data["check"]["digest"]:
        raise fail("the check digest does not match: the file was edited after it was saved "
                   "(seed, rules, answers or generators), or this musici replays it differently")
    if version >= 3:
        stored = data["position"]
        if not isinstance(stored, dict):
            raise fail("field 'position' must be the game's final position (an object)")
        mine = json.loads(json.dumps(game.position()))
        if "plies" not in stored:  # saved before a position kept the plies count
            mine.pop("plies", None)
        if mine != stored:
            differ = sorted(k for k in set(mine) | set(stored) if mine.get(k) != stored.get(k))
            raise fail(f"the replay does not reach the stored position (fields {', '.join(differ)} "
                       f"differ): this musici replays the game differently")
    return game


def _broken_by_a_revision(game: Game, answer: Any) -> str:
    """Why ``answer`` breaks the current rules although the engine it was recorded under
    asked for it, or ""; only answers a later revision forbids (never a tampered file)."""
    d = game.decision
    if (game.protocol < 2 and d is not None and d.kind == Kind.SELL and isinstance(answer, str)
            and answer in game.cards.music and game.cards.music[answer].kind == "discovery"):
        return (f"sells the discovery card {answer}, which rules revision 2 forbids "
                f"(P4.BUY.2: only score cards can be sold between players)")
    return ""


def _line(exc: BaseException, limit: int = 300) -> str:
    """An exception's message as one bounded line."""
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[:limit] + "…"


def loads(text: str, cards: CardSet | None = None, source: str = "<string>") -> Game:
    try:
        data = parse_json(text)
    except (ValueError, RecursionError) as exc:
        # ValueError: JSONDecodeError, bytes not UTF-8, an int of more than 4300 digits, ...
        raise SaveFileError(f"{source}: not valid JSON ({_line(exc)})") from None
    return game_from_dict(data, cards, source)


def load(path: str | Path, cards: CardSet | None = None) -> Game:
    """Load a saved game file: a regular file of at most :data:`MAX_SAVE_BYTES`."""
    path = Path(path)
    try:
        raw = read_bounded(path, MAX_SAVE_BYTES)
    except FileTooLargeError as exc:
        held = show_bytes(exc.size) if exc.size is not None else f"more than {show_bytes(MAX_SAVE_BYTES)}"
        raise SaveFileError(f"{path}: saved game file of {held}; a saved game is some 30 KB (the "
                            f"limit is {show_bytes(MAX_SAVE_BYTES)}): is it the right file?") from None
    except OSError as exc:  # NotRegularFileError too: "is a directory, not a regular file"
        why = str(exc) if isinstance(exc, NotRegularFileError) else (exc.strerror or str(exc))
        raise SaveFileError(f"{path}: cannot read saved game: {why}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaveFileError(f"{path}: cannot read saved game: not UTF-8 text ({_line(exc)})") from None
    return loads(text, cards, str(path))
