#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The reference orders service in Python: the same contract as the C++ orders-service, through the SQL API.

    handle(command, uow) -> Answer

A command is validated, claimed with its Idempotency-Key, executed once (the order row, its order.created outbox
message and the completed key in the caller's transaction) or answered from the key's record: a replay of the
first answer, 422 for a key reused with another request, 409 while the first request runs. Its rows are published
by `outboxctl relay` and listed by the console like the C++ service's.

As a command line (one JSON line out, like `outboxctl create-order`):

    orders_service.py --dsn "dbname=orders" create-order --key K --customer C --amount 12.50 [--currency EUR]
"""

import argparse
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any, Optional

try:
    import psycopg2
except ImportError:  # the message an operator needs, not a traceback
    sys.exit("orders_service.py needs psycopg2: apt-get install python3-psycopg2")

from outbox_contract import Claim, UnitOfWork, fingerprint

OPERATION = "orders.create"  # the C++ handler's operation name: keys are shared across both services
MAX_KEY_LENGTH = 255
PER_ORDER_LIMIT_CENTS = 100_000_000  # 1,000,000.00, as the C++ service

# The order document of the create response, the replay and the order.created payload (the C++ service's shape).
ORDER_DOCUMENT = (
    "jsonb_build_object('id', o.id, 'customer', o.customer, 'amount', o.amount::text, 'currency', o.currency, "
    "'created_at', to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))"
)


@dataclass
class CreateOrder:
    key: str
    customer: str
    amount: str
    currency: str = "EUR"
    scope: str = "orders"
    lease_seconds: float = 30.0


@dataclass
class Answer:
    outcome: str  # created, replayed, mismatch, in_progress, bad_request, rejected
    http_status: int
    response: Any = field(default_factory=dict)
    retry_after_ms: int = 0

    def as_json(self) -> str:
        answer = {"outcome": self.outcome, "http_status": self.http_status, "response": self.response}
        if self.outcome == "in_progress":
            answer["retry_after_seconds"] = max(1, (self.retry_after_ms + 999) // 1000)
        return json.dumps(answer, sort_keys=True, separators=(",", ":"))


class OrdersRepository:
    def __init__(self, uow: UnitOfWork):
        self._uow = uow

    def insert(self, customer: str, amount: str, currency: str) -> tuple:
        """Inserts the order; returns its id and its document."""
        return self._uow.execute(
            "WITH o AS (INSERT INTO orders (customer, amount, currency) VALUES (%s, %s::numeric, %s) "
            "RETURNING id, customer, amount, currency, created_at) "
            "SELECT o.id, " + ORDER_DOCUMENT + " FROM o",
            (customer, amount, currency),
        ).fetchone()


def _bad_request(field_name: str, message: str) -> Answer:
    return Answer("bad_request", 400, {"error": "bad_request", "field": field_name, "message": message})


def _validated(command: CreateOrder):
    """The normalised request (what the fingerprint covers) and its amount in cents, or the 400 answer."""
    if not command.key:
        return _bad_request("idempotency_key", "the Idempotency-Key is missing or empty")
    if len(command.key) > MAX_KEY_LENGTH:
        return _bad_request("idempotency_key", f"the Idempotency-Key is longer than {MAX_KEY_LENGTH} characters")
    customer = command.customer.strip()
    if not 1 <= len(customer) <= 200:
        return _bad_request("customer", "the customer must be 1 to 200 characters")
    match = re.fullmatch(r"(\d{1,16})(?:\.(\d{1,2}))?", command.amount.strip())
    if not match:
        return _bad_request(
            "amount", f"the amount '{command.amount}' is not a decimal number with at most two fraction digits"
        )
    cents = int(match.group(1)) * 100 + int((match.group(2) or "").ljust(2, "0"))
    if cents <= 0:
        return _bad_request("amount", "the amount must be greater than zero")
    if not re.fullmatch(r"[A-Za-z]{3}", command.currency):
        return _bad_request("currency", f"the currency '{command.currency}' is not a three-letter ISO 4217 code")
    request = {"customer": customer, "amount": f"{cents // 100}.{cents % 100:02d}", "currency": command.currency.upper()}
    return request, cents


def handle(command: CreateOrder, uow: UnitOfWork) -> Answer:
    """Creates the order at most once per key and request, inside `uow`'s transaction."""
    validated = _validated(command)
    if isinstance(validated, Answer):
        return validated
    request, cents = validated
    claim = Claim(command.scope, command.key, fingerprint(OPERATION, request), lease_seconds=command.lease_seconds)
    begun = uow.idempotency.begin(claim)
    if begun.outcome == "replay":
        return Answer("replayed", begun.response_status, begun.response_body)
    if begun.outcome == "mismatch":
        return Answer("mismatch", 422, {"error": "key_reused", "message": "key already used with a different request"})
    if begun.outcome == "in_progress":
        return Answer(
            "in_progress",
            409,
            {"error": "in_progress", "message": "a request with this key is still being processed"},
            begun.retry_after_ms,
        )
    if cents > PER_ORDER_LIMIT_CENTS:
        refusal = {"error": "amount_over_limit", "message": "the amount exceeds the per-order limit of 1000000.00"}
        uow.idempotency.fail(claim, False, 422, refusal)
        return Answer("rejected", 422, refusal)
    order_id, document = OrdersRepository(uow).insert(request["customer"], request["amount"], request["currency"])
    uow.outbox.enqueue(
        "order",
        str(order_id),
        "order.created",
        document,
        {"idempotency_scope": command.scope, "idempotency_key": command.key},
        f"order.created:{order_id}",
    )
    uow.idempotency.complete(claim, 201, document, order_id)
    return Answer("created", 201, document)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="The reference orders service in Python, on the SQL API.")
    parser.add_argument("--dsn", default="", help="libpq connection string (default: the PG* environment)")
    commands = parser.add_subparsers(dest="command", required=True)
    create = commands.add_parser("create-order", help="create an order idempotently; prints the answer as JSON")
    create.add_argument("--key", required=True)
    create.add_argument("--customer", required=True)
    create.add_argument("--amount", required=True)
    create.add_argument("--currency", default="EUR")
    create.add_argument("--scope", default="orders")
    arguments = parser.parse_args(argv)
    try:
        connection = psycopg2.connect(arguments.dsn)
    except psycopg2.OperationalError as error:
        print(f"orders_service.py: cannot connect to the database: {str(error).strip()}", file=sys.stderr)
        return 5
    try:
        with UnitOfWork(connection) as uow:
            answer = handle(
                CreateOrder(arguments.key, arguments.customer, arguments.amount, arguments.currency, arguments.scope),
                uow,
            )
    finally:
        connection.close()
    print(answer.as_json())
    # The exit codes of `outboxctl create-order`.
    return {"created": 0, "replayed": 0 if answer.http_status < 300 else 8, "bad_request": 2, "in_progress": 3,
            "mismatch": 4, "rejected": 8}[answer.outcome]


if __name__ == "__main__":
    sys.exit(main())
