// SPDX-License-Identifier: GPL-3.0-or-later
#include "demo/privatebroker.h"
#include "support/processtesting.h"

#include <QDir>
#include <QTcpSocket>
#include <QTest>

namespace {

bool accepts(quint16 port)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, port);
    return socket.waitForConnected(5'000);
}

} // namespace

// The demo's private RabbitMQ: its own node on loopback ports of its own, two at once side by side, an outage on
// demand, and nothing left behind.
class TestPrivateBroker final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!PrivateBroker::isInstalled())
            QFAIL("rabbitmq-server is not installed: run the tests through .ci/test, which installs it");
    }

    void twoNodesRunSideBySideAndLeaveNothing()
    {
        QString directories[2];
        quint16 mappers[2] = {};
        {
            PrivateBroker first;
            PrivateBroker second;
            first.start();
            second.start();
            QVERIFY(first.port() != second.port());
            QVERIFY(first.nodeName() != second.nodeName());
            QVERIFY(first.directory() != second.directory());
            QVERIFY(first.port() != 5672 && second.port() != 5672);
            QVERIFY(accepts(first.port()));
            QVERIFY(accepts(second.port()));
            QVERIFY(first.uri().startsWith(QStringLiteral("amqp://guest:guest@127.0.0.1:")));
            for (const PrivateBroker* broker : { &first, &second }) {
                const int i = broker == &first ? 0 : 1;
                directories[i] = broker->directory();
                mappers[i] = broker->portMapperPort();
                QVERIFY(accepts(mappers[i]));
                QVERIFY(ProcessTesting::processesMentioning(directories[i]) > 0); // beam.smp -home DIRECTORY
            }

            // An outage on demand: the listener goes, the node stays, the listener comes back.
            first.stopApplication();
            QVERIFY(!accepts(first.port()));
            QVERIFY(accepts(second.port()));
            first.startApplication();
            QVERIFY(accepts(first.port()));
        }
        for (int i = 0; i < 2; ++i) {
            QVERIFY2(!QDir(directories[i]).exists(), qPrintable(directories[i]));
            // Neither the node (beam.smp) nor its port mapper (epmd on a port of its own) is left.
            QCOMPARE(ProcessTesting::processesMentioning(directories[i]), 0);
            QVERIFY(!accepts(mappers[i]));
        }
    }
};

QTEST_GUILESS_MAIN(TestPrivateBroker)
#include "tst_privatebroker.moc"
