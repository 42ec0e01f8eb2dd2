#!/usr/bin/env bash
# Opens one drawing in LibreCAD (run under xvfb-run) and reports how much of its drawing area shows
# the drawing: the share of coloured pixels (layer colours; the background is black, the grid grey)
# in the middle of the drawing area. It waits on state: first for the main window naming the file,
# then it looks again until the share is above zero or the deadline passes, and prints the last one:
#   share <0…1>   — coloured share of the drawing area
#   no-display    — LibreCAD found no X display (the caller runs it again)
#   timeout       — the main window never named the file
# Usage: librecad-view.sh FILE HOME_DIR SCREENSHOT.png
set -u
file=$1
home=$2
shot=$3
mkdir -p "$home/.config/LibreCAD"
# No first-start wizard: its «Welcome» dialog would stand in front of everything.
printf '[Startup]\nFirstLoad=0\n' >"$home/.config/LibreCAD/LibreCAD.conf"
name=$(basename "$file")
HOME=$home librecad "$file" >"$home/librecad.log" 2>&1 &
pid=$!
deadline=$((SECONDS + 120))
opened=""
while [ $SECONDS -lt $deadline ]; do
  for w in $(xdotool search --onlyvisible --name '.' 2>/dev/null); do
    title=$(xdotool getwindowname "$w" 2>/dev/null) || continue
    case "$title" in
      "LibreCAD - ["*"$name"*"]") opened=$w ;;
      Information) xdotool key --window "$w" Return 2>/dev/null ;;
    esac
  done
  [ -n "$opened" ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.3
done
if [ -z "$opened" ]; then
  if grep -q -i -E 'platform plugin|cannot connect to X|could not connect to display' "$home/librecad.log"; then echo "no-display"; else echo "timeout"; fi
  kill $pid 2>/dev/null
  exit 0
fi
# The window stands at the screen's corner (no window manager); the drawing area is left of the
# docks and below the toolbars: its middle, 600 × 700 px from (100, 160), holds no other widget.
share=0
while [ $SECONDS -lt $deadline ]; do
  import -window root "$shot" 2>/dev/null
  share=$(convert "$shot" -crop 600x700+100+160 +repage -colorspace HSL -channel G -separate -threshold 40% -format '%[fx:mean]' info: 2>/dev/null || echo 0)
  awk -v s="$share" 'BEGIN { exit !(s > 0) }' && break
  sleep 0.5
done
echo "share $share"
kill $pid 2>/dev/null
wait $pid 2>/dev/null
exit 0
