"""Everything intake needs from one raw mail, read once: who, to whom, robot or not, the order text."""

from __future__ import annotations

from dataclasses import dataclass, field

from maild.intake.decode import decode_mail
from maild.intake.header import OrderHeader


@dataclass(frozen=True)
class ReadMail:
    from_addr: str | None
    to_addrs: list[str]
    subject: str
    message_id: str | None
    references: list[str]
    auto_reason: str | None  # why this mail must not be answered, if it must not
    header: OrderHeader | None  # the "#GAME PLAYER PASSWORD" line
    order_text: str  # as the mail had it, emphasis and all (`intake.orders.read_orders` cleans it)
    subject_tags: list[str] = field(default_factory=list)
    commands: frozenset[str] = frozenset()  # "HELP", "STATUS"
    command_args: tuple[str, ...] = ()  # the words after the command word ("HISTORY 12": ("12",))
    problems: list[str] = field(default_factory=list)
    from_display: str | None = None  # the From header's display name: a bare name signed with it is prose
    in_reply_to: str | None = None
    # The line of the mail, counted from its first line as the player sees it, of each line of `order_text`:
    # "line N" in what he is told is that line (`intake.orders.read_orders` renumbers by it).
    line_map: tuple[int, ...] = ()

    @property
    def thread(self) -> tuple[str, ...]:
        """The ids this mail answers (References, then In-Reply-To if References lacks it): what our answer's
        References continue, and what the loop guard looks up among our own answers."""
        ids = list(self.references)
        if self.in_reply_to and self.in_reply_to not in ids:
            ids.append(self.in_reply_to)
        return tuple(ids)


#: The alternative parts read first for a game that reads bold (`Ruleset.reads_emphasis`): a plain-text
#: alternative loses bold (Outlook's and Apple Mail's write it as plain words), its HTML keeps it.
EMPHASIS_FIRST = ("html", "plain")


def read_mail(raw: bytes, prefer: tuple[str, str] = ("plain", "html")) -> ReadMail:
    """The mail read once; `prefer` is the order in which alternative parts are taken (`EMPHASIS_FIRST` for a
    game that reads bold)."""
    d = decode_mail(raw, prefer=prefer)
    return ReadMail(
        from_addr=d.from_addr,
        to_addrs=list(d.to_addrs),
        subject=d.subject or "",
        message_id=d.message_id,
        references=list(d.references),
        auto_reason=d.auto,
        header=d.header,
        order_text=d.text,
        subject_tags=list(d.subject_tags),
        commands=frozenset({d.command.split(" ", 1)[0].upper()}) if d.command else frozenset(),
        command_args=tuple(d.command.split()[1:]) if d.command else (),
        problems=list(d.problems),
        from_display=d.from_display,
        in_reply_to=d.in_reply_to,
        line_map=d.line_map,
    )
