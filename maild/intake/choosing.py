"""Which game a player's mail is for when it names none and he plays several of the games at the address it
came to: the one whose grammar reads it (docs/design.md, "Which game a mail is for"). Each game reads the mail
as its own intake would; the game whose reading yields orders with the fewest lines not understood is the one.
When no game reads an order in it, or two read it equally well, nobody can tell, and the player is asked."""

from __future__ import annotations

from dataclasses import dataclass

from maild.games import ruleset_named
from maild.intake.orders import names_of, read_orders
from maild.intake.read import EMPHASIS_FIRST, ReadMail, read_mail
from maild.models import Game, Player


@dataclass(frozen=True)
class Reading:
    """How one game reads the mail: its orders and its lines not understood (warnings do not count)."""

    game: Game
    player: Player
    orders: int
    errors: int


def readings(raw: bytes, mail: ReadMail, played: list[tuple[Game, Player]]) -> list[Reading]:
    out = []
    emphasis: str | None = None  # the text that keeps bold, read once for the games that read it
    for game, player in played:
        ruleset = ruleset_named(game.ruleset)
        if ruleset.reads_emphasis and emphasis is None:
            emphasis = read_mail(raw, prefer=EMPHASIS_FIRST).order_text
        text = emphasis if ruleset.reads_emphasis and emphasis is not None else mail.order_text
        parsed = read_orders(ruleset, text, names_of(mail.from_display, player.name)).parsed
        out.append(Reading(game, player, len(parsed.orders), sum(not d.warning for d in parsed.diagnostics)))
    return out


def best(found: list[Reading]) -> list[Reading]:
    """The games that read orders in the mail with the fewest lines not understood (none when no game reads
    an order in it)."""
    readers = [r for r in found if r.orders]
    fewest = min((r.errors for r in readers), default=0)
    return [r for r in readers if r.errors == fewest]


def chosen(found: list[Reading]) -> Reading | None:
    """The one game that reads the mail best, or None when none reads an order in it or several tie."""
    top = best(found)
    return top[0] if len(top) == 1 else None
