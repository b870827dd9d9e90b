// SPDX-License-Identifier: GPL-3.0-or-later
#include "overview/relayfleetmodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

// The fleet table fed registry rows as values: where each relay publishes, in the Sink column and its tooltip.
class TestRelayFleetModel final : public QObject {
    Q_OBJECT

private slots:
    void theSinkSaysWhereTheRelayPublishes_data()
    {
        QTest::addColumn<int>("state");
        QTest::addColumn<bool>("sinkUp");
        QTest::addColumn<QString>("publishingTo");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("tip");
        const QString cluster = QStringLiteral("amqp://guest@mq1:5672,mq2:5672,mq3:5672/%2F?exchange=events");
        const QString unreachable = cluster + QStringLiteral(" (unreachable)");
        QTest::newRow("publishing to a node")
            << int(RelayState::Alive) << true << QStringLiteral("mq2:5672") << QStringLiteral("mq2:5672")
            << QStringLiteral("on mq2:5672 of ") + cluster;
        QTest::newRow("workers on two nodes")
            << int(RelayState::Alive) << true << QStringLiteral("mq1:5672, mq3:5672")
            << QStringLiteral("mq1:5672, mq3:5672") << QStringLiteral("on mq1:5672, mq3:5672 of ") + cluster;
        QTest::newRow("no node named") << int(RelayState::Alive) << true << QString() << cluster << cluster;
        QTest::newRow("unreachable") << int(RelayState::Failing) << false << QString() << unreachable << unreachable;
        QTest::newRow("gone") << int(RelayState::Gone) << true << QString() << cluster << cluster;
    }
    void theSinkSaysWhereTheRelayPublishes()
    {
        QFETCH(int, state);
        QFETCH(bool, sinkUp);
        QFETCH(QString, publishingTo);
        RelayFleetModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        RelayNode node;
        node.id = 1;
        node.name = QStringLiteral("relay-a");
        node.state = RelayState(state);
        node.sink = QStringLiteral("amqp://guest@mq1:5672,mq2:5672,mq3:5672/%2F?exchange=events");
        node.sinkUp = sinkUp;
        node.publishingTo = publishingTo;
        const QDateTime now = QDateTime::currentDateTimeUtc();
        node.lastSeen = now;
        model.setRows({ node }, now);
        const QModelIndex sink = model.index(0, RelayFleetModel::Sink);
        QTEST(sink.data().toString(), "shown");
        QTEST(sink.data(Qt::ToolTipRole).toString(), "tip");
    }
};

QTEST_MAIN(TestRelayFleetModel)
#include "tst_relayfleetmodel.moc"
