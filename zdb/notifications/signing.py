"""Standard Webhooks signatures (https://www.standardwebhooks.com): ``webhook-id``,
``webhook-timestamp`` and ``webhook-signature`` (``v1,`` and the HMAC-SHA256 of
``id.timestamp.body`` in base64), made with the reference implementation. During a secret's
rotation both secrets sign, separated by a space, so that a receiver with either verifies."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Sequence
from datetime import datetime

from standardwebhooks import Webhook

__all__ = ["new_secret", "signed_headers"]


def new_secret() -> str:
    """A fresh secret in the standard's form: ``whsec_`` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode("ascii")


def signed_headers(event_id: str, body: bytes, keys: Sequence[str], at: datetime) -> dict[str, str]:
    signatures = " ".join(Webhook(key).sign(event_id, at, body) for key in keys)
    return {
        "webhook-id": event_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signatures,
        "content-type": "application/json",
        "user-agent": "ZDB-Notifications/1",
    }
