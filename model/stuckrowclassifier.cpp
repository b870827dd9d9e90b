#include "stuckrowclassifier.h"

#include "outboxrepository.h"

StuckRowClassifier::StuckRowClassifier(qint64 thresholdMs)
    : m_thresholdMs(thresholdMs)
{ }

StuckRowClassifier::Kind StuckRowClassifier::classify(const OutboxRowSummary& row, const QDateTime& now) const
{
    if (row.status == QLatin1String("dead"))
        return Kind::Dead;
    if (row.status == QLatin1String("in_flight"))
        return row.leaseExpiresAt.isValid() && row.leaseExpiresAt < now ? Kind::LeaseExpired : Kind::NotStuck;
    if (row.status == QLatin1String("pending") || row.status == QLatin1String("failed"))
        return row.nextAttemptAt.isValid() && row.nextAttemptAt.msecsTo(now) > m_thresholdMs ? Kind::Overdue
                                                                                             : Kind::NotStuck;
    return Kind::NotStuck;
}

QString StuckRowClassifier::condition(const QString& status)
{
    if (status == QLatin1String("dead"))
        return QStringLiteral("true");
    if (status == QLatin1String("in_flight"))
        return QStringLiteral("lease_expires_at < now()");
    if (status == QLatin1String("pending") || status == QLatin1String("failed"))
        return QStringLiteral("next_attempt_at < now() - ?::bigint * interval '1 millisecond'");
    return {};
}

bool StuckRowClassifier::needsThreshold(const QString& status)
{
    return status == QLatin1String("pending") || status == QLatin1String("failed");
}

QString StuckRowClassifier::describe(Kind kind)
{
    switch (kind) {
    case Kind::NotStuck:
        return {};
    case Kind::LeaseExpired:
        return QStringLiteral("in flight, but the worker's lease has expired");
    case Kind::Overdue:
        return QStringLiteral("due, but no relay has picked it up");
    case Kind::Dead:
        return QStringLiteral("dead: gave up after the maximum attempts");
    }
    return {};
}
