// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/dossierpane.h"

#include <QTabWidget>
#include <QVBoxLayout>

DossierPane::DossierPane(DatabaseClient& worker, QWidget* parent)
    : QWidget(parent)
    , m_worker(worker)
    , m_summary(new QLabel(this))
    , m_tabs(new QTabWidget(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_tabs, 1);
}
