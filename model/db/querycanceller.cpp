// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/querycanceller.h"

#include "db/dbsession.h"

#include <libpq-fe.h>

QueryCanceller::~QueryCanceller()
{
    target(nullptr);
}

void QueryCanceller::target(DbSession* session)
{
    PGcancel* handle = session ? PQgetCancel(DbSession::connectionOf(session->database())) : nullptr;
    std::lock_guard lock(m_mutex);
    if (m_handle)
        PQfreeCancel(m_handle);
    m_handle = handle;
}

QString QueryCanceller::cancel()
{
    std::lock_guard lock(m_mutex);
    if (!m_handle)
        return QStringLiteral("not connected");
    char reason[256] = {};
    // PQcancel is documented as safe to call from any thread while another thread uses the connection.
    if (PQcancel(m_handle, reason, int(sizeof reason)) == 1)
        return {};
    return QString::fromLocal8Bit(reason).trimmed();
}
