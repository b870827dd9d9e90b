// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/backoffpolicy.h"
#include "relay/leaseprotocol.h"
#include "relay/messagesink.h"
#include "relay/relayoptions.h"

#include <QHash>
#include <QRandomGenerator>
#include <optional>

class DbSession;
class LeaseKeeper;
class MetricsRecorder;
class ThroughputRecorder;
class RelayTally;

struct RelayBatchResult {
    int claimed = 0;
    int published = 0;
    int failed = 0; // of which `dead` reached max attempts
    int dead = 0;
    int fenced = 0; // completions rejected because the lease had been taken over meanwhile
    int heldBack = 0; // handed back unpublished because an earlier row of their ordering key failed
    std::optional<RelayPause> relayPause; // the relay's name is paused: the claim took nothing
    QList<qint64> publishLatenciesMs; // of the rows published
    QString lastError; // of the batch's last failed row; empty if none failed
};

// One relay worker: claim a batch, publish it through the sink, record the outcome. Runs on one thread
// with its own session and sink; OutboxRelay runs several of these, in one or many processes.
class RelayWorker final {
    Q_DISABLE_COPY_MOVE(RelayWorker)
public:
    // `leases` keeps a batch's leases extended while it is being published (the relay's heartbeat); `tally`
    // collects the process's totals.
    RelayWorker(DbSession& session, MessageSink& sink, MetricsRecorder& metrics, ThroughputRecorder& throughput,
        LeaseKeeper& leases, RelayTally& tally, const RelayOptions& options, QString name);

    RelayBatchResult processBatch();

    // Returns how many expired leases were rescued (and of those, how many went dead).
    RelayBatchResult rescueExpiredLeases();

private:
    QList<PublishResult> publishIsolatingFailures(const QList<OutboxMessage>& batch);
    // Publishes `batch` (in id order) so that the rows of an ordering key go out in id order and none after an
    // earlier row of its key failed. Returns the outcomes (a message the sink gave none failed); a row held back
    // for that reason has none.
    QHash<qint64, PublishResult> publishInKeyOrder(const QList<OutboxMessage>& batch);

    DbSession& m_session;
    MessageSink& m_sink;
    MetricsRecorder& m_metrics;
    ThroughputRecorder& m_throughput;
    const RelayOptions& m_options;
    QString m_name;
    LeaseKeeper& m_leases;
    RelayTally& m_tally;
    BackoffPolicy m_backoff;
    QRandomGenerator m_random;
};
