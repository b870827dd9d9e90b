// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operations/publishpause.h"

#include <QDialog>

class QLineEdit;
class QPushButton;
class QRadioButton;

// Pause publishing of a relay (by name) or an event type, or resume a pause, with the reason the audit log keeps.
class PauseDialog final : public QDialog {
    Q_OBJECT
public:
    // Asks what to pause: a relay's name (prefilled with `relayName`, e.g. the selected relay's) or an event type.
    explicit PauseDialog(const QString& relayName, QWidget* parent = nullptr);
    // Asks for the reason to resume `pause`.
    explicit PauseDialog(const PublishPause& pause, QWidget* parent = nullptr);

    PauseScope scope() const;
    QString target() const;
    QString reason() const;

private:
    void build(const QString& summary, bool choosesTarget);
    void updateOk();

    QRadioButton* m_relay;
    QRadioButton* m_eventType;
    QLineEdit* m_target;
    QLineEdit* m_reason;
    QPushButton* m_ok = nullptr;
};
