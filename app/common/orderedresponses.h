// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHttpServerResponder>
#include <QHttpServerResponse>
#include <QObject>
#include <map>
#include <memory>

class QTcpSocket;

// The answers of one HTTP connection, written in the order its requests arrived. A route that answers later (its
// work runs on a pool) takes a ticket when the request arrives; with HTTP/1.1 pipelining a client may send the next
// request before the first is answered, and the pool may finish them in any order. A child of the socket: when the
// client goes away it is destroyed with it, and answers still to come are dropped (QPointer to it).
class OrderedResponses final : public QObject {
    Q_OBJECT
public:
    // The connection's instance, created on first use. HTTP thread only.
    static OrderedResponses* of(QTcpSocket* socket);

    quint64 takeTicket() { return m_nextTicket++; }

    // Writes `response` for `ticket` once every earlier ticket was answered.
    void answer(quint64 ticket, QHttpServerResponder&& responder, QHttpServerResponse&& response);

private:
    explicit OrderedResponses(QTcpSocket* socket);

    struct Ready {
        QHttpServerResponder responder;
        QHttpServerResponse response;
    };
    quint64 m_nextTicket = 0;
    quint64 m_nextToWrite = 0;
    std::map<quint64, std::unique_ptr<Ready>> m_ready;
};
