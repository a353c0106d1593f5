"""The receiving server's Authentication-Results: the parser, the verdict, and a game's `[games.auth]`
check through the daemon (verified mail in, unverified mail refused and the registered address warned)."""

from __future__ import annotations

from datetime import datetime
from email.message import Message
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from maild.app import App
from maild.config import AuthCheck, ConfigError, parse_config
from maild.intake.authres import aligned, parse_header, sender_verified
from maild.models import InboundMail, OrderSetRow, OutboundMail
from tests.conftest import make_app
from tests.test_flow import drop, mail, run_pass, sent

MX = "mx.example.org"
MORNING = datetime(2026, 11, 22, 10, 0, tzinfo=ZoneInfo("Europe/Rome"))


def raw(*headers: str, sender: str = "alice@example.org") -> bytes:
    lines = "".join(f"Authentication-Results: {h}\r\n" for h in headers)
    return f"{lines}From: Alice <{sender}>\r\nSubject: bids\r\n\r\nbid 10$ for 1 of silk tax\r\n".encode()


def verdict(*headers: str, sender: str = "alice@example.org") -> tuple[bool, str]:
    return sender_verified(raw(*headers, sender=sender), sender, MX)


# The parser

def test_a_gmail_style_header_with_comments_and_folds() -> None:
    sid, results = parse_header(
        "mx.google.com;\r\n       dkim=pass header.i=@example.org header.s=s1 header.b=Ab+/9x=;\r\n"
        "       spf=pass (google.com: domain of a@example.org designates 192.0.2.1 as permitted sender)"
        " smtp.mailfrom=a@example.org;\r\n       dmarc=pass (p=NONE sp=NONE dis=NONE) header.from=example.org")
    assert sid == "mx.google.com"
    assert [(r.method, r.result) for r in results] == [("dkim", "pass"), ("spf", "pass"), ("dmarc", "pass")]
    assert results[0].props == {"header.i": "@example.org", "header.s": "s1", "header.b": "Ab+/9x="}
    assert results[1].props == {"smtp.mailfrom": "a@example.org"}


def test_case_quotes_versions_nested_comments_and_spaces() -> None:
    sid, results = parse_header('MX.Example.ORG 1 (a (nested) \\( comment; "x=y);\tDKIM/1 = Pass reason="good sig"'
                                ' header . d = "Example.org"; auth=pass smtp.auth="john doe"@example.org')
    assert sid == MX
    dkim, auth = results
    assert (dkim.method, dkim.result, dkim.reason, dkim.props) == ("dkim", "pass", "good sig",
                                                                    {"header.d": "Example.org"})
    assert auth.props == {"smtp.auth": "john doe@example.org"}


@pytest.mark.parametrize("value", [
    "", ";;;", "(unclosed comment", '"unclosed quote', "mx.example.org; =", "mx.example.org; dkim=",
    "mx.example.org; dkim pass", "===", "mx.example.org; none", ")(", "\x00\udcff", "mx; dkim=pass header.d",
])
def test_malformed_headers_never_raise(value: str) -> None:
    parse_header(value)
    assert sender_verified([value], "alice@example.org", MX)[0] is False


def test_no_authserv_id_is_no_header() -> None:
    # Exchange Online writes its results without one: nothing says whose they are.
    assert parse_header("spf=pass (sender IP is 192.0.2.1) smtp.mailfrom=example.org; dkim=pass") == (None, [])


def test_alignment() -> None:
    assert aligned("example.org", "EXAMPLE.ORG.")
    assert aligned("mail.example.org", "example.org")
    assert aligned("example.org", "eu.mail.example.org")
    assert aligned("a@mail.example.org", "@example.org")
    assert not aligned("example.org", "example.com")
    assert not aligned("badexample.org", "example.org")
    assert not aligned("org", "example.org")  # a bare top-level domain aligns with nothing
    assert not aligned("", "example.org")


# The verdict

@pytest.mark.parametrize("header, why", [
    (f"{MX}; dmarc=pass header.from=example.org", f"{MX} reported dmarc=pass for example.org"),
    (f"{MX}; dmarc=pass", f"{MX} reported dmarc=pass for example.org"),
    (f"{MX}; dkim=pass header.d=example.org", f"{MX} reported dkim=pass, signed by example.org"),
    (f"{MX}; dkim=pass header.d=mail.example.org", f"{MX} reported dkim=pass, signed by mail.example.org"),
    (f"{MX}; dkim=pass header.i=@example.org", f"{MX} reported dkim=pass, signed by example.org"),
    (f"{MX}; spf=pass smtp.mailfrom=bounces@lists.example.org", f"{MX} reported spf=pass for lists.example.org"),
    (f"{MX}; spf=pass smtp.mailfrom=example.org", f"{MX} reported spf=pass for example.org"),
])
def test_verified(header: str, why: str) -> None:
    assert verdict(header) == (True, why)


