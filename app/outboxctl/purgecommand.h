// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl purge: retention for expired idempotency keys and old published outbox rows.
class PurgeCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("purge"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
