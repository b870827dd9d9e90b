// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventtypes/eventtypesmodel.h"

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QTest>

// The Event types tab's model fed snapshot values, without a database.
class TestEventTypesModel final : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() { QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); }

    // A count that reached the cap, or was read within a budget that ran out (a lower bound below the cap), shows
    // "N+" and says in its tooltip after how many rows counting stopped; an exact count has no tooltip.
    void aCountCutShortSaysWhereCountingStopped()
    {
        constexpr int Cap = EventTypeBreakdown::DefaultCountCap;
        EventTypeCounts type;
        type.eventType = QStringLiteral("order.created");
        for (const OutboxStatus status : OutboxStatusNames.values()) {
            if (status == OutboxStatus::Pending)
                type.counts.append(CappedCount::of(3'000, Cap, true));
            else if (status == OutboxStatus::Published)
                type.counts.append(CappedCount::of(Cap + 1, Cap));
            else
                type.counts.append(CappedCount::of(4, Cap));
        }
        EventTypesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setRows({ type });
        const auto cell = [&](OutboxStatus status) { return model.index(0, EventTypesModel::statusColumn(status)); };

        QCOMPARE(cell(OutboxStatus::Pending).data().toString(), QStringLiteral("3,000+"));
        QCOMPARE(cell(OutboxStatus::Pending).data(Qt::ToolTipRole).toString(),
            QStringLiteral("At least 3,000: counting stops after 10,000 rows have been read, so that it stays cheap "
                           "on large tables"));
        QCOMPARE(cell(OutboxStatus::Published).data().toString(), QStringLiteral("10,000+"));
        QVERIFY(cell(OutboxStatus::Published)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .startsWith(QStringLiteral("At least 10,000:")));
        QCOMPARE(cell(OutboxStatus::Dead).data().toString(), QStringLiteral("4"));
        QVERIFY(!cell(OutboxStatus::Dead).data(Qt::ToolTipRole).isValid());
    }
};

QTEST_MAIN(TestEventTypesModel)
#include "tst_eventtypesmodel.moc"
