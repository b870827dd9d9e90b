// SPDX-License-Identifier: GPL-3.0-or-later
#include "messages/statusmessagelabel.h"

#include <QMouseEvent>
#include <QTimer>

StatusMessageLabel::StatusMessageLabel(QWidget* parent)
    : QLabel(parent)
    , m_clear(new QTimer(this))
{
    setTextFormat(Qt::PlainText);
    // Takes what the permanent labels leave, never more: a long message must not push them off the bar.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    setCursor(Qt::PointingHandCursor);
    m_clear->setSingleShot(true);
    m_clear->setInterval(ShownMs);
    connect(m_clear, &QTimer::timeout, this, [this] { showMessage({}); });
}

void StatusMessageLabel::showMessage(const QString& text)
{
    m_fullText = text;
    // Only the first line fits a status bar; the tooltip and the panel have the rest.
    setToolTip(text.isEmpty() ? QString() : tr("%1\n\n(Click for every message.)").arg(text));
    elide();
    if (text.isEmpty())
        m_clear->stop();
    else
        m_clear->start();
}

QSize StatusMessageLabel::minimumSizeHint() const
{
    return { 0, QLabel::minimumSizeHint().height() };
}

QSize StatusMessageLabel::sizeHint() const
{
    return { 0, QLabel::sizeHint().height() };
}

void StatusMessageLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    elide();
}

void StatusMessageLabel::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton)
        emit clicked();
    QLabel::mousePressEvent(event);
}

void StatusMessageLabel::elide()
{
    const QString line = m_fullText.section(QLatin1Char('\n'), 0, 0);
    const QString shown = fontMetrics().elidedText(line, Qt::ElideRight, qMax(0, contentsRect().width()));
    // A first line that fits but is not all of the text still says there is more.
    setText(shown == line && line != m_fullText ? line + QStringLiteral(" …") : shown);
}
