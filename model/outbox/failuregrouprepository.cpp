// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/failuregrouprepository.h"

#include "db/dbsession.h"
#include "db/sqlvalues.h"

#include <QJsonArray>
#include <QJsonDocument>

FailureGroupRepository::FailureGroupRepository(DbSession& session)
    : m_session(session)
{ }

// Only failed and dead rows are in the index; the filter can narrow to one of the two.
static QString statusArray(const QList<OutboxStatus>& statuses)
{
    QList<OutboxStatus> failures;
    for (const OutboxStatus status : SqlValues::distinct(statuses)) {
        if (status == OutboxStatus::Failed || status == OutboxStatus::Dead)
            failures.append(status);
    }
    return SqlValues::nameArray(OutboxStatusNames.names(failures));
}

QList<FailureGroup> FailureGroupRepository::groups(const FailureGroupFilter& filter)
{
    const QString statuses = statusArray(filter.statuses);
    const QVariant since = SqlValues::timestamp(filter.seenSince);
    // The sizes come from the counts the state changes maintain (migration 0008), a few rows per group, so the
    // cost grows with the number of groups and not with the number of failed rows. Without a time filter only the
    // groups shown get the probes of their first and last failure.
    QSqlQuery& q = m_session.exec(
        QStringLiteral(
            "WITH wanted AS (SELECT ?::text[] AS statuses), "
            "sizes AS (SELECT g.* FROM wanted, LATERAL outbox_failure_group_sizes(wanted.statuses, "
            "  CASE WHEN ?::timestamptz IS NULL THEN ?::int END) g), "
            "seen AS ("
            "  SELECT c.*, a.first_seen, a.last_seen FROM sizes c CROSS JOIN LATERAL ("
            "    SELECT min(created_at) AS first_seen, max(created_at) AS last_seen FROM outbox_attempts "
            "    WHERE signature = c.signature) a "
            "  WHERE ?::timestamptz IS NULL OR a.last_seen >= ?::timestamptz "
            "  ORDER BY c.failed + c.dead DESC, c.signature LIMIT ?::int) "
            // Rows whose failures left no attempt rows (written by hand, or purged history) fall back on the
            // sample row's last change.
            "SELECT s.signature, outbox_signature_id(s.signature), s.failed, s.dead, "
            "       epoch_ms(coalesce(s.first_seen, x.updated_at)), epoch_ms(coalesce(s.last_seen, x.updated_at)), "
            "       array_to_json(outbox_failure_event_types(s.signature))::text, x.id, x.last_error, "
            // The keys the group's dead rows block and the rows waiting behind them, each up to the cap: index
            // probes of outbox_failure_group_rows_idx and outbox_ordering_idx, bounded whatever the group's size.
            "       (SELECT count(*) FROM (SELECT 1 FROM outbox d WHERE s.dead > 0 AND d.error_signature = s.signature "
            "          AND d.status = 'dead' AND d.ordering_key IS NOT NULL LIMIT ?::int) k), "
            "       (SELECT count(*) FROM (SELECT 1 FROM outbox d JOIN outbox w ON w.ordering_key = d.ordering_key "
            "          AND w.id > d.id AND w.status = 'waiting' WHERE s.dead > 0 AND d.error_signature = s.signature "
            "          AND d.status = 'dead' AND d.ordering_key IS NOT NULL LIMIT ?::int) h) "
            "FROM seen s LEFT JOIN LATERAL ("
            "  SELECT id, last_error, updated_at FROM outbox o, wanted WHERE o.status IN ('failed', 'dead') "
            "    AND o.status = ANY(wanted.statuses) AND o.error_signature = s.signature LIMIT 1) x ON true "
            "ORDER BY s.failed + s.dead DESC, s.signature"),
        { statuses, since, filter.limit, since, since, filter.limit, FailureGroup::HoldCap, FailureGroup::HoldCap },
        QStringLiteral("reading the failure groups"));
    QList<FailureGroup> groups;
    while (q.next()) {
        FailureGroup group;
        group.signature = q.value(0).toString();
        group.id = q.value(1).toString();
        group.failed = q.value(2).toLongLong();
        group.dead = q.value(3).toLongLong();
        group.firstSeen = SqlValues::instant(q.value(4));
        group.lastSeen = SqlValues::instant(q.value(5));
        for (const auto& type : QJsonDocument::fromJson(q.value(6).toString().toUtf8()).array())
            group.eventTypes.append(type.toString());
        group.sampleId = q.value(7).toLongLong();
        group.sampleError = q.value(8).toString();
        group.blockedKeys = q.value(9).toLongLong();
        group.heldBack = q.value(10).toLongLong();
        groups.append(group);
    }
    return groups;
}

std::optional<QString> FailureGroupRepository::signatureWithId(const QString& id)
{
    // The distinct signatures by a loose index scan: one probe of outbox_failure_groups_idx per group, not a read
    // of every failed row.
    QSqlQuery& q = m_session.exec(
        QStringLiteral("WITH RECURSIVE groups(signature) AS ("
                       "  SELECT min(error_signature) FROM outbox WHERE status IN ('failed', 'dead') "
                       "  UNION ALL "
                       "  SELECT (SELECT min(error_signature) FROM outbox WHERE status IN ('failed', 'dead') "
                       "          AND error_signature > groups.signature) "
                       "  FROM groups WHERE groups.signature IS NOT NULL) "
                       "SELECT signature FROM groups WHERE outbox_signature_id(signature) = ?::text"),
        { id }, QStringLiteral("finding the failure group"));
    if (!q.next())
        return std::nullopt;
    return q.value(0).toString();
}

int FailureGroupRepository::foldCounts()
{
    QSqlQuery& q = m_session.exec(
        QStringLiteral("SELECT outbox_fold_failure_counts()"), {}, QStringLiteral("folding the failure counts"));
    q.next();
    return q.value(0).toInt();
}
