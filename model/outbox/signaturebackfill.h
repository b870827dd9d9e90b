// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <functional>

class DbSession;

// Signs the failures recorded before migration 0005 (outbox.error_signature, outbox_attempts.signature) through
// outbox_backfill_error_signatures(): one short statement per primary-key range of `batchSize` ids, each its own
// transaction, rows locked at that moment skipped. Safe on a 10-million-row table while relays run, and
// idempotent: signed rows are left alone.
class SignatureBackfill final {
public:
    static constexpr int IntroducedBySchemaVersion = 5;
    static constexpr int DefaultBatchSize = 5'000;

    struct Result {
        qint64 outboxRows = 0;
        qint64 attemptRows = 0;
    };

    explicit SignatureBackfill(DbSession& session, int batchSize = DefaultBatchSize);

    // `progress` is told after every batch how many rows of which table were signed so far.
    Result run(const std::function<void(const Result&)>& progress = {});

private:
    void signTable(const QString& table, Result& result, qint64 Result::*counter,
        const std::function<void(const Result&)>& progress);

    DbSession& m_session;
    int m_batchSize;
};
