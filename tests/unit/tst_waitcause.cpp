// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/outboxoverview.h"
#include "operations/waitcause.h"
#include "outbox/outboxrows.h"

#include <QTest>

namespace {

const QDateTime Now = QDateTime(QDate(2026, 4, 1), QTime(12, 0), Qt::UTC);
constexpr qint64 FiveMinutes = 5LL * 60 * 1000;

} // namespace

Q_DECLARE_METATYPE(WaitCause)
Q_DECLARE_METATYPE(FleetCondition)

// Why an unpublished row waits, as the Overview says it beside the oldest rows: the cause names the action that
// helps, so each rule is pinned here, including which cause wins when two apply.
class TestWaitCause final : public QObject {
    Q_OBJECT

private slots:
    void cause_data()
    {
        QTest::addColumn<OutboxStatus>("status");
        QTest::addColumn<qint64>("dueOffsetMs"); // next_attempt_at - now
        QTest::addColumn<qint64>("leaseOffsetMs"); // lease_expires_at - now (in flight only)
        QTest::addColumn<FleetCondition>("fleet");
        QTest::addColumn<WaitCause>("cause");
        QTest::newRow("pending, due now, relays alive")
            << OutboxStatus::Pending << 0LL << 0LL << FleetCondition::Publishing << WaitCause::Queued;
        QTest::newRow("pending, due 10 min ago, relays alive")
            << OutboxStatus::Pending << -2 * FiveMinutes << 0LL << FleetCondition::Publishing << WaitCause::Overdue;
        QTest::newRow("pending, due in a minute")
            << OutboxStatus::Pending << 60'000LL << 0LL << FleetCondition::Publishing << WaitCause::Scheduled;
        QTest::newRow("pending, no relay alive") << OutboxStatus::Pending << -2 * FiveMinutes << 0LL
                                                 << FleetCondition::NoneRunning << WaitCause::NoRelayAlive;
        QTest::newRow("failed, retry scheduled")
            << OutboxStatus::Failed << 60'000LL << 0LL << FleetCondition::Publishing << WaitCause::Failing;
        QTest::newRow("failed, overdue: the error says more than the delay")
            << OutboxStatus::Failed << -2 * FiveMinutes << 0LL << FleetCondition::Publishing << WaitCause::Failing;
        QTest::newRow("failed, no relay alive: nothing will retry it")
            << OutboxStatus::Failed << 60'000LL << 0LL << FleetCondition::NoneRunning << WaitCause::NoRelayAlive;
        QTest::newRow("in flight, lease valid")
            << OutboxStatus::InFlight << 0LL << 30'000LL << FleetCondition::Publishing << WaitCause::Publishing;
        QTest::newRow("in flight, lease expired")
            << OutboxStatus::InFlight << 0LL << -30'000LL << FleetCondition::Publishing << WaitCause::LeaseExpired;
        QTest::newRow("in flight, lease expired, no relay alive: still the dead worker's")
            << OutboxStatus::InFlight << 0LL << -30'000LL << FleetCondition::NoneRunning << WaitCause::LeaseExpired;
        QTest::newRow("pending, every relay failing: the broker, not the relays' pace")
            << OutboxStatus::Pending << -2 * FiveMinutes << 0LL << FleetCondition::AllFailing
            << WaitCause::RelaysFailing;
        QTest::newRow("failed, every relay failing")
            << OutboxStatus::Failed << 60'000LL << 0LL << FleetCondition::AllFailing << WaitCause::RelaysFailing;
        QTest::newRow("in flight, lease valid, every relay failing: still being published")
            << OutboxStatus::InFlight << 0LL << 30'000LL << FleetCondition::AllFailing << WaitCause::Publishing;
        // Behind an older row of its key, the older row is the cause, whatever the fleet does and however long ago
        // the row was due.
        QTest::newRow("waiting, relays alive") << OutboxStatus::Waiting << -2 * FiveMinutes << 0LL
                                               << FleetCondition::Publishing << WaitCause::BehindOlderRow;
        QTest::newRow("waiting, no relay alive")
            << OutboxStatus::Waiting << 0LL << 0LL << FleetCondition::NoneRunning << WaitCause::BehindOlderRow;
        QTest::newRow("waiting, every relay failing")
            << OutboxStatus::Waiting << 0LL << 0LL << FleetCondition::AllFailing << WaitCause::BehindOlderRow;
        // A paused type holds its row back whatever the relays do: resuming it is the action that helps.
        QTest::newRow("paused, relays alive")
            << OutboxStatus::Paused << -2 * FiveMinutes << 0LL << FleetCondition::Publishing << WaitCause::TypePaused;
        QTest::newRow("paused, no relay alive")
            << OutboxStatus::Paused << 0LL << 0LL << FleetCondition::NoneRunning << WaitCause::TypePaused;
        QTest::newRow("pending, every relay paused")
            << OutboxStatus::Pending << 0LL << 0LL << FleetCondition::AllPaused << WaitCause::RelaysPaused;
        QTest::newRow("failed, every relay paused")
            << OutboxStatus::Failed << 60'000LL << 0LL << FleetCondition::AllPaused << WaitCause::RelaysPaused;
        QTest::newRow("in flight, every relay paused: still being published")
            << OutboxStatus::InFlight << 0LL << 30'000LL << FleetCondition::AllPaused << WaitCause::Publishing;
    }

    // What the fleet can do, from its relays' states: one alive relay publishes; without one, a failing relay
    // names the broker as the cause, and only a fleet of paused relays is "all paused".
    void fleetCondition_data()
    {
        QTest::addColumn<QList<int>>("states");
        QTest::addColumn<FleetCondition>("fleet");
        const auto states = [](std::initializer_list<RelayState> list) {
            QList<int> ints;
            for (const RelayState state : list)
                ints.append(int(state));
            return ints;
        };
        QTest::newRow("none") << states({}) << FleetCondition::NoneRunning;
        QTest::newRow("stopped and gone")
            << states({ RelayState::Stopped, RelayState::Gone }) << FleetCondition::NoneRunning;
        QTest::newRow("one alive among paused")
            << states({ RelayState::Paused, RelayState::Alive }) << FleetCondition::Publishing;
        QTest::newRow("paused and failing")
            << states({ RelayState::Paused, RelayState::Failing }) << FleetCondition::AllFailing;
        QTest::newRow("all paused") << states({ RelayState::Paused, RelayState::Paused, RelayState::Stale })
                                    << FleetCondition::AllPaused;
    }

    void fleetCondition()
    {
        QFETCH(QList<int>, states);
        QFETCH(FleetCondition, fleet);
        OutboxOverview overview;
        for (const int state : states) {
            RelayNode node;
            node.state = RelayState(state);
            overview.relays.append(node);
        }
        QCOMPARE(int(overview.fleetCondition()), int(fleet));
    }

    void cause()
    {
        QFETCH(OutboxStatus, status);
        QFETCH(qint64, dueOffsetMs);
        QFETCH(qint64, leaseOffsetMs);
        QFETCH(FleetCondition, fleet);
        QFETCH(WaitCause, cause);
        OutboxRowSummary row;
        row.id = 7;
        row.status = status;
        row.nextAttemptAt = Now.addMSecs(dueOffsetMs);
        if (status == OutboxStatus::InFlight) {
            row.leaseOwner = QStringLiteral("relay-1/w0");
            row.leaseExpiresAt = Now.addMSecs(leaseOffsetMs);
        }
        QCOMPARE(int(waitCauseOf(row, Now, fleet, FiveMinutes)), int(cause));
    }
};

QTEST_GUILESS_MAIN(TestWaitCause)
#include "tst_waitcause.moc"
