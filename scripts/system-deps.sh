#!/usr/bin/env bash
# The Debian packages Norma needs besides npm's, and the one place that lists them: `npm start` and
# `npm test` (scripts/lib.mjs, ensureSystemPackages) and `.ci/run` all call this script.
#
#   bash scripts/system-deps.sh --check [start|test]    exit 0 when every package of the set is
#                                                       present; otherwise name the missing ones and
#                                                       the one command that installs them, exit 1
#   bash scripts/system-deps.sh --install [start|test]  install what is missing: as root with apt-get;
#                                                       otherwise through sudo only when it needs no
#                                                       password (sudo -n), else as --check
#   bash scripts/system-deps.sh --ensure [start|test]   as root --install, otherwise --check
#   bash scripts/system-deps.sh --list [start|test]     the set's packages, one a line
#
# Sets: `start` is what the server uses (npm start), `test` is all of it (npm test; the default).
# Each package is known by a file it installs. NORMA_SYSTEM_ROOT (default: none) is put before those
# paths: the script's own test points it at a made-up root.
set -euo pipefail

ROOT="${NORMA_SYSTEM_ROOT:-}"
INSTALL_COMMAND='sudo bash scripts/system-deps.sh --install'

# package | set | file that shows it is installed (a glob is allowed) | what it is for
PACKAGES=(
  'ffmpeg|start|/usr/bin/ffmpeg|video: ingest, frames, the demo clips'
  'libgeonames-common|start|/usr/share/locale/ru/LC_MESSAGES/geonames.mo|Russian town names of the built-in basemap (docs/map.md)'
  'gmt-gshhg-high|start|/usr/share/gmt-gshhg/binned_GSHHS_h.nc|coasts and lakes of the built-in basemap (docs/map.md)'
  'gmt-gshhg-high|start|/usr/share/gmt-gshhg/binned_river_h.nc|rivers of the built-in basemap (docs/map.md)'
  'chromium|test|/usr/bin/chromium|end-to-end tests (tests/e2e)'
  'poppler-utils|test|/usr/bin/pdftoppm|PDF report checks'
  'opencv-doc|test|/usr/share/doc/opencv-doc/examples/data/vtest.avi|real footage for the person detector tests (tests/support/vtest.ts)'
  'postgresql|test|/usr/lib/postgresql/*/bin/initdb|the API suite on PostgreSQL (a cluster of its own)'
  'librecad|test|/usr/bin/librecad|CAD export tests (tests/cad)'
  'xvfb|test|/usr/bin/xvfb-run|CAD export tests: LibreCAD on a virtual screen'
  'xdotool|test|/usr/bin/xdotool|CAD export tests'
  'imagemagick|test|/usr/bin/import|CAD export tests: screenshots of LibreCAD'
  'rtsp-server-perl|test|/usr/bin/rtsp-server-perl|live camera tests: an RTSP server stands in for a camera (api/src/live)'
  'gir1.2-gst-rtsp-server-1.0|test|/usr/lib/*/girepository-1.0/GstRtspServer-1.0.typelib|live camera tests: the GStreamer RTSP server over TLS stands in for an rtsps camera (api/test-support/rtsps-camera.py)'
  'python3-gi|test|/usr/lib/python3/dist-packages/gi/__init__.py|live camera tests: the rtsps camera is scripted in Python'
  'gstreamer1.0-plugins-base|test|/usr/lib/*/gstreamer-1.0/libgstapp.so|live camera tests: the rtsps camera (RTP inside the RTSP connection)'
  'gstreamer1.0-plugins-good|test|/usr/lib/*/gstreamer-1.0/libgstrtp.so|live camera tests: the rtsps camera (loop, RTP h264, rtpbin, UDP)'
  'gstreamer1.0-plugins-bad|test|/usr/lib/*/gstreamer-1.0/libgstvideoparsersbad.so|live camera tests: the rtsps camera (h264parse)'
  'glib-networking|test|/usr/lib/*/gio/modules/libgiognutls.so|live camera tests: TLS of the rtsps camera'
  'openssl|test|/usr/bin/openssl|live camera tests: a self-signed certificate for the rtsps camera'
  'gdal-bin|test|/usr/bin/ogrinfo|CAD export tests: GDAL reads the DXF'
  'python3-ezdxf|test|/usr/lib/python3/dist-packages/ezdxf/__init__.py|CAD export tests: ezdxf reads the DXF'
)

usage() {
  echo "Использование: bash scripts/system-deps.sh --check|--install|--ensure|--list [start|test]" >&2
  exit 2
}

mode="${1:-}"
set_name="${2:-test}"
case "$mode" in --check | --install | --ensure | --list) ;; *) usage ;; esac
case "$set_name" in start | test) ;; *) usage ;; esac
[ $# -le 2 ] || usage

# The set's packages (each once, in the table's order), and those of them missing here.
wanted=()
missing=()
for entry in "${PACKAGES[@]}"; do
  IFS='|' read -r package needed_by file _ <<<"$entry"
  [ "$set_name" = test ] || [ "$needed_by" = start ] || continue
  [[ " ${wanted[*]-} " == *" $package "* ]] || wanted+=("$package")
  # Unquoted on purpose: a glob in the path expands to what exists.
  # shellcheck disable=SC2086
  if ! compgen -G "$ROOT$file" >/dev/null; then
    [[ " ${missing[*]-} " == *" $package "* ]] || missing+=("$package")
  fi
done

if [ "$mode" = --list ]; then
  printf '%s\n' "${wanted[@]}"
  exit 0
fi
[ ${#missing[@]} -eq 0 ] && exit 0

command_for_set="$INSTALL_COMMAND"
[ "$set_name" = test ] || command_for_set="$INSTALL_COMMAND $set_name"

refuse() {
  echo "✖ Не хватает пакетов Debian: ${missing[*]}" >&2
  echo "  Поставьте их одной командой (из папки проекта): $command_for_set" >&2
  exit 1
}

install_missing() {
  local sudo=("$@")
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "✖ Нет apt-get: поставьте пакеты Debian сами: ${missing[*]}" >&2
    exit 1
  fi
  echo "→ Ставлю пакеты Debian: ${missing[*]}"
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
  # The files each package is known by must be there now.
  exec bash "$0" --check "$set_name"
}

is_root() { [ "${EUID:-$(id -u)}" -eq 0 ]; }

case "$mode" in
  --check) refuse ;;
  --ensure) if is_root; then install_missing; else refuse; fi ;;
  --install)
    if is_root; then
      install_missing
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      # A CI user with passwordless sudo; a password is never asked for here.
      install_missing sudo -n
    else
      refuse
    fi
    ;;
esac
