// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/databasetestcase.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

// outbox_error_signature() (migration 0005), the one definition of which failures are "the same": real error texts
// of the relay, the RabbitMQ and file sinks, the network, TLS, JSON parsers and PostgreSQL, with the signature each
// must get. It lives in SQL so that every writer in every language gets the same groups.
class TestErrorSignature final : public DatabaseTestCase {
    Q_OBJECT

public:
    TestErrorSignature()
        : DatabaseTestCase(QStringLiteral("errorsignature"))
    { }

private:
    QString signatureOf(const QString& error)
    {
        return db().scalar(QStringLiteral("SELECT outbox_error_signature(?::text)"), { error }).toString();
    }

private slots:
    void initTestCase() { setUpDatabase(); }
    void cleanupTestCase() { tearDownDatabase(); }

    void signatures_data()
    {
        QTest::addColumn<QString>("error");
        QTest::addColumn<QString>("signature");
        const auto row = [](const char* name, const char* error, const char* signature) {
            QTest::newRow(name) << QString::fromUtf8(error) << QString::fromUtf8(signature);
        };
        // The relay and its sinks, as they write last_error.
        row("injected refusal", "broker unavailable: connection refused (injected fault)",
            "broker unavailable: connection refused (injected fault)");
        row("injected timeout", "publish not confirmed within 5000 ms (injected fault)",
            "publish not confirmed within <duration> (injected fault)");
        row("injected channel close", "channel closed by broker: 406 PRECONDITION_FAILED (injected fault)",
            "channel closed by broker: <n> PRECONDITION_FAILED (injected fault)");
        row("lease rescue", "lease of vm:27762/w1 expired at 2026-12-01 10:50:51.678+00: worker presumed crashed",
            "lease of <host>/w1 expired at <time>: worker presumed crashed");
        row("lease rescue, named relay",
            "lease of relay-db1/w0 expired at 2026-11-30 23:01:02.5+00: worker presumed crashed",
            "lease of relay-db1/w0 expired at <time>: worker presumed crashed");
        row("no result", "the sink returned no result for this message",
            "the sink returned no result for this message");
        row("returned", "returned by the broker: 312 NO_ROUTE (exchange 'orders', routing key 'order.created')",
            "returned by the broker: <n> NO_ROUTE (exchange '<str>', routing key '<str>')");
        // RabbitMQ's default exchange is named ''.
        row("returned, default exchange",
            "returned by the broker: 312 NO_ROUTE (exchange '', routing key 'order.created')",
            "returned by the broker: <n> NO_ROUTE (exchange '<str>', routing key '<str>')");
        row("nack", "the broker refused the message (basic.nack)", "the broker refused the message (basic.nack)");
        row("confirm timeout",
            "waiting for publisher confirms (amqp://relay:***@rabbit.internal:5672/%2f): none within 30000 ms for 37 "
            "of 100 messages",
            "waiting for publisher confirms (<url>): none within <duration> for <n> of <n> messages");
        row("event type too long", "the event type is 300 bytes long; AMQP routing keys hold at most 255",
            "the event type is <n> bytes long; AMQP routing keys hold at most <n>");
        row("headers too large", "the headers are 140213 bytes of JSON; at most 131072 fit in an AMQP frame here",
            "the headers are <n> bytes of JSON; at most <n> fit in an AMQP frame here");
        row("channel closed",
            "publishing (amqp://guest:***@127.0.0.1:5672/): the broker closed the channel: 404 NOT_FOUND - no exchange "
            "'events' in vhost '/'",
            "publishing (<url>): the broker closed the channel: <n> NOT_FOUND - no exchange '<str>' in vhost '<str>'");
        row("connection closed",
            "talking to the broker (amqp://guest:***@10.0.0.7:5672/): the broker closed the connection: 320 "
            "CONNECTION_FORCED - broker forced connection closure with reason 'shutdown'",
            "talking to the broker (<url>): the broker closed the connection: <n> CONNECTION_FORCED - broker forced "
            "connection closure with reason '<str>'");
        row("login refused",
            "logging in as 'relay' to vhost '/' (amqp://relay:***@rabbit:5672/): ACCESS_REFUSED - Login was refused "
            "using authentication mechanism PLAIN",
            "logging in as '<str>' to vhost '<str>' (<url>): ACCESS_REFUSED - Login was refused using authentication "
            "mechanism PLAIN");
        row("unexpected method", "unexpected method 0x000a0032 from the broker",
            "unexpected method <hex> from the broker");
        row("file sink full",
            "cannot write to sink file /var/lib/outbox/events-2026-12-01.jsonl: No space left on device",
            "cannot write to sink file <path>: No space left on device");
        row("file sink permissions", "cannot open sink file /srv/out/events.jsonl: Permission denied",
            "cannot open sink file <path>: Permission denied");
        row("poison message", "cannot encode message: field 'poison' is not allowed",
            "cannot encode message: field '<str>' is not allowed");
        // Brokers and HTTP endpoints behind a sink.
        row("message size", "message size 48213 larger than max 16384", "message size <n> larger than max <n>");
        row("message size, other numbers", "message size 977 larger than max 512",
            "message size <n> larger than max <n>");
        row("kafka", "Broker: Message size too large (MSG_SIZE_TOO_LARGE) for topic orders-7 partition 3",
            "Broker: Message size too large (MSG_SIZE_TOO_LARGE) for topic orders-<n> partition <n>");
        row("http status", "POST https://hooks.example.com/orders/123 returned HTTP 503 after 2.5s",
            "POST <url> returned HTTP <n> after <duration>");
        row("rate limited", "rate limited: retry after 120 seconds (quota 1000/min)",
            "rate limited: retry after <duration> (quota <n>/min)");
        row("request id", "upstream error, request id 7f3c2a1e-04b9-4c1d-9a6e-2f5d8c7b1a90",
            "upstream error, request id <uuid>");
        row("trace hash", "signature mismatch: expected 9f86d081884c7d65 got 2c26b46b68ffc68f",
            "signature mismatch: expected <hex> got <hex>");
        // The network.
        row("refused ipv4", "connect to 10.20.30.40:5672 failed: Connection refused",
            "connect to <host> failed: Connection refused");
        row("refused ipv6", "connect to [2001:db8::17]:5672 failed: Connection refused",
            "connect to <host> failed: Connection refused");
        row("refused host name", "connect to rabbit-2.internal:5672 failed: Connection refused",
            "connect to <host> failed: Connection refused");
        row("dns", "could not resolve host 'rabbit.internal': Name or service not known",
            "could not resolve host '<str>': Name or service not known");
        row("reset", "recv failed: Connection reset by peer (errno 104)",
            "recv failed: Connection reset by peer (errno <n>)");
        row("timeout", "socket timed out after 30000ms", "socket timed out after <duration>");
        // TLS.
        row("certificate expired",
            "TLS handshake with rabbit.internal:5671 failed: certificate has expired (notAfter 2026-11-30T00:00:00Z)",
            "TLS handshake with <host> failed: certificate has expired (notAfter <time>)");
        row("x509", "x509: certificate signed by unknown authority (serial 0x4f2a91)",
            "x509: certificate signed by unknown authority (serial <hex>)");
        row("tls version", "TLSv1.3 alert 42: bad certificate", "TLSv1.3 alert <n>: bad certificate");
        // JSON.
        row("json offset", "invalid JSON at offset 1432: unterminated string",
            "invalid JSON at offset <n>: unterminated string");
        row("json field", "payload field \"amount\" must be a number, got \"12,50\"",
            "payload field \"<str>\" must be a number, got \"<str>\"");
        row("json line column", "Unexpected token } in JSON at position 88 (line 3 column 14)",
            "Unexpected token } in JSON at position <n> (line <n> column <n>)");
        // PostgreSQL, as a consumer or a sink backed by a database reports it.
        row("unique violation", "duplicate key value violates unique constraint \"orders_pkey\"",
            "duplicate key value violates unique constraint \"<str>\"");
        row("serialization", "could not serialize access due to concurrent update",
            "could not serialize access due to concurrent update");
        row("deadlock",
            "deadlock detected: process 48213 waits for ShareLock on transaction 977; blocked by process 4410",
            "deadlock detected: process <n> waits for ShareLock on transaction <n>; blocked by process <n>");
        row("relation", "relation \"customer_order_counts\" does not exist", "relation \"<str>\" does not exist");
        row("server closed", "server closed the connection unexpectedly", "server closed the connection unexpectedly");
        // Shapes.
        row("only the first line", "first line 12\nsecond line with 99", "first line <n>");
        row("white space folded", "  too   many\tspaces  ", "too many spaces");
        row("apostrophe is no quote", "can't parse 'foo' at offset 12", "can't parse '<str>' at offset <n>");
        row("decimal", "amount 12.50 exceeds 1000000.00", "amount <n> exceeds <n>");
        row("words with digits stay", "utf8 decoding of x509 field failed in amqp091",
            "utf8 decoding of x509 field failed in amqp091");
        row("empty", "", "");
    }

