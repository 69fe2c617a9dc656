# Shared by the scripts under scripts/: sourced, not run. Each caller
# defines `say` and `fail` (its own prefix) before sourcing this.

# apt_ensure PKG...: install the packages that are not installed yet (with
# sudo when not root); nothing when all are there.
apt_ensure() {
  local p missing=() sudo=""
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -gt 0 ] || return 0
  say "installing ${#missing[@]} apt packages: ${missing[*]}"
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# start_mock MOCK DIR: start yui-mock's demo agent at pace 0 on a free port,
# its output in DIR; sets $url to its base URL and adds it to $pids.
start_mock() {
  local out=$2/mock.stdout
  "$1" --demo --pace 0 --port 0 >"$out" 2>"$2/mock.stderr" &
  pids+=($!)
  url=""
  for _ in $(seq 100); do
    url=$(sed -n 's/^listening on \(http[^ ]*\).*/\1/p' "$out" | head -1)
    [ -n "$url" ] && return 0
    sleep 0.1
  done
  fail "yui-mock printed no 'listening on URL' line"
}

# wait_for_line FILE SED-EXPR [SOCKET]: print the first match of SED-EXPR
# (a `s/…/\1/p` expression) in FILE once it shows, and SOCKET exists when
# given; waits up to 10 s, prints nothing when it never does.
wait_for_line() {
  local found=""
  for _ in $(seq 100); do
    found=$(sed -n "$2" "$1" 2>/dev/null | head -1)
    [ -n "$found" ] && { [ -z "${3:-}" ] || [ -S "$3" ]; } && { printf '%s' "$found"; return 0; }
    sleep 0.1
  done
}
