// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

class QPlainTextEdit;
class QTreeWidget;
class QWidget;

// The read-only views the detail panes are made of.
namespace DetailViews {

// Stored text (JSON, errors) in a fixed font, unwrapped.
QPlainTextEdit* codeView(QWidget* parent);
// A flat list of history or related rows with these column headers.
QTreeWidget* historyView(const QStringList& headers, QWidget* parent);

} // namespace DetailViews
