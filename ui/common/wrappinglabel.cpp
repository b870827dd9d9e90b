// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/wrappinglabel.h"

#include <QResizeEvent>

WrappingLabel::WrappingLabel(QWidget* parent)
    : QLabel(parent)
{
    // Long texts wrap rather than widen the window.
    setWordWrap(true);
}

// The height its text takes at its width; a plain label asks for the height at a width it guesses.
QSize WrappingLabel::minimumSizeHint() const
{
    const QSize hint = QLabel::minimumSizeHint();
    return width() > 0 ? QSize(hint.width(), qMax(hint.height(), heightForWidth(width()))) : hint;
}

void WrappingLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    if (event->oldSize().width() != width())
        updateGeometry();
}