@pytest.mark.parametrize("headers, why", [
    ((), f"no Authentication-Results from {MX}"),
    ((f"{MX}; dkim=fail header.d=example.org",), f"{MX} reported dkim=fail"),
    ((f"{MX}; none",), f"{MX} reported no DMARC, DKIM or SPF result"),
    ((f"{MX}; dkim=none; spf=softfail smtp.mailfrom=example.org; dmarc=none",),
     f"{MX} reported dkim=none, spf=softfail, dmarc=none"),
    ((f"{MX}; dkim=pass header.d=evil.example",), f"{MX} reported dkim=pass for evil.example (not example.org)"),
    ((f"{MX}; spf=pass smtp.mailfrom=a@evil.example",), f"{MX} reported spf=pass for evil.example (not example.org)"),
    ((f"{MX}; dkim=pass header.d=org",), f"{MX} reported dkim=pass for org (not example.org)"),
    # DMARC judged another From (a mail with two From fields): not about our sender.
    ((f"{MX}; dmarc=pass header.from=evil.example",), f"{MX} reported dmarc=pass for evil.example (not example.org)"),
    # The domain's owner says this mail fails its policy: an aligned DKIM pass does not overrule that.
    ((f"{MX}; dmarc=fail header.from=example.org; dkim=pass header.d=mail.example.org",),
     f"{MX} reported dmarc=fail for example.org"),
    ((f"{MX}; iprev=pass policy.iprev=192.0.2.1",), f"{MX} reported no DMARC, DKIM or SPF result"),
])
def test_not_verified(headers: tuple[str, ...], why: str) -> None:
    assert verdict(*headers) == (False, why)


def test_headers_of_other_servers_are_ignored() -> None:
    # The sender can write any header it likes; only the GM's own server's count.
    forged = "mx.evil.example; dmarc=pass header.from=example.org; dkim=pass header.d=example.org"
    assert verdict(forged) == (False, f"no Authentication-Results from {MX}")
    assert verdict(forged, f"{MX}; dkim=fail header.d=example.org") == (False, f"{MX} reported dkim=fail")
    assert verdict("mx.example.org.evil.example; dmarc=pass")[0] is False
    assert verdict(f"{MX}; dkim=pass header.d=example.org", forged)[0] is True


def test_results_spread_over_several_headers() -> None:
    # OpenDKIM, OpenDMARC and an SPF policy daemon each write their own header with the same id.
    assert verdict(f"{MX}; spf=fail smtp.mailfrom=example.org",
                   f"{MX} 1; dkim=pass\r\n\theader.d=example.org",
                   f"{MX}; dmarc=none") == (True, f"{MX} reported dkim=pass, signed by example.org")


def test_only_the_header_block_is_read() -> None:
    body_header = (b"From: alice@example.org\r\n\r\nAuthentication-Results: mx.example.org; dmarc=pass\r\n")
    assert sender_verified(body_header, "alice@example.org", MX) == (False, f"no Authentication-Results from {MX}")
    unix = b"Authentication-Results: mx.example.org; dmarc=pass\nFrom: alice@example.org\n\nbody\n"
    assert sender_verified(unix, "alice@example.org", MX)[0] is True


def test_a_parsed_message_or_str_will_do() -> None:
    msg = Message()
    msg["Authentication-Results"] = f"{MX}; dkim=pass header.d=example.org"
    assert sender_verified(msg, "alice@example.org", MX)[0] is True
    assert sender_verified(raw(f"{MX}; dmarc=pass").decode(), "alice@example.org", "MX.example.org")[0] is True


def test_garbage_mail_is_not_verified() -> None:
    assert sender_verified(b"\xff\xfe\x00garbage", "alice@example.org", MX)[0] is False
    assert sender_verified(raw(f"{MX}; dmarc=pass"), "", MX) == (False, "no sender domain to verify")


# The config

def game_config(auth: Any) -> dict[str, Any]:
    return {"games": [{"name": "g", "ruleset": "venice", "setup": "s", "auth": auth}]}


