// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxrows.h"
#include "outbox/stuckrowclassifier.h"

#include <QSet>
#include <QTest>

namespace {

using Kind = StuckRowClassifier::Kind;

const QList<OutboxStatus> AllStatuses { OutboxStatus::Pending, OutboxStatus::InFlight, OutboxStatus::Published,
    OutboxStatus::Failed, OutboxStatus::Dead };

QString nameOf(Kind kind)
{
    switch (kind) {
    case Kind::NotStuck:
        return QStringLiteral("not stuck");
    case Kind::LeaseExpired:
        return QStringLiteral("lease expired");
    case Kind::Overdue:
        return QStringLiteral("overdue");
    case Kind::Dead:
        return QStringLiteral("dead");
    }
    return QStringLiteral("kind %1").arg(int(kind));
}

const QDateTime Now = QDateTime(QDate(2026, 4, 1), QTime(12, 0), Qt::UTC);

// A row of `status` whose lease expires and whose next attempt is due at the given offsets from Now (in ms,
// negative: in the past); an invalid QVariant leaves the time unset, as NULL in the database does.
OutboxRowSummary rowWith(OutboxStatus status, const QVariant& leaseOffsetMs, const QVariant& dueOffsetMs)
{
    OutboxRowSummary row;
    row.id = 1;
    row.status = status;
    if (leaseOffsetMs.isValid()) {
        row.leaseOwner = QStringLiteral("relay-1/w0");
        row.leaseExpiresAt = Now.addMSecs(leaseOffsetMs.toLongLong());
    }
    if (dueOffsetMs.isValid())
        row.nextAttemptAt = Now.addMSecs(dueOffsetMs.toLongLong());
    return row;
}

} // namespace

// The C++ half of the stuck-row rules, which the console's highlighting uses; the SQL half (the "stuck only"
// filter) is compared with it against a database in tst_outboxqueries.
class TestStuckRowClassifier final : public QObject {
    Q_OBJECT

