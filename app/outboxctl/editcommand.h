// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl edit: replaces the payload and/or headers of one failed, dead or discarded outbox row and requeues it,
// after showing the difference; audited with both versions.
class EditCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("edit"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
