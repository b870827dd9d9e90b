// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/natsjetstreamsink.h"

#include "broker/natsconnection.h"
#include "db/outboxerror.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <nats/nats.h>

static const char* const MessageIdHeader = "Nats-Msg-Id";

namespace {

// What the stream answered for the batch being published, written by the client's thread (onAck) and read by the
// worker's. Answers are matched to rows by message id: an answer that comes late, to a batch already given up, for a
// row that is published again in the next one, says the same of that row (its message is the same), and counts.
struct PublishAcks {
    std::mutex mutex;
    std::condition_variable answered;
    QHash<QByteArray, QList<qint64>> awaited; // message id -> rows of the batch not yet answered
    qsizetype unanswered = 0;
    QList<PublishResult> results;
    QString outage; // the first answer that was no message's fault
};

// JetStream's refusals that are the message's own fault rather than the stream's state: larger than the stream takes.
// A store failure (10077: a full stream with discard=new, a disk) is the stream's, and waits as an outage rather than
// dead-lettering every row.
bool isMessageRefusal(jsErrCode code)
{
    return code == JSStreamMessageExceedsMaximumErr;
}

// nats.c's handler of every answer to an asynchronous publish, on the client's thread.
void onAck(jsCtx*, natsMsg* message, jsPubAck* ack, jsPubAckErr* error, void* closure)
{
    auto* acks = static_cast<PublishAcks*>(closure);
    const char* id = nullptr;
    natsMsgHeader_Get(message, MessageIdHeader, &id);
    const QByteArray messageId(id ? id : "");
    const QString subject = QString::fromUtf8(natsMsg_GetSubject(message));
    {
        const std::lock_guard lock(acks->mutex);
        auto rows = acks->awaited.find(messageId);
        if (rows != acks->awaited.end() && !rows->isEmpty()) {
            const qint64 row = rows->takeFirst();
            --acks->unanswered;
            if (ack) {
                acks->results.append({ row, true, {} });
            } else if (error && isMessageRefusal(error->ErrCode)) {
                acks->results.append({ row, false,
                    QStringLiteral("JetStream refused the message on %1: error %2: %3")
                        .arg(subject)
                        .arg(int(error->ErrCode))
                        .arg(QString::fromUtf8(error->ErrText ? error->ErrText : "")) });
            } else if (acks->outage.isEmpty()) {
                const natsStatus status = error ? error->Err : NATS_ERR;
                acks->outage = status == NATS_NO_RESPONDERS
                    ? QStringLiteral("no stream answered for %1 (no responders): the stream taking it has no "
                                     "leader now")
                          .arg(subject)
                    : error && error->ErrCode != 0
                    ? QStringLiteral("JetStream error %1 for %2: %3")
                          .arg(int(error->ErrCode))
                          .arg(subject, QString::fromUtf8(error->ErrText ? error->ErrText : ""))
                    : QStringLiteral("publishing to %1: %2")
                          .arg(subject, QString::fromUtf8(natsStatus_GetText(status)));
            }
        }
    }
    acks->answered.notify_all();
    natsMsg_Destroy(message);
}

} // namespace

struct NatsJetStreamSink::Session {
    Q_DISABLE_COPY_MOVE(Session)
    Session() = default;
    ~Session()
    {
        if (jetStream) {
            // An onAck still running (nats.c's delivery thread outlives the connection's close) keeps its answers:
            // left to it rather than freed under it.
            if (publishedAsync && !abandonPending())
                (void)acks.release();
            connection->close();
            jsCtx_Destroy(jetStream);
        }
    }

    // Takes back from the client the messages whose answers are still awaited, and waits for a call of onAck under
    // way: nats.c counts a message as pending until its handler has returned. True when no onAck runs or will run.
    // Only after a successful publish: nats.c 3.4 keeps no list before one, and crashes when asked for it.
    bool abandonPending()
    {
        natsMsgList pending {};
        if (js_PublishAsyncGetPendingList(&pending, jetStream) == NATS_OK)
            natsMsgList_Destroy(&pending);
        jsPubOptions options;
        jsPubOptions_Init(&options);
        options.MaxWait = 1'000;
        for (int attempt = 0; attempt < 10; ++attempt) {
            if (js_PublishAsyncComplete(jetStream, &options) != NATS_TIMEOUT)
                return true;
        }
        return false;
    }

