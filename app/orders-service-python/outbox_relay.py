#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A reference outbox relay in Python: the relay's side of the contract through the SQL functions alone.

For an engineer writing a relay in another language: every rule (which rows are due, ordering keys, pauses, leases
and their fencing tokens, retries, dead rows) lives in the SQL functions of resources/sql/schema/05_relay.sql, which
outbox-relay calls too; this file shows the order to call them in, and what to do between the calls. docs/sql-api.md,
"Writing a relay", describes the protocol. Needs Debian's python3-psycopg2 and nothing else.

One batch (Relay.relay_batch):

    SELECT ... FROM outbox_claim(relay, worker, batch_size, lease_ms)   -- autocommit: it commits on its own
    publish the rows in id order; after a row of an ordering key fails, not the later rows of that key
    BEGIN
    SELECT ... FROM outbox_complete(published ids, their lease tokens)
    SELECT ... FROM outbox_fail(worker, failed ids, tokens, errors, backoffs, max_attempts)
    SELECT outbox_hand_back(ids held back, tokens)
    COMMIT

A batch still publishing after half its lease extends the leases of its rows not yet published
(outbox_extend_leases), and every relay now and then makes the rows of relays that died due again
(outbox_rescue_expired).

Delivery is at least once: a relay that dies between a publish and the commit leaves its rows in flight until their
lease expires; outbox_rescue_expired() makes them due again, and they are published a second time. Consumers drop
the duplicates by dedupe_key.

As a command line, appending each message as one JSON line to a file:

    outbox_relay.py --dsn "dbname=orders" --name py-relay --to published.jsonl [--once]
        [--batch 100] [--lease-ms 30000] [--max-attempts 10] [--poll-ms 1000]

With --once it rescues expired leases, publishes until nothing is due and exits; without it, it keeps relaying,
sleeping while nothing is due, until SIGTERM or SIGINT, which let the batch in hand finish; it connects again when
it loses its database (1 s, doubling up to 30 s), where --once exits. Either way it prints a one-line JSON summary
on stdout at the end. Exit codes, those of outboxctl (and orders_service.py):

    0  success
    1  unexpected error
    2  bad usage: an unknown option, a bad number, a sink file that cannot be opened
    5  cannot connect: server unreachable, authentication failed, invalid connection string
    6  schema missing or too old: the relay functions (migration 0027) are not there
    7  permission denied
