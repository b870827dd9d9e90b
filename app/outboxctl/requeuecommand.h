// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl requeue: moves failed or dead outbox rows back to pending, audited, on a frozen set of ids.
class RequeueCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("requeue"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
