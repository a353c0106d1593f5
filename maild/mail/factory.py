"""The inbox and the sender the config asks for."""

from __future__ import annotations

from maild.config import Config
from maild.mail.base import InboxSource, Sender
from maild.mail.maildir import MaildirInbox, MaildirSender

# With `run --once` an IMAP server that is away must not make the pass wait for it forever.
ONCE_CONNECT_ATTEMPTS = 3


def make_inbox(config: Config, once: bool = False) -> InboxSource:
    cfg = config.inbound
    if cfg.kind == "maildir":
        assert cfg.path is not None
        return MaildirInbox(cfg.path)
    from maild.mail.imap import ImapInbox

    overrides = {"max_attempts": ONCE_CONNECT_ATTEMPTS} if once else {}
    return ImapInbox.from_config(cfg.options, cfg.base_dir, **overrides)


def make_sender(config: Config) -> Sender:
    cfg = config.outbound
    if cfg.kind == "maildir":
        assert cfg.path is not None
        return MaildirSender(cfg.path)
    from maild.mail.smtp import SmtpSender

    return SmtpSender.from_config(cfg.options, cfg.base_dir)
