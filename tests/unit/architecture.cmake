# SPDX-License-Identifier: GPL-3.0-or-later
# The architecture test: every include of a project header must follow the table of who may use whom in
# docs/architecture.md. Run as `cmake -DROOT=<source dir> -P architecture.cmake`; fails naming each include
# that crosses a line. An include is resolved to the file it names (model/, ui/ or app/ hold folders of the
# same name, e.g. model/outbox and ui/outbox), so a rule is about subsystems, not about spellings.

# subsystem -> subsystems its files may include besides their own (model/relay/sinks counts as model/relay)
set(uses_model_db "")
set(uses_model_outbox model_db)
set(uses_model_metrics model_db model_outbox)
set(uses_model_idempotency model_db model_metrics)
set(uses_model_relay model_db model_outbox model_metrics model_idempotency) # it folds the replay counts
set(uses_model_broker model_db model_relay)
set(uses_model_inbox model_db model_metrics)
set(uses_model_operations model_db model_outbox model_idempotency model_inbox model_metrics)
set(uses_model_export model_db model_outbox model_idempotency model_metrics)
set(uses_model_orders model_db model_outbox model_idempotency model_metrics)
# The console may read every subsystem but the relay and the broker, which it has no business driving.
set(model_for_ui model_db model_outbox model_metrics model_idempotency model_inbox model_operations model_export
    model_orders)
set(uses_ui_core ${model_for_ui})
set(uses_ui_i18n "") # Qt only: the language, its translators and its locale
set(uses_ui_common ui_core ${model_for_ui})
set(uses_ui_messages ui_core) # the message log: plumbing and widgets, no database
foreach(page connect outbox failures eventtypes audit keys metrics)
    set(uses_ui_${page} ui_core ui_common ${model_for_ui})
endforeach()
# The event types' live view draws its seconds with the metrics' chart.
list(APPEND uses_ui_eventtypes ui_metrics)
# The overview shows the metrics' warning levels and chart and the failure groups' model.
set(uses_ui_overview ui_core ui_common ui_failures ui_metrics ${model_for_ui})
set(uses_ui_mainwindow ui_core ui_common ui_i18n ui_audit ui_connect ui_eventtypes ui_outbox ui_failures ui_keys ui_messages ui_metrics
    ui_overview
    ${model_for_ui})
set(model_all ${model_for_ui} model_relay model_broker)
set(uses_app_common ${model_all})
set(uses_app_demo model_db)
set(uses_app_outboxctl app_common ${model_all})
set(uses_app_ordersservice app_common ${model_all})
set(uses_app_console app_common app_demo ${model_for_ui} ui_mainwindow ui_i18n)

# The subsystem a source file belongs to, e.g. model/relay/sinks/x.cpp -> model_relay, app/console/demo/x.h ->
# app_demo, app/orders-service/main.cpp -> app_ordersservice.
function(subsystem_of path result)
    if(path MATCHES "^app/console/demo/")
        set(${result} app_demo PARENT_SCOPE)
    elseif(path MATCHES "^(model|ui|app)/([a-z0-9-]+)/")
        string(REPLACE "-" "" folder "${CMAKE_MATCH_2}")
        set(${result} "${CMAKE_MATCH_1}_${folder}" PARENT_SCOPE)
    else()
        set(${result} "" PARENT_SCOPE)
    endif()
endfunction()

set(violations "")
set(checked 0)
file(GLOB_RECURSE sources RELATIVE "${ROOT}" "${ROOT}/model/*.h" "${ROOT}/model/*.cpp" "${ROOT}/ui/*.h"
    "${ROOT}/ui/*.cpp" "${ROOT}/app/*.h" "${ROOT}/app/*.cpp")
foreach(source IN LISTS sources)
    subsystem_of("${source}" self)
    if(NOT DEFINED uses_${self})
        list(APPEND violations "${source}: '${self}' has no row in the architecture table")
        continue()
    endif()
    set(permitted ${self} ${uses_${self}})
    get_filename_component(here "${source}" DIRECTORY)
    file(STRINGS "${ROOT}/${source}" includes REGEX "^#include [\"<]")
    foreach(line IN LISTS includes)
        math(EXPR checked "${checked} + 1")
        if(line MATCHES "^#include <(Qt(Widgets|Charts|Gui)/|Q(Widget|Dialog|Action|Menu|Label|PushButton|ToolButton|MessageBox|LineEdit|Application|GuiApplication|TableView|TreeWidget|TabWidget|[A-Z][a-z]*Layout|Chart[A-Za-z]*|Painter|Pixmap|Clipboard)>)")
            if(source MATCHES "^model/")
                list(APPEND violations "${source}: widget include in the library: ${line}")
            endif()
        elseif(line MATCHES "^#include <(QSql[A-Za-z]*|libpq-fe\\.h)>" AND source MATCHES "^ui/")
            list(APPEND violations "${source}: SQL or libpq in the console: ${line}")
        elseif(line MATCHES "^#include \"([^\"]+)\"")
            set(target "${CMAKE_MATCH_1}")
            if(target MATCHES "\\.moc$")
                continue()
            endif()
            # Resolved the way the build's include paths do: model/, ui/, app/, then app/console/ (for demo/),
            # then the file's own folder (the executables' local headers).
            set(resolved "")
            foreach(root model ui app app/console "${here}")
                if(NOT resolved AND EXISTS "${ROOT}/${root}/${target}")
                    set(resolved "${root}/${target}")
                endif()
            endforeach()
            if(NOT resolved)
                list(APPEND violations "${source}: ${line} names no file of the project")
                continue()
            endif()
            if(NOT target MATCHES "/" AND NOT source MATCHES "^app/(outboxctl|orders-service|console)/[^/]+$")
                list(APPEND violations "${source}: include not qualified by its folder: ${line}")
                continue()
            endif()
            subsystem_of("${resolved}" other)
            list(FIND permitted "${other}" found)
            if(found EQUAL -1)
                list(APPEND violations "${source}: '${self}' may not use '${other}': ${line}")
            endif()
        endif()
    endforeach()
endforeach()

list(LENGTH sources files)
if(violations)
    list(JOIN violations "\n  " text)
    message(FATAL_ERROR "architecture: includes that break docs/architecture.md:\n  ${text}")
endif()
message(STATUS "architecture: ${checked} includes in ${files} files follow docs/architecture.md")
