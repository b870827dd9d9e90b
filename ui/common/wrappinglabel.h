// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLabel>

// A word-wrapped label as tall as its text at its width: a QLabel's guess was shorter, and the next pane drew over it.
class WrappingLabel final : public QLabel {
public:
    explicit WrappingLabel(QWidget* parent);

    QSize minimumSizeHint() const final override;

protected:
    void resizeEvent(QResizeEvent* event) final override;
};
