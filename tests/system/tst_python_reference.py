#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The Python reference service and relay (app/orders-service-python) against a real PostgreSQL, as CTest runs it.

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
    import psycopg2.extras
except ImportError:
    sys.exit("tst_python_reference needs psycopg2: apt-get install python3-psycopg2 (the test command installs it)")

from orders_service import CreateOrder, handle
from outbox_contract import Claim, UnitOfWork, fingerprint
from outbox_relay import BatchResult, Relay, exponential_backoff

OUTBOXCTL = os.environ.get("OUTBOXCTL", "")
DATABASE = f"outbox_test_python_{os.getpid()}"
DSN = f"dbname={DATABASE}"
CLIENTS = 32
RELAY_SCRIPT = os.path.join(os.path.dirname(sys.modules["outbox_relay"].__file__), "outbox_relay.py")


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


def execute(sql, values=()):
    """Runs `sql` in a transaction of its own that commits; returns how many rows it changed."""
    connection = connect()
    try:
        with connection, connection.cursor() as cursor:
            cursor.execute(sql, values)
            return cursor.rowcount
    finally:
        connection.close()


def rows(sql, values=()):
    """Runs `sql` on its own in autocommit; returns its rows."""
    connection = connect()
    connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            cursor.execute(sql, values)
            return cursor.fetchall()
    finally:
        connection.close()


def enqueue(messages):
    """Adds one outbox row per (aggregate id, ordering key) in one transaction, through outbox_enqueue() (ordering
    key None: unordered); returns their ids in that order."""
    connection = connect()
    try:
        with connection, connection.cursor() as cursor:
            ids = []
            for aggregate_id, key in messages:
                cursor.execute(
                    "SELECT outbox_enqueue('test', %s, 'test.happened', %s, '{}', NULL, %s, %s)",
                    (aggregate_id, psycopg2.extras.Json({"aggregate": aggregate_id}), key, key is not None),
                )
                ids.append(cursor.fetchone()[0])
            return ids
    finally:
        connection.close()


def statuses():
    """Each outbox row's (status, attempts), by id, as outbox_messages derives them: a row in the log (stored status
    NULL) is pending, in flight or published by its lane's cursor (migration 0028)."""
    return {row[0]: (row[1], row[2]) for row in rows("SELECT id, status, attempts FROM outbox_messages")}


def key_in_lane_of(prefix, key):
    """An ordering key made of `prefix` and a number that is in the lane of `key`: a claim of rows in the log takes
    one lane's batch (migration 0028), so rows of two keys that one batch is to hold must share a lane."""
    return scalar(
        "SELECT %s || g FROM generate_series(1, 1000) AS g WHERE outbox_lane(%s || g, 0) = outbox_lane(%s, 0) "
        "ORDER BY g LIMIT 1",
        (prefix, prefix, key),
    )


def expire_leases():
    """Ends every lease now, as time would: the lanes' (rows of the log claimed with their lane, migration 0028) and
    the rows' own (rows off the log in flight). Returns how many rows in flight have an expired lease then."""
    execute("UPDATE outbox_lanes SET lease_expires_at = now() - interval '1 s' WHERE claimed_through IS NOT NULL")
    execute("UPDATE outbox SET lease_expires_at = now() - interval '1 s' WHERE status = 'in_flight'")
    return scalar("SELECT count(*) FROM outbox_messages WHERE status = 'in_flight' AND lease_expires_at < now()")


