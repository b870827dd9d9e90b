// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl list outbox|keys: one keyset page of outbox rows or idempotency keys, newest first.
class ListCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("list"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
