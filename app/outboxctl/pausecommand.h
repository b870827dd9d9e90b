// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "command.h"

// outboxctl pause and outboxctl resume: one relay (by its name) or one event type, with an audited reason; the
// Overview's Pause and Resume in the console. One class for both words, since they take the same options.
class PauseCommand final : public Command {
public:
    enum class Direction { Pause, Resume };
    explicit PauseCommand(Direction direction);

    QString name() const final override;
    QString summary() const final override;

protected:
    QString synopsis() const final override;
    void addOptions(ArgumentParser& parser) const final override;
    int execute(const ArgumentParser& parser, const ConnectionSettings& settings) final override;

private:
    Direction m_direction;
};