"""

import argparse
import json
import os
import random
import select
import signal
import socket
import sys
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from typing import Callable, Optional, Tuple

try:
    import psycopg2
    import psycopg2.errors
except ImportError:  # the message an operator needs, not a traceback
    sys.exit("outbox_relay.py needs psycopg2: apt-get install python3-psycopg2")

# The due-watch lock (migration 0012): a sleeping relay holds it, and a writer that cannot take it in shared mode
# knows that some relay sleeps and notifies the channel outbox_due at its commit.
DUE_WATCH_LOCK = (1869968482, 1)
RESCUE_BATCH = 1000
# A completion that deadlocks with another relay's claim is rolled back whole while its publishes stand: settling
# again at once beats leaving the rows to their lease's expiry, which would publish them twice.
SETTLE_ATTEMPTS = 3


@dataclass(frozen=True)
class Message:
    """A claimed outbox row, as publish() receives it."""

    id: int
    aggregate_type: str
    aggregate_id: str
    event_type: str
    dedupe_key: str  # the message's identity: consumers drop a second delivery by it
    # The JSON documents as the database renders them (one line): forward them as they are, so that every JSON value
    # arrives unchanged (json.loads would turn 1.0000000000000000001 into 1.0).
    payload: str
    headers: str
    attempt: int  # 1 on the first try
    created_at: datetime
    ordering_key: Optional[str]  # rows of one key are published in id order; None: unordered


@dataclass
class BatchResult:
    claimed: int = 0
    published: int = 0
    failed: int = 0  # failures recorded, the dead ones included
    dead: int = 0
    handed_back: int = 0  # not tried (an older row of their key failed), not charged an attempt
    fenced: int = 0  # rows whose lease another relay took over meanwhile: what we did with them did not count
    rescued: int = 0  # expired leases of other relays made due again (drain and run only)
    paused: Optional[Tuple[str, str]] = None  # (paused_by, reason) when the relay's name is paused

    def add(self, other: "BatchResult") -> None:
        for name in ("claimed", "published", "failed", "dead", "handed_back", "fenced", "rescued"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.paused = other.paused


def exponential_backoff(attempt: int) -> int:
    """Milliseconds before the next try after the attempt-th failure: 1 s doubling up to 5 min, times 0.5 to 1.0 so
    that the rows a broker outage failed together do not all come back in the same instant."""
    return int(min(300_000, 1000 * 2 ** min(attempt - 1, 20)) * random.uniform(0.5, 1.0))


Publish = Callable[[Message], None]  # returns when the sink confirmed the message; raises when it did not


def transaction_pooled(connection) -> bool:
    """Whether `connection` goes through a transaction pooler, where nothing of a server session outlasts a
    transaction: the server process serving it is not the one libpq was told of at connect (a pooler answers the
    connect itself). OUTBOX_POOLING=transaction or none says so where it cannot be told, as for the C++ programs."""
    chosen = os.environ.get("OUTBOX_POOLING", "detect").strip().lower() or "detect"
    if chosen not in ("detect", "transaction", "none"):
        raise ValueError(f"invalid OUTBOX_POOLING '{chosen}': expected detect, transaction or none")
    if chosen != "detect":
        return chosen == "transaction"
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0] != connection.info.backend_pid


class Relay:
    """One relay worker on one connection. The relay's name is what an operator pauses (outboxctl pause); the worker
    names the lease owner and the attempts it records, and should be unique per process."""

    def __init__(
        self,
        connection,
        name: str,
        worker: str,
        batch_size: int = 100,
        lease_ms: int = 30000,
        max_attempts: int = 10,
        backoff: Callable[[int], int] = exponential_backoff,
    ):
        self.connection = connection
        # Autocommit: the claim must be committed, its leases visible to every other relay, before anything is
        # published; the settlement opens a transaction of its own (_settle()).
        self.connection.autocommit = True
        self.name = name
        self.worker = worker
        self.batch_size = batch_size
        self.lease_ms = lease_ms
        self.max_attempts = max_attempts
        self.backoff = backoff
        self.stopping = False  # set by stop(): drain() and run() end after the batch in hand
        self._listening = False
        self._idle_ms = 1
        self.pooled = transaction_pooled(connection)

    def _query(self, sql: str, values=()) -> list:
        with self.connection.cursor() as cursor:
            cursor.execute(sql, values)
            return cursor.fetchall() if cursor.description else []

    def relay_batch(self, publish: Publish) -> BatchResult:
        """Claims up to batch_size due rows, publishes them and settles each; see the module's docstring."""
        rows = self._query(
            "SELECT id, lease_token, aggregate_type, aggregate_id, event_type, dedupe_key, payload::text, "
            "headers::text, attempt, created_at, ordering_key FROM outbox_claim(%s, %s, %s::int, %s::bigint)",
            (self.name, self.worker, self.batch_size, self.lease_ms),
        )
        result = BatchResult(claimed=len(rows))
        if not rows:
            # Asked only when the claim took nothing: a paused relay claims nothing, and should say why.
            pause = self._query("SELECT paused_by, reason FROM outbox_relay_pause(%s)", (self.name,))
            result.paused = tuple(pause[0]) if pause else None
            return result
        claimed = [(Message(row[0], *row[2:]), row[1]) for row in rows]  # (message, lease token), in id order

        published, failed, held_back = [], [], []
        stopped_keys = set()  # ordering keys with a failed row in this batch: their later rows wait for it
        lease_lost = False
        extend_at = time.monotonic() + self.lease_ms / 2000.0
        for index, (message, token) in enumerate(claimed):
            if not lease_lost and time.monotonic() >= extend_at:
                # A slow sink: keep the leases of the rows not yet published, or another relay rescues them and
                # publishes them too. A row whose lease was already rescued is not extended; we publish none of the
                # rest then, as the new owner will.
                rest = claimed[index:]
                kept = self._query(
                    "SELECT outbox_extend_leases(%s::bigint[], %s::bigint[], %s::bigint)",
                    ([m.id for m, _ in rest], [t for _, t in rest], self.lease_ms),
                )[0][0]
                lease_lost = kept < len(rest)
                extend_at = time.monotonic() + self.lease_ms / 2000.0
            if lease_lost or message.ordering_key in stopped_keys:
                held_back.append((message, token))
                continue
            try:
                publish(message)
            except Exception as error:  # the sink refused this message; anything else (KeyboardInterrupt) escapes
                failed.append((message, token, str(error) or type(error).__name__))
                if message.ordering_key is not None:
                    stopped_keys.add(message.ordering_key)
                continue
            published.append((message, token))

        self._settle(result, published, failed, held_back)
        result.fenced = result.claimed - result.published - result.failed - result.handed_back
        return result

    def _settle(self, result: BatchResult, published: list, failed: list, held_back: list) -> None:
        """Records the batch's outcomes in one transaction. Each function changes only the rows still in flight under
        the token we claimed them with, and returns or counts those: a row rescued and claimed by another relay
        meanwhile is left to it, and counted as fenced."""
        for attempt in range(1, SETTLE_ATTEMPTS + 1):
            with self.connection.cursor() as cursor:
                cursor.execute("BEGIN")
                try:
                    done, failures, handed_back = [], [], 0
                    if published:
                        cursor.execute(
                            "SELECT id, latency_ms FROM outbox_complete(%s::bigint[], %s::bigint[])",
                            ([m.id for m, _ in published], [t for _, t in published]),
                        )
                        done = cursor.fetchall()
                    if failed:
                        cursor.execute(
                            "SELECT id, dead, event_type FROM outbox_fail(%s, %s::bigint[], %s::bigint[], %s::text[], "
                            "%s::bigint[], %s::int)",
                            (
                                self.worker,
                                [m.id for m, _, _ in failed],
                                [t for _, t, _ in failed],
                                [e for _, _, e in failed],
                                [self.backoff(m.attempt) for m, _, _ in failed],
                                self.max_attempts,
                            ),
                        )
                        failures = cursor.fetchall()
                    if held_back:
                        cursor.execute(
                            "SELECT outbox_hand_back(%s::bigint[], %s::bigint[])",
                            ([m.id for m, _ in held_back], [t for _, t in held_back]),
                        )
                        handed_back = cursor.fetchone()[0]
                    cursor.execute("COMMIT")
                except (psycopg2.errors.DeadlockDetected, psycopg2.errors.SerializationFailure):
                    cursor.execute("ROLLBACK")
                    if attempt == SETTLE_ATTEMPTS:
                        raise
                    continue
                except BaseException:
                    self._roll_back(cursor)
                    raise
            result.published = len(done)
            result.failed = len(failures)
            result.dead = sum(1 for _, is_dead, _ in failures if is_dead)
            result.handed_back = handed_back
            return

    def _roll_back(self, cursor) -> None:
        try:
            cursor.execute("ROLLBACK")  # autocommit: psycopg2's rollback() would send nothing
        except psycopg2.Error:
            pass  # the connection is gone, and the transaction with it

    def rescue(self) -> int:
        """Makes the rows of relays that died due again (failed, or dead after max_attempts): those in flight whose
        lease expired. One statement, so its own transaction. Returns how many rows it rescued."""
        return len(
            self._query(
                "SELECT id, dead, event_type FROM outbox_rescue_expired(%s, %s::int, %s::int)",
                (self.worker, self.max_attempts, RESCUE_BATCH),
            )
        )

    def drain(self, publish: Publish) -> BatchResult:
        """Rescues expired leases, then relays batches until nothing is due (or stop() was called, or the relay is
        paused). Returns the totals."""
        totals = BatchResult(rescued=self.rescue())
        held_since = None
        recheck_ms = 1
        while not self.stopping:
            batch = self.relay_batch(publish)
            totals.add(batch)
            if batch.claimed > 0:
                held_since, recheck_ms = None, 1
                continue
            if batch.paused is not None or self._query("SELECT outbox_next_due_ms()")[0][0] != 0:
                break  # nothing is due now
            # Rows are due, yet the claim took none: other relays hold them (rows of their key in flight, or their
            # claim running right now). Those finish soon, or their leases expire and the rescue makes the rows
            # due again: look again, soon and then less often, for up to twice a lease.
            if held_since is None:
                held_since = time.monotonic()
            elif time.monotonic() - held_since > 2 * self.lease_ms / 1000.0:
                break
            time.sleep(recheck_ms / 1000.0)
            recheck_ms = min(recheck_ms * 2, 1000)
            totals.rescued += self.rescue()
        return totals

    def run(self, publish: Publish, poll_ms: int = 1000, wake_fd: Optional[int] = None, totals=None) -> BatchResult:
        """Relays until stop(): batches while rows are claimed, a sleep (wait_for_due) when none is; rescues expired
        leases every lease_ms / 2. `wake_fd` readable ends a sleep at once (signal.set_wakeup_fd's pipe). Adds to
        `totals`, if given, as it goes, so that they survive a lost connection."""
        totals = BatchResult() if totals is None else totals
        rescue_at = 0.0
        while not self.stopping:
            if time.monotonic() >= rescue_at:
                totals.rescued += self.rescue()
                rescue_at = time.monotonic() + self.lease_ms / 2000.0
            batch = self.relay_batch(publish)
            totals.add(batch)
            if batch.claimed > 0:
                self._idle_ms = 1
            elif not self.stopping:
                self.wait_for_due(poll_ms, batch.paused is not None, wake_fd)
        return totals

    def wait_for_due(self, poll_ms: int, paused: bool = False, wake_fd: Optional[int] = None) -> None:
        """Sleeps until a row may be due: woken by a writer's notification on outbox_due, at the earliest
        next_attempt_at, and after poll_ms at the latest (a notification lost with a connection costs no more)."""
        if paused:  # new rows change nothing: look again at the poll
            self._sleep(poll_ms, wake_fd)
            return
        if self.pooled:
            # Behind a transaction pooler a LISTEN and a session lock would stay on a server session that other
            # clients get: the poll, and the earliest next_attempt_at, are all there is.
            due_ms = self._query("SELECT outbox_next_due_ms()")[0][0]
            self._sleep(poll_ms if due_ms is None else max(1, min(due_ms, poll_ms)), wake_fd)
            return
        if not self._listening:
            self._query("LISTEN outbox_due")
            self._listening = True
        locked = self._query("SELECT pg_try_advisory_lock(%s, %s)", DUE_WATCH_LOCK)[0][0]
        try:
            del self.connection.notifies[:]  # those that came while we were busy: that claim saw their rows
            # After taking the lock: every writer that held it in shared mode has committed, so this sees its rows.
            due_ms = self._query("SELECT outbox_next_due_ms()")[0][0]
            if self.connection.notifies:
                return
            timeout_ms = poll_ms if due_ms is None else min(due_ms, poll_ms)
            if due_ms == 0 or not locked:
                # A row is due that the claim could not take (another relay's claim holds it, or it waits behind a
                # row of its key in flight); or writers hold the lock right now, or another relay sleeps on it (its
                # writers notify us too). Look again soon, backing off: 1 ms doubling up to the poll.
                timeout_ms = self._idle_ms if due_ms == 0 else min(timeout_ms, self._idle_ms)
                self._idle_ms = min(self._idle_ms * 2, poll_ms)
            self._sleep(timeout_ms, wake_fd)
        finally:
            if locked and not self.connection.closed:
                # Awake: a busy relay must not make the writers notify.
                self._query("SELECT pg_advisory_unlock(%s, %s)", DUE_WATCH_LOCK)

    def _sleep(self, timeout_ms: int, wake_fd: Optional[int]) -> None:
        watched = [self.connection] + ([wake_fd] if wake_fd is not None else [])
        readable, _, _ = select.select(watched, [], [], timeout_ms / 1000.0)
        if self.connection in readable:
            self.connection.poll()  # reads the notifications; their payloads do not matter
            del self.connection.notifies[:]
        if wake_fd in readable:
            try:
                os.read(wake_fd, 512)
            except BlockingIOError:
                pass

    def reconnect(self, connection) -> None:
        """Goes on with a new connection after the last one was lost."""
        self.connection = connection
        self.connection.autocommit = True
        self._listening = False
        self.pooled = transaction_pooled(connection)

    def stop(self) -> None:
        """Ends drain() or run() after the batch in hand: safe to call from a signal handler."""
        self.stopping = True


