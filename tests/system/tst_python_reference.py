#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python reference service (app/orders-service-python) against a real PostgreSQL, as CTest runs it.

The libpq environment names the server (pg_virtualenv); OUTBOXCTL is the path of outboxctl, which migrates the
test's own database, creates orders through the C++ library and relays the Python service's rows.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

try:
    import psycopg2
except ImportError:
    sys.exit("tst_python_reference needs psycopg2: apt-get install python3-psycopg2 (the test command installs it)")

from orders_service import CreateOrder, handle
from outbox_contract import Claim, UnitOfWork, fingerprint

OUTBOXCTL = os.environ.get("OUTBOXCTL", "")
DATABASE = f"outbox_test_python_{os.getpid()}"
DSN = f"dbname={DATABASE}"
CLIENTS = 32


def connect():
    return psycopg2.connect(DSN)


def run_handle(command: CreateOrder):
    connection = connect()
    try:
        with UnitOfWork(connection) as uow:
            return handle(command, uow)
    finally:
        connection.close()


def scalar(sql, values=()):
    connection = connect()
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            return cursor.fetchone()[0]
    finally:
        connection.close()


def committed(sql):
    """Runs `sql` in a transaction of its own that commits; returns the first column of the first row."""
    connection = connect()
    try:
        with connection, connection.cursor() as cursor:
            cursor.execute(sql)
            return cursor.fetchone()[0]
    finally:
        connection.close()


def outboxctl(*arguments):
    return subprocess.run([OUTBOXCTL, *arguments, "--dsn", DSN], capture_output=True, text=True, timeout=60)


class PythonReferenceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(OUTBOXCTL, os.X_OK):
            raise RuntimeError(f"OUTBOXCTL must name the outboxctl executable (got '{OUTBOXCTL}')")
        admin = psycopg2.connect("dbname=postgres")
        admin.autocommit = True
        with admin.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
            cursor.execute(f"CREATE DATABASE {DATABASE}")
        admin.close()
        migrated = subprocess.run([OUTBOXCTL, "migrate", "--dsn", DSN], capture_output=True, text=True, timeout=60)
        if migrated.returncode != 0:
            raise RuntimeError(f"outboxctl migrate failed: {migrated.stderr}")

    @classmethod
    def tearDownClass(cls):
        admin = psycopg2.connect("dbname=postgres")
        admin.autocommit = True
        with admin.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        admin.close()

    def setUp(self):
        connection = connect()
        with connection, connection.cursor() as cursor:
            cursor.execute("TRUNCATE orders, idempotency_keys, outbox, outbox_attempts RESTART IDENTITY CASCADE")
        connection.close()

    def counts(self, key):
        return (
            scalar("SELECT count(*) FROM orders"),
            scalar("SELECT count(*) FROM outbox"),
            scalar("SELECT count(*) FROM idempotency_keys WHERE idem_key = %s AND status = 'completed'", (key,)),
        )

    def test_the_contract_from_python(self):
        first = run_handle(CreateOrder("py-1", "alice", "12.5"))
        self.assertEqual((first.outcome, first.http_status), ("created", 201))
        self.assertEqual(first.response["amount"], "12.50")
        again = run_handle(CreateOrder("py-1", " alice ", "12.50"))  # the same request, normalised
        self.assertEqual((again.outcome, again.http_status, again.response), ("replayed", 201, first.response))
        other = run_handle(CreateOrder("py-1", "mallory", "99"))
        self.assertEqual((other.outcome, other.http_status), ("mismatch", 422))
        bad = run_handle(CreateOrder("py-2", "alice", "ten"))
        self.assertEqual((bad.outcome, bad.http_status, bad.response["field"]), ("bad_request", 400, "amount"))
        over = run_handle(CreateOrder("py-3", "alice", "1000000.01"))
        self.assertEqual((over.outcome, over.http_status), ("rejected", 422))
        self.assertEqual(run_handle(CreateOrder("py-3", "alice", "1000000.01")).outcome, "replayed")
        self.assertEqual(self.counts("py-1"), (1, 1, 1))
        # A replay is one read; its count arrives when the replays are folded (relays and orders-service fold).
        self.assertEqual(scalar("SELECT replay_count FROM idempotency_keys WHERE idem_key = 'py-1'"), 0)
        self.assertEqual(committed("SELECT idempotency_fold_replays()"), 2)  # py-1 and the rejected py-3
        self.assertEqual(scalar("SELECT replay_count FROM idempotency_keys WHERE idem_key = 'py-1'"), 1)
        self.assertEqual(scalar("SELECT dedupe_key FROM outbox"), f"order.created:{first.response['id']}")

    def fire(self, key, mixed):
        """32 clients, each on its own connection, released at the same instant."""
        barrier = threading.Barrier(CLIENTS)
        answers = [None] * CLIENTS
        errors = []

        def client(index):
            try:
                connection = connect()
                payload_b = mixed and index % 2 == 1
                command = CreateOrder(key, "bob" if payload_b else "alice", "20.00" if payload_b else "10.00")
                barrier.wait()
                with UnitOfWork(connection) as uow:
                    answers[index] = (payload_b, handle(command, uow))
                connection.close()
            except Exception as error:  # reported below, with the client's number
                errors.append(f"client {index}: {error!r}")

        threads = [threading.Thread(target=client, args=(index,)) for index in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        self.assertEqual(errors, [])
        return answers

    def check_one_execution(self, key, answers):
        winners = [(payload, answer) for payload, answer in answers if answer.outcome == "created"]
        self.assertEqual(len(winners), 1, "exactly one request executes")
        winner_payload, winner = winners[0]
        for payload, answer in answers:
            if answer is winner:
                continue
            if answer.outcome == "replayed":
                self.assertEqual(payload, winner_payload, "a different request got the winner's answer")
                self.assertEqual(answer.response, winner.response)
            elif answer.outcome == "mismatch":
                self.assertNotEqual(payload, winner_payload, "the same request was refused as a mismatch")
            else:
                self.assertEqual(answer.outcome, "in_progress")
                self.assertGreaterEqual(answer.retry_after_ms, 1)
        self.assertEqual(self.counts(key), (1, 1, 1))

    def test_32_concurrent_duplicates_execute_once(self):
        self.check_one_execution("same", self.fire("same", mixed=False))

    def test_32_concurrent_mixed_payloads_execute_once(self):
        self.check_one_execution("mixed", self.fire("mixed", mixed=True))

    def crash(self, code):
        """Runs `code` in a Python process of its own that kills itself with SIGKILL where the code says."""
        environment = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
        process = subprocess.run([sys.executable, "-c", code], env=environment, timeout=60)
        self.assertEqual(process.returncode, -signal.SIGKILL)

    def test_crash_between_begin_and_complete(self):
        # An 8 s lease: the check below that the key is still in progress must come before it runs out, after a
        # Python process started, claimed and was killed, on a machine that may be running other tests meanwhile.
        command = CreateOrder("crash-1", "alice", "5.00", lease_seconds=8.0)
        request = {"customer": "alice", "amount": "5.00", "currency": "EUR"}
        # The two-phase form: the claim commits on its own (its lease keeps duplicates out), then the process
        # dies before it completes.
        self.crash(
            "import os, signal, psycopg2\n"
            "from outbox_contract import Claim, UnitOfWork, fingerprint\n"
            f"connection = psycopg2.connect({DSN!r})\n"
            "with UnitOfWork(connection) as uow:\n"
            f"    begun = uow.idempotency.begin(Claim('orders', 'crash-1', fingerprint('orders.create', {request!r}), 8.0))\n"
            "    assert begun.outcome == 'execute', begun\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n"
        )
        waiting = run_handle(command)
        self.assertEqual(waiting.outcome, "in_progress")
        self.assertTrue(1 <= waiting.retry_after_ms <= 8000, waiting.retry_after_ms)
        # Retry as a client does, after the hint the answer gives, until the lease has run out and the key is
        # taken over.
        deadline = time.monotonic() + 40
        answer = waiting
        while answer.outcome == "in_progress" and time.monotonic() < deadline:
            time.sleep(answer.retry_after_ms / 1000.0)
            answer = run_handle(command)
        self.assertEqual(answer.outcome, "created")
        self.assertEqual(self.counts("crash-1"), (1, 1, 1))

    def test_crash_inside_the_transaction_leaves_nothing(self):
        # The one-transaction form: the order is inserted, then the process dies before the commit.
        self.crash(
            "import os, signal, psycopg2\n"
            "from orders_service import CreateOrder, OrdersRepository\n"
            "from outbox_contract import Claim, UnitOfWork, fingerprint\n"
            f"connection = psycopg2.connect({DSN!r})\n"
            "uow = UnitOfWork(connection).__enter__()\n"
            "request = {'customer': 'alice', 'amount': '5.00', 'currency': 'EUR'}\n"
            "begun = uow.idempotency.begin(Claim('orders', 'crash-2', fingerprint('orders.create', request)))\n"
            "assert begun.outcome == 'execute', begun\n"
            "OrdersRepository(uow).insert('alice', '5.00', 'EUR')\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n"
        )
        self.assertEqual(self.counts("crash-2"), (0, 0, 0))
        self.assertEqual(run_handle(CreateOrder("crash-2", "alice", "5.00")).outcome, "created")

    def test_keys_are_shared_with_the_cpp_service(self):
        made_in_cpp = outboxctl("create-order", "--key", "shared-1", "--customer", "carol", "--amount", "7.5")
        self.assertEqual(made_in_cpp.returncode, 0, made_in_cpp.stderr)
        cpp_answer = json.loads(made_in_cpp.stdout)
        python_replay = run_handle(CreateOrder("shared-1", "carol", "7.50"))
        self.assertEqual(python_replay.outcome, "replayed")
        self.assertEqual(python_replay.response, cpp_answer["response"])

        made_in_python = run_handle(CreateOrder("shared-2", "dave", "3"))
        self.assertEqual(made_in_python.outcome, "created")
        cpp_replay = outboxctl("create-order", "--key", "shared-2", "--customer", "dave", "--amount", "3.00")
        self.assertEqual(cpp_replay.returncode, 0, cpp_replay.stderr)
        self.assertEqual(json.loads(cpp_replay.stdout)["outcome"], "replayed")
        self.assertEqual(json.loads(cpp_replay.stdout)["response"], made_in_python.response)
        mismatch = outboxctl("create-order", "--key", "shared-2", "--customer", "dave", "--amount", "4")
        self.assertEqual(mismatch.returncode, 4)

    def test_the_relay_publishes_what_python_wrote(self):
        created = [run_handle(CreateOrder(f"relayed-{i}", "erin", f"{i}.00")) for i in range(1, 4)]
        self.assertTrue(all(answer.outcome == "created" for answer in created))
        with tempfile.TemporaryDirectory() as directory:
            sink = os.path.join(directory, "published.jsonl")
            relayed = outboxctl("relay", "--once", "--sink", f"file:{sink}")
            self.assertEqual(relayed.returncode, 0, relayed.stderr)
            with open(sink, encoding="utf-8") as published:
                messages = [json.loads(line) for line in published]
        self.assertEqual(len(messages), 3)
        # The lists the console shows (outboxctl list is the same query) have them published.
        listed = outboxctl("list", "outbox", "--status", "published", "--format", "json")
        self.assertEqual(listed.returncode, 0, listed.stderr)
        ids = sorted(int(item["aggregate_id"]) for item in json.loads(listed.stdout)["items"])
        self.assertEqual(ids, sorted(answer.response["id"] for answer in created))


if __name__ == "__main__":
    unittest.main(verbosity=2)
