// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/changenotifier.h"

#include "db/dbsession.h"
#include "db/outboxerror.h"

#include <QDateTime>
#include <QSqlDriver>
#include <atomic>

const QString ChangeNotifier::Channel = QStringLiteral("outbox_changed");

void ChangeNotifier::subscribe(DbSession& session, QObject* context, std::function<void()> onChange)
{
    QSqlDriver* driver = session.database().driver();
    QObject::connect(driver, &QSqlDriver::notification, context, [onChange = std::move(onChange)] { onChange(); });
    driver->subscribeToNotification(Channel);
    session.noteListening();
}

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
