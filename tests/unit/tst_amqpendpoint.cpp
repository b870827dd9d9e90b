// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/amqpendpoint.h"
#include "common/sinkspec.h"
#include "db/outboxerror.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

// How an AMQP URI (the relay's --sink, the consumer's --from) and the relay's other sink specs are read, and how
// bad ones are refused.
class TestAmqpEndpoint final : public QObject {
    Q_OBJECT

private slots:
    void parsesEveryPart_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("password");
        QTest::addColumn<QString>("vhost");
        QTest::addColumn<QString>("exchange");
        QTest::addColumn<QString>("type");
        QTest::addColumn<bool>("declare");
        QTest::newRow("defaults") << QStringLiteral("amqp://") << QStringLiteral("localhost") << 5672
                                  << QStringLiteral("guest") << QStringLiteral("guest") << QStringLiteral("/")
                                  << QString() << QStringLiteral("topic") << true;
        QTest::newRow("everything") << QStringLiteral("amqp://app:s%40cret@mq.example:5673/prod?exchange=events&"
                                                      "exchange_type=fanout&declare=0&confirm_timeout_ms=500")
                                    << QStringLiteral("mq.example") << 5673 << QStringLiteral("app")
                                    << QStringLiteral("s@cret") << QStringLiteral("prod") << QStringLiteral("events")
                                    << QStringLiteral("fanout") << false;
        QTest::newRow("slash vhost") << QStringLiteral("amqp://h/%2F?exchange=e") << QStringLiteral("h") << 5672
                                     << QStringLiteral("guest") << QStringLiteral("guest") << QStringLiteral("/")
                                     << QStringLiteral("e") << QStringLiteral("topic") << true;
        QTest::newRow("trailing slash") << QStringLiteral("amqp://h:1/") << QStringLiteral("h") << 1
                                        << QStringLiteral("guest") << QStringLiteral("guest") << QStringLiteral("/")
                                        << QString() << QStringLiteral("topic") << true;
    }
    void parsesEveryPart()
    {
        QFETCH(QString, uri);
        const AmqpEndpoint endpoint = AmqpEndpoint::parse(uri);
        QCOMPARE(endpoint.nodes.size(), 1);
        QTEST(endpoint.nodes.first().host, "host");
        QTEST(endpoint.nodes.first().port, "port");
        QTEST(endpoint.user, "user");
        QTEST(endpoint.password, "password");
        QTEST(endpoint.vhost, "vhost");
        QTEST(endpoint.exchange, "exchange");
        QTEST(endpoint.exchangeType, "type");
        QTEST(endpoint.declareExchange, "declare");
        QVERIFY(!endpoint.display().contains(QLatin1String("s@cret")));
    }

    // A cluster's nodes, as in a multi-host PostgreSQL connection string: each with its port or the default one, the
    // user info and the rest of the URI the whole cluster's, and the password hidden wherever the URI is shown.
    void readsTheNodesOfACluster_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QStringList>("nodes");
        QTest::addColumn<QString>("display");
        QTest::newRow("three") << QStringLiteral("amqp://app:hunter2@mq1:5673,mq2,10.0.0.3:5675/prod?exchange=e")
                               << QStringList { QStringLiteral("mq1:5673"), QStringLiteral("mq2:5672"),
                                      QStringLiteral("10.0.0.3:5675") }
                               << QStringLiteral("amqp://app@mq1:5673,mq2:5672,10.0.0.3:5675/prod?exchange=e");
        QTest::newRow("ipv6") << QStringLiteral("amqp://[::1]:5673,[fe80::1]/?exchange=e")
                              << QStringList { QStringLiteral("[::1]:5673"), QStringLiteral("[fe80::1]:5672") }
                              << QStringLiteral("amqp://guest@[::1]:5673,[fe80::1]:5672/%2F?exchange=e");
        QTest::newRow("one") << QStringLiteral("amqp://h:1?exchange=e") << QStringList { QStringLiteral("h:1") }
                             << QStringLiteral("amqp://guest@h:1/%2F?exchange=e");
    }
    void readsTheNodesOfACluster()
    {
        QFETCH(QString, uri);
        QFETCH(QStringList, nodes);
        const AmqpEndpoint endpoint = AmqpEndpoint::parse(uri);
        QStringList parsed;
        for (const BrokerNode& node : endpoint.nodes)
            parsed.append(node.display());
        QCOMPARE(parsed, nodes);
        QTEST(endpoint.display(), "display");
        // Several nodes wait less for confirms by default: another node can take the batch.
        QCOMPARE(endpoint.confirmTimeoutMs, nodes.size() > 1 ? AmqpEndpoint::ClusterConfirmTimeoutMs : 15'000);
        QCOMPARE(AmqpEndpoint::parse(uri + QStringLiteral("&confirm_timeout_ms=9000")).confirmTimeoutMs, 9'000);
        QVERIFY(!AmqpEndpoint::redacted(uri).contains(QLatin1String("hunter2")));
        QCOMPARE(endpoint.display(nodes.size() - 1).contains(nodes.last()), true);
        QCOMPARE(endpoint.display(nodes.size() - 1).contains(QLatin1Char(',')), false);
    }

    // A URI that may not parse is shown with its password masked: also one with a raw '#', '?' or '/' in it.
    void masksThePasswordOfAnyUri_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("shown");
        QTest::newRow("plain") << QStringLiteral("amqp://u:hunter2@h:5672/v?exchange=e")
                               << QStringLiteral("amqp://u:***@h:5672/v?exchange=e");
        QTest::newRow("raw hash") << QStringLiteral("amqp://u:hun#ter2@h/") << QStringLiteral("amqp://u:***@h/");
        QTest::newRow("raw slash and question mark") << QStringLiteral("amqp://u:hu/n?ter2@h1,h2/?exchange=e")
                                                     << QStringLiteral("amqp://u:***@h1,h2/?exchange=e");
        QTest::newRow("raw at") << QStringLiteral("amqp://u:hun@ter2@h/") << QStringLiteral("amqp://u:***@h/");
        QTest::newRow("at in the query masks more")
            << QStringLiteral("amqp://u:hunter2@h/?exchange=a@b") << QStringLiteral("amqp://u:***@b");
        QTest::newRow("no password: the user info may be a token")
            << QStringLiteral("amqp://u@h:5672/") << QStringLiteral("amqp://***@h:5672/");
        QTest::newRow("no user") << QStringLiteral("amqp://h:5672/") << QStringLiteral("amqp://h:5672/");
    }
    void masksThePasswordOfAnyUri()
    {
        QFETCH(QString, uri);
        QTEST(AmqpEndpoint::redacted(uri), "shown");
    }

    void refusesBadUris_data()
    {
        QTest::addColumn<QString>("uri");
        QTest::addColumn<QString>("message");
        QTest::newRow("scheme") << QStringLiteral("amqps://h/") << QStringLiteral("amqp://");
        QTest::newRow("parameter") << QStringLiteral("amqp://h/?exchange=e&colour=red")
                                   << QStringLiteral("unknown parameter 'colour'");
        QTest::newRow("type") << QStringLiteral("amqp://h/?exchange_type=fast") << QStringLiteral("exchange_type");
        QTest::newRow("declare") << QStringLiteral("amqp://h/?declare=maybe") << QStringLiteral("declare must be");
        QTest::newRow("timeout") << QStringLiteral("amqp://h/?confirm_timeout_ms=5") << QStringLiteral("100 to 600000");
        QTest::newRow("vhost slash") << QStringLiteral("amqp://h/a/b") << QStringLiteral("%2F");
        QTest::newRow("port") << QStringLiteral("amqp://h:0/") << QStringLiteral("port");
        QTest::newRow("malformed") << QStringLiteral("amqp://u:hunter2@h:99999/?exchange=e")
                                   << QStringLiteral("malformed URI");
        QTest::newRow("second node's port")
            << QStringLiteral("amqp://u:hunter2@h1:5672,h2:99999/?exchange=e") << QStringLiteral("malformed URI");
        QTest::newRow("second node's port 0")
            << QStringLiteral("amqp://u:hunter2@h1,h2:0/") << QStringLiteral("port must be from 1 to 65535");
        QTest::newRow("stray comma") << QStringLiteral("amqp://u:hunter2@h1,,h2/") << QStringLiteral("stray comma");
        QTest::newRow("trailing comma") << QStringLiteral("amqp://u:hunter2@h1,/") << QStringLiteral("stray comma");
        QTest::newRow("node twice") << QStringLiteral("amqp://u:hunter2@h1:5672,h1/")
                                    << QStringLiteral("h1:5672 is named twice");
        QTest::newRow("queue type") << QStringLiteral("amqp://h/?queue_type=stream")
                                    << QStringLiteral("queue_type must be classic or quorum");
    }
    void refusesBadUris()
    {
        QFETCH(QString, uri);
        QFETCH(QString, message);
        try {
            AmqpEndpoint::parse(uri);
            QFAIL("accepted");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
            QVERIFY2(error.message().contains(message), qPrintable(error.message()));
            QVERIFY2(!error.message().contains(QLatin1String("hunter2")), qPrintable(error.message()));
        }
    }

    // The relay's --sink: an exchange is required, and a password never appears in a message or a log line.
    void sinkSpecNeedsAnExchangeAndHidesThePassword()
    {
        try {
            SinkSpec::parse(QStringLiteral("amqp://u:hunter2@h/"));
            QFAIL("accepted");
        } catch (const OutboxError& error) {
            QVERIFY2(error.message().contains(QLatin1String("?exchange=NAME")), qPrintable(error.message()));
            QVERIFY(!error.message().contains(QLatin1String("hunter2")));
        }
        try {
            SinkSpec::parse(QStringLiteral("amqp://u:hunter2@h/?exchange=e&bogus=1"));
            QFAIL("accepted");
        } catch (const OutboxError& error) {
            QVERIFY2(error.message().contains(QLatin1String("bogus")), qPrintable(error.message()));
            QVERIFY(!error.message().contains(QLatin1String("hunter2")));
        }
        try {
            SinkSpec::parse(QStringLiteral("amqp://u:hunter2@h:99999/?exchange=e"));
            QFAIL("accepted");
        } catch (const OutboxError& error) {
            QVERIFY2(error.message().contains(QLatin1String("malformed URI")), qPrintable(error.message()));
            QVERIFY2(!error.message().contains(QLatin1String("hunter2")), qPrintable(error.message()));
        }
        QVERIFY(SinkSpec::parse(QStringLiteral("amqp://u:hunter2@h/?exchange=e")) != nullptr);
        QCOMPARE(SinkSpec::describe(QStringLiteral("amqp://u:hunter2@h/?exchange=e")),
            QStringLiteral("amqp://u:***@h/?exchange=e"));
    }

    // fault:RATE>SINK: the messages the fault does not fail reach the sink behind it, and only those; the spec
    // behind it is described (its password masked) and checked like any other.
    void aFaultCanStandInFrontOfAnotherSink()
    {
        QTemporaryDir directory;
        const QString path = directory.filePath(QStringLiteral("events.jsonl"));
        const std::unique_ptr<MessageSink> sink = SinkSpec::parse(QStringLiteral("fault:0.5>file:") + path)();
        QList<OutboxMessage> batch;
        for (qint64 id = 1; id <= 200; ++id) {
            OutboxMessage message;
            message.id = id;
            message.payload = QByteArrayLiteral("{}");
            message.headers = QByteArrayLiteral("{}");
            batch.append(message);
        }
        QSet<qint64> succeeded;
        for (const PublishResult& result : sink->publish(batch)) {
            if (result.ok)
                succeeded.insert(result.id);
        }
        QVERIFY2(succeeded.size() > 50 && succeeded.size() < 150, qPrintable(QString::number(succeeded.size())));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QSet<qint64> written;
        while (!file.atEnd())
            written.insert(QJsonDocument::fromJson(file.readLine()).object().value(QStringLiteral("id")).toInteger());
        QCOMPARE(written, succeeded);

        QCOMPARE(SinkSpec::describe(QStringLiteral("fault:0.1>amqp://u:hunter2@h/?exchange=e")),
            QStringLiteral("fault:0.1>amqp://u:***@h/?exchange=e"));
        for (const QString& bad : { QStringLiteral("fault:0.1>"), QStringLiteral("fault:0.1>fault:0.2"),
                 QStringLiteral("fault:0.1>amqp://u:hunter2@h/") }) {
            try {
                SinkSpec::parse(bad);
                QFAIL(qPrintable(bad + QStringLiteral(" accepted")));
            } catch (const OutboxError& error) {
                QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
                QVERIFY2(!error.message().contains(QLatin1String("hunter2")), qPrintable(error.message()));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestAmqpEndpoint)
#include "tst_amqpendpoint.moc"
