"""The inbox and the sender the config asks for."""

from __future__ import annotations

from maild.config import Config
from maild.mail.base import InboxSource, Sender, resolve_password
from maild.mail.maildir import MaildirInbox, MaildirSender


def make_inbox(config: Config) -> InboxSource:
    cfg = config.inbound
    if cfg.kind == "maildir":
        assert cfg.path is not None
        return MaildirInbox(cfg.path)
    from maild.mail.imap import ImapInbox

    o = cfg.options
    if "host" not in o or "user" not in o:
        raise ValueError("mail.inbound: kind = \"imap\" needs host and user")
    tls = bool(o.get("tls", True))
    return ImapInbox(host=str(o["host"]), port=int(o.get("port", 993 if tls else 143)), user=str(o["user"]),
                     password=resolve_password(o, cfg.base_dir) or "", folder=str(o.get("folder", "INBOX")),
                     tls=tls, done_action=str(o.get("done_action", "seen")),
                     use_idle=bool(o.get("idle", True)))


def make_sender(config: Config) -> Sender:
    cfg = config.outbound
    if cfg.kind == "maildir":
        assert cfg.path is not None
        return MaildirSender(cfg.path)
    from maild.mail.smtp import SmtpSender

    o = cfg.options
    if "host" not in o:
        raise ValueError("mail.outbound: kind = \"smtp\" needs host")
    tls = bool(o.get("tls", False))
    starttls = o.get("starttls")
    return SmtpSender(host=str(o["host"]), port=int(o.get("port", 465 if tls else 587)),
                      user=o.get("user"), password=resolve_password(o, cfg.base_dir), tls=tls,
                      starttls=None if starttls is None else bool(starttls))
