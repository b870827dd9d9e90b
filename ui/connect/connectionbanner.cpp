// SPDX-License-Identifier: GPL-3.0-or-later
#include "connect/connectionbanner.h"

#include <QTimer>

ConnectionBanner::ConnectionBanner(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setMargin(8);
    setAutoFillBackground(true);
    hide();
}

void ConnectionBanner::showLost(const QString& message)
{
    // Fixed colours: the warning must read the same on light and dark palettes.
    setStyleSheet(QStringLiteral("background: #b58900; color: black;"));
    setText(tr("<b>Connection to the database lost</b> — %1. Reconnecting… The lists resume when the "
               "connection is back. Operator actions commit batch by batch: repeat an interrupted one to finish it; "
               "rows it already moved are skipped.")
                .arg(message.toHtmlEscaped()));
    show();
}

void ConnectionBanner::showRestored()
{
    if (isHidden())
        return;
    setStyleSheet(QStringLiteral("background: #859900; color: black;"));
    setText(tr("<b>Reconnected.</b>"));
    QTimer::singleShot(3000, this, &QWidget::hide);
}
