#include "changenotifier.h"

#include "dbsession.h"
#include "outboxerror.h"

#include <QDateTime>
#include <atomic>

const QString ChangeNotifier::Channel = QStringLiteral("outbox_changed");

void ChangeNotifier::notify(DbSession& session)
{
    static std::atomic<qint64> lastSentMs { 0 };
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    qint64 last = lastSentMs.load();
    if (now - last < MinIntervalMs || !lastSentMs.compare_exchange_strong(last, now))
        return;
    try {
        session.exec(
            QStringLiteral("SELECT pg_notify(?::text, '')"), { Channel }, QStringLiteral("notifying listeners"));
    } catch (const OutboxError&) {
        // Listeners fall back to their refresh interval.
    }
}
