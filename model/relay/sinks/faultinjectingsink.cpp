// SPDX-License-Identifier: GPL-3.0-or-later
#include "relay/sinks/faultinjectingsink.h"

#include <QThread>
#include <cstdlib>

static const QString InjectedErrors[] = {
    QStringLiteral("broker unavailable: connection refused (injected fault)"),
    QStringLiteral("publish not confirmed within 5000 ms (injected fault)"),
    QStringLiteral("channel closed by broker: 406 PRECONDITION_FAILED (injected fault)"),
};

FaultInjectingSink::FaultInjectingSink(
    Options options, std::shared_ptr<std::atomic<qint64>> published, std::unique_ptr<MessageSink> next)
    : m_options(options)
    , m_published(std::move(published))
    , m_next(std::move(next))
    , m_random(options.seed ? options.seed : QRandomGenerator::global()->generate())
{ }

QList<PublishResult> FaultInjectingSink::publish(const QList<OutboxMessage>& batch)
{
    if (m_options.latencyMs > 0)
        QThread::msleep(ulong(m_options.latencyMs)); // stands in for the broker's round trip
    QList<PublishResult> results;
    QList<OutboxMessage> passed;
    for (const OutboxMessage& message : batch) {
        if (m_options.crashAfter > 0 && m_published->fetch_add(1) >= m_options.crashAfter)
            std::_Exit(CrashExitCode); // no cleanup, no completion: exactly what a killed relay leaves behind
        if (m_random.generateDouble() < m_options.failureRate) {
            results.append({ message.id, false, InjectedErrors[m_random.bounded(int(std::size(InjectedErrors)))] });
        } else if (m_next) {
            passed.append(message);
        } else {
            results.append({ message.id, true, {} });
        }
    }
    if (!passed.isEmpty())
        results.append(m_next->publish(passed)); // the relay matches results to messages by id
    return results;
}

void FaultInjectingSink::ensureReachable()
{
    if (m_next)
        m_next->ensureReachable();
}
