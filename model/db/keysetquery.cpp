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
    m_branches.append({ sql, binds });
}

void KeysetQuery::orderBy(const QString& column)
{
    m_orderColumn = column;
}

// " ORDER BY key, id LIMIT ?" (without `key` when it is empty), both descending when asked.
static QString orderClause(const QString& key, bool descending)
{
    const QString direction = descending ? QStringLiteral(" DESC") : QString();
    return QStringLiteral(" ORDER BY ") + (key.isEmpty() ? QString() : key + direction + QStringLiteral(", "))
        + QStringLiteral("id") + direction + QStringLiteral(" LIMIT ?::int");
}

SqlFragment KeysetQuery::buildWithin(
    int window, const SqlFragment& condition, bool descending, qint64 cursor, int limit) const
{
    const SqlFragment inner = build(descending, cursor, window);
    return { QStringLiteral("SELECT * FROM (") + inner.sql + QStringLiteral(") windowed WHERE ") + condition.sql
            + orderClause(m_orderColumn.isEmpty() ? QString() : QStringLiteral("keyset_order"), descending),
        inner.binds + condition.binds + QVariantList { limit } };
}

void KeysetQuery::collectBeforeOrdering()
{
    m_collectFirst = true;
}

SqlFragment KeysetQuery::build(bool descending, qint64 cursor, int limit) const
{
    const QString comparison = descending ? QStringLiteral(" < ") : QStringLiteral(" > ");
    const bool byColumn = !m_orderColumn.isEmpty();
    QString common;
    QVariantList commonBinds;
    for (const SqlFragment& condition : m_conditions) {
        common += QStringLiteral(" AND ") + condition.sql;
        commonBinds += condition.binds;
    }
    if (cursor > 0 && !byColumn) {
        common += QStringLiteral(" AND id") + comparison + QStringLiteral("?::bigint");
        commonBinds.append(cursor);
    } else if (cursor > 0) {
        common += QStringLiteral(" AND (%1, id)%2((SELECT %1 FROM %3 WHERE id = ?::bigint), ?::bigint)")
                      .arg(m_orderColumn, comparison, m_table);
        commonBinds += QVariantList { cursor, cursor };
    }
    const auto orderedBy = [&](const QString& key) { return orderClause(byColumn ? key : QString(), descending); };
    commonBinds.append(limit);
    // The branches are merged on a column of their own, whatever the selected columns are.
    const QString select = QStringLiteral("SELECT ") + m_columns
        + (byColumn ? QStringLiteral(", ") + m_orderColumn + QStringLiteral(" AS keyset_order") : QString())
        + QStringLiteral(" FROM ") + m_table + QStringLiteral(" WHERE ");
    if (m_collectFirst) {
        // OFFSET 0 keeps the planner from pushing the ORDER BY ... LIMIT into the search; only the keys of the
        // matches are collected, the columns are read for the page's rows alone.
        QStringList alternatives;
        QVariantList binds;
        for (const SqlFragment& branch : m_branches) {
            alternatives.append(QLatin1Char('(') + branch.sql + QLatin1Char(')'));
            binds += branch.binds;
        }
        if (alternatives.isEmpty())
            alternatives.append(QStringLiteral("true"));
        binds += commonBinds;
        binds.append(limit);
        const QString key = byColumn ? QStringLiteral("id, ") + m_orderColumn + QStringLiteral(" AS keyset_order")
                                     : QStringLiteral("id");
        return { select + QStringLiteral("id IN (SELECT id FROM (SELECT ") + key + QStringLiteral(" FROM ") + m_table
                + QStringLiteral(" WHERE (") + alternatives.join(QStringLiteral(" OR ")) + QLatin1Char(')') + common
                + QStringLiteral(" OFFSET 0) collected") + orderedBy(QStringLiteral("keyset_order")) + QLatin1Char(')')
                + orderedBy(m_orderColumn),
            binds };
    }
    if (m_branches.isEmpty())
        return { select + QStringLiteral("true") + common + orderedBy(m_orderColumn), commonBinds };

    QStringList parts;
    QVariantList binds;
    for (const SqlFragment& branch : m_branches) {
        parts.append(QLatin1Char('(') + select + branch.sql + common + orderedBy(m_orderColumn) + QLatin1Char(')'));
        binds += branch.binds + commonBinds;
    }
    binds.append(limit);
    return { QStringLiteral("SELECT * FROM (") + parts.join(QStringLiteral(" UNION ALL ")) + QStringLiteral(") merged")
            + orderedBy(QStringLiteral("keyset_order")),
        binds };
}
