// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"
#include "export/recordtable.h"

// outboxctl event-types: every event type with its rows per state and its oldest unpublished row's age, or with
// --per-second what the relays did in each of the last seconds; the console's Event types tab.
class EventTypesCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("event-types"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override
    {
        return QStringLiteral("[--format table|json] [--cap N | --per-second [--seconds N] [--event-type TYPE]]");
    }
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;

private:
    int executePerSecond(const ArgumentParser& parser, const ConnectionSettings& settings, RecordTable::Format format);
};
