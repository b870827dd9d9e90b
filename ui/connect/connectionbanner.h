// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>

// A strip across the top of the window while the database connection is lost: says what happened and
// that the console is reconnecting. Hidden while all is well.
class ConnectionBanner final : public QLabel {
    Q_OBJECT
public:
    explicit ConnectionBanner(QWidget* parent = nullptr);

    void showLost(const QString& message);
    void showRestored();
};