def relay_process(*arguments):
    return subprocess.run([sys.executable, RELAY_SCRIPT, *arguments], capture_output=True, text=True, timeout=60)


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
            cursor.execute(
                "TRUNCATE orders, idempotency_keys, outbox, outbox_attempts, outbox_pauses RESTART IDENTITY CASCADE"
            )
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

    # The reference relay (outbox_relay.py) on the relay's SQL functions.

    def relay(self, name, **options):
        connection = connect()
        self.addCleanup(connection.close)
        return Relay(connection, name, f"{name}-worker", **options)

    def test_the_python_relay_publishes_each_row_once_in_key_order(self):
        # 60 rows over 6 keys, interleaved, and 6 unordered ones; three relays drain them at once, 7 rows a claim,
        # so that a key's rows are spread over claims of different relays.
        messages = [(f"a{i}", f"key-{i % 6}") for i in range(60)] + [(f"u{i}", None) for i in range(6)]
        ids = enqueue(messages)
        key_of = dict(zip(ids, (key for _, key in messages)))
        published = []  # (id, relay), in the order the sinks confirmed them
        lock = threading.Lock()
        errors = []

        def drain(name):
            try:

                def publish(message):
                    with lock:
                        published.append((message.id, name))

                self.relay(name, batch_size=7).drain(publish)
            except Exception as error:  # reported below, with the relay's name
                errors.append(f"{name}: {error!r}")

        threads = [threading.Thread(target=drain, args=(f"relay-{n}",)) for n in range(3)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        self.assertEqual(errors, [])
        published_ids = [message_id for message_id, _ in published]
        self.assertEqual(len(published_ids), len(set(published_ids)), "a row was published twice")
        self.assertEqual(sorted(published_ids), ids)
        for key in {key for _, key in messages if key is not None}:
            in_order = [message_id for message_id in published_ids if key_of[message_id] == key]
            self.assertEqual(in_order, sorted(in_order), f"{key} published out of order")
        self.assertEqual(set(statuses().values()), {("published", 1)})
        self.assertEqual(scalar("SELECT count(*) FROM outbox_attempts"), 0)

    def test_a_failed_row_holds_back_the_later_rows_of_its_key(self):
        a1, a2, a3, a4, b1, b2, b3, u1, u2 = enqueue(
            [("a1", "a"), ("a2", "a"), ("a3", "a"), ("a4", "a"), ("b1", "b"), ("b2", "b"), ("b3", "b")]
            + [("u1", None), ("u2", None)]
        )
        relay = self.relay("failing", backoff=lambda attempt: 60_000)

        def publish(message):
            if message.id == a2:
                raise RuntimeError("broker said no: queue orders.a is full")

        # A claim of rows in the log takes one lane's batch (migration 0028): the relay claims until a claim takes
        # nothing, and the statuses are read right after the batch that held a2.
        result = BatchResult()
        after_a2 = None
        while (batch := relay.relay_batch(publish)).claimed > 0:
            result.add(batch)
            if batch.failed > 0:
                after_a2 = statuses()
        self.assertEqual(
            (result.claimed, result.published, result.failed, result.dead, result.handed_back, result.fenced),
            (9, 6, 1, 0, 2, 0),
        )
        now = statuses()
        self.assertEqual([now[i] for i in (a1, b1, b2, b3, u1, u2)], [("published", 1)] * 6)
        # a3 and a4 were not tried: handed back as they were, their attempt not counted.
        self.assertIsNotNone(after_a2)
        self.assertEqual([after_a2[i] for i in (a2, a3, a4)], [("failed", 1), ("pending", 0), ("pending", 0)])
        self.assertEqual(
            rows(
                "SELECT last_error, next_attempt_at > now() + interval '50 s', lease_owner FROM outbox WHERE id = %s",
                (a2,),
            ),
            [("broker said no: queue orders.a is full", True, None)],
        )
        self.assertEqual(
            rows("SELECT outbox_id, attempt, worker, error FROM outbox_attempts"),
            [(a2, 1, "failing-worker", "broker said no: queue orders.a is full")],
        )
        # Until a2 is due again, a3 and a4 wait behind it: the next claim takes nothing and parks them (or the claims
        # after a2's batch, of the other lanes, did).
        self.assertEqual(relay.relay_batch(publish).claimed, 0)
        self.assertEqual([statuses()[i] for i in (a3, a4)], [("waiting", 0)] * 2)
        # Once a2 is due and published, its key flows again, in order.
        execute("UPDATE outbox SET next_attempt_at = now() WHERE id = %s", (a2,))
        published = []
        totals = relay.drain(lambda message: published.append(message.id))
        self.assertEqual(published, [a2, a3, a4])
        self.assertEqual((totals.published, totals.failed, totals.fenced), (3, 0, 0))
        self.assertEqual([statuses()[i] for i in (a2, a3, a4)], [("published", 2), ("published", 1), ("published", 1)])

    def test_the_last_attempt_leaves_the_row_dead(self):
        c1, c2, d1 = enqueue([("c1", "c"), ("c2", "c"), ("d1", "d")])

        def publish(message):
            if message.id == c1:
                raise ValueError("payload rejected by the schema registry")

        result = self.relay("strict", max_attempts=1).relay_batch(publish)
        self.assertEqual((result.published, result.failed, result.dead, result.handed_back), (1, 1, 1, 1))
        self.assertEqual([statuses()[i] for i in (c1, c2, d1)], [("dead", 1), ("pending", 0), ("published", 1)])
        self.assertEqual(
            scalar("SELECT last_error FROM outbox WHERE id = %s", (c1,)), "payload rejected by the schema registry"
        )
        # A dead row holds its key until an operator retries or discards it.
        self.assertEqual(self.relay("strict", max_attempts=1).relay_batch(publish).claimed, 0)
        self.assertEqual(statuses()[c2], ("waiting", 0))

    def test_a_relay_whose_lease_was_taken_over_changes_nothing(self):
        # Key l's rows in key k's lane, so that one claim takes the six (a claim of rows in the log takes one lane's
        # batch, migration 0028).
        l_key = key_in_lane_of("l", "k")
        k1, k2, k3, l1, l2, l3 = enqueue(
            [("k1", "k"), ("k2", "k"), ("k3", "k"), ("l1", l_key), ("l2", l_key), ("l3", l_key)]
        )
        late = self.relay("late")
        rescuer = self.relay("rescuer")
        by_rescuer = []
        rescued = []

        def publish_late(message):
            if message.id == k1:
                # Relay "late" stalls past its leases (a GC pause, a partition): they expire, and "rescuer" makes the
                # rows due again and publishes them while "late" still has them in hand.
                self.assertEqual(expire_leases(), 6)
                rescued.append(rescuer.rescue())
                rescued.append(rescuer.relay_batch(lambda m: by_rescuer.append(m.id)))
            if message.id == k2:
                raise RuntimeError("too late anyway")

        result = late.relay_batch(publish_late)
        self.assertEqual(rescued[0], 6)
        self.assertEqual((rescued[1].claimed, rescued[1].published, rescued[1].fenced), (6, 6, 0))
        self.assertEqual(by_rescuer, [k1, k2, k3, l1, l2, l3])
        # "late" published k1 and l1..l3, failed k2 and held k3 back, all under tokens that are no longer the rows':
        # none of it counted.
        self.assertEqual(
            (result.claimed, result.published, result.failed, result.handed_back, result.fenced), (6, 0, 0, 0, 6)
        )
        self.assertEqual(set(statuses().values()), {("published", 2)})
        self.assertEqual(
            rows("SELECT DISTINCT worker, error LIKE 'lease of late-worker expired at %%' FROM outbox_attempts"),
            [("rescuer-worker", True)],
        )
        self.assertEqual(scalar("SELECT count(*) FROM outbox_attempts"), 6)

    def test_a_slow_batch_extends_its_leases_and_stops_at_a_lost_one(self):
        # A lease of 1 ms: the relay extends the leases of the rows still to publish before each message after the
        # first (each publish below takes a round trip to the database, longer than half a lease). The rows share an
        # ordering key, so that they are one lane's batch (a claim of rows in the log takes one lane's, migration
        # 0028); none of them fails, so the key holds nothing back.
        ids = enqueue([("x1", "x"), ("x2", "x"), ("x3", "x")])
        leases = []
        slow = self.relay("slow", lease_ms=1)
        result = slow.relay_batch(
            lambda message: leases.append(
                scalar("SELECT lease_expires_at FROM outbox_messages WHERE id = %s", (message.id,))
            )
        )
        self.assertEqual((result.published, result.fenced), (3, 0))
        self.assertTrue(leases[0] < leases[1] < leases[2], leases)
        self.assertEqual([statuses()[i] for i in ids], [("published", 1)] * 3)
        # Its leases are rescued while it publishes the first row: it publishes none of the others.
        y1, y2, y3 = enqueue([("y1", "y"), ("y2", "y"), ("y3", "y")])
        rescuer = self.relay("rescuer")
        published = []

        def publish(message):
            if message.id == y1:
                self.assertEqual(expire_leases(), 3)
                self.assertEqual(rescuer.rescue(), 3)
            published.append(message.id)

        result = slow.relay_batch(publish)
        self.assertEqual(published, [y1])
        self.assertEqual((result.claimed, result.published, result.handed_back, result.fenced), (3, 0, 0, 3))
        self.assertEqual(rescuer.drain(lambda message: None).published, 3)
        self.assertEqual([statuses()[i] for i in (y1, y2, y3)], [("published", 2)] * 3)

    def test_a_stale_lease_token_changes_nothing(self):
        (row,) = enqueue([("s1", None)])
        ((claimed, token),) = rows("SELECT id, lease_token FROM outbox_claim('bare', 'bare-1', 10, 60000)")
        self.assertEqual(claimed, row)
        # The token of the lease before this one: a row of the log is claimed under its lane's fence,
        # -(lease_token * 16 + lane) (migration 0028), whose lease before was token + 16; a row off the log under its
        # own token, whose lease before was token - 1.
        stale = token + 16 if token < 0 else token - 1
        self.assertEqual(rows("SELECT * FROM outbox_complete(%s::bigint[], %s::bigint[])", ([row], [stale])), [])
        self.assertEqual(
            rows(
                "SELECT * FROM outbox_fail('bare-1', %s::bigint[], %s::bigint[], %s::text[], %s::bigint[], 1)",
                ([row], [stale], ["late"], [0]),
            ),
            [],
        )
        self.assertEqual(rows("SELECT outbox_hand_back(%s::bigint[], %s::bigint[])", ([row], [stale])), [(0,)])
        self.assertEqual(rows("SELECT outbox_extend_leases(%s::bigint[], %s::bigint[], 1)", ([row], [stale])), [(0,)])
        self.assertEqual(
            rows("SELECT status, attempts, lease_owner FROM outbox_messages"), [("in_flight", 1, "bare-1")]
        )
        self.assertEqual(
            [r[0] for r in rows("SELECT * FROM outbox_complete(%s::bigint[], %s::bigint[])", ([row], [token]))], [row]
        )
        self.assertEqual(statuses(), {row: ("published", 1)})

    def test_a_paused_relay_claims_nothing_and_says_why(self):
        ids = enqueue([("p1", "p"), ("p2", None)])
        execute("INSERT INTO outbox_pauses (scope, target, reason) VALUES ('relay', 'held', 'consumer migration')")
        held = self.relay("held")
        result = held.relay_batch(lambda message: self.fail("a paused relay published"))
        self.assertEqual((result.claimed, result.paused), (0, (scalar("SELECT session_user"), "consumer migration")))
        self.assertEqual(held.drain(lambda message: self.fail("a paused relay published")).paused, result.paused)
        self.assertEqual(set(statuses().values()), {("pending", 0)})
        # The pause is by name: another relay publishes.
        other = self.relay("other").drain(lambda message: None)
        self.assertEqual((other.published, other.paused), (2, None))
        self.assertEqual(sorted(statuses()), ids)

    def test_the_relay_functions_refuse_bad_input(self):
        def refused(sql, values=()):
            with self.assertRaises(psycopg2.errors.InvalidParameterValue) as raised:
                rows(sql, values)
            return str(raised.exception)

        self.assertIn(
            "2 ids but 1 lease tokens", refused("SELECT * FROM outbox_complete('{1,2}'::bigint[], '{1}'::bigint[])")
        )
        self.assertIn("lease tokens", refused("SELECT outbox_hand_back('{1}'::bigint[], '{}'::bigint[])"))
        self.assertIn("lease tokens", refused("SELECT outbox_extend_leases('{1}'::bigint[], NULL, 1000)"))
        self.assertIn(
            "1 ids but 0 errors and 1 backoffs",
            refused(
                "SELECT * FROM outbox_fail('w', '{1}'::bigint[], '{1}'::bigint[], '{}'::text[], '{5}'::bigint[], 3)"
            ),
        )
        self.assertIn("batch size", refused("SELECT * FROM outbox_claim('r', 'w', 0, 1000)"))

    def test_the_default_backoff_doubles_with_jitter(self):
        # 1 s doubling, capped at 5 min, each times 0.5 to 1.0.
        expected = {1: (500, 1000), 3: (2000, 4000), 9: (128_000, 256_000), 10: (150_000, 300_000)}
        expected[40] = expected[10]
        for attempt, (low, high) in expected.items():
            for _ in range(20):
                self.assertTrue(low <= exponential_backoff(attempt) <= high, attempt)

    def test_the_relay_command_line_publishes_what_python_wrote(self):
        created = [run_handle(CreateOrder(f"py-relayed-{i}", "frank", f"{i}.50")) for i in range(1, 4)]
        self.assertTrue(all(answer.outcome == "created" for answer in created))
        with tempfile.TemporaryDirectory() as directory:
            sink = os.path.join(directory, "published.jsonl")
            first = relay_process("--dsn", DSN, "--name", "py-cli", "--to", sink, "--once")
            self.assertEqual(first.returncode, 0, first.stderr)
            summary = json.loads(first.stdout)
            self.assertEqual((summary["claimed"], summary["published"], summary["fenced"]), (3, 3, 0))
            second = relay_process("--dsn", DSN, "--name", "py-cli", "--to", sink, "--once")
            self.assertEqual(second.returncode, 0, second.stderr)
            self.assertEqual((json.loads(second.stdout)["claimed"], json.loads(second.stdout)["published"]), (0, 0))
            with open(sink, encoding="utf-8") as published:
                messages = [json.loads(line) for line in published]
        self.assertEqual(len(messages), 3)
        # Each order has a key of its own, and keys of different lanes go out in batches of their lanes, in whatever
        # order the claims took the lanes (migration 0028): the file is read in id order.
        messages.sort(key=lambda message: message["id"])
        for number, (message, answer) in enumerate(zip(messages, created), start=1):
            order_id = answer.response["id"]
            self.assertEqual(message["dedupe_key"], f"order.created:{order_id}")
            self.assertEqual((message["event_type"], message["aggregate_type"]), ("order.created", "order"))
            self.assertEqual((message["aggregate_id"], message["ordering_key"]), (str(order_id), f"order:{order_id}"))
            self.assertEqual(message["payload"], answer.response)
            self.assertEqual(message["headers"]["idempotency_key"], f"py-relayed-{number}")
        self.assertEqual(set(statuses().values()), {("published", 1)})

    def test_the_relay_command_line_names_its_problems(self):
        with tempfile.TemporaryDirectory() as directory:
            sink = os.path.join(directory, "published.jsonl")
            unreachable = relay_process("--dsn", "host=127.0.0.1 port=1 connect_timeout=2", "--name", "r", "--to", sink)
            self.assertEqual(unreachable.returncode, 5)
            self.assertIn("cannot connect to the database", unreachable.stderr)
            self.assertEqual(unreachable.stdout, "")
            bad_batch = relay_process("--dsn", DSN, "--name", "r", "--to", sink, "--once", "--batch", "0")
            self.assertEqual(bad_batch.returncode, 2)
            self.assertIn("--batch", bad_batch.stderr)
            no_file = relay_process(
                "--dsn", DSN, "--name", "r", "--to", os.path.join(directory, "no", "such"), "--once"
            )
            self.assertEqual(no_file.returncode, 2)
            self.assertIn("cannot open the sink file", no_file.stderr)

    def test_the_relay_command_line_sleeps_until_woken_and_stops_on_sigterm(self):
        asleep = (
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 1869968482 AND objid = 1 AND granted "
            "AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        )
        with tempfile.TemporaryDirectory() as directory:
            sink = os.path.join(directory, "published.jsonl")
            # A poll of a minute: only the writers' notification can wake it within the deadlines below.
            relay = subprocess.Popen(
                [sys.executable, RELAY_SCRIPT, "--dsn", DSN, "--name", "py-loop", "--to", sink, "--poll-ms", "60000"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            try:
                # Asleep: it holds the due-watch lock, so the next writer notifies.
                self.await_query(f"SELECT EXISTS ({asleep})")
                created = [run_handle(CreateOrder(f"py-woken-{i}", "grace", "1.00")) for i in range(2)]
                self.assertTrue(all(answer.outcome == "created" for answer in created))
                self.await_query("SELECT count(*) = 2 FROM outbox_messages WHERE status = 'published'")
                # Its session ends (a failover, an administrator): it connects again and goes on.
                self.await_query(f"SELECT EXISTS ({asleep})")
                self.assertTrue(scalar(f"SELECT pg_terminate_backend(({asleep}))"))
                self.assertEqual(run_handle(CreateOrder("py-woken-2", "grace", "1.00")).outcome, "created")
                self.await_query("SELECT count(*) = 3 FROM outbox_messages WHERE status = 'published'")
                # SIGTERM ends its sleep at once, not at the poll.
                self.await_query(f"SELECT EXISTS ({asleep})")
                relay.send_signal(signal.SIGTERM)
                out, err = relay.communicate(timeout=30)
            finally:
                if relay.poll() is None:
                    relay.kill()
                    relay.wait()
            self.assertEqual(relay.returncode, 0, err)
            # Said once each, however many tries it took.
            self.assertEqual(err.count("database unavailable, retrying"), 1, err)
            self.assertEqual(err.count("database available again"), 1, err)
            summary = json.loads(out)
            self.assertEqual((summary["published"], summary["failed"], summary["fenced"]), (3, 0, 0))
            with open(sink, encoding="utf-8") as published:
                self.assertEqual(len(published.readlines()), 3)

    def await_query(self, sql, values=(), timeout=20.0):
        """Waits until `sql` returns true, asking again every 20 ms."""
        deadline = time.monotonic() + timeout
        while not scalar(sql, values):
            self.assertLess(time.monotonic(), deadline, f"still false after {timeout} s: {sql}")
            time.sleep(0.02)


if __name__ == "__main__":
    unittest.main(verbosity=2)
