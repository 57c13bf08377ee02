# Installers through CPack, one per platform, all from the project version and the app id:
#   Linux    DEB        longview_<version>_<arch>.deb, dependencies computed by dpkg-shlibdeps
#   Windows  NSIS64     Longview-<version>-win64.exe: Start menu entry, optional desktop shortcut, uninstaller,
#                       .edf and .bdf opened with Longview
#   macOS    DragNDrop  Longview-<version>-Darwin.dmg holding longview.app
# `cpack -G <generator>` in a build folder picks another. packaging/package-check.sh tests the .deb,
# packaging/nsis-check.sh builds the NSIS installer from these same settings on Linux.
#
# Needs LONGVIEW_APP_ID and LONGVIEW_ICON_ICO (cmake/Icons.cmake) and PROJECT_VERSION (project()).
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/Icons.cmake)

if(NOT CPACK_GENERATOR)
  if(WIN32)
    set(CPACK_GENERATOR NSIS64)
  elseif(APPLE)
    set(CPACK_GENERATOR DragNDrop)
  else()
    set(CPACK_GENERATOR DEB)
  endif()
endif()

set(LONGVIEW_HOMEPAGE "https://github.com/longview-viewer/longview")
set(CPACK_PACKAGE_NAME Longview)
set(CPACK_PACKAGE_VENDOR "The Longview developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Viewer and converter for long multi-channel recordings")
set(CPACK_PACKAGE_DESCRIPTION
    "Longview is a fast, native viewer and converter for long multi-channel recordings (hours to weeks, tens to \
hundreds of channels) such as scalp and intracranial EEG. It opens MEF 3.0 sessions and archives, EDF, EDF+, BDF \
and BDF+ files, and converts between them. The package holds the viewer (longview) and the command-line tool \
(longview-cli).")
set(CPACK_PACKAGE_HOMEPAGE_URL ${LONGVIEW_HOMEPAGE})
set(CPACK_PACKAGE_CONTACT "Longview developers <https://github.com/longview-viewer/longview/issues>")
set(CPACK_PACKAGE_INSTALL_DIRECTORY Longview)
set(CPACK_PACKAGE_EXECUTABLES longview Longview)
set(CPACK_RESOURCE_FILE_LICENSE ${CMAKE_CURRENT_LIST_DIR}/../LICENSE)
set(CPACK_STRIP_FILES ON)
set(CPACK_SOURCE_IGNORE_FILES "/build/;/\\.git/")
set(CPACK_VERBATIM_VARIABLES ON)

# --- Debian package.
set(CPACK_DEBIAN_PACKAGE_NAME longview)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "Longview developers <longview@users.noreply.github.com>")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${LONGVIEW_HOMEPAGE})
# dpkg-shlibdeps turns the libraries the programs link into the Depends line (libqt6widgets6, libzstd1, ...).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The .desktop, MIME and icon caches are refreshed by the dpkg file triggers of desktop-file-utils,
# shared-mime-info and the icon theme; xdg-utils gives the file managers' "open with" its defaults.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "shared-mime-info, desktop-file-utils, hicolor-icon-theme")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "xdg-utils")

# --- Windows installer (NSIS). The NSIS commands below reach the installer script as written here (CMake
# escapes only: "\\" is one backslash, "\"" a double quote), CPACK_VERBATIM_VARIABLES keeping CPack from
# reading them a second time.
set(CPACK_NSIS_PACKAGE_NAME Longview)
set(CPACK_NSIS_DISPLAY_NAME "Longview ${PROJECT_VERSION}")
set(CPACK_NSIS_URL_INFO_ABOUT ${LONGVIEW_HOMEPAGE})
set(CPACK_NSIS_HELP_LINK ${LONGVIEW_HOMEPAGE})
set(CPACK_NSIS_ENABLE_UNINSTALL_BEFORE_INSTALL ON)
# 64-bit builds only (CPack's default depends on the configuring host, which nsis-check.sh's is not).
set(CPACK_NSIS_INSTALL_ROOT "$PROGRAMFILES64")
# The options page: add bin to PATH (for longview-cli) and the "Create Longview Desktop Icon" check box.
set(CPACK_NSIS_MODIFY_PATH ON)
set(CPACK_CREATE_DESKTOP_LINKS longview)
set(CPACK_NSIS_INSTALLED_ICON_NAME "bin\\longview.exe")
set(CPACK_NSIS_EXECUTABLES_DIRECTORY bin)
set(CPACK_NSIS_MUI_FINISHPAGE_RUN longview.exe)
if(LONGVIEW_ICON_ICO)
  set(CPACK_NSIS_MUI_ICON ${LONGVIEW_ICON_ICO})
  set(CPACK_NSIS_MUI_UNIICON ${LONGVIEW_ICON_ICO})
endif()
# File associations: .edf and .bdf open in Longview (a ProgID per type, listed under the extension's
# OpenWithProgids, and the default when the extension has none yet). A .mefd.tar archive is not associated:
# Windows keys associations by the last extension only, and taking over .tar would steal every tar archive;
# .mefd sessions are folders, which Windows cannot associate. Both open through File > Open or a drop.
set(_nsis_install "")
set(_nsis_uninstall "")
foreach(_ext edf bdf)
  string(TOUPPER ${_ext} _EXT)
  set(_progid "Longview.${_ext}")
  string(APPEND _nsis_install "
  WriteRegStr HKCR '${_progid}' '' '${_EXT} recording'
  WriteRegStr HKCR '${_progid}\\DefaultIcon' '' '$INSTDIR\\bin\\longview.exe,0'
  WriteRegStr HKCR '${_progid}\\shell\\open\\command' '' '\"$INSTDIR\\bin\\longview.exe\" \"%1\"'
  WriteRegStr HKCR '.${_ext}\\OpenWithProgids' '${_progid}' ''
  ReadRegStr $0 HKCR '.${_ext}' ''
  StrCmp $0 '' 0 +2
  WriteRegStr HKCR '.${_ext}' '' '${_progid}'")
  string(APPEND _nsis_uninstall "
  DeleteRegKey HKCR '${_progid}'
  DeleteRegValue HKCR '.${_ext}\\OpenWithProgids' '${_progid}'
  ReadRegStr $0 HKCR '.${_ext}' ''
  StrCmp $0 '${_progid}' 0 +2
  DeleteRegValue HKCR '.${_ext}' ''")
endforeach()
# SHCNE_ASSOCCHANGED, so Explorer shows the new icons and handlers at once.
set(_nsis_notify "
  System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'")
set(CPACK_NSIS_EXTRA_INSTALL_COMMANDS "${_nsis_install}${_nsis_notify}")
set(CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS "${_nsis_uninstall}${_nsis_notify}")

# --- macOS disk image: the bundle, dragged to Applications.
set(CPACK_DMG_VOLUME_NAME "Longview ${PROJECT_VERSION}")
set(CPACK_DMG_FORMAT UDBZ)
if(APPLE AND LONGVIEW_ICON_ICNS)
  set(CPACK_PACKAGE_ICON ${LONGVIEW_ICON_ICNS})
endif()

include(CPack)
