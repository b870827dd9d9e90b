// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/connectionlossechoes.h"

#include "db/dbsession.h"

#include <QtGlobal>

namespace {

QtMessageHandler previousHandler = nullptr;

void dropEchoes(QtMsgType type, const QMessageLogContext& context, const QString& message)
{
    if (!DbSession::echoesALostConnection(message))
        previousHandler(type, context, message);
}

} // namespace

void ConnectionLossEchoes::dropFromQtMessages()
{
    const QtMessageHandler installed = qInstallMessageHandler(dropEchoes);
    if (installed != dropEchoes) // installed twice: the first call's previous handler stays the one to pass on to
        previousHandler = installed;
}