def test_auth_config() -> None:
    config = parse_config(game_config({"authserv_id": "MX.Example.org"}), Path("."), None)
    assert config.games[0].auth == AuthCheck("mx.example.org", "players_without_password")
    config = parse_config(game_config({"authserv_id": MX, "require_for": "everyone"}), Path("."), None)
    assert config.games[0].auth == AuthCheck(MX, "everyone")
    config = parse_config({"games": [{"name": "g", "ruleset": "venice", "setup": "s"}]}, Path("."), None)
    assert config.games[0].auth is None


@pytest.mark.parametrize("auth, message", [
    ({}, "auth.authserv_id"),
    ({"authserv_id": ""}, "auth.authserv_id"),
    ({"authserv_id": "mx.example.org; dkim=pass"}, "auth.authserv_id"),
    ({"authserv_id": 3}, "auth.authserv_id"),
    ({"authserv_id": MX, "require_for": "nobody"}, "auth.require_for"),
    ({"authserv_id": MX, "require": "everyone"}, "auth.require: unknown key"),
    ("mx.example.org", r"\[games.auth\] must be a table"),
])
def test_bad_auth_config_names_the_key(auth: Any, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_config(game_config(auth), Path("."), Path("gm.toml"))


# Through the daemon

PASS = f"Authentication-Results: {MX}; dkim=pass header.d=example.org\r\n"
FORGED = "Authentication-Results: mx.evil.example; dkim=pass header.d=example.org\r\n"
SPF_FAIL = f"Authentication-Results: {MX}; spf=fail smtp.mailfrom=example.org; dkim=none\r\n"


def app_with(tmp_path: Path, db_url: str, venice_setup: Path, **auth: str) -> App:
    return make_app(tmp_path, db_url, MORNING, venice_setup, auth={"authserv_id": MX, **auth})


def statuses(app: App) -> list[str]:
    with app.db.session() as s:
        return list(s.scalars(select(InboundMail.status).order_by(InboundMail.id)))


def booked(app: App) -> list[int]:
    with app.db.session() as s:
        return list(s.scalars(select(OrderSetRow.mail_id).order_by(OrderSetRow.mail_id)))


def test_verified_mail_is_accepted(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = app_with(tmp_path, db_url, venice_setup)
    drop(app, mail("alice@example.org", "bid 10$ for 1 of silk tax", 1, extra=PASS), MORNING)
    run_pass(app, MORNING)
    [ack] = sent(app)
    assert ack["To"] == "alice@example.org"
    assert "Understood (1)" in ack.get_content()
    assert statuses(app) == ["orders"]


def test_unverified_mail_is_refused_and_the_registered_address_warned(tmp_path: Path, db_url: str,
                                                                      venice_setup: Path) -> None:
    app = app_with(tmp_path, db_url, venice_setup)
    drop(app, mail("alice@example.org", "bid 99$ for 2 of silk tax", 1, extra=FORGED), MORNING)
    drop(app, mail("carol@example.net", "bid 99$ for 2 of silk tax", 2, extra=SPF_FAIL), MORNING)
    run_pass(app, MORNING)
    warnings = sent(app)
    assert sorted(w["To"] for w in warnings) == ["alice@example.org", "carol@example.net"]
    alice = next(w for w in warnings if w["To"] == "alice@example.org")
    assert alice["Subject"] == "[venice1] orders in your name were refused"
    text = alice.get_content()
    assert "could not be verified as coming from alice@example.org" in text
    assert f"(no Authentication-Results from {MX})" in text
    assert "Ask the GM for a\npassword" in text and "#venice1 alice YOUR-PASSWORD" in text
    carol = next(w for w in warnings if w["To"] == "carol@example.net").get_content()
    assert f"({MX} reported spf=fail, dkim=none)" in carol
    assert statuses(app) == ["unverified", "unverified"]
    assert booked(app) == []
    with app.db.session() as s:
        notes = list(s.scalars(select(InboundMail.note).order_by(InboundMail.id)))
        assert notes[0] == ("it could not be verified as coming from alice@example.org "
                            f"(no Authentication-Results from {MX})")
        assert {r.kind for r in s.scalars(select(OutboundMail).where(OutboundMail.kind != "welcome"))} == {"warning"}


def test_a_player_with_a_password_needs_no_verification(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = app_with(tmp_path, db_url, venice_setup)
    drop(app, mail("bob@example.org", "#venice1 bob sesame\nbid 10$ for 1 of silk tax", 1), MORNING)
    drop(app, mail("bob.phone@example.com", "#venice1 bob sesame\nbid 12$ for 1 of silk tax", 2), MORNING)
    drop(app, mail("bob@example.org", "#venice1 bob guess\nbid 99$ for 1 of silk tax", 3, extra=PASS), MORNING)
    run_pass(app, MORNING)
    assert statuses(app) == ["orders", "orders", "bad_password"]  # verification never replaces the password
    assert booked(app) == [1, 2]
    assert [m["To"] for m in sent(app)] == ["bob@example.org"] * 3


def test_require_for_everyone(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = app_with(tmp_path, db_url, venice_setup, require_for="everyone")
    drop(app, mail("bob@example.org", "#venice1 bob sesame\nbid 10$ for 1 of silk tax", 1), MORNING)
    drop(app, mail("bob@example.org", "#venice1 bob sesame\nbid 11$ for 1 of silk tax", 2, extra=PASS), MORNING)
    drop(app, mail("alice@example.org", "bid 10$ for 1 of silk tax", 3, extra=PASS), MORNING)
    run_pass(app, MORNING)
    assert statuses(app) == ["unverified", "orders", "orders"]
    assert booked(app) == [2, 3]
    warning = next(m for m in sent(app) if "refused" in str(m["Subject"]))
    assert warning["To"] == "bob@example.org"
    text = warning.get_content()
    assert "could not be verified as coming from bob@example.org" in text
    assert "Ask the GM for a\npassword" not in text  # a password would not help here


def test_games_without_auth_are_unchanged(tmp_path: Path, db_url: str, venice_setup: Path) -> None:
    app = make_app(tmp_path, db_url, MORNING, venice_setup)
    drop(app, mail("alice@example.org", "bid 10$ for 1 of silk tax", 1), MORNING)
    drop(app, mail("carol@example.net", "bid 10$ for 1 of silk tax", 2, extra=SPF_FAIL), MORNING)
    run_pass(app, MORNING)
    assert statuses(app) == ["orders", "orders"]
    assert booked(app) == [1, 2]


# Which headers are ours (issue 8: any header with our id counted, anywhere, the id normalised)

def _mail(*fields: str) -> bytes:
    return ("".join(f"{f}\r\n" for f in fields) + "From: Alice <alice@example.org>\r\nSubject: bids\r\n\r\nbid\r\n"
            ).encode()


def test_results_below_a_foreign_hop_are_not_ours() -> None:
    forged = _mail(f"Received: from mail.sender.example (mail.sender.example [192.0.2.7]) by {MX} (Postfix)",
                   "Received: from [10.0.0.1] by mail.sender.example with ESMTPSA",
                   f"Authentication-Results: {MX}; dmarc=pass header.from=example.org")
    assert sender_verified(forged, "alice@example.org", MX) == (False, f"no Authentication-Results from {MX}")


def test_results_our_server_put_on_top_are_trusted() -> None:
    postfix = _mail(f"Authentication-Results: {MX}; dkim=pass header.d=example.org",
                    f"Received: from mail.example.org by {MX} (Postfix) with ESMTPS id 4Xk",
                    "Received: from [10.0.0.1] by mail.example.org with ESMTPSA",
                    f"Authentication-Results: {MX}; dkim=fail header.d=example.org")
    assert sender_verified(postfix, "alice@example.org", MX)[0] is True
    gmail = _mail("Received: by 2002:a05:7000:1f0b:b0:5c1:1a2e with SMTP id u11csp1;",
                  "ARC-Seal: i=1; a=rsa-sha256; d=google.com; cv=none",
                  "Received: from mail.example.org (mail.example.org. [192.0.2.1])\r\n"
                  "        by mx.google.com with ESMTPS id a1si;",
                  "Authentication-Results: mx.google.com;\r\n       dkim=pass header.i=@example.org",
                  "Received: by mail.example.org (Postfix, from userid 1000)")
    assert sender_verified(gmail, "alice@example.org", "mx.google.com")[0] is True


@pytest.mark.parametrize("authserv_id, trusted", [
    (MX, True), ("MX.EXAMPLE.ORG", True), (f'"{MX}"', True), (f"{MX} 1", True), (f"{MX}(our mx)", True),
    (f"{MX}.", False), (f'"{MX}."', False), ('"mx.example".org', False), ("mx.example.org\\", False),
    ('"mx.example.org', False),
])
def test_authserv_id_is_compared_as_rfc_8601_says(authserv_id: str, trusted: bool) -> None:
    mail_ = _mail(f"Authentication-Results: {authserv_id}; dmarc=pass header.from=example.org")
    assert sender_verified(mail_, "alice@example.org", MX)[0] is trusted
