// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/natsconnection.h"

#include "db/outboxerror.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <memory>
#include <vector>

NatsConnection::NatsConnection(const NatsEndpoint& endpoint, const QString& clientName)
    : m_endpoint(endpoint)
{
    natsOptions* rawOptions = nullptr;
    if (natsOptions_Create(&rawOptions) != NATS_OK)
        fail(QStringLiteral("connecting"), describe(NATS_NO_MEMORY));
    const std::unique_ptr<natsOptions, decltype(&natsOptions_Destroy)> options(rawOptions, &natsOptions_Destroy);
    std::vector<QByteArray> urls;
    for (const QString& url : endpoint.serverUrls())
        urls.push_back(url.toUtf8());
    std::vector<const char*> servers;
    for (const QByteArray& url : urls)
        servers.push_back(url.constData());
    const QByteArray user = endpoint.user.toUtf8();
    const QByteArray password = endpoint.password.toUtf8();
    const QByteArray name = clientName.toUtf8();
    natsStatus status = natsOptions_SetServers(options.get(), servers.data(), int(servers.size()));
    // nats://USER:PASSWORD@… logs in as a user; nats://TOKEN@… with a token.
    if (status == NATS_OK && !endpoint.user.isEmpty() && !endpoint.password.isEmpty())
        status = natsOptions_SetUserInfo(options.get(), user.constData(), password.constData());
    else if (status == NATS_OK && !endpoint.user.isEmpty())
        status = natsOptions_SetToken(options.get(), user.constData());
    if (status == NATS_OK)
        status = natsOptions_SetName(options.get(), name.constData());
    // Each server gets 3 s to take the connection, as each AMQP node does (PeerLiveness::Broker).
    if (status == NATS_OK)
        status = natsOptions_SetTimeout(options.get(), 3'000);
    if (status == NATS_OK)
        status = natsOptions_SetMaxReconnect(options.get(), -1);
    if (status == NATS_OK)
        status = natsOptions_SetReconnectWait(options.get(), 250);
    if (status == NATS_OK)
        status = natsOptions_SetReconnectJitter(options.get(), 250, 0);
    if (status == NATS_OK)
        status = natsOptions_SetPingInterval(options.get(), 2'000);
    if (status == NATS_OK)
        status = natsOptions_SetMaxPingsOut(options.get(), 2);
    // A request waiting for its reply when the connection breaks fails at once rather than when its time is up.
    if (status == NATS_OK)
        status = natsOptions_SetFailRequestsOnDisconnect(options.get(), true);
    if (status != NATS_OK)
        fail(QStringLiteral("configuring the client"), describe(status));
    status = natsConnection_Connect(&m_connection, options.get());
    if (status != NATS_OK)
        fail(QStringLiteral("connecting"), describe(status));
}

NatsConnection::~NatsConnection()
{
    close();
    natsConnection_Destroy(m_connection);
}

void NatsConnection::close()
{
    if (natsConnection_Status(m_connection) != NATS_CONN_STATUS_CLOSED)
        natsConnection_Close(m_connection);
}

bool NatsConnection::isConnected() const
{
    return natsConnection_Status(m_connection) == NATS_CONN_STATUS_CONNECTED;
}

QString NatsConnection::connectedServer() const
{
    char url[512] = {};
    if (!isConnected() || natsConnection_GetConnectedUrl(m_connection, url, sizeof url) != NATS_OK)
        return {};
    QString server = QString::fromUtf8(url);
    if (const qsizetype scheme = server.indexOf(QLatin1String("://")); scheme >= 0)
        server = server.mid(scheme + 3);
    if (const qsizetype at = server.lastIndexOf(QLatin1Char('@')); at >= 0)
        server = server.mid(at + 1);
    return server;
}

QJsonObject NatsConnection::jetStreamRequest(const QString& api, const QJsonObject& body, int timeoutMs) const
{
    const QByteArray subject = QStringLiteral("$JS.API.%1").arg(api).toUtf8();
    const QByteArray request = QJsonDocument(body).toJson(QJsonDocument::Compact);
    natsMsg* rawReply = nullptr;
    const natsStatus status = natsConnection_Request(
        &rawReply, m_connection, subject.constData(), request.constData(), int(request.size()), timeoutMs);
    const std::unique_ptr<natsMsg, decltype(&natsMsg_Destroy)> reply(rawReply, &natsMsg_Destroy);
    const QString doing = QStringLiteral("asking JetStream (%1)").arg(QString::fromUtf8(subject));
    if (status == NATS_NO_RESPONDERS)
        fail(doing, QStringLiteral("no server answered: is JetStream enabled on the servers?"));
    if (status != NATS_OK)
        fail(doing, describe(status));
    const QJsonObject answer
        = QJsonDocument::fromJson(QByteArray(natsMsg_GetData(reply.get()), natsMsg_GetDataLength(reply.get())))
              .object();
    if (const QJsonObject error = answer.value(QLatin1String("error")).toObject(); !error.isEmpty())
        fail(doing,
            QStringLiteral("JetStream error %1: %2")
                .arg(error.value(QLatin1String("err_code")).toInt())
                .arg(error.value(QLatin1String("description")).toString()));
    return answer;
}

bool NatsConnection::streamTakes(const QString& subjects, int timeoutMs) const
{
    const QJsonObject names = jetStreamRequest(
        QStringLiteral("STREAM.NAMES"), QJsonObject { { QStringLiteral("subject"), subjects } }, timeoutMs);
    return !names.value(QLatin1String("streams")).toArray().isEmpty();
}

void NatsConnection::fail(const QString& doing, const QString& reason) const
{
    throw OutboxError(
        OutboxError::Kind::Broker, QStringLiteral("%1 (%2): %3").arg(doing, m_endpoint.display(), reason));
}

QString NatsConnection::describe(natsStatus status)
{
    natsStatus last = NATS_OK;
    const char* detail = nats_GetLastError(&last);
    const QString text = QString::fromUtf8(natsStatus_GetText(status));
    return detail && *detail && last == status ? QStringLiteral("%1 (%2)").arg(text, QString::fromUtf8(detail)) : text;
}