class JsonLinesFile:
    """The sink of the command line: appends each message as one JSON line to a file, and fsyncs it before
    returning, so that a message the relay marks published is on disk. One write() per line on an O_APPEND
    descriptor: relays appending to the same file never interleave their lines. The fsync per message keeps the
    example simple; a sink that confirms batches (a broker's publisher confirms) would confirm the whole batch once
    before the settlement."""

    def __init__(self, path: str):
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)

    def __call__(self, message: Message) -> None:
        envelope = {
            "id": message.id,
            "dedupe_key": message.dedupe_key,
            "event_type": message.event_type,
            "aggregate_type": message.aggregate_type,
            "aggregate_id": message.aggregate_id,
            "ordering_key": message.ordering_key,
            "attempt": message.attempt,
            "created_at": message.created_at.astimezone(timezone.utc).isoformat(timespec="milliseconds")[:-6] + "Z",
        }
        # outbox-relay's file sink writes the same line: the envelope, then headers and payload spliced in as text.
        line = json.dumps(envelope, separators=(",", ":"), ensure_ascii=False)[:-1]
        line += f',"headers":{message.headers},"payload":{message.payload}}}\n'
        data = line.encode("utf-8")
        if os.write(self.fd, data) != len(data):
            raise OSError(f"short write to the sink file ({len(data)} bytes)")
        os.fsync(self.fd)

    def close(self) -> None:
        os.close(self.fd)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not at least 1")
    return value


