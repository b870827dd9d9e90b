// SPDX-License-Identifier: GPL-3.0-or-later
#include "outbox/outboxlogbounds.h"

#include "db/dbsession.h"

#include <QSqlQuery>
#include <QVariant>

bool OutboxLogBounds::neededFor(const QList<OutboxStatus>& statuses, bool eachStatusApart)
{
    const qsizetype ofLog = std::count_if(statuses.cbegin(), statuses.cend(), [](OutboxStatus status) {
        return status == OutboxStatus::Pending || status == OutboxStatus::InFlight || status == OutboxStatus::Published;
    });
    return eachStatusApart ? ofLog > 0 : ofLog > 0 && ofLog < 3;
}

OutboxLogBounds OutboxLogBounds::readFrom(DbSession& session, std::optional<qint64> firstId)
{
    QSqlQuery& q = session.exec(
        QStringLiteral("SELECT outbox_log_floor(?::bigint), outbox_log_published_through(), "
                       "  (SELECT min(l.range_first_id) FROM outbox_lanes l WHERE l.claimed_through IS NOT NULL), "
                       "  (SELECT max(l.claimed_through) FROM outbox_lanes l)"),
        { firstId ? QVariant(*firstId) : QVariant(QMetaType::fromType<qint64>()) },
        QStringLiteral("reading the log's bounds"));
    q.next();
    const auto optionalId = [](const QVariant& value) {
        return value.isNull() ? std::nullopt : std::optional<qint64>(value.toLongLong());
    };
    return OutboxLogBounds { optionalId(q.value(0)), q.value(1).toLongLong(), optionalId(q.value(2)),
        optionalId(q.value(3)), true };
}
