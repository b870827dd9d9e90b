// SPDX-License-Identifier: GPL-3.0-or-later
#include "signatureoption.h"

#include "argumentparser.h"
#include "outbox/failuregrouprepository.h"

#include <QRegularExpression>

namespace SignatureOption {

QString resolve(const ArgumentParser& parser, DbSession& session)
{
    QString text = parser.requiredText(QStringLiteral("signature"));
    static const QRegularExpression groupId(QStringLiteral("^[0-9a-f]{12}$"));
    if (!groupId.match(text).hasMatch())
        return text;
    if (const std::optional<QString> signature = FailureGroupRepository(session).signatureWithId(text))
        return *signature;
    throw parser.usageError(
        QStringLiteral("--signature: no failure group has the id '%1' (outboxctl failures lists them)").arg(text));
}

} // namespace SignatureOption
