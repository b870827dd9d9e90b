// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "idempotency/keystatus.h"
#include "outbox/outboxstatus.h"
#include "support/testdatabase.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>
#include <algorithm>
#include <functional>

// What the tests of the console's queries (outbox, keys, operations) share: building filters, checking and
// walking keyset pages, and seeding outbox rows.
namespace QueryTesting {

// Statuses named as in SQL, so that test tables read like the queries they check.
template<typename Names> auto parsedStatuses(const Names& names, const QStringList& list)
{
    auto statuses = names.valuesNamed(list);
    if (statuses.size() != list.size())
        qFatal("unknown status in a test table: %s", qPrintable(list.join(QStringLiteral(", "))));
    return statuses;
}
inline QList<OutboxStatus> outboxStatuses(const QStringList& names)
{
    return parsedStatuses(OutboxStatusNames, names);
}
inline QList<KeyStatus> keyStatuses(const QStringList& names)
{
    return parsedStatuses(KeyStatusNames, names);
}

// A filter with just the fields a case sets. (Designated initializers would read better, but GCC 12 warns
// about every member they leave out.)
template<typename T> T with(const std::function<void(T&)>& set)
{
    T value;
    set(value);
    return value;
}

inline QDateTime utc(int month, int day, int hour)
{
    return QDateTime(QDate(2024, month, day), QTime(hour, 0), Qt::UTC);
}

inline bool strictlyDescending(const QList<qint64>& ids)
{
    return std::adjacent_find(ids.begin(), ids.end(), std::less_equal<>()) == ids.end();
}

inline bool strictlyAscending(const QList<qint64>& ids)
{
    return std::adjacent_find(ids.begin(), ids.end(), std::greater_equal<>()) == ids.end();
}

// Follows a keyset cursor the way the console does (the last id of a page starts the next) and returns
// the pages as read, so the caller can check how they fit together. The guard stops a cursor that never ends.
inline QList<QList<qint64>> walkPages(int pageSize, const std::function<QList<qint64>(qint64 cursor)>& fetch)
{
    QList<QList<qint64>> pages;
    qint64 cursor = 0;
    for (int guard = 0; guard < 1000; ++guard) {
        const QList<qint64> ids = fetch(cursor);
        if (!ids.isEmpty())
            pages.append(ids);
        if (ids.size() < pageSize)
            break;
        cursor = ids.last();
    }
    return pages;
}

inline QList<qint64> flattened(const QList<QList<qint64>>& pages)
{
    QList<qint64> all;
    for (const QList<qint64>& page : pages)
        all += page;
    return all;
}

// `rows` outbox rows in `status` (in-flight ones with a live lease, as a claim leaves them), then adjusted
// by the SQL `assignments`, e.g. "next_attempt_at = now() - interval '10 minutes'". Returns the last id;
// the ids of one call are consecutive.
inline qint64 addRows(TestDatabase& db, int rows, const QString& status, const QString& assignments = {})
{
    const qint64 last
        = db.scalar(
                QStringLiteral("WITH s AS (SELECT ?::text AS status), ins AS ("
                               "  INSERT INTO outbox (aggregate_type, aggregate_id, event_type, payload, dedupe_key, "
                               "    status, lease_owner, lease_expires_at) "
                               "  SELECT 'order', 'agg-' || g, 'order.created', '{}', gen_random_uuid()::text, "
                               "    s.status, CASE WHEN s.status = 'in_flight' THEN 'relay-1/w0' END, "
                               "    CASE WHEN s.status = 'in_flight' THEN now() + interval '1 minute' END "
                               "  FROM s, generate_series(1, ?::int) g RETURNING id) "
                               "SELECT max(id) FROM ins"),
                { status, rows })
              .toLongLong();
    if (!assignments.isEmpty())
        db.exec(QStringLiteral("UPDATE outbox SET %1 WHERE id > ?::bigint").arg(assignments), { last - rows });
    return last;
}

inline qint64 addRow(TestDatabase& db, const QString& status, const QString& assignments = {})
{
    return addRows(db, 1, status, assignments);
}

inline QString statusOf(TestDatabase& db, qint64 id)
{
    return db.scalar(QStringLiteral("SELECT status FROM outbox WHERE id = ?::bigint"), { id }).toString();
}

// The rows `session` fetched through indexes from the outbox's partitions that the server has not yet added to its
// statistics (pg_stat_xact_user_tables: those of its transaction, and perhaps of its last ones): the rows a read
// fetched are the difference across it, within one transaction.
inline qint64 outboxRowsFetched(DbSession& session)
{
    QSqlQuery& q = session.exec(QStringLiteral("SELECT sum(idx_tup_fetch) FROM pg_stat_xact_user_tables "
                                               "WHERE relname LIKE 'outbox_from%'"),
        {}, QStringLiteral("counting the rows fetched"));
    return q.next() ? q.value(0).toLongLong() : -1;
}

} // namespace QueryTesting
