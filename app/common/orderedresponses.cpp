// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/orderedresponses.h"

#include <QTcpSocket>

OrderedResponses::OrderedResponses(QTcpSocket* socket)
    : QObject(socket)
{ }

OrderedResponses* OrderedResponses::of(QTcpSocket* socket)
{
    auto* existing = socket->findChild<OrderedResponses*>(QString(), Qt::FindDirectChildrenOnly);
    return existing ? existing : new OrderedResponses(socket);
}

void OrderedResponses::answer(quint64 ticket, QHttpServerResponder&& responder, QHttpServerResponse&& response)
{
    m_ready.emplace(ticket, std::make_unique<Ready>(Ready { std::move(responder), std::move(response) }));
    for (auto next = m_ready.find(m_nextToWrite); next != m_ready.end(); next = m_ready.find(m_nextToWrite)) {
        const std::unique_ptr<Ready> ready = std::move(next->second);
        m_ready.erase(next);
        ++m_nextToWrite;
        ready->response.write(std::move(ready->responder));
    }
}
