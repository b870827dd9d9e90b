// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl pauses: what is paused (relays and event types), by whom, why and since when, with an event type's
// parked rows.
class PausesCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("pauses"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override { return QStringLiteral("[--format table|json]"); }
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
