#!/usr/bin/env bash
# Regenerates the app icons in this folder: ImageMagick draws a 1024px
# placeholder face, then the Tauri CLI cuts the platform sizes from it.
# Usage (from anywhere): bash src-tauri/icons/make-icons.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
convert_bin="/usr/bin/convert"
[ -x "$convert_bin" ] || { echo "ImageMagick's convert is missing (apt-get install imagemagick)" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$convert_bin" -size 1024x1024 gradient:'#ffc7d9'-'#cfc6ff' "$tmp/grad.png"
"$convert_bin" -size 1024x1024 xc:none -fill white -draw "roundrectangle 40,40 984,984 220,220" "$tmp/mask.png"
"$convert_bin" "$tmp/grad.png" "$tmp/mask.png" -alpha off -compose CopyOpacity -composite "$tmp/base.png"
"$convert_bin" "$tmp/base.png" -fill '#fff6ef' -draw "circle 512,540 512,230" \
  -fill '#1f2330' -draw "ellipse 400,500 34,48 0,360" -draw "ellipse 624,500 34,48 0,360" \
  -fill '#e86a9266' -draw "ellipse 330,600 44,24 0,360" -draw "ellipse 694,600 44,24 0,360" \
  -fill none -stroke '#1f2330' -strokewidth 26 -draw "path 'M 450,610 Q 512,680 574,610'" \
  "$tmp/source.png"

(cd "$root" && npx tauri icon "$tmp/source.png" -o "$tmp/out") >"$tmp/cli.log" 2>&1 || { cat "$tmp/cli.log" >&2; exit 1; }
for f in 32x32.png 128x128.png 128x128@2x.png icon.png icon.ico icon.icns; do
  cp "$tmp/out/$f" "$here/$f"
done
echo "icons written to $here"