    std::unique_ptr<PublishAcks> acks = std::make_unique<PublishAcks>();
    QSet<QString> subjectsTaken; // subjects a stream was found to take, on this connection
    std::unique_ptr<NatsConnection> connection;
    jsCtx* jetStream = nullptr;
    bool publishedAsync = false;
};

NatsJetStreamSink::NatsJetStreamSink(const NatsEndpoint& endpoint)
    : m_endpoint(endpoint)
{ }

NatsJetStreamSink::~NatsJetStreamSink() = default;

void NatsJetStreamSink::connect()
{
    auto session = std::make_unique<Session>();
    session->connection = std::make_unique<NatsConnection>(m_endpoint, QStringLiteral("outbox relay"));
    const NatsConnection* connection = session->connection.get();
    // Said at once, rather than as every publish failing: no stream takes the relay's subjects.
    if (!connection->streamTakes(m_endpoint.subjects(), m_endpoint.ackTimeoutMs))
        connection->fail(QStringLiteral("looking for the stream"),
            QStringLiteral("no JetStream stream takes the subjects %1: create one (nats stream add --subjects '%1' "
                           "--replicas 3 --dupe-window 2m), see docs/relay.md")
                .arg(m_endpoint.subjects()));
    jsOptions options;
    jsOptions_Init(&options);
    options.Wait = m_endpoint.ackTimeoutMs;
    options.PublishAsync.AckHandler = &onAck;
    options.PublishAsync.AckHandlerClosure = session->acks.get();
    if (const natsStatus status = natsConnection_JetStream(&session->jetStream, connection->handle(), &options);
        status != NATS_OK)
        connection->fail(QStringLiteral("opening JetStream"), NatsConnection::describe(status));
    m_session = std::move(session);
}

void NatsJetStreamSink::ensureReachable()
{
    if (!m_session)
        connect();
    else if (!m_session->connection->isConnected())
        m_session->connection->fail(
            QStringLiteral("publishing"), QStringLiteral("not connected to any server (reconnecting)"));
}

QString NatsJetStreamSink::destination() const
{
    return m_session ? m_session->connection->connectedServer() : QString();
}

// The message to publish for `row` on `connection`, or null and the reason NATS cannot carry it.
static natsMsg* messageFor(
    const NatsEndpoint& endpoint, natsConnection* connection, const OutboxMessage& row, QString& problem)
{
    if (const QString why = NatsEndpoint::subjectProblem(row.eventType); !why.isEmpty()) {
        problem = QStringLiteral("the event type cannot be a NATS subject token: %1").arg(why);
        return nullptr;
    }
    if (row.dedupeKey.isEmpty() || row.dedupeKey.contains(QLatin1Char('\r'))
        || row.dedupeKey.contains(QLatin1Char('\n'))) {
        problem = QStringLiteral("the dedupe key cannot be a NATS header value (empty, or a line break in it)");
        return nullptr;
    }
    const qint64 maxPayload = natsConnection_GetMaxPayload(connection);
    if (row.payload.size() > maxPayload) {
        problem = QStringLiteral("the payload is %1 bytes; the server takes at most %2 (max_payload)")
                      .arg(row.payload.size())
                      .arg(maxPayload);
        return nullptr;
    }
    const QByteArray subject = endpoint.subjectFor(row.eventType).toUtf8();
    natsMsg* message = nullptr;
    if (natsMsg_Create(&message, subject.constData(), nullptr, row.payload.constData(), int(row.payload.size()))
        != NATS_OK) {
        problem = QStringLiteral("the client could not build the message");
        return nullptr;
    }
    natsStatus status = natsMsgHeader_Set(message, MessageIdHeader, row.dedupeKey.toUtf8().constData());
    if (status == NATS_OK)
        status = natsMsgHeader_Set(message, "Content-Type", "application/json");
    const QJsonObject headers = QJsonDocument::fromJson(row.headers).object();
    for (auto it = headers.begin(); it != headers.end() && status == NATS_OK; ++it) {
        const QString value = it->isString()
            ? it->toString()
            : QString::fromUtf8(QJsonDocument(QJsonArray { *it }).toJson(QJsonDocument::Compact).mid(1).chopped(1));
        const QString name = it.key();
        const bool nameFits = !name.isEmpty() && std::none_of(name.begin(), name.end(), [](QChar c) {
            return c == QLatin1Char(':') || c.unicode() < 33 || c.unicode() > 126;
        });
        if (!nameFits || value.contains(QLatin1Char('\r')) || value.contains(QLatin1Char('\n'))) {
            problem
                = QStringLiteral("the header '%1' cannot be a NATS header (its name must be printable ASCII without "
                                 "':' and its value on one line)")
                      .arg(name.left(40));
            natsMsg_Destroy(message);
            return nullptr;
        }
        status = natsMsgHeader_Add(message, name.toUtf8().constData(), value.toUtf8().constData());
    }
    if (status != NATS_OK) {
        problem = QStringLiteral("the client could not set the headers: %1").arg(NatsConnection::describe(status));
        natsMsg_Destroy(message);
        return nullptr;
    }
    return message;
}

