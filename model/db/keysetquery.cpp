// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/keysetquery.h"

KeysetQuery::KeysetQuery(QString table, QString columns)
    : m_table(std::move(table))
    , m_columns(std::move(columns))
{ }

void KeysetQuery::require(const QString& sql, const QVariantList& binds)
{
    m_conditions.append({ sql, binds });
}

void KeysetQuery::addBranch(const QString& sql, const QVariantList& binds)
{
    m_branches.append({ { sql, binds }, {} });
}

void KeysetQuery::addBranch(const QString& sql, const QVariantList& binds, const FewMatches& few)
{
    m_branches.append({ { sql, binds }, few });
}

void KeysetQuery::orderBy(const QString& column)
{
    m_orderColumn = column;
}

// " ORDER BY key..., id LIMIT ?" (the empty keys left out), all descending when asked.
static QString orderClause(const QStringList& keys, bool descending)
{
    const QString direction = descending ? QStringLiteral(" DESC") : QString();
    QString clause = QStringLiteral(" ORDER BY ");
    for (const QString& key : keys) {
        if (!key.isEmpty())
            clause += key + direction + QStringLiteral(", ");
    }
    return clause + QStringLiteral("id") + direction + QStringLiteral(" LIMIT ?::int");
}

void KeysetQuery::orderBranchesWithin(const QString& column)
{
    m_branchColumn = column;
}

void KeysetQuery::collectBeforeOrdering()
{
    m_collectFirst = true;
}

QString KeysetQuery::orderedBy(const QString& key, bool descending) const
{
    return orderClause({ m_orderColumn.isEmpty() ? QString() : key }, descending);
}

QString KeysetQuery::selectFrom(const QString& columns) const
{
    // The order column under a name of its own, on which branches are merged whatever the selected columns are.
    const QString key = m_orderColumn.isEmpty()
        ? QString()
        : QStringLiteral(", ") + m_orderColumn + QStringLiteral(" AS keyset_order");
    return QStringLiteral("SELECT ") + columns + key + QStringLiteral(" FROM ") + m_table + QStringLiteral(" WHERE ");
}

SqlFragment KeysetQuery::restriction(bool descending, qint64 cursor) const
{
    SqlFragment common;
    for (const SqlFragment& condition : m_conditions) {
        common.sql += QStringLiteral(" AND ") + condition.sql;
        common.binds += condition.binds;
    }
    if (cursor <= 0)
        return common;
    const QString comparison = descending ? QStringLiteral(" < ") : QStringLiteral(" > ");
    if (m_orderColumn.isEmpty()) {
        common.sql += QStringLiteral(" AND id") + comparison + QStringLiteral("?::bigint");
        common.binds.append(cursor);
    } else {
        common.sql += QStringLiteral(" AND (%1, id)%2((SELECT %1 FROM %3 WHERE id = ?::bigint), ?::bigint)")
                          .arg(m_orderColumn, comparison, m_table);
        common.binds += QVariantList { cursor, cursor };
    }
    return common;
}

SqlFragment KeysetQuery::build(bool descending, qint64 cursor, int limit) const
{
    const SqlFragment common = restriction(descending, cursor);
    const QString select = selectFrom(m_columns);
    if (m_collectFirst) {
        // OFFSET 0 keeps the planner from pushing the ORDER BY ... LIMIT into the search; only the keys of the
        // matches are collected, the columns are read for the page's rows alone.
        QStringList alternatives;
        QVariantList binds;
        for (const Branch& branch : m_branches) {
            alternatives.append(QLatin1Char('(') + branch.condition.sql + QLatin1Char(')'));
            binds += branch.condition.binds;
        }
        if (alternatives.isEmpty())
            alternatives.append(QStringLiteral("true"));
        binds += common.binds + QVariantList { limit, limit };
        return { select + QStringLiteral("id IN (SELECT id FROM (") + selectFrom(QStringLiteral("id"))
                + QLatin1Char('(') + alternatives.join(QStringLiteral(" OR ")) + QLatin1Char(')') + common.sql
                + QStringLiteral(" OFFSET 0) collected") + orderedBy(QStringLiteral("keyset_order"), descending)
                + QLatin1Char(')') + orderedBy(m_orderColumn, descending),
            binds };
    }
    if (m_branches.isEmpty())
        return { select + QStringLiteral("true") + common.sql + orderedBy(m_orderColumn, descending),
            common.binds + QVariantList { limit } };

    QStringList parts;
    QVariantList binds;
    for (const Branch& branch : m_branches) {
        // A branch with a test walks the key order only when the test fails; the test is a one-time filter, so the
        // part it rules out is not executed.
        SqlFragment walked = branch.condition + common;
        if (!branch.few.test.sql.isEmpty()) {
            walked += SqlFragment(
                QStringLiteral(" AND NOT (") + branch.few.test.sql + QLatin1Char(')'), branch.few.test.binds);
            // The collecting part reads the matches' keys in the index's order, which its LIMIT (never reached
            // while the test holds) keeps the planner to, and computes the columns of the page's rows alone.
            parts.append(QLatin1Char('(') + select + QStringLiteral("id IN (SELECT id FROM (")
                + selectFrom(QStringLiteral("id")) + branch.condition.sql + common.sql + QStringLiteral(" AND (")
                + branch.few.test.sql + QStringLiteral(") ORDER BY ") + branch.few.order
                + QStringLiteral(" LIMIT ?::int) collected") + orderedBy(QStringLiteral("keyset_order"), descending)
                + QLatin1Char(')') + orderedBy(m_orderColumn, descending) + QLatin1Char(')'));
            binds += branch.condition.binds + common.binds + branch.few.test.binds
                + QVariantList { branch.few.limit, limit, limit };
        }
        // The branch's column first (orderBranchesWithin()): the same value on every row of the branch.
        parts.append(QLatin1Char('(') + select + walked.sql + orderClause({ m_branchColumn, m_orderColumn }, descending)
            + QLatin1Char(')'));
        binds += walked.binds + QVariantList { limit };
    }
    binds.append(limit);
    return { QStringLiteral("SELECT * FROM (") + parts.join(QStringLiteral(" UNION ALL ")) + QStringLiteral(") merged")
            + orderedBy(QStringLiteral("keyset_order"), descending),
        binds };
}

SqlFragment KeysetQuery::buildWithin(
    int window, const SqlFragment& condition, bool descending, qint64 cursor, int limit) const
{
    const SqlFragment inner = build(descending, cursor, window);
    return { QStringLiteral("SELECT * FROM (") + inner.sql + QStringLiteral(") windowed WHERE ") + condition.sql
            + orderedBy(QStringLiteral("keyset_order"), descending),
        inner.binds + condition.binds + QVariantList { limit } };
}
