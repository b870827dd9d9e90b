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

    // A branch whose condition no index serves in key order and whose matches may be few or many (rows overdue
    // since a time): walking the key order reads every row up to the page's last match, which is the whole status
    // when none matches, while collecting the matches and ordering them costs as many as they are. While
    // `few.test` holds (a cheap condition the query evaluates once, true only when fewer than `few.limit` rows can
    // match), the matches are collected in `few.order` (that of an index serving the condition) and then ordered;
    // otherwise the key order is walked.
    struct FewMatches {
        SqlFragment test;
        QString order;
        int limit = 0;
    };
    void addBranch(const QString& sql, const QVariantList& binds, const FewMatches& few);

    // Orders by `column`, then id, instead of by id alone (e.g. created_at while a created-time range is set, so
    // that an index on (status, column, id) finds the range wherever it lies). The cursor stays the id of the last
    // row seen; its value of `column` is read from the table, so `column` must never change. A cursor row deleted
    // meanwhile ends the list.
    void orderBy(const QString& column);

    // Each branch's rows share one value of `column` (the status a branch is for), which then leads each branch's
    // order: an index leading with the column serves the branch's walk in order even where the branch says
    // "column IS NULL", which the planner, unlike "column = value", does not take for a constant.
    void orderBranchesWithin(const QString& column);

    // Reads every matching row the way the planner finds cheapest for the whole set, then orders them, instead of
    // walking an index in key order: for a condition whose index yields rows in no useful order (a trigram
    // search), where the walk in key order would read the whole table when matches are rare. The branches become
    // one condition. The cost grows with the number of matches, not with the table.
    void collectBeforeOrdering();

    // At most `limit` rows beyond `cursor` (0 = from the start), newest first when `descending`.
    SqlFragment build(bool descending, qint64 cursor, int limit) const;

    // The rows among the first `window` rows build() would give that also satisfy `condition` (over the selected
    // columns, by name), at most `limit`, in the same order. When there are `limit` of them they are exactly the
    // page build() with `condition` added would give: every row before the last of them was looked at.
    SqlFragment buildWithin(int window, const SqlFragment& condition, bool descending, qint64 cursor, int limit) const;

private:
    QString orderedBy(const QString& key, bool descending) const;
    QString selectFrom(const QString& columns) const;
    // The conditions and the cursor, each as " AND ...".
    SqlFragment restriction(bool descending, qint64 cursor) const;

    QString m_table;
    QString m_columns;
    QString m_orderColumn;
    QString m_branchColumn;
    bool m_collectFirst = false;
    QList<SqlFragment> m_conditions;
    struct Branch {
        SqlFragment condition;
        // Without a test: always walked in key order.
        FewMatches few;
    };
    QList<Branch> m_branches;
};