    void signatures()
    {
        QFETCH(QString, error);
        QFETCH(QString, signature);
        QCOMPARE(signatureOf(error), signature);
    }

    // Pure: the same text, the same signature; and a signature is its own signature (applying it twice changes
    // nothing, so signing a row again after a backfill is harmless).
    void signingIsStable()
    {
        const QString error = QStringLiteral("connect to 10.20.30.40:5672 failed after 3 attempts in 1500 ms");
        const QString once = signatureOf(error);
        QCOMPARE(signatureOf(error), once);
        QCOMPARE(signatureOf(once), once);
        QVERIFY(db().scalar(QStringLiteral("SELECT outbox_error_signature(NULL) IS NULL")).toBool());
        QCOMPARE(db().scalar(QStringLiteral("SELECT length(outbox_error_signature(repeat('x', 5000)))")).toInt(), 300);
        // A failure group's id, what an operator types after --signature: short hex, the same for the same
        // signature, another for another (what it is computed from is the function's business).
        const auto idOf = [this](const QString& signature) {
            return db().scalar(QStringLiteral("SELECT outbox_signature_id(?::text)"), { signature }).toString();
        };
        const QString id = idOf(QStringLiteral("message size <n> larger than max <n>"));
        QVERIFY2(QRegularExpression(QStringLiteral("^[0-9a-f]{12}$")).match(id).hasMatch(), qPrintable(id));
        QCOMPARE(idOf(QStringLiteral("message size <n> larger than max <n>")), id);
        QVERIFY(idOf(QStringLiteral("message size <n> smaller than min <n>")) != id);
    }

