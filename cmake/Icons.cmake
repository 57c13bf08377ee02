# Application icon: PNGs at the hicolor sizes, a Windows .ico and a macOS .icns, all rendered at build time
# from resources/icons/org.longview.Longview.svg. A tool missing at configure time skips its outputs with a
# message, so builds without rsvg-convert / icotool / png2icns still work (Debian: librsvg2-bin icoutils
# icnsutils).
#
# Sets, for app/gui and cmake/Packaging.cmake:
#   LONGVIEW_APP_ID          org.longview.Longview
#   LONGVIEW_ICON_SVG        the source SVG
#   LONGVIEW_ICON_PNG_DIR    folder of <n>x<n>.png ("" when rsvg-convert is missing)
#   LONGVIEW_ICON_ICO        the .ico ("" when it cannot be made)
#   LONGVIEW_ICON_ICNS       the .icns ("" when it cannot be made)
# and the target longview_icons (part of ALL) that makes them. cmake/Desktop.cmake installs them into
# share/icons/hicolor, cmake/Packaging.cmake gives the .ico to the Windows installer.
include_guard(GLOBAL)

set(LONGVIEW_APP_ID org.longview.Longview)
set(LONGVIEW_ICON_SVG ${CMAKE_CURRENT_LIST_DIR}/../resources/icons/${LONGVIEW_APP_ID}.svg)
cmake_path(NORMAL_PATH LONGVIEW_ICON_SVG)
set(LONGVIEW_ICON_SIZES 16 24 32 48 64 128 256 512)
# The sizes png2icns takes (it rejects 24 and 64).
set(LONGVIEW_ICNS_SIZES 16 32 48 128 256 512)
set(LONGVIEW_ICO_SIZES 16 24 32 48 64 128 256)

set(_icon_dir ${CMAKE_BINARY_DIR}/icons)
set(LONGVIEW_ICON_PNG_DIR "")
set(LONGVIEW_ICON_ICO "")
set(LONGVIEW_ICON_ICNS "")
set(_icon_outputs "")

find_program(LONGVIEW_RSVG_CONVERT rsvg-convert)
find_program(LONGVIEW_ICOTOOL icotool)
find_program(LONGVIEW_PNG2ICNS png2icns)

if(NOT LONGVIEW_RSVG_CONVERT)
  message(STATUS "Icons: rsvg-convert not found (Debian: librsvg2-bin): no PNG, .ico or .icns icons")
else()
  set(LONGVIEW_ICON_PNG_DIR ${_icon_dir}/png)
  foreach(n IN LISTS LONGVIEW_ICON_SIZES)
    set(_png ${LONGVIEW_ICON_PNG_DIR}/${n}x${n}.png)
    add_custom_command(
      OUTPUT ${_png}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${LONGVIEW_ICON_PNG_DIR}
      COMMAND ${LONGVIEW_RSVG_CONVERT} --width ${n} --height ${n} --format png --output ${_png} ${LONGVIEW_ICON_SVG}
      DEPENDS ${LONGVIEW_ICON_SVG}
      COMMENT "Rendering the ${n}x${n} icon"
      VERBATIM)
    list(APPEND _icon_outputs ${_png})
  endforeach()

  if(NOT LONGVIEW_ICOTOOL)
    message(STATUS "Icons: icotool not found (Debian: icoutils): no .ico")
  else()
    set(LONGVIEW_ICON_ICO ${_icon_dir}/longview.ico)
    set(_ico_pngs "")
    foreach(n IN LISTS LONGVIEW_ICO_SIZES)
      list(APPEND _ico_pngs ${LONGVIEW_ICON_PNG_DIR}/${n}x${n}.png)
    endforeach()
    # The 256 px image stored as PNG (Vista and later), the smaller ones as bitmaps for old shells.
    list(REMOVE_ITEM _ico_pngs ${LONGVIEW_ICON_PNG_DIR}/256x256.png)
    add_custom_command(
      OUTPUT ${LONGVIEW_ICON_ICO}
      COMMAND ${LONGVIEW_ICOTOOL} -c -o ${LONGVIEW_ICON_ICO} ${_ico_pngs} --raw=${LONGVIEW_ICON_PNG_DIR}/256x256.png
      DEPENDS ${_ico_pngs} ${LONGVIEW_ICON_PNG_DIR}/256x256.png
      COMMENT "Packing the Windows icon longview.ico"
      VERBATIM)
    list(APPEND _icon_outputs ${LONGVIEW_ICON_ICO})
  endif()

  if(NOT LONGVIEW_PNG2ICNS)
    message(STATUS "Icons: png2icns not found (Debian: icnsutils): no .icns")
  else()
    set(LONGVIEW_ICON_ICNS ${_icon_dir}/longview.icns)
    set(_icns_pngs "")
    foreach(n IN LISTS LONGVIEW_ICNS_SIZES)
      list(APPEND _icns_pngs ${LONGVIEW_ICON_PNG_DIR}/${n}x${n}.png)
    endforeach()
    add_custom_command(
      OUTPUT ${LONGVIEW_ICON_ICNS}
      COMMAND ${LONGVIEW_PNG2ICNS} ${LONGVIEW_ICON_ICNS} ${_icns_pngs}
      DEPENDS ${_icns_pngs}
      COMMENT "Packing the macOS icon longview.icns"
      VERBATIM)
    list(APPEND _icon_outputs ${LONGVIEW_ICON_ICNS})
  endif()
endif()

add_custom_target(longview_icons ALL DEPENDS ${_icon_outputs})
