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

SqlFragment KeysetQuery::build(bool descending, qint64 cursor, int limit) const
{
    QString common;
    QVariantList commonBinds;
    for (const SqlFragment& condition : m_conditions) {
        common += QStringLiteral(" AND ") + condition.sql;
        commonBinds += condition.binds;
    }
    if (cursor > 0) {
        common += descending ? QStringLiteral(" AND id < ?::bigint") : QStringLiteral(" AND id > ?::bigint");
        commonBinds.append(cursor);
    }
    const QString order
        = descending ? QStringLiteral(" ORDER BY id DESC LIMIT ?::int") : QStringLiteral(" ORDER BY id LIMIT ?::int");
    commonBinds.append(limit);
    const QString select
        = QStringLiteral("SELECT ") + m_columns + QStringLiteral(" FROM ") + m_table + QStringLiteral(" WHERE ");
    if (m_branches.isEmpty())
        return { select + QStringLiteral("true") + common + order, commonBinds };

    QStringList parts;
    QVariantList binds;
    for (const SqlFragment& branch : m_branches) {
        parts.append(QLatin1Char('(') + select + branch.sql + common + order + QLatin1Char(')'));
        binds += branch.binds + commonBinds;
    }
    binds.append(limit);
    return { QStringLiteral("SELECT * FROM (") + parts.join(QStringLiteral(" UNION ALL ")) + QStringLiteral(") merged")
            + order,
        binds };
}
