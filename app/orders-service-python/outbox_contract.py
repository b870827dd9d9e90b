# SPDX-License-Identifier: GPL-3.0-or-later
"""The idempotency and outbox contract for Python services, on top of the SQL API (migration 0009).

Everything here runs inside the caller's own transaction (a UnitOfWork), so the service's domain rows, its outbox
messages and its idempotency key commit together or not at all. The rules themselves live in the SQL functions
that the C++ library calls too; this module only names them. Needs Debian's python3-psycopg2 and nothing else.
"""

import hashlib
import json
from dataclasses import dataclass
from typing import Any, Optional

import psycopg2
import psycopg2.extras


def fingerprint(operation: str, request: dict) -> str:
    """SHA-256 over the operation name and the canonical JSON of the normalised request.

    Canonical: keys sorted at every level, no insignificant whitespace; the same bytes the C++ library's
    RequestFingerprint hashes, so a key can be replayed across services written in either language."""
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(operation.encode("utf-8") + b"\n" + canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Claim:
    """Who asks for what: the key, its scope and the fingerprint of the request."""

    scope: str
    key: str
    fingerprint: str
    lease_seconds: float = 30.0
    ttl_seconds: float = 24 * 3600.0


@dataclass(frozen=True)
class Begun:
    """What idempotency_begin() answered."""

    outcome: str  # 'execute', 'replay', 'mismatch' or 'in_progress'
    record_id: Optional[int]
    taken_over: bool
    response_status: Optional[int]
    response_body: Any  # the stored JSON document (for 'replay')
    resource_id: Optional[int]
    retry_after_ms: int


class UnitOfWork:
    """One transaction on one connection: commits when the block ends normally, rolls back on an exception.

        with UnitOfWork(connection) as uow:
            begun = uow.idempotency.begin(claim)
            ...
    """

    def __init__(self, connection):
        self.connection = connection
        self.cursor = None
        self.idempotency = IdempotencyRepository(self)
        self.outbox = OutboxRepository(self)

    def __enter__(self):
        self.cursor = self.connection.cursor()
        return self

    def __exit__(self, kind, value, traceback):
        try:
            if kind is None:
                self.connection.commit()
            else:
                self.connection.rollback()
        finally:
            self.cursor.close()
        return False

    def execute(self, sql: str, values=()):
        self.cursor.execute(sql, values)
        return self.cursor


class ClaimLost(Exception):
    """The key is no longer in progress for this request (SQLSTATE 55000): nothing of the transaction stays."""


def _claim_lost(error: psycopg2.Error) -> Exception:
    return ClaimLost(str(error).strip()) if error.pgcode == "55000" else error


class IdempotencyRepository:
    def __init__(self, uow: UnitOfWork):
        self._uow = uow

    def begin(self, claim: Claim) -> Begun:
        row = self._uow.execute(
            "SELECT outcome, record_id, taken_over, response_status, response_body, resource_id, retry_after_ms "
            "FROM idempotency_begin(%s, %s, %s, %s * interval '1 second', %s * interval '1 second')",
            (claim.scope, claim.key, claim.fingerprint, claim.lease_seconds, claim.ttl_seconds),
        ).fetchone()
        return Begun(*row)

    def complete(self, claim: Claim, status: int, body: Any, resource_id: Optional[int] = None) -> int:
        try:
            return self._uow.execute(
                "SELECT idempotency_complete(%s, %s, %s, %s, %s, %s)",
                (claim.scope, claim.key, claim.fingerprint, status, psycopg2.extras.Json(body), resource_id),
            ).fetchone()[0]
        except psycopg2.Error as error:
            raise _claim_lost(error) from error

    def fail(self, claim: Claim, retryable: bool, status: int, body: Any) -> int:
        try:
            return self._uow.execute(
                "SELECT idempotency_fail(%s, %s, %s, %s, %s, %s)",
                (claim.scope, claim.key, claim.fingerprint, retryable, status, psycopg2.extras.Json(body)),
            ).fetchone()[0]
        except psycopg2.Error as error:
            raise _claim_lost(error) from error


class OutboxRepository:
    def __init__(self, uow: UnitOfWork):
        self._uow = uow

    def enqueue(
        self,
        aggregate_type: str,
        aggregate_id: str,
        event_type: str,
        payload: Any,
        headers: Optional[dict] = None,
        dedupe_key: Optional[str] = None,
    ) -> int:
        """Adds a message the relay publishes once the transaction commits; returns its outbox id."""
        return self._uow.execute(
            "SELECT outbox_enqueue(%s, %s, %s, %s, %s, %s)",
            (
                aggregate_type,
                aggregate_id,
                event_type,
                psycopg2.extras.Json(payload),
                psycopg2.extras.Json(headers or {}),
                dedupe_key,
            ),
        ).fetchone()[0]
