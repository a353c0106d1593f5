"""What a rerun mails (`maild turn rerun GAME N --yes --mail`): only what changed.

Each player's corrected printout is compared with the last one he was mailed for that turn (and phase): the
outbox keeps every mail sent. A player whose printout comes out the same gets nothing; one whose printout
changed gets it again, "(corrected)", with the lines removed and added at the top ("What changed:", at most
`CHANGED_LINES` of them). The newsletter goes out again only if it changed; the GM's report, his own, whenever
the turn's result did. The rerun's output names who was mailed and why, and who was not.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from maild.app import App
from maild.models import Game, OutboundMail
from maild.outbox import insert_rows
from maild.ruleset import TurnResult
from maild.services import text_and_files

HEAD = "What changed since the last mail of this turn:\n"
# Ends the list of changes, so that a second correction compares the printout, not the first one's list.
RULE = "-" * 40 + "\n"
# At most this many changed lines head a corrected mail: the whole printout follows anyway.
CHANGED_LINES = 20


@dataclass
class Correction:
    """Whom a rerun's mail went to: the players mailed, each with the number of lines that changed, those whose
    printout was the same (not mailed), and whether the newsletter went out again."""

    mailed: dict[str, int] = field(default_factory=dict)
    unchanged: list[str] = field(default_factory=list)
    newsletter: bool = False

    def add(self, phase: str, other: Correction) -> None:
        """A phase's correction into its turn's: each name with the phase it is of."""
        self.mailed.update({f"{name} ({phase})": n for name, n in other.mailed.items()})
        self.unchanged += [f"{name} ({phase})" for name in other.unchanged]
        self.newsletter = self.newsletter or other.newsletter

    def lines(self) -> list[str]:
        said = [f"  mailed (printout changed): {', '.join(f'{n} ({k} line{_s(k)})' for n, k in self.mailed.items())}"
                if self.mailed else "  mailed: nobody (no printout changed)"]
        if self.unchanged:
            said.append(f"  not mailed (printout unchanged): {', '.join(self.unchanged)}")
        said.append("  newsletter: " + ("changed, mailed again to every player" if self.newsletter
                                        else "unchanged, not mailed again"))
        return said


def _s(n: int) -> str:
    return "" if n == 1 else "s"


def changes(old: str | None, new: str) -> list[str]:
    """The lines removed (`- `) and added (`+ `) from `old` to `new`; everything added when there was no old."""
    before = (old or "").splitlines()
    diff = difflib.unified_diff(before, new.splitlines(), lineterm="", n=0)
    return [f"{line[0]} {line[1:]}" for line in diff
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def headed(text: str, changed: list[str]) -> str:
    """`text` with its changed lines first, bounded."""
    shown = changed[:CHANGED_LINES]
    more = len(changed) - len(shown)
    tail = [f"  ... and {more} more changed line{_s(more)}"] if more > 0 else []
    return HEAD + "".join(f"  {line}\n" for line in [*shown, *tail]) + RULE + "\n" + text


def text_without_head(body: str) -> str:
    """A mailed printout's text, without a correction's list of changes."""
    if body.startswith(HEAD) and RULE in body:
        return body.split(RULE, 1)[1].removeprefix("\n")
    return body


def last_mailed(s: Session, game: Game, kind: str, name: str, number: int, phase: str | None) -> dict[str, str]:
    """The last text mailed of each of a turn's printouts (by player; `kind` "printout") or of its newsletter
    (`name` "1", its first part; `kind` "newsletter"), the turn's run or a rerun's."""
    prefix = f"{kind}:{game.name}:{number}:"
    rows = s.scalars(select(OutboundMail).where(
        OutboundMail.game_id == game.id, OutboundMail.key.startswith(prefix, autoescape=True))
        .order_by(OutboundMail.id))
    found = {}
    for row in rows:
        rest = row.key.removeprefix(prefix)
        who, suffix = (rest.split(":", 1) + [""])[:2]
        if name and who != name:
            continue
        its_phase = "" if suffix.startswith("rerun:") else suffix.split(":rerun:", 1)[0]  # ":rerun:" + a time
        if (its_phase or None) != phase:
            continue
        found[who] = text_without_head(text_and_files(row)[0])
    return found


def queue_corrected_mail(s: Session, app: App, game: Game, number: int, result: TurnResult, finished: bool,
                         next_deadline: str, phase: str | None = None) -> Correction:
    """Mail the rerun's results of turn `number` (or of its `phase`) to those whose text changed."""
    from maild.turn import turn_rows, turn_texts

    texts = turn_texts(s, app, game, number, result, finished, next_deadline, phase)
    before = last_mailed(s, game, "printout", "", number, phase)
    correction = Correction()
    printouts = {}
    for player in texts.players:
        new = texts.printouts.get(player.name)
        if new is None:
            continue
        changed = changes(before.get(player.name), new)
        if changed:
            printouts[player.name] = headed(new, changed)
            correction.mailed[player.name] = len(changed)
        else:
            correction.unchanged.append(player.name)
    letter = changes(last_mailed(s, game, "newsletter", "1", number, phase).get("1"), texts.newsletter)
    correction.newsletter = bool(letter)
    corrected = texts._replace(printouts=printouts,
                               newsletter=headed(texts.newsletter, letter) if letter else texts.newsletter)
    insert_rows(s, turn_rows(app, game, number, corrected, key_suffix=f":rerun:{app.now().isoformat()}",
                             subject_note=" (corrected)", phase=phase, newsletter=correction.newsletter))
    return correction
