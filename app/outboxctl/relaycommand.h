// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl relay: publishes due outbox rows until SIGINT/SIGTERM or, with --once, until none are due.
class RelayCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("relay"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
