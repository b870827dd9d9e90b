// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/sqlfragment.h"

#include <QList>
#include <QString>
#include <QVariantList>

// A page query over a large table, paged by id (keyset, never OFFSET), built from constant SQL fragments
// with every value bound.
class KeysetQuery final {
public:
    KeysetQuery(QString table, QString columns);

    // Every row must satisfy `condition`.
    void require(const QString& sql, const QVariantList& binds = {});

    // Rows must satisfy one of the branches added (typically one per status). Each branch becomes its own
    // index range scan, merged by UNION ALL, because PostgreSQL 15 cannot read "status = ANY(...)" in id
    // order. With no branch added, no such restriction applies.
    void addBranch(const QString& sql, const QVariantList& binds = {});

    // At most `limit` rows beyond `cursor` (0 = from the start), newest first when `descending`.
    SqlFragment build(bool descending, qint64 cursor, int limit) const;

private:
    QString m_table;
    QString m_columns;
    QList<SqlFragment> m_conditions;
    QList<SqlFragment> m_branches;
};
