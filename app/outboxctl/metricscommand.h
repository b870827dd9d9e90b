// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl metrics: the metric time series of a window, bucketed in a chosen time zone.
class MetricsCommand final : public Command {
public:
    QString name() const final override { return QStringLiteral("metrics"); }
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;
};
