#!/usr/bin/env bash
# Opens one drawing in LibreCAD (run under xvfb-run) and reports what a user would see, one line each:
#   dialog <title>   — a window other than LibreCAD's main one (the DWG notice «Information» is
#                      acknowledged with Enter and reported as «notice»)
#   opened <title>   — the main window shows the file's name
#   stderr <line>    — what LibreCAD printed that speaks of an error
#   no-display       — LibreCAD found no X display (the caller runs it again)
# It waits on state: it polls the window list until the main window names the file (or gives up
# after the deadline, then prints «timeout»). Usage: librecad-open.sh FILE HOME_DIR [SCREENSHOT.png]
set -u
file=$1
home=$2
shot=${3:-}
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
      "LibreCAD - ["*"$name"*"]") opened=$title ;;
      LibreCAD*) ;;
      Information)
        echo "notice $title"
        xdotool key --window "$w" Return 2>/dev/null
        ;;
      *)
        echo "dialog $title"
        [ -n "$shot" ] && command -v import >/dev/null && import -window root "$shot" 2>/dev/null
        xdotool key --window "$w" Escape 2>/dev/null
        ;;
    esac
  done
  [ -n "$opened" ] && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.3
done
if [ -n "$opened" ]; then
  # One more look once the file is in: a late error dialog would show now.
  for w in $(xdotool search --onlyvisible --name '.' 2>/dev/null); do
    title=$(xdotool getwindowname "$w" 2>/dev/null) || continue
    case "$title" in LibreCAD*) ;; *) echo "dialog $title" ;; esac
  done
  echo "opened $opened"
elif grep -q -i -E 'platform plugin|cannot connect to X|could not connect to display' "$home/librecad.log"; then
  # xvfb-run -a can lose a race for a display number with another X server starting at once.
  echo "no-display"
else
  echo "timeout"
fi
kill $pid 2>/dev/null
wait $pid 2>/dev/null
grep -v '^RS_DEBUG' "$home/librecad.log" | grep -i -E 'error|cannot|fail' | sed 's/^/stderr /'
exit 0
