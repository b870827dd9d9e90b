// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/listenaddress.h"
#include "db/outboxerror.h"

#include <QTest>

// Where the HTTP endpoints listen: orders-service --listen IP:PORT, outboxctl relay --metrics-listen [IP:]PORT.
class TestListenAddress final : public QObject {
    Q_OBJECT

private slots:
    void accepted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("barePortAllowed");
        QTest::addColumn<QString>("address");
        QTest::addColumn<int>("port");
        QTest::newRow("IPv4") << QStringLiteral("127.0.0.1:8080") << false << QStringLiteral("127.0.0.1") << 8080;
        QTest::newRow("every interface") << QStringLiteral("0.0.0.0:9187") << true << QStringLiteral("0.0.0.0") << 9187;
        QTest::newRow("IPv6 in brackets") << QStringLiteral("[::1]:80") << false << QStringLiteral("::1") << 80;
        QTest::newRow("any free port") << QStringLiteral("127.0.0.1:0") << false << QStringLiteral("127.0.0.1") << 0;
        // A port alone must never expose the endpoint beyond the host.
        QTest::newRow("bare port: loopback") << QStringLiteral("9187") << true << QStringLiteral("127.0.0.1") << 9187;
        QTest::newRow("bare zero") << QStringLiteral("0") << true << QStringLiteral("127.0.0.1") << 0;
    }

    void accepted()
    {
        QFETCH(QString, text);
        QFETCH(bool, barePortAllowed);
        QFETCH(QString, address);
        QFETCH(int, port);
        const ListenAddress listen = ListenAddress::parse(text, QStringLiteral("listen"), barePortAllowed);
        QCOMPARE(listen.address.toString(), address);
        QCOMPARE(int(listen.port), port);
    }

    void refused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("barePortAllowed");
        QTest::newRow("empty") << QString() << true;
        QTest::newRow("bare port where an address is required") << QStringLiteral("8080") << false;
        QTest::newRow("host name") << QStringLiteral("localhost:8080") << true;
        QTest::newRow("port too large") << QStringLiteral("127.0.0.1:65536") << false;
        QTest::newRow("bare port too large") << QStringLiteral("70000") << true;
        QTest::newRow("negative port") << QStringLiteral("-1") << true;
        QTest::newRow("no port") << QStringLiteral("127.0.0.1:") << false;
        QTest::newRow("IPv6 without brackets") << QStringLiteral("::1") << true;
    }

    void refused()
    {
        QFETCH(QString, text);
        QFETCH(bool, barePortAllowed);
        try {
            ListenAddress::parse(text, QStringLiteral("metrics-listen"), barePortAllowed);
            QFAIL("accepted");
        } catch (const OutboxError& error) {
            QCOMPARE(error.kind(), OutboxError::Kind::InvalidInput);
            QVERIFY2(error.message().startsWith(QStringLiteral("--metrics-listen: invalid value '%1'").arg(text)),
                qPrintable(error.message()));
        }
    }

    void urlNamesTheBoundPort()
    {
        QCOMPARE(ListenAddress::url(QHostAddress(QStringLiteral("127.0.0.1")), 41234),
            QStringLiteral("http://127.0.0.1:41234"));
        QCOMPARE(ListenAddress::url(QHostAddress(QStringLiteral("::1")), 80), QStringLiteral("http://[::1]:80"));
    }
};

QTEST_GUILESS_MAIN(TestListenAddress)
#include "tst_listenaddress.moc"
