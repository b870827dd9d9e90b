// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/failuregroup.h"

#include <optional>

class DbSession;

// Reads the failure groups: rows failed or dead, by error signature, largest first. The sizes are the counts the
// state changes keep (outbox_failure_group_sizes()); each group's first and last failure, event types and sample row
// are index probes of their own.
class FailureGroupRepository final {
public:
    explicit FailureGroupRepository(DbSession& session);

    QList<FailureGroup> groups(const FailureGroupFilter& filter);

    // Folds the group sizes' delta rows into one row per group and status (outbox_fold_failure_counts()); returns
    // how many it folded, 0 when another session is folding.
    int foldCounts();

    // The signature whose id (outbox_signature_id) is `id`, among the current failure groups.
    std::optional<QString> signatureWithId(const QString& id);

private:
    DbSession& m_session;
};
