// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl event-types: every event type with its rows per state and its oldest unpublished row's age; the
// console's Event types tab.
class EventTypesCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("event-types"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override { return QStringLiteral("[--format table|json] [--cap N]"); }
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
