// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/pagedlistmodel.h"
#include "idempotency/idempotencyrepository.h"
#include "idempotency/keyfilter.h"

#include <QCoreApplication>

// The idempotency key list: one row per key, without response bodies (the detail pane reads the body of the
// selected key only).
class KeysTableModel final : public PagedListModel<IdempotencyRecord, KeyFilter> {
    Q_DECLARE_TR_FUNCTIONS(KeysTableModel)

public:
    enum Column {
        Scope,
        Key,
        Status,
        Fingerprint,
        Replays,
        LastReplay,
        Created,
        Expires,
        Order,
        Response,
        ColumnCount
    };
    enum Role {
        IdRole = Qt::UserRole + 1,
        StatusRole,
    };

    // Characters of the fingerprint the list shows; enough to tell requests apart at a glance.
    static constexpr int ShortFingerprintLength = 12;

    explicit KeysTableModel(DatabaseClient& worker, QObject* parent = nullptr);

    int columnCount(const QModelIndex& parent = {}) const final override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const final override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const final override;

    // "failed (released)" / "failed (final)": whether the next request with the key executes again.
    static QString statusText(const IdempotencyRecord& record);
};