    // Signing a signature changes nothing (migrations 0015 and 0016), also for the texts
    // tests/fuzz/fuzz_errorsignature found that earlier rules changed again: a number before an apostrophe (which,
    // once "<n>'", opened a literal), the cut at 300 characters ending in a blank or inside a word ("5x" cut to
    // "5", then "<n>"), and a text without blanks cut inside a word after a sign ("*3333xp" cut to "*33").
    void signatureIsAFixedPoint_data()
    {
        QTest::addColumn<QString>("error");
        QTest::newRow("relay error") << QStringLiteral("publish not confirmed within 5000 ms (injected fault)");
        QTest::newRow("literals") << QStringLiteral("no exchange 'events' in vhost '/' at 10.0.0.7:5672");
        QTest::newRow("number before an apostrophe") << QStringLiteral("returned by broker: 8'> NO_ROUTE (exchange')");
        QTest::newRow("quotes after quotes") << QStringLiteral("'''a' and ''' b'");
        QTest::newRow("cut before a blank") << QString(299, QLatin1Char('a')) + QStringLiteral(" b");
        QTest::newRow("cut inside a word") << QString(298, QLatin1Char('a')) + QStringLiteral(" 5x");
        QTest::newRow("one long word") << QString(400, QLatin1Char('a'));
        QTest::newRow("no blank, cut inside a word after a sign")
            << QString(290, QLatin1Char('~')) + QStringLiteral("*3333333333333333xp");
        QTest::newRow("one run, digits at the cut") << QString(300, QLatin1Char('9')) + QStringLiteral("x");
        QTest::newRow("one run, a duration at the cut") << QString(299, QLatin1Char('9')) + QStringLiteral("sx");
        QTest::newRow("one run, hex at the cut")
            << QString(286, QLatin1Char('y')) + QStringLiteral(".deadbeef12345") + QString(50, QLatin1Char('z'));
    }

