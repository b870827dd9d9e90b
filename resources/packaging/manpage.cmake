# SPDX-License-Identifier: GPL-3.0-or-later
# cmake -DPROGRAM=<executable> -DPAGE=<name>.1 -P manpage.cmake: writes PAGE from `PROGRAM --man-page`, and
# PAGE.gz from it (gzip -n: no name or time inside, so the same sources give the same bytes).
execute_process(COMMAND ${PROGRAM} --man-page OUTPUT_FILE ${PAGE} RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "${PROGRAM} --man-page failed: ${status}")
endif()
execute_process(COMMAND gzip -9nc ${PAGE} OUTPUT_FILE ${PAGE}.gz RESULT_VARIABLE status)
if(NOT status EQUAL 0)
    message(FATAL_ERROR "gzip ${PAGE} failed: ${status}")
endif()
