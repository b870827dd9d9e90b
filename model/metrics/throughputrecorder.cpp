// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/throughputrecorder.h"

#include "db/unitofwork.h"
#include "metrics/throughputrepository.h"

#include <QDateTime>

void ThroughputRecorder::record(const QString& eventType, const Counts& counts)
{
    // The clock is read under the lock: a count can never land in a second that a flush has taken already.
    QMutexLocker lock(&m_mutex);
    m_pending[QDateTime::currentSecsSinceEpoch()][eventType].add(counts);
}

void ThroughputRecorder::flush(DbSession& session, qint64 relayId, Seconds which)
{
    // The second still running stays, unless the relay stops: its counts are partial, and a partial second added as
    // if whole would read as a drop in the rate.
    QList<ThroughputRepository::AddedSecond> added;
    QMap<qint64, QHash<QString, Counts>> taken;
    qint64 now = 0;
    {
        QMutexLocker lock(&m_mutex);
        now = QDateTime::currentSecsSinceEpoch();
        const qint64 end = which == Seconds::All ? now + 1 : now;
        while (!m_pending.isEmpty() && m_pending.firstKey() < end) {
            const qint64 second = m_pending.firstKey();
            taken.insert(second, m_pending.take(second));
        }
    }
    for (auto second = taken.cbegin(); second != taken.cend(); ++second) {
        for (auto type = second->cbegin(); type != second->cend(); ++type)
            added.append({ now - second.key(), type.key(), type->published, type->failed, type->dead });
    }
    try {
        UnitOfWork uow(session);
        ThroughputRepository repository(session);
        repository.add(added);
        if (relayId != 0)
            repository.markCounted(relayId);
        repository.expire();
        uow.commit();
    } catch (...) {
        QMutexLocker lock(&m_mutex);
        for (auto second = taken.cbegin(); second != taken.cend(); ++second) {
            for (auto type = second->cbegin(); type != second->cend(); ++type)
                m_pending[second.key()][type.key()].add(*type);
        }
        throw;
    }
}