    void signatureIsAFixedPoint()
    {
        QFETCH(QString, error);
        const QString once = signatureOf(error);
        QVERIFY(once.size() <= 300);
        QCOMPARE(signatureOf(once), once);
    }

    // A text longer than 300 characters is cut after its last whole word; without a blank, where its last run of
    // letters, digits, '_' and '.' within the 300 ends; a text that is one such run is cut at 300 and signed again.
    void aLongTextIsCutAtAWord()
    {
        QCOMPARE(signatureOf(QStringLiteral("word ").repeated(70)), QStringLiteral("word ").repeated(60).trimmed());
        QCOMPARE(signatureOf(QString(298, QLatin1Char('a')) + QStringLiteral(" 5x")), QString(298, QLatin1Char('a')));
        QCOMPARE(signatureOf(QString(400, QLatin1Char('a'))), QString(300, QLatin1Char('a')));
        QCOMPARE(signatureOf(QString(290, QLatin1Char('~')) + QStringLiteral("*3333333333333333xp")),
            QString(290, QLatin1Char('~')) + QStringLiteral("*"));
        QCOMPARE(signatureOf(QString(299, QLatin1Char('~')) + QStringLiteral("-x")),
            QString(299, QLatin1Char('~')) + QStringLiteral("-"));
        QCOMPARE(signatureOf(QString(300, QLatin1Char('9')) + QStringLiteral("x")), QStringLiteral("<n>"));
    }

    // A migration that changes the signature (the newest, 0016) signs the failed and dead rows again, and their
    // failure group's counts follow.
    void theMigrationSignsTheFailedRowsAgain()
    {
        const QString error = QStringLiteral("'''a' refused");
        db().exec(QStringLiteral("INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                                 "status, attempts, last_error) VALUES ('order', '1', 'order.created', '{}', 'resign', "
                                 "'dead', 1, ?::text)"),
            { error });
        // As migration 0005's rule signed it (its quote rule took the first two quotes for a literal's start).
        const QString before = QStringLiteral("''<str>'a' refused");
        QVERIFY(signatureOf(error) != before);
        db().exec(QStringLiteral("UPDATE outbox SET error_signature = ?::text"), { before });
        QFile migration(QStringLiteral(":/sql/migrations/0016_signature_cut_without_blanks.sql"));
        QVERIFY(migration.open(QIODevice::ReadOnly));
        session().execScript(QString::fromUtf8(migration.readAll()), QStringLiteral("applying migration 0016 again"));
        QCOMPARE(db().scalar(QStringLiteral("SELECT error_signature FROM outbox")).toString(), signatureOf(error));
        const QString deadOf = QStringLiteral("SELECT coalesce(sum(dead), 0) FROM outbox_failure_group_sizes() "
                                              "WHERE signature = ?::text");
        QCOMPARE(db().scalar(deadOf, { signatureOf(error) }).toLongLong(), 1LL);
        QCOMPARE(db().scalar(deadOf, { before }).toLongLong(), 0LL);
    }
};

QTEST_GUILESS_MAIN(TestErrorSignature)
#include "tst_errorsignature.moc"