def _fail(message: str, code: int) -> int:
    print(f"outbox_relay.py: {message}", file=sys.stderr)
    return code


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="A reference outbox relay in Python, on the SQL API.")
    parser.add_argument("--dsn", default="", help="libpq connection string (default: the PG* environment)")
    parser.add_argument("--name", required=True, help="the relay's name, which an operator pauses")
    parser.add_argument("--to", required=True, metavar="FILE", help="append each message as one JSON line to FILE")
    parser.add_argument("--batch", type=_positive, default=100, help="rows per claim (default 100)")
    parser.add_argument("--lease-ms", type=_positive, default=30000, help="lease of a claimed row (default 30000)")
    parser.add_argument("--max-attempts", type=_positive, default=10, help="attempts before a row is dead")
    parser.add_argument("--poll-ms", type=_positive, default=1000, help="longest sleep while nothing is due")
    parser.add_argument("--once", action="store_true", help="publish until nothing is due, then exit")
    arguments = parser.parse_args(argv)

    try:
        sink = JsonLinesFile(arguments.to)
    except OSError as error:
        return _fail(f"cannot open the sink file {arguments.to}: {error.strerror}", 2)
    try:
        connection = psycopg2.connect(arguments.dsn)
    except psycopg2.Error as error:  # unreachable, refused, or a connection string libpq cannot parse
        return _fail(f"cannot connect to the database: {str(error).strip()}", 5)
    try:
        relay = Relay(
            connection,
            arguments.name,
            f"{arguments.name}@{socket.gethostname()}:{os.getpid()}",
            arguments.batch,
            arguments.lease_ms,
            arguments.max_attempts,
        )
    except ValueError as error:
        return _fail(str(error), 2)
    if relay.pooled and not arguments.once:
        print(
            f"outbox_relay.py: connected through a transaction pooler, so it polls for due rows every "
            f"{arguments.poll_ms} ms instead of being woken on commit (LISTEN and the due-watch lock need a session "
            f"of their own: a direct connection, or a session-mode pool with OUTBOX_POOLING=none)",
            file=sys.stderr,
        )
    # SIGTERM and SIGINT end the relay after the batch in hand: its rows settled, none left to a lease's expiry.
    # The wake-up pipe ends a sleep at once.
    wake_read, wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
    signal.set_wakeup_fd(wake_write)
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: relay.stop())
    totals = BatchResult()
    try:
        while True:
            try:
                if arguments.once:
                    totals = relay.drain(sink)
                else:
                    relay.run(sink, arguments.poll_ms, wake_read, totals)
                break
            except psycopg2.errors.UndefinedFunction as error:
                return _fail(f"the database has no relay functions, run outboxctl migrate: {str(error).strip()}", 6)
            except psycopg2.errors.InsufficientPrivilege as error:
                return _fail(f"permission denied: {str(error).strip()}", 7)
            except (psycopg2.OperationalError, psycopg2.InterfaceError) as error:
                # The rows in flight stay so until their lease expires and a relay rescues them: published again,
                # never lost. A relay that keeps running comes back by itself once the database does.
                if arguments.once:
                    return _fail(f"lost the database: {str(error).strip()}", 5)
                relay.connection.close()
                # Said once, and once more when it is back: a log line per retry would bury everything else.
                print(f"outbox_relay.py: database unavailable, retrying: {str(error).strip()}", file=sys.stderr)
                reconnect_s = 1.0
                while not relay.stopping:
                    select.select([wake_read], [], [], reconnect_s)
                    try:
                        relay.reconnect(psycopg2.connect(arguments.dsn))
                        print("outbox_relay.py: database available again", file=sys.stderr)
                        break
                    except psycopg2.OperationalError:
                        reconnect_s = min(reconnect_s * 2, 30.0)
    finally:
        relay.connection.close()
        sink.close()
    summary = asdict(totals)
    summary["paused"] = dict(zip(("paused_by", "reason"), totals.paused)) if totals.paused else None
    print(json.dumps(summary, sort_keys=True, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
