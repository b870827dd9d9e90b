// SPDX-License-Identifier: GPL-3.0-or-later
#include "connect/connectionbanner.h"

#include "core/timeformatter.h"

#include <QTimer>

ConnectionBanner::ConnectionBanner(QWidget* parent)
    : QLabel(parent)
    , m_hideRestored(new QTimer(this))
{
    m_hideRestored->setSingleShot(true);
    m_hideRestored->setInterval(3000);
    connect(m_hideRestored, &QTimer::timeout, this, &QWidget::hide);
    setWordWrap(true);
    setMargin(8);
    setAutoFillBackground(true);
    hide();
}

void ConnectionBanner::showWarning(const QString& text)
{
    m_hideRestored->stop();
    // Fixed colours: the warning must read the same on light and dark palettes.
    setStyleSheet(QStringLiteral("background: #b58900; color: black;"));
    setText(text);
    show();
}

QString ConnectionBanner::lostSince() const
{
    return TimeFormatter::display(m_lostAt);
}

void ConnectionBanner::showLost(const QString& message)
{
    if (!m_lostAt.isValid())
        m_lostAt = QDateTime::currentDateTime();
    showWarning(tr("<b>Connection to the database lost</b> — %1. Reconnecting… The lists resume when the "
                   "connection is back. Operator actions commit batch by batch: repeat an interrupted one to finish "
                   "it; rows it already moved are left alone.")
                    .arg(message.toHtmlEscaped()));
}

void ConnectionBanner::showUnreachable(const QString& message, int nextAttemptInMs)
{
    if (!m_lostAt.isValid())
        m_lostAt = QDateTime::currentDateTime();
    // Whole seconds, rounded up: "in 0 s" while an attempt is still ahead would read as a hang.
    const int nextAttemptInSeconds = (nextAttemptInMs + 999) / 1000;
    showWarning(
        tr("<b>The database is unreachable</b> since %1 — %2. Next attempt in %3 s. The lists show what "
           "they showed at %1 and resume when the connection is back; repeat an interrupted operator action to finish "
           "it.")
            .arg(lostSince(), message.toHtmlEscaped(), QString::number(nextAttemptInSeconds)));
}

void ConnectionBanner::showRestored()
{
    m_lostAt = QDateTime();
    if (isHidden())
        return;
    setStyleSheet(QStringLiteral("background: #859900; color: black;"));
    setText(tr("<b>Reconnected.</b>"));
    m_hideRestored->start();
}

void ConnectionBanner::dismiss()
{
    m_lostAt = QDateTime();
    m_hideRestored->stop();
    hide();
}
