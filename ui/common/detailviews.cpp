// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/detailviews.h"

#include <QFontDatabase>
#include <QHeaderView>
#include <QPlainTextEdit>
#include <QTreeWidget>

namespace DetailViews {

QPlainTextEdit* codeView(QWidget* parent)
{
    auto* view = new QPlainTextEdit(parent);
    view->setReadOnly(true);
    view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    view->setLineWrapMode(QPlainTextEdit::NoWrap);
    return view;
}

QTreeWidget* historyView(const QStringList& headers, QWidget* parent)
{
    auto* view = new QTreeWidget(parent);
    view->setRootIsDecorated(false);
    view->setHeaderLabels(headers);
    view->setUniformRowHeights(true);
    view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    view->header()->setStretchLastSection(true);
    // The first column is the time: never cut to "2026-11-30 0…".
    view->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    return view;
}

} // namespace DetailViews
