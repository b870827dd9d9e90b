# SPDX-License-Identifier: GPL-3.0-or-later
# The console's desktop integration, as the distributions' tools check it: the .desktop entry passes
# desktop-file-validate, the AppStream metainfo passes appstreamcli validate, and both name the icon and the
# component after the same id, whose newest release is the project's version.
# cmake -DROOT=<source dir> -DAPP_ID=<id> -DVERSION=<project version> -P desktopfiles.cmake
set(desktop ${ROOT}/resources/desktop/${APP_ID}.desktop)
set(metainfo ${ROOT}/resources/desktop/${APP_ID}.metainfo.xml)
set(icon ${ROOT}/resources/icons/${APP_ID}.svg)
foreach(file IN ITEMS ${desktop} ${metainfo} ${icon})
    if(NOT EXISTS ${file})
        message(FATAL_ERROR "missing: ${file}")
    endif()
endforeach()

find_program(DESKTOP_FILE_VALIDATE desktop-file-validate REQUIRED)
find_program(APPSTREAMCLI appstreamcli REQUIRED)
execute_process(COMMAND ${DESKTOP_FILE_VALIDATE} ${desktop} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT status EQUAL 0 OR NOT out STREQUAL "")
    message(FATAL_ERROR "desktop-file-validate ${desktop}:\n${out}")
endif()
# --no-net: the check must not depend on the network; --pedantic would also flag hints, which are no errors.
execute_process(COMMAND ${APPSTREAMCLI} validate --no-net ${metainfo} RESULT_VARIABLE status OUTPUT_VARIABLE out
    ERROR_VARIABLE out)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "appstreamcli validate ${metainfo}:\n${out}")
endif()

file(STRINGS ${desktop} icon_line REGEX "^Icon=")
if(NOT icon_line STREQUAL "Icon=${APP_ID}")
    message(FATAL_ERROR "${desktop}: '${icon_line}', expected Icon=${APP_ID}")
endif()
file(READ ${metainfo} xml)
foreach(expected IN ITEMS "<id>${APP_ID}</id>" "<launchable type=\"desktop-id\">${APP_ID}.desktop</launchable>")
    string(FIND "${xml}" "${expected}" at)
    if(at EQUAL -1)
        message(FATAL_ERROR "${metainfo} lacks ${expected}")
    endif()
endforeach()
string(REGEX MATCH "<release version=\"([^\"]*)\"" newest "${xml}")
if(NOT CMAKE_MATCH_1 STREQUAL VERSION)
    message(FATAL_ERROR "${metainfo}: the newest release is '${CMAKE_MATCH_1}', the project is ${VERSION}: add a "
        "<release> for it")
endif()
message(STATUS "desktop entry, metainfo and icon of ${APP_ID} ${VERSION}: valid")