bool NatsJetStreamSink::takesSubject(const QString& subject)
{
    if (m_session->subjectsTaken.contains(subject))
        return true;
    if (!m_session->connection->streamTakes(subject, m_endpoint.ackTimeoutMs))
        return false; // asked again for the next batch: the operator may create it meanwhile
    m_session->subjectsTaken.insert(subject);
    return true;
}

QList<PublishResult> NatsJetStreamSink::publish(const QList<OutboxMessage>& batch)
{
    ensureReachable();
    PublishAcks& acks = *m_session->acks;
    QList<PublishResult> refusedHere;
    {
        const std::lock_guard lock(acks.mutex);
        acks.awaited.clear();
        acks.unanswered = 0;
        acks.results.clear();
        acks.outage.clear();
    }
    jsPubOptions publishOptions;
    jsPubOptions_Init(&publishOptions);
    // The client gives up a little after this sink does, which takes the messages back first and says why.
    publishOptions.MaxWait = m_endpoint.ackTimeoutMs + 1'000;
    for (const OutboxMessage& row : batch) {
        QString problem;
        natsMsg* message = messageFor(m_endpoint, m_session->connection->handle(), row, problem);
        if (message && !takesSubject(m_endpoint.subjectFor(row.eventType))) {
            problem
                = QStringLiteral("no JetStream stream takes the subject %1").arg(m_endpoint.subjectFor(row.eventType));
            natsMsg_Destroy(message);
            message = nullptr;
        }
        if (!message) {
            refusedHere.append({ row.id, false, problem });
            continue;
        }
        const QByteArray messageId = row.dedupeKey.toUtf8();
        {
            // Awaited before it is sent: its answer may come before js_PublishMsgAsync returns.
            const std::lock_guard lock(acks.mutex);
            acks.awaited[messageId].append(row.id);
            ++acks.unanswered;
        }
        const natsStatus status = js_PublishMsgAsync(m_session->jetStream, &message, &publishOptions);
        natsMsg_Destroy(message); // a no-op when the client took it
        if (status == NATS_OK) {
            m_session->publishedAsync = true;
            continue;
        }
        if (status == NATS_MAX_PAYLOAD) {
            // The payload fitted, with its headers it does not: the row's own fault, sent nowhere.
            const std::lock_guard lock(acks.mutex);
            acks.awaited[messageId].removeOne(row.id);
            --acks.unanswered;
            refusedHere.append({ row.id, false,
                QStringLiteral("the message with its headers is larger than the server takes (max_payload %1 bytes)")
                    .arg(natsConnection_GetMaxPayload(m_session->connection->handle())) });
            continue;
        }
        {
            const QString reason = NatsConnection::describe(status);
            m_session.reset(); // the next batch starts on a new connection
            throw OutboxError(
                OutboxError::Kind::Broker, QStringLiteral("publishing (%1): %2").arg(m_endpoint.display(), reason));
        }
    }

    std::unique_lock lock(acks.mutex);
    const bool allAnswered = acks.answered.wait_for(lock, std::chrono::milliseconds(m_endpoint.ackTimeoutMs),
        [&acks] { return acks.unanswered == 0 || !acks.outage.isEmpty(); });
    if (allAnswered && acks.outage.isEmpty())
        return refusedHere + acks.results;
    const QString reason = !acks.outage.isEmpty()
        ? acks.outage
        : QStringLiteral("no acknowledgement within %1 ms for %2 of %3 messages")
              .arg(m_endpoint.ackTimeoutMs)
              .arg(acks.unanswered)
              .arg(batch.size());
    lock.unlock();
    m_session->abandonPending();
    throw OutboxError(OutboxError::Kind::Broker,
        QStringLiteral("waiting for JetStream's acknowledgements (%1, on %2): %3")
            .arg(m_endpoint.display(), destination().isEmpty() ? QStringLiteral("no server") : destination(), reason));
}
