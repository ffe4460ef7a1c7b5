"""The public directory: who is responsible for each federation and club, and a contact form
that reaches him without his address ever being shown.

A message is plain text of bounded length, stored with the federation whose officer it reaches
(the nearest named one up the tree, else the rating office) and shown to that officer. At most
``MESSAGES_PER_HOUR`` messages are taken from one network address per hour (counted in the
stored messages, by a hash of the address: the address itself is not kept). Sending it on by
mail is a seam: ``set_mail_sender`` registers what sends (none is registered by default, and the
officer reads his messages in his list); it runs after the commit, with the message's id.

Flushes, never commits.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from zdb.auth.principal import Principal
from zdb.errors import DomainError, NotFoundError, ValidationError, ValidationProblem
from zdb.federations.models import Club, Federation
from zdb.messages import Message
from zdb.outbox.models import OutboxMessage
from zdb.outbox.seam import enqueue
from zdb.reviews.models import OfficerMessage
from zdb.reviews.rules import officer_prefixes, responsible_officer
from zdb.reviews.schemas import ContactIn, DirectoryEntryOut, DirectoryOut, OfficerMessageOut

__all__ = [
    "MESSAGES_PER_HOUR",
    "OFFICER_MAIL",
    "TooManyMessagesError",
    "club_entry",
    "directory",
    "federation_entry",
    "mail_officer_message",
    "officer_messages",
    "send_message",
    "set_mail_sender",
]

#: the outbox's kind for a contact message to be sent on by mail
OFFICER_MAIL = "officer_message.mail"

_log = logging.getLogger(__name__)

#: messages taken from one network address per hour
MESSAGES_PER_HOUR = 5

_mail_sender: Callable[[int], None] | None = None


class TooManyMessagesError(DomainError):
    """The contact form's limit per address and hour (answered 429)."""

    retry_after = 3600


def set_mail_sender(sender: Callable[[int], None] | None) -> None:
    """What sends a stored message on (by its id) once it is committed; None: nothing."""
    global _mail_sender  # noqa: PLW0603 - one sender per process, set at start-up
    _mail_sender = sender


def mail_officer_message(_session: Session, message: OutboxMessage) -> None:
    """The outbox's consumer of ``OFFICER_MAIL``: the stored message sent on by the registered
    sender (at least once: a sender must bear a repeat, as mail does)."""
    message_id = int(message.payload["message"])
    if _mail_sender is None:
        return
    try:
        _mail_sender(message_id)
    except Exception:  # the message is stored and shown to the officer: nothing is lost
        _log.exception("could not send message %s on by mail", message_id)


def _entry(session: Session, prefix: str, name: str, club: str | None) -> DirectoryEntryOut:
    responsible, officer = responsible_officer(session, prefix)
    return DirectoryEntryOut(
        prefix=prefix,
        name=name,
        club=club,
        officer=None if officer is None else officer.name,
        officer_of=None if officer is None else responsible,
    )


def directory(session: Session) -> DirectoryOut:
    """Every federation in being, in the order of its prefix, with its responsible officer."""
    federations = session.scalars(
        select(Federation).where(Federation.dissolved_on.is_(None)).order_by(Federation.prefix)
    ).all()
    return DirectoryOut(federations=[_entry(session, f.prefix, f.name, None) for f in federations])


def _club(session: Session, code: str) -> Club:
    club = session.get(Club, code)
    if club is None or club.dissolved_on is not None:
        raise NotFoundError(Message("no club has the code {code!r}", code=code))
    return club


def club_entry(session: Session, code: str) -> DirectoryEntryOut:
    club = _club(session, code)
    return _entry(session, club.federation_prefix, club.name, club.code)


def federation_entry(session: Session, prefix: str) -> DirectoryEntryOut:
    federation = session.get(Federation, prefix)
    if federation is None or federation.dissolved_on is not None:
        raise NotFoundError(Message("no federation has the prefix {prefix!r}", prefix=prefix))
    return _entry(session, prefix, federation.name, None)


def _address_hash(address: str) -> str:
    return hashlib.sha256(("zdb contact " + address).encode("utf-8")).hexdigest()


def send_message(
    session: Session, body: ContactIn, *, address: str, now: datetime | None = None
) -> tuple[OfficerMessage, DirectoryEntryOut]:
    """Store a message for the officer responsible for the club ``body.club`` (or the
    federation ``body.federation``); refused past the limit per address and hour."""
    if body.club:
        entry = club_entry(session, body.club)
    elif body.federation is not None:
        entry = federation_entry(session, body.federation)
    else:
        raise ValidationError([ValidationProblem("body.club", Message("name the club or the federation"))])
    now = now or datetime.now(UTC)
    sender = _address_hash(address)
    recent = session.execute(
        select(func.count())
        .select_from(OfficerMessage)
        .where(OfficerMessage.sender_address == sender, OfficerMessage.sent_at > now - timedelta(hours=1))
    ).scalar_one()
    if recent >= MESSAGES_PER_HOUR:
        raise TooManyMessagesError(
            Message("at most {n} messages an hour are taken from one address; try again later", n=MESSAGES_PER_HOUR)
        )
    responsible, _ = responsible_officer(session, entry.prefix)
    stored = OfficerMessage(
        prefix=responsible,
        club_code=entry.club,
        sender_name=body.name,
        sender_email=body.email,
        subject=body.subject,
        text=body.text,
        sender_address=sender,
        sent_at=now,
    )
    session.add(stored)
    session.flush()
    # sent on after the commit, through the outbox (a process dying after the commit loses nothing)
    enqueue(session, OFFICER_MAIL, {"message": stored.id})
    return stored, entry


def officer_messages(
    session: Session, caller: Principal, *, limit: int, offset: int
) -> tuple[list[OfficerMessageOut], int]:
    """The messages for the caller's federations (each message is kept with the federation
    whose officer was responsible when it came); the rating office reads all. The newest first."""
    m = OfficerMessage
    where = []
    if caller.role != "admin":
        mine = officer_prefixes(session, caller)
        if not mine:
            return [], 0
        where.append(m.prefix.in_(mine))
    total = session.execute(select(func.count()).select_from(m).where(*where)).scalar_one()
    rows = session.scalars(select(m).where(*where).order_by(m.sent_at.desc(), m.id.desc()).limit(limit).offset(offset))
    return [
        OfficerMessageOut(
            id=r.id,
            prefix=r.prefix,
            club=r.club_code,
            sender_name=r.sender_name,
            sender_email=r.sender_email,
            subject=r.subject,
            text=r.text,
            sent_at=r.sent_at,
        )
        for r in rows
    ], total
