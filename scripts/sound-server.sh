#!/usr/bin/env bash
# Start a private PulseAudio with one null sink (`null`) for the audio tests and
# print the environment that points clients at it (eval "$(scripts/sound-server.sh)").
# The sink's monitor (`null.monitor`) is the default source, so whatever plays
# into the sink is what a microphone would hear (the virtual microphone), and
# `parec -d null.monitor` records what played.
# Stop it with: pulseaudio --kill (with the same XDG_RUNTIME_DIR).
set -euo pipefail
dir="${YUI_SOUND_DIR:-$(mktemp -d /tmp/yui-sound.XXXXXX)}"
mkdir -p "$dir"
chmod 700 "$dir"
export XDG_RUNTIME_DIR="$dir"
pulseaudio --daemonize=yes --exit-idle-time=-1 -n --system=false \
  --load="module-null-sink sink_name=null" \
  --load=module-native-protocol-unix \
  --log-target="file:$dir/pulse.log" >/dev/null 2>&1 || true
for _ in $(seq 50); do
  pactl info >/dev/null 2>&1 && break
  sleep 0.1
done
pactl info >/dev/null 2>&1 || { echo "sound server did not start (see $dir/pulse.log)" >&2; exit 1; }
pactl set-default-sink null >/dev/null
pactl set-default-source null.monitor >/dev/null
echo "export XDG_RUNTIME_DIR='$dir' PULSE_SERVER='unix:$dir/pulse/native'"
