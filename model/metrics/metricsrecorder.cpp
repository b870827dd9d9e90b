// SPDX-License-Identifier: GPL-3.0-or-later
#include "metrics/metricsrecorder.h"

#include "db/unitofwork.h"
#include "metrics/metricsrepository.h"

#include <QDateTime>
#include <QRandomGenerator>

MetricsRecorder::MetricsRecorder()
    : MetricsRecorder(int(QRandomGenerator::global()->bounded(MetricsRepository::ShardCount)))
{ }

MetricsRecorder::MetricsRecorder(int shard)
    : m_shard(shard)
{ }

void MetricsRecorder::record(const std::function<void(MetricCounters&)>& change)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 minute = now - now % 60'000;
    QMutexLocker lock(&m_mutex);
    change(m_pending[minute]);
}

void MetricsRecorder::flush(DbSession& session)
{
    QMap<qint64, MetricCounters> taken;
    {
        QMutexLocker lock(&m_mutex);
        taken.swap(m_pending);
    }
    if (taken.isEmpty())
        return;
    try {
        UnitOfWork uow(session);
        MetricsRepository(session).addRollups(m_shard, taken);
        uow.commit();
    } catch (...) {
        QMutexLocker lock(&m_mutex);
        for (auto it = taken.cbegin(); it != taken.cend(); ++it)
            m_pending[it.key()].add(it.value());
        throw;
    }
}
