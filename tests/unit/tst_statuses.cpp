// SPDX-License-Identifier: GPL-3.0-or-later
#include "idempotency/keystatus.h"
#include "outbox/outboxstatus.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

// The status enums are the C++ side of the CHECK constraints in the migrations; these tests fail when the
// two drift apart, in either direction, or when a name stops round-tripping.
class TestStatuses final : public QObject {
    Q_OBJECT

    // The names the migrations' CHECK constraint allows for `table`.status, as written in the SQL that the
    // library embeds (the migrations that a database really gets).
    static QStringList checkedNames(const QString& table)
    {
        QString schema;
        const QDir dir(QStringLiteral(":/sql/migrations"));
        for (const QString& fileName : dir.entryList(QDir::Files, QDir::Name)) {
            QFile file(dir.filePath(fileName));
            if (!file.open(QIODevice::ReadOnly))
                qFatal("cannot read migration %s", qPrintable(fileName));
            schema += QString::fromUtf8(file.readAll());
        }
        const QRegularExpression tableDefinition(QStringLiteral("CREATE TABLE %1 \\((.*?)\\n\\);").arg(table),
            QRegularExpression::DotMatchesEverythingOption);
        const QRegularExpressionMatch definition = tableDefinition.match(schema);
        if (!definition.hasMatch())
            return {};
        const QRegularExpression check(QStringLiteral("\\bstatus\\s+text[^,]*?CHECK \\(status IN \\(([^)]*)\\)\\)"));
        QRegularExpressionMatch allowed = check.match(definition.captured(1));
        // A later migration that widens the statuses replaces the constraint; the last one holds.
        const QRegularExpression replaced(
            QStringLiteral("ADD CONSTRAINT %1_status_check\\s+CHECK \\(status IN \\(([^)]*)\\)\\)").arg(table));
        for (const QRegularExpressionMatch& later : replaced.globalMatch(schema))
            allowed = later;
        if (!allowed.hasMatch())
            return {};
        QStringList names;
        const QRegularExpression literal(QStringLiteral("'([a-z_]+)'"));
        for (const QRegularExpressionMatch& name : literal.globalMatch(allowed.captured(1)))
            names.append(name.captured(1));
        return names;
    }

private slots:
    void enumsMatchTheCheckConstraints_data()
    {
        QTest::addColumn<QString>("table");
        QTest::addColumn<QStringList>("names");
        QTest::newRow("outbox") << QStringLiteral("outbox") << OutboxStatusNames.names();
        QTest::newRow("idempotency_keys") << QStringLiteral("idempotency_keys") << KeyStatusNames.names();
    }
    void enumsMatchTheCheckConstraints()
    {
        QFETCH(QString, table);
        QFETCH(QStringList, names);
        const QStringList checked = checkedNames(table);
        QVERIFY2(!checked.isEmpty(), qPrintable(QStringLiteral("no CHECK (status IN ...) found for %1").arg(table)));
        QCOMPARE(names, checked); // same names, same order (the order lists and menus show)
    }

    void checkedNamesBecomeStatuses()
    {
        QCOMPARE(OutboxStatusNames.valuesNamed(
                     { QStringLiteral("dead"), QStringLiteral("bogus"), QStringLiteral("pending") }),
            (QList<OutboxStatus> { OutboxStatus::Dead, OutboxStatus::Pending }));
        QVERIFY(KeyStatusNames.valuesNamed({}).isEmpty());
    }

    void namesRoundTrip()
    {
        for (const OutboxStatus status : OutboxStatusNames.values())
            QCOMPARE(OutboxStatusNames.parse(OutboxStatusNames.name(status)), status);
        for (const KeyStatus status : KeyStatusNames.values())
            QCOMPARE(KeyStatusNames.parse(KeyStatusNames.name(status)), status);
    }

    void unknownNamesAreRefused_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("case") << QStringLiteral("Dead");
        QTest::newRow("blank") << QStringLiteral(" dead");
        QTest::newRow("key status") << QStringLiteral("completed");
        QTest::newRow("prefix") << QStringLiteral("in_fli");
    }
    void unknownNamesAreRefused()
    {
        QFETCH(QString, text);
        QVERIFY(!OutboxStatusNames.parse(text));
        QVERIFY_THROWS_EXCEPTION(OutboxError, OutboxStatusNames.fromColumn(text));
    }

    void retryingAndDiscardingApplyToTheirStates_data()
    {
        QTest::addColumn<QString>("status");
        QTest::addColumn<bool>("retryable");
        QTest::addColumn<bool>("failure");
        for (const ActionsOf& row : ActionTable)
            QTest::newRow(row.status) << QString::fromLatin1(row.status) << row.retryable << row.failure;
    }

    void retryingAndDiscardingApplyToTheirStates()
    {
        QFETCH(QString, status);
        QFETCH(bool, retryable);
        QFETCH(bool, failure);
        const OutboxStatus parsed = *OutboxStatusNames.parse(status);
        QCOMPARE(isRetryable(parsed), retryable);
        QCOMPARE(isFailure(parsed), failure);
        QCOMPARE(retryableStatuses().contains(parsed), retryable);
        QCOMPARE(failureStatuses().contains(parsed), failure);
    }

    // The backlog's SQL condition (and so the partial index it must match) names exactly the backlog statuses.
    void theBacklogConditionNamesTheBacklogStatuses()
    {
        QCOMPARE(QString::fromLatin1(BacklogCondition),
            QStringLiteral("status IN ('%1')")
                .arg(OutboxStatusNames.names(outboxStatusesWhere(isBacklog)).join(QStringLiteral("', '"))));
    }

    // A status added later must be placed in the table.
    void everyStatusIsInTheActionTable()
    {
        QStringList inTable;
        for (const ActionsOf& row : ActionTable)
            inTable.append(QString::fromLatin1(row.status));
        QCOMPARE(inTable, OutboxStatusNames.names());
    }

private:
    struct ActionsOf {
        const char* status;
        bool retryable;
        bool failure;
    };
    // Retry undoes a discard; a discarded row is no failure any more (it left its failure group).
    static constexpr ActionsOf ActionTable[] = { { "pending", false, false }, { "in_flight", false, false },
        { "published", false, false }, { "failed", true, true }, { "dead", true, true }, { "waiting", false, false },
        { "discarded", true, false }, { "paused", false, false } };
};

QTEST_GUILESS_MAIN(TestStatuses)
#include "tst_statuses.moc"
