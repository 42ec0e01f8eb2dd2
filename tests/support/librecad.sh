#!/usr/bin/env bash
# One drawing in LibreCAD 2.2 (run under xvfb-run). Usage: librecad.sh MODE FILE HOME_DIR [ARG]
#   open FILE HOME [SHOT.png] — what a user would see, one line each:
#       notice <title>   the DWG notice «Information» (acknowledged with Enter)
#       dialog <title>   any other window than the main one (screenshot to SHOT.png, closed with Escape)
#       opened <title>   the main window shows the file's name
#       stderr <line>    what LibreCAD printed that speaks of an error
#   view FILE HOME SHOT.png — how much of the drawing area shows the drawing: «share <0…1>», the share
#       of coloured pixels (layer colours; the background is black, the grid grey) in its middle,
#       looked at again until it is above zero or the deadline passes
#   resave FILE HOME OUT.dxf — saves it again as DXF through LibreCAD's own «File → Save as…» dialog,
#       so that a test can count what LibreCAD itself read (LibreCAD 2.2 has no command line to save
#       or count; `dxf2pdf` only draws): «saved <file>», or «failed <step>» with LibreCAD's errors after
# In every mode «no-display» means LibreCAD found no X display (the caller runs it again); a main
# window that never names the file is «timeout» (open, view) or «failed open» (resave).
# The start-up is the same for all: the config without the first-start wizard, LibreCAD started,
# and the window list polled until the main window names the file (the DWG notice acknowledged on
# the way). Every step waits on state, never a fixed time.
set -u
mode=$1
file=$2
home=$3
arg=${4:-}
case "$mode" in open | view | resave) ;; *)
  echo "usage: librecad.sh open|view|resave FILE HOME_DIR [ARG]" >&2
  exit 2
  ;;
esac
mkdir -p "$home/.config/LibreCAD"
# No first-start wizard: its «Welcome» dialog would stand in front of everything (and the save
# dialog opens in the home directory).
printf '[Startup]\nFirstLoad=0\n' >"$home/.config/LibreCAD/LibreCAD.conf"
name=$(basename "$file")
HOME=$home librecad "$file" >"$home/librecad.log" 2>&1 &
pid=$!
if [ "$mode" = resave ]; then deadline=$((SECONDS + 180)); else deadline=$((SECONDS + 120)); fi

window() { # the first visible window whose title matches the pattern
  for w in $(xdotool search --onlyvisible --name '.' 2>/dev/null); do
    title=$(xdotool getwindowname "$w" 2>/dev/null) || continue
    # shellcheck disable=SC2254
    case "$title" in $1) echo "$w" && return 0 ;; esac
  done
  return 1
}
errors() { grep -v '^RS_DEBUG' "$home/librecad.log" | grep -i -E 'error|cannot|fail' | sed 's/^/stderr /'; }
stop() {
  kill $pid 2>/dev/null
  wait $pid 2>/dev/null
}
no_display() { grep -q -i -E 'platform plugin|cannot connect to X|could not connect to display' "$home/librecad.log"; }

# The start-up: until the main window names the file. A DWG shows LibreCAD's modal notice «DWG
# support is not complete» before it loads: acknowledged. Other windows are reported only in «open».
main=""
while [ $SECONDS -lt $deadline ]; do
  for w in $(xdotool search --onlyvisible --name '.' 2>/dev/null); do
    title=$(xdotool getwindowname "$w" 2>/dev/null) || continue
    case "$title" in
      "LibreCAD - ["*"$name"*"]") main=$w opened=$title ;;
      LibreCAD*) ;;
      Information)
        [ "$mode" = open ] && echo "notice $title"
        xdotool key --window "$w" Return 2>/dev/null
        ;;
      *)
        [ "$mode" = open ] || continue
        echo "dialog $title"
        [ -n "$arg" ] && command -v import >/dev/null && import -window root "$arg" 2>/dev/null
        xdotool key --window "$w" Escape 2>/dev/null
        ;;
    esac
  done
  [ -n "$main" ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.3
done
if [ -z "$main" ]; then
  if no_display; then
    # xvfb-run -a can lose a race for a display number with another X server starting at once.
    echo "no-display"
  elif [ "$mode" = resave ]; then
    echo "failed open"
    command -v import >/dev/null && import -window root "$home/failed.png" 2>/dev/null
  else
    echo "timeout"
  fi
  stop
  [ "$mode" = view ] || errors
  exit 0
fi

if [ "$mode" = open ]; then
  # One more look once the file is in: a late error dialog would show now.
  for w in $(xdotool search --onlyvisible --name '.' 2>/dev/null); do
    title=$(xdotool getwindowname "$w" 2>/dev/null) || continue
    case "$title" in LibreCAD*) ;; *) echo "dialog $title" ;; esac
  done
  echo "opened $opened"
  stop
  errors
  exit 0
fi

if [ "$mode" = view ]; then
  # The window stands at the screen's corner (no window manager); the drawing area is left of the
  # docks and below the toolbars: its middle, 600 × 700 px from (100, 160), holds no other widget.
  share=0
  while [ $SECONDS -lt $deadline ]; do
    import -window root "$arg" 2>/dev/null
    share=$(convert "$arg" -crop 600x700+100+160 +repage -colorspace HSL -channel G -separate -threshold 40% -format '%[fx:mean]' info: 2>/dev/null || echo 0)
    awk -v s="$share" 'BEGIN { exit !(s > 0) }' && break
    sleep 0.5
  done
  echo "share $share"
  stop
  exit 0
fi

# resave: «File» (the window sits at the screen's corner: there is no window manager), then «Save
# as…» by its mnemonic (XTEST events: Qt ignores xdotool's --window ones); should the menu not have
# been open yet, the dialog does not come: close whatever opened and ask again.
out=$arg
finish() {
  echo "$1"
  # What the screen showed when a step did not happen: for the one reading the failure.
  [ "${1%% *}" = failed ] && command -v import >/dev/null && import -window root "$home/failed.png" 2>/dev/null
  stop
  [ "${1%% *}" = failed ] && errors
  exit 0
}
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
