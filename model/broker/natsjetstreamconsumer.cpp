// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/natsjetstreamconsumer.h"

#include "broker/natsconnection.h"
#include "db/outboxerror.h"

#include <deque>
#include <map>
#include <nats/nats.h>

struct NatsJetStreamConsumer::Session {
    Q_DISABLE_COPY_MOVE(Session)
    Session() = default;
    ~Session()
    {
        // Not acknowledged: delivered again once their ack wait is over.
        for (natsMsg* message : fetched)
            natsMsg_Destroy(message);
        for (const auto& [tag, message] : handedOut)
            natsMsg_Destroy(message);
        if (subscription)
            natsSubscription_Destroy(subscription);
        if (jetStream)
            jsCtx_Destroy(jetStream);
    }

    std::unique_ptr<NatsConnection> connection;
    jsCtx* jetStream = nullptr;
    natsSubscription* subscription = nullptr;
    std::deque<natsMsg*> fetched; // not yet handed out
    std::map<quint64, natsMsg*> handedOut; // by delivery tag, until acknowledged or rejected
    quint64 lastTag = 0;
};

NatsJetStreamConsumer::NatsJetStreamConsumer(const NatsEndpoint& endpoint, const Options& options)
    : m_endpoint(endpoint)
    , m_options(options)
    , m_session(std::make_unique<Session>())
{
    m_session->connection = std::make_unique<NatsConnection>(endpoint, QStringLiteral("outboxctl consume"));
    const NatsConnection& connection = *m_session->connection;
    if (const natsStatus status = natsConnection_JetStream(&m_session->jetStream, connection.handle(), nullptr);
        status != NATS_OK)
        connection.fail(QStringLiteral("opening JetStream"), NatsConnection::describe(status));
    const QByteArray subjects = endpoint.subjects().toUtf8();
    const QByteArray durable = options.durable.toUtf8();
    jsSubOptions subscribe;
    jsSubOptions_Init(&subscribe);
    subscribe.Config.Durable = durable.constData();
    subscribe.Config.AckPolicy = js_AckExplicit;
    subscribe.Config.DeliverPolicy = js_DeliverAll;
    subscribe.Config.AckWait = qint64(30) * 1'000'000'000;
    subscribe.Config.FilterSubject = subjects.constData();
    jsErrCode code = jsErrCode(0);
    const natsStatus status = js_PullSubscribe(&m_session->subscription, m_session->jetStream, subjects.constData(),
        durable.constData(), nullptr, &subscribe, &code);
    if (status != NATS_OK)
        connection.fail(
            QStringLiteral("subscribing to the durable consumer %1 on %2").arg(options.durable, endpoint.subjects()),
            code != 0 ? QStringLiteral("JetStream error %1: %2").arg(int(code)).arg(NatsConnection::describe(status))
                      : NatsConnection::describe(status));
}

NatsJetStreamConsumer::~NatsJetStreamConsumer() = default;

QString NatsJetStreamConsumer::node() const
{
    return m_session->connection->connectedServer();
}

std::optional<NatsDelivery> NatsJetStreamConsumer::next(int timeoutMs)
{
    Session& session = *m_session;
    if (session.fetched.empty()) {
        natsMsgList list {};
        jsErrCode code = jsErrCode(0);
        const natsStatus status
            = natsSubscription_Fetch(&list, session.subscription, m_options.prefetch, timeoutMs, &code);
        if (status == NATS_TIMEOUT)
            return std::nullopt;
        if (status != NATS_OK)
            session.connection->fail(QStringLiteral("fetching from the durable consumer %1").arg(m_options.durable),
                NatsConnection::describe(status));
        for (int i = 0; i < list.Count; ++i) {
            session.fetched.push_back(list.Msgs[i]);
            list.Msgs[i] = nullptr; // kept: natsMsgList_Destroy below frees only the array
        }
        natsMsgList_Destroy(&list);
        if (session.fetched.empty())
            return std::nullopt;
    }
    natsMsg* message = session.fetched.front();
    session.fetched.pop_front();
    NatsDelivery delivery;
    delivery.deliveryTag = ++session.lastTag;
    session.handedOut.emplace(delivery.deliveryTag, message);
    const char* id = nullptr;
    if (natsMsgHeader_Get(message, "Nats-Msg-Id", &id) == NATS_OK && id)
        delivery.messageId = QString::fromUtf8(id);
    delivery.subject = QString::fromUtf8(natsMsg_GetSubject(message));
    const QString prefix = m_endpoint.subjectPrefix + QLatin1Char('.');
    delivery.eventType = delivery.subject.startsWith(prefix) ? delivery.subject.mid(prefix.size()) : delivery.subject;
    delivery.body = QByteArray(natsMsg_GetData(message), natsMsg_GetDataLength(message));
    return delivery;
}

void NatsJetStreamConsumer::ack(quint64 deliveryTag)
{
    settle(deliveryTag, true);
}

void NatsJetStreamConsumer::reject(quint64 deliveryTag)
{
    settle(deliveryTag, false);
}

void NatsJetStreamConsumer::settle(quint64 deliveryTag, bool accepted)
{
    const auto it = m_session->handedOut.find(deliveryTag);
    if (it == m_session->handedOut.end())
        return;
    natsMsg* message = it->second;
    m_session->handedOut.erase(it);
    const natsStatus status = accepted ? natsMsg_Ack(message, nullptr) : natsMsg_Term(message, nullptr);
    natsMsg_Destroy(message);
    if (status != NATS_OK)
        m_session->connection->fail(
            accepted ? QStringLiteral("acknowledging a delivery") : QStringLiteral("rejecting a delivery"),
            NatsConnection::describe(status));
}
