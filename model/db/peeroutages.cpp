// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/peeroutages.h"

#include "db/outboxerror.h"

PeerOutages::PeerOutages(const QString& brokerName, OutageTracker::Log log)
    : m_log(std::move(log))
    , m_database(QStringLiteral("database"), m_log)
    , m_broker(brokerName, m_log)
{ }

bool PeerOutages::report(const OutboxError& error)
{
    switch (error.kind()) {
    case OutboxError::Kind::Connection:
        m_database.reportDown(error.message());
        return true;
    case OutboxError::Kind::Broker:
        m_broker.reportDown(error.message());
        return true;
    case OutboxError::Kind::Transient:
        m_log(QtWarningMsg, error.message() + QStringLiteral("; retrying"));
        return true;
    default:
        return false;
    }
}
