// SPDX-License-Identifier: GPL-3.0-or-later
#include "inbox/inboxprocessor.h"

#include "db/unitofwork.h"
#include "inbox/inboxrepository.h"
#include "metrics/metricsrecorder.h"

InboxProcessor::InboxProcessor(DbSession& session, QString consumer, MetricsRecorder* metrics)
    : m_session(session)
    , m_consumer(std::move(consumer))
    , m_metrics(metrics)
{ }

InboxProcessor::Outcome InboxProcessor::process(const QString& messageId, const std::function<void(DbSession&)>& apply)
{
    UnitOfWork uow(m_session);
    const bool first = InboxRepository(m_session).record(m_consumer, messageId);
    if (first)
        apply(m_session);
    uow.commit(); // a duplicate commits nothing but ends the transaction cleanly
    if (m_metrics) {
        m_metrics->record([first](MetricCounters& c) { ++(first ? c.consumed : c.consumerDuplicates); });
    }
    return first ? Outcome::Applied : Outcome::Duplicate;
}