    static constexpr qint64 FiveMinutes = 5LL * 60 * 1000;

private slots:
    void classify_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QVariant>("leaseOffsetMs");
        QTest::addColumn<QVariant>("dueOffsetMs");
        QTest::addColumn<qint64>("thresholdMs");
        QTest::addColumn<int>("kind");
        const QVariant unset;
        const auto ms = [](qint64 offset) { return QVariant(offset); };
        const auto row
            = [](const char* name, OutboxStatus status, const QVariant& lease, const QVariant& due, qint64 threshold,
                  Kind kind) { QTest::newRow(name) << int(status) << lease << due << threshold << int(kind); };
        row("dead", OutboxStatus::Dead, unset, unset, FiveMinutes, Kind::Dead);
        row("dead, whatever its times", OutboxStatus::Dead, ms(60'000), ms(60'000), FiveMinutes, Kind::Dead);
        row("in flight, lease ran out 1 ms ago", OutboxStatus::InFlight, ms(-1), unset, FiveMinutes,
            Kind::LeaseExpired);
        row("in flight, lease ran out an hour ago", OutboxStatus::InFlight, ms(-3'600'000), ms(0), FiveMinutes,
            Kind::LeaseExpired);
        row("in flight, lease runs out this instant", OutboxStatus::InFlight, ms(0), unset, FiveMinutes,
            Kind::NotStuck);
        row("in flight, lease live", OutboxStatus::InFlight, ms(30'000), unset, FiveMinutes, Kind::NotStuck);
        row("in flight without a lease", OutboxStatus::InFlight, unset, unset, FiveMinutes, Kind::NotStuck);
        row("in flight, lease live, long due", OutboxStatus::InFlight, ms(30'000), ms(-3'600'000), FiveMinutes,
            Kind::NotStuck);
        row("pending, due just over the threshold", OutboxStatus::Pending, unset, ms(-FiveMinutes - 1), FiveMinutes,
            Kind::Overdue);
        row("pending, due exactly the threshold", OutboxStatus::Pending, unset, ms(-FiveMinutes), FiveMinutes,
            Kind::NotStuck);
        row("pending, due recently", OutboxStatus::Pending, unset, ms(-10'000), FiveMinutes, Kind::NotStuck);
        row("pending, not yet due", OutboxStatus::Pending, unset, ms(600'000), FiveMinutes, Kind::NotStuck);
        row("pending without a due time", OutboxStatus::Pending, unset, unset, FiveMinutes, Kind::NotStuck);
        row("pending, due 2 min, threshold 1 min", OutboxStatus::Pending, unset, ms(-120'000), 60'000, Kind::Overdue);
        row("pending, due 2 min, threshold 15 min", OutboxStatus::Pending, unset, ms(-120'000), 900'000,
            Kind::NotStuck);
        row("pending, threshold 0, due 1 ms ago", OutboxStatus::Pending, unset, ms(-1), 0, Kind::Overdue);
        row("pending, threshold 0, due now", OutboxStatus::Pending, unset, ms(0), 0, Kind::NotStuck);
        row("failed, overdue", OutboxStatus::Failed, unset, ms(-600'000), FiveMinutes, Kind::Overdue);
        row("failed, retry not yet due", OutboxStatus::Failed, unset, ms(600'000), FiveMinutes, Kind::NotStuck);
        row("failed, an old lease does not count", OutboxStatus::Failed, ms(-3'600'000), ms(-10'000), FiveMinutes,
            Kind::NotStuck);
        row("published, long due", OutboxStatus::Published, unset, ms(-3'600'000), FiveMinutes, Kind::NotStuck);
        row("published, expired lease", OutboxStatus::Published, ms(-3'600'000), unset, FiveMinutes, Kind::NotStuck);
    }

    void classify()
    {
        QFETCH(int, status);
        QFETCH(QVariant, leaseOffsetMs);
        QFETCH(QVariant, dueOffsetMs);
        QFETCH(qint64, thresholdMs);
        QFETCH(int, kind);
        const StuckRowClassifier classifier(thresholdMs);
        const Kind classified = classifier.classify(rowWith(OutboxStatus(status), leaseOffsetMs, dueOffsetMs), Now);
        QVERIFY2(int(classified) == kind,
            qPrintable(QStringLiteral("classified as %1, expected %2").arg(nameOf(classified), nameOf(Kind(kind)))));
    }

    // The SQL side: a condition for every status that can be stuck, with a placeholder exactly where the
    // threshold matters, so the repository binds the right number of values.
    void conditionsNeedTheThresholdWhereTheRulesDo()
    {
        for (const OutboxStatus status : AllStatuses) {
            const QString condition = StuckRowClassifier::condition(status);
            const bool needsThreshold = StuckRowClassifier::needsThreshold(status);
            QCOMPARE(condition.count(QLatin1Char('?')), needsThreshold ? 1 : 0);
            QCOMPARE(needsThreshold, status == OutboxStatus::Pending || status == OutboxStatus::Failed);
            QCOMPARE(condition.isEmpty(), status == OutboxStatus::Published);
        }
    }

    // Both halves agree on which statuses can be stuck at all: where the SQL has no condition, no combination
    // of times makes the classifier flag a row, and where it has one, some combination does.
    void bothHalvesAgreeOnWhatCanBeStuck()
    {
        const StuckRowClassifier classifier(FiveMinutes);
        const QList<QVariant> offsets { QVariant(), QVariant(qint64(-86'400'000)), QVariant(qint64(-FiveMinutes - 1)),
            QVariant(qint64(-1)), QVariant(qint64(0)), QVariant(qint64(86'400'000)) };
        for (const OutboxStatus status : AllStatuses) {
            bool flagged = false;
            for (const QVariant& lease : offsets) {
                for (const QVariant& due : offsets)
                    flagged = flagged || classifier.classify(rowWith(status, lease, due), Now) != Kind::NotStuck;
            }
            QVERIFY2(flagged == !StuckRowClassifier::condition(status).isEmpty(),
                qPrintable(QStringLiteral("status %1").arg(int(status))));
        }
    }

    void everyStuckKindIsDescribed()
    {
        QVERIFY(StuckRowClassifier::describe(Kind::NotStuck).isEmpty());
        QSet<QString> descriptions;
        for (const Kind kind : { Kind::LeaseExpired, Kind::Overdue, Kind::Dead }) {
            const QString description = StuckRowClassifier::describe(kind);
            QVERIFY(!description.isEmpty());
            descriptions.insert(description);
        }
        QCOMPARE(descriptions.size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestStuckRowClassifier)
#include "tst_stuckrowclassifier.moc"
