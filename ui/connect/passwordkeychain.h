// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>

// The console's database passwords in the platform keychain (the Secret Service on Linux, through QtKeychain), one
// per connection under the connection's identity: its recent-connections entry, the conninfo without any password.
// Never in the settings file: QtKeychain's plain-text fallback stays off. Every call is asynchronous, so the GUI
// thread never waits for D-Bus or for an unlock prompt; each answer is a signal naming the identity it is for.
class PasswordKeychain final : public QObject {
    Q_OBJECT
public:
    // `service` names the console's entries in the keychain (tests give their own).
    explicit PasswordKeychain(const QString& service = QStringLiteral("outbox-console"), QObject* parent = nullptr);

    // The identity of the connection `conninfo` describes; equal for equal connections however they are written.
    // Throws OutboxError(InvalidInput) if libpq cannot parse it.
    static QString identity(const QString& conninfo);
    // `identity` with `password` added: what to connect with.
    static QString withPassword(const QString& identity, const QString& password);

    // Whether a keychain answers at all: availabilityKnown() with the reason when none does.
    void probe();
    void store(const QString& identity, const QString& password);
    void load(const QString& identity);
    void forget(const QString& identity);

signals:
    void availabilityKnown(bool available, const QString& reason);
    void stored(const QString& identity);
    void loaded(const QString& identity, const QString& password);
    void notStored(const QString& identity);
    void forgotten(const QString& identity);
    void failed(const QString& identity, const QString& message);

private:
    QString m_service;
};
