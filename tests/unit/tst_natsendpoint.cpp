// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/natsendpoint.h"
#include "common/sinkspec.h"
#include "db/outboxerror.h"

#include <QTest>

// How a NATS URI (the relay's --sink nats://…) is read, how bad ones are refused, and which subjects it publishes on.
class TestNatsEndpoint final : public QObject {
    Q_OBJECT

    static QString refusal(const QString& uri)
    {
        try {
            NatsEndpoint::parse(uri);
        } catch (const OutboxError& error) {
            return error.kind() == OutboxError::Kind::InvalidInput ? error.message() : QStringLiteral("wrong kind");
        }
        return {};
    }

private slots:
    void parsesEveryPart()
    {
        const NatsEndpoint endpoint = NatsEndpoint::parse(
            QStringLiteral("nats://app:s%40cret@n1:4223,n2,[::1]:4225/?subject_prefix=orders.eu&ack_timeout_ms=800"));
        QCOMPARE(endpoint.nodes.size(), 3);
        QCOMPARE(endpoint.nodes.at(0).display(), QStringLiteral("n1:4223"));
        QCOMPARE(endpoint.nodes.at(1).display(), QStringLiteral("n2:4222"));
        QCOMPARE(endpoint.nodes.at(2).display(), QStringLiteral("[::1]:4225"));
        QCOMPARE(endpoint.user, QStringLiteral("app"));
        QCOMPARE(endpoint.password, QStringLiteral("s@cret"));
        QCOMPARE(endpoint.subjectPrefix, QStringLiteral("orders.eu"));
        QCOMPARE(endpoint.ackTimeoutMs, 800);
        QCOMPARE(endpoint.subjectFor(QStringLiteral("order.created")), QStringLiteral("orders.eu.order.created"));
        QCOMPARE(endpoint.subjects(), QStringLiteral("orders.eu.>"));
        QCOMPARE(endpoint.serverUrls(),
            QStringList({ QStringLiteral("nats://n1:4223"), QStringLiteral("nats://n2:4222"),
                QStringLiteral("nats://[::1]:4225") }));
        QVERIFY(!endpoint.display().contains(QLatin1String("cret")));
        QVERIFY(endpoint.display().startsWith(QLatin1String("nats://app@n1:4223,n2:4222,[::1]:4225/?")));
    }

    void defaults()
    {
        const NatsEndpoint endpoint = NatsEndpoint::parse(QStringLiteral("NATS://"));
        QCOMPARE(endpoint.nodes.size(), 1);
        QCOMPARE(endpoint.nodes.first().display(), QStringLiteral("localhost:4222"));
        QVERIFY(endpoint.user.isEmpty());
        QCOMPARE(endpoint.ackTimeoutMs, NatsEndpoint::DefaultAckTimeoutMs);
        QCOMPARE(endpoint.display(), QStringLiteral("nats://localhost:4222/"));
    }

    // A token (user info without a password) is sent as one and never shown; a raw '?' in a password is refused
    // without showing any of it.
    void keepsSecretsOut()
    {
        const NatsEndpoint token = NatsEndpoint::parse(QStringLiteral("nats://s3cr3t@h1,h2/?subject_prefix=o"));
        QCOMPARE(token.user, QStringLiteral("s3cr3t"));
        QVERIFY(token.password.isEmpty());
        QCOMPARE(token.display(), QStringLiteral("nats://***@h1:4222,h2:4222/?subject_prefix=o"));
        QCOMPARE(SinkSpec::describe(QStringLiteral("nats://s3cr3t@h1/?subject_prefix=o")),
            QStringLiteral("nats://***@h1/?subject_prefix=o"));
        const QString message = refusal(QStringLiteral("nats://u:12?secret@h/?subject_prefix=o"));
        QVERIFY2(message.contains(QLatin1String("percent-encode")) && !message.contains(QLatin1String("secret")),
            qPrintable(message));
    }

    void refusesBadUris_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("expected");
        QTest::newRow("scheme") << QStringLiteral("tls://h") << QStringLiteral("the scheme must be nats://");
        QTest::newRow("stray comma") << QStringLiteral("nats://a,,b/") << QStringLiteral("stray comma");
        QTest::newRow("node twice") << QStringLiteral("nats://a:1,a:1/") << QStringLiteral("named twice");
        QTest::newRow("port") << QStringLiteral("nats://a:0/") << QStringLiteral("port must be from 1");
        QTest::newRow("path") << QStringLiteral("nats://a/x?subject_prefix=p") << QStringLiteral("has no path");
        QTest::newRow("wildcard prefix") << QStringLiteral("nats://a/?subject_prefix=orders.*")
                                         << QStringLiteral("wildcard token");
        QTest::newRow("empty token") << QStringLiteral("nats://a/?subject_prefix=orders.")
                                     << QStringLiteral("empty token");
        QTest::newRow("space") << QStringLiteral("nats://a/?subject_prefix=my%20orders")
                               << QStringLiteral("white space");
        QTest::newRow("timeout") << QStringLiteral("nats://a/?ack_timeout_ms=50") << QStringLiteral("ack_timeout_ms");
        QTest::newRow("unknown") << QStringLiteral("nats://a/?exchange=x")
                                 << QStringLiteral("unknown parameter 'exchange'");
    }
    void refusesBadUris()
    {
        QFETCH(QString, uri);
        QFETCH(QString, expected);
        const QString message = refusal(uri);
        QVERIFY2(
            message.startsWith(QLatin1String("invalid NATS URI: ")) && message.contains(expected), qPrintable(message));
    }

    void subjectProblems_data()
    {
        QTest::addColumn<QString>("subject");
        QTest::addColumn<bool>("fits");
        QTest::newRow("dotted") << QStringLiteral("order.created") << true;
        QTest::newRow("unicode") << QStringLiteral("주문.생성") << true;
        QTest::newRow("star") << QStringLiteral("order.*") << false;
        QTest::newRow("gt") << QStringLiteral(">") << false;
        QTest::newRow("star inside a token") << QStringLiteral("order*x") << true;
        QTest::newRow("double dot") << QStringLiteral("a..b") << false;
        QTest::newRow("tab") << QStringLiteral("a\tb") << false;
        QTest::newRow("empty") << QString() << false;
    }
    void subjectProblems()
    {
        QFETCH(QString, subject);
        QTEST(NatsEndpoint::subjectProblem(subject).isEmpty(), "fits");
    }

    // The relay's --sink: a prefix is required, the password masked in what it says.
    void asTheRelaysSink()
    {
        QVERIFY(SinkSpec::parse(QStringLiteral("nats://h1,h2/?subject_prefix=orders")));
        try {
            SinkSpec::parse(QStringLiteral("nats://u:hunter2@h1/"));
            QFAIL("a sink without a subject prefix was taken");
        } catch (const OutboxError& error) {
            QVERIFY2(error.message().contains(QLatin1String("?subject_prefix=PREFIX"))
                    && !error.message().contains(QLatin1String("hunter2")),
                qPrintable(error.message()));
        }
        QCOMPARE(SinkSpec::describe(QStringLiteral("nats://u:hunter2@h1/?subject_prefix=o")),
            QStringLiteral("nats://u:***@h1/?subject_prefix=o"));
    }
};

QTEST_GUILESS_MAIN(TestNatsEndpoint)
#include "tst_natsendpoint.moc"
