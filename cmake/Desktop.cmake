# Install rules of the command-line tool and the desktop identity of Longview: the .desktop entry, the shared
# MIME database types, the AppStream metainfo (configured with the project version), the man pages (made at
# build time by help2man from --help) and the copyright file. Included from the top CMakeLists.txt after the
# app targets exist; the GUI's own install rule and bundle settings are in app/gui/CMakeLists.txt, the icons
# in cmake/Icons.cmake.
include_guard(GLOBAL)
include(GNUInstallDirs)
include(${CMAKE_CURRENT_LIST_DIR}/Icons.cmake)

set(LONGVIEW_HOMEPAGE "https://github.com/longview-viewer/longview")
set(_desktop_src ${CMAKE_CURRENT_LIST_DIR}/../resources/desktop)
cmake_path(NORMAL_PATH _desktop_src)

if(APPLE)
  # Inside the bundle, beside the GUI, so the disk image holds one thing to drag.
  install(TARGETS longview-cli RUNTIME DESTINATION longview.app/Contents/MacOS)
else()
  install(TARGETS longview-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

if(NOT UNIX OR APPLE)
  return()
endif()

# --- AppStream metainfo: version from project(), release date from the last commit (reproducible; the
# configure date when there is no git), screenshots: every PNG in resources/screenshots as its URL on GitHub.
set(LONGVIEW_RELEASE_DATE "" CACHE STRING "Release date in the metainfo (YYYY-MM-DD; empty: the last commit's)")
set(_release_date "${LONGVIEW_RELEASE_DATE}")
if(NOT _release_date)
  find_package(Git QUIET)
  if(GIT_FOUND)
    execute_process(COMMAND ${GIT_EXECUTABLE} log -1 --format=%cs WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                    OUTPUT_VARIABLE _release_date OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  endif()
  if(NOT _release_date MATCHES "^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$")
    string(TIMESTAMP _release_date "%Y-%m-%d" UTC)
  endif()
endif()
set(LONGVIEW_METAINFO_DATE ${_release_date})

set(_shot_dir ${CMAKE_CURRENT_LIST_DIR}/../resources/screenshots)
file(GLOB _shots RELATIVE ${_shot_dir} CONFIGURE_DEPENDS ${_shot_dir}/*.png)
list(SORT _shots)
set(LONGVIEW_METAINFO_SCREENSHOTS "")
if(_shots)
  # The one shown first in software centres, listed first.
  set(_default_shot viewer-whole-dark.png)
  if(NOT _default_shot IN_LIST _shots)
    list(GET _shots 0 _default_shot)
  endif()
  list(REMOVE_ITEM _shots ${_default_shot})
  list(PREPEND _shots ${_default_shot})
  set(_shot_xml "  <screenshots>\n")
  foreach(_shot IN LISTS _shots)
    get_filename_component(_stem ${_shot} NAME_WE)
    if(_stem STREQUAL "viewer-whole-dark")
      set(_caption "A whole recording on one page, dark theme")
    elseif(_stem STREQUAL "viewer-20s-light")
      set(_caption "Twenty seconds of many channels, light theme")
    elseif(_stem STREQUAL "viewer-pause-light")
      set(_caption "A pause in the recording, shown as a gap without data")
    else()
      string(REPLACE "-" " " _caption "Longview: ${_stem}")
    endif()
    set(_type "")
    if(_shot STREQUAL _default_shot)
      set(_type " type=\"default\"")
    endif()
    string(APPEND _shot_xml
           "    <screenshot${_type}>\n"
           "      <caption>${_caption}</caption>\n"
           "      <image>${LONGVIEW_HOMEPAGE}/raw/main/resources/screenshots/${_shot}</image>\n"
           "    </screenshot>\n")
  endforeach()
  string(APPEND _shot_xml "  </screenshots>")
  set(LONGVIEW_METAINFO_SCREENSHOTS "${_shot_xml}")
endif()
set(LONGVIEW_METAINFO ${CMAKE_BINARY_DIR}/desktop/${LONGVIEW_APP_ID}.metainfo.xml)
configure_file(${_desktop_src}/${LONGVIEW_APP_ID}.metainfo.xml.in ${LONGVIEW_METAINFO} @ONLY)

install(FILES ${_desktop_src}/${LONGVIEW_APP_ID}.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
install(FILES ${_desktop_src}/${LONGVIEW_APP_ID}.mime.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages
        RENAME ${LONGVIEW_APP_ID}.xml)
install(FILES ${LONGVIEW_METAINFO} DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
install(FILES ${LONGVIEW_ICON_SVG} DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
if(LONGVIEW_ICON_PNG_DIR)
  foreach(n IN LISTS LONGVIEW_ICON_SIZES)
    install(FILES ${LONGVIEW_ICON_PNG_DIR}/${n}x${n}.png
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/${n}x${n}/apps RENAME ${LONGVIEW_APP_ID}.png)
  endforeach()
endif()
install(FILES ${CMAKE_CURRENT_LIST_DIR}/../packaging/linux/copyright
        DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/longview) # the Debian package's name, not DOCDIR's Longview

# --- Man pages from --help (help2man), gzip'ed as Debian wants them. Skipped without help2man or when
# cross-compiling (the programs cannot run). The programs run through PATH so their usage line reads
# "longview ..." and not the build folder's path; the GUI runs on the offscreen platform.
find_program(LONGVIEW_HELP2MAN help2man)
find_program(LONGVIEW_GZIP gzip)
if(NOT LONGVIEW_HELP2MAN)
  message(STATUS "Man pages: help2man not found (Debian: help2man): none made")
elseif(CMAKE_CROSSCOMPILING)
  message(STATUS "Man pages: cross-compiling, none made")
else()
  set(_man_dir ${CMAKE_BINARY_DIR}/man)
  set(_man_targets longview-cli)
  set(_man_name_longview-cli "inspect, check, convert and merge long multi-channel recordings")
  if(TARGET longview)
    list(APPEND _man_targets longview)
    set(_man_name_longview "viewer for long multi-channel recordings")
  endif()
  set(_man_outputs "")
  foreach(_prog IN LISTS _man_targets)
    set(_page ${_man_dir}/${_prog}.1)
    set(_commands
        COMMAND ${CMAKE_COMMAND} -E make_directory ${_man_dir}
        COMMAND ${CMAKE_COMMAND} -E env "PATH=$<TARGET_FILE_DIR:${_prog}>:$ENV{PATH}" QT_QPA_PLATFORM=offscreen
                ${LONGVIEW_HELP2MAN} --no-info
                "--version-string=${PROJECT_VERSION}" "--name=${_man_name_${_prog}}" --section=1
                --output=${_page} ${_prog})
    if(LONGVIEW_GZIP)
      list(APPEND _commands COMMAND ${LONGVIEW_GZIP} -9nf ${_page})
      set(_page ${_page}.gz)
    endif()
    add_custom_command(
      OUTPUT ${_page}
      ${_commands}
      DEPENDS ${_prog}
      COMMENT "Writing the man page of ${_prog} (help2man)"
      VERBATIM)
    list(APPEND _man_outputs ${_page})
    install(FILES ${_page} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  endforeach()
  add_custom_target(longview_man ALL DEPENDS ${_man_outputs})
endif()
