// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "outbox/failuregroup.h"

#include <optional>

class DbSession;

// Reads the failure groups: rows failed or dead, by error signature, largest first. The counts read the partial
// index outbox_failure_groups_idx only; each group's first and last failure, event types and sample row are
// index probes of their own.
class FailureGroupRepository final {
public:
    explicit FailureGroupRepository(DbSession& session);

    QList<FailureGroup> groups(const FailureGroupFilter& filter);

    // The signature whose id (outbox_signature_id) is `id`, among the current failure groups.
    std::optional<QString> signatureWithId(const QString& id);

private:
    DbSession& m_session;
};
