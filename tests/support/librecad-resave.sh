#!/usr/bin/env bash
# Opens one drawing in LibreCAD (run under xvfb-run) and saves it again as DXF through LibreCAD's
# own «File → Save as…» dialog, so that a test can count what LibreCAD itself read (LibreCAD 2.2
# has no command line to save or count; `dxf2pdf` only draws). Each step waits on state: the main
# window naming the file, the DWG notice gone, the «Save Drawing As» dialog, then the saved file. Prints one line:
#   saved <file>   — LibreCAD wrote it
#   failed <step>  — the step that did not happen before the deadline (with LibreCAD's errors after)
#   no-display     — LibreCAD found no X display (the caller runs it again)
# Usage: librecad-resave.sh FILE HOME_DIR OUT.dxf
set -u
file=$1
home=$2
out=$3
mkdir -p "$home/.config/LibreCAD"
# No first-start wizard; the save dialog opens in the home directory.
printf '[Startup]\nFirstLoad=0\n' >"$home/.config/LibreCAD/LibreCAD.conf"
name=$(basename "$file")
HOME=$home librecad "$file" >"$home/librecad.log" 2>&1 &
pid=$!
deadline=$((SECONDS + 180))

window() { # the first visible window whose title matches the pattern
  for w in $(xdotool search --onlyvisible --name '.' 2>/dev/null); do
    title=$(xdotool getwindowname "$w" 2>/dev/null) || continue
    # shellcheck disable=SC2254
    case "$title" in $1) echo "$w" && return 0 ;; esac
  done
  return 1
}
finish() {
  echo "$1"
  # What the screen showed when a step did not happen: for the one reading the failure.
  [ "${1%% *}" = failed ] && command -v import >/dev/null && import -window root "$home/failed.png" 2>/dev/null
  kill $pid 2>/dev/null
  wait $pid 2>/dev/null
  [ "${1%% *}" = failed ] && grep -v '^RS_DEBUG' "$home/librecad.log" | grep -i -E 'error|cannot|fail' | sed 's/^/stderr /'
  exit 0
}

main=""
while [ -z "$main" ] && [ $SECONDS -lt $deadline ]; do
  main=$(window "LibreCAD - \[*$name*\]") && break
  # A DWG shows LibreCAD's modal notice «DWG support is not complete» before it loads: acknowledged.
  notice=$(window Information) && xdotool key --window "$notice" Return 2>/dev/null
  if ! kill -0 $pid 2>/dev/null; then
    grep -q -i -E 'platform plugin|cannot connect to X|could not connect to display' "$home/librecad.log" && finish no-display
    finish "failed open"
  fi
  sleep 0.3
done
[ -n "$main" ] || finish "failed open"

# «File» (the window sits at the screen's corner: there is no window manager), then «Save as…» by
# its mnemonic (XTEST events: Qt ignores xdotool's --window ones); should the menu not have been
# open yet, the dialog does not come: close whatever opened and ask again.
dialog=""
while [ -z "$dialog" ] && [ $SECONDS -lt $deadline ]; do
  # Should the DWG notice still stand: Escape closes it (it has the focus); the menu comes after.
  if window Information >/dev/null; then
    xdotool key Escape
    sleep 0.3
    continue
  fi
  xdotool key Escape mousemove 68 42 click 1
  sleep 0.5
  xdotool key a
  for _ in $(seq 1 20); do
    dialog=$(window 'Save Drawing As') && break
    window Information >/dev/null && break
    sleep 0.3
  done
done
[ -n "$dialog" ] || finish "failed dialog"

# The file name field has the focus; its whole text is replaced. The type stays «DXF 2007».
xdotool key ctrl+a
xdotool type --delay 20 "$out"
while [ $SECONDS -lt $deadline ]; do
  # Saved once the dialog is gone and the main window names the new file. While the dialog stands,
  # Return again: the first one may only close the file name completer's list.
  if [ -s "$out" ] && window "LibreCAD - \[*$(basename "$out")*\]" >/dev/null; then finish "saved $out"; fi
  window 'Save Drawing As' >/dev/null && xdotool key Return
  sleep 1
done
finish "failed save"
