# mem's hooks run through this POSIX shell script:
#   /bin/sh mem-hook.sh <node> <mem.cjs> hook <event>
# (exec form: no shell parses the settings file's arguments). It does two jobs.
#
# 1. NODE_EXTRA_CA_CERTS. Node 20 and 22 parse that certificate bundle at every start, 30-50 ms
#    before any code runs, and a hook makes no TLS connection. So it is moved aside to
#    MEM_NODE_EXTRA_CA_CERTS, from where the daemon a hook starts gets it back (it may download
#    models over HTTPS).
# 2. The hot hooks (a prompt, a tool call, a stop) go to the warm daemon with curl over the
#    daemon's HTTP socket (src/daemon/hook-http.ts) when one listens: a few milliseconds instead of
#    Node's start-up. Whenever that cannot be done (no curl, no daemon, a socket that is not ours, a
#    daemon that fails) the Node hook runs with the same stdin, as it would without this script.
#    MEM_HOOK_CLIENT=node always runs the Node hook.
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then
  MEM_NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS
  export MEM_NODE_EXTRA_CA_CERTS
  unset NODE_EXTRA_CA_CERTS
fi

[ "${3:-}" = hook ] || exec "$@"
case "${4:-}" in
  user-prompt-submit | pre-tool-use | post-tool-use | post-tool-use-failure | stop | subagent-stop | notification) ;;
  *) exec "$@" ;;
esac
[ "${MEM_HOOK_CLIENT:-}" = node ] && exec "$@"
[ "${MEM_NO_DAEMON:-}" = 1 ] && exec "$@"

# The data home, found as src/config/paths.cts finds it; any doubt runs the Node hook.
case "${MEM_HOME:-}" in
  *[![:space:]]*)
    case $MEM_HOME in
      /*) h=$MEM_HOME ;;
      *) h=$PWD/$MEM_HOME ;;
    esac
    ;;
  *)
    [ -n "${HOME:-}" ] || exec "$@"
    if [ -d /System/Library ]; then
      h="$HOME/Library/Application Support/mem" # macOS
    else
      case "${XDG_DATA_HOME:-}" in
        /*) h=$XDG_DATA_HOME/mem ;;
        *) h=$HOME/.local/share/mem ;;
      esac
    fi
    ;;
esac
h=${h%"${h##*[!/]}"} # no trailing slash: `[ -h dir/ ]` would look through a symlink
[ -n "$h" ] || exec "$@"

# Only a socket of ours, not a symlink, in a directory of ours that nobody else may write to (so
# nobody can put another socket in its place); the daemon made both private (0600 in 0700). That is
# the data home, or for a data home whose path is too long for a socket address (about 104 bytes)
# the directory the daemon's socket.path names (src/daemon/socket-place.ts), its hook socket
# beside its main one: `….sock` → `….hook.sock`.
s=$h/hook.sock
d=$h
if [ "${#s}" -ge 100 ]; then
  [ -f "$h/socket.path" ] && [ ! -h "$h/socket.path" ] && read -r s <"$h/socket.path" || exec "$@"
  case $s in /*.sock) s=${s%.sock}.hook.sock ;; *) exec "$@" ;; esac
  d=${s%/*}
  [ -n "$d" ] && [ ! -h "$d" ] && [ -O "$d" ] || exec "$@"
fi
[ "${#s}" -lt 100 ] && [ -S "$s" ] && [ ! -h "$s" ] && [ -O "$s" ] && [ -O "$h" ] && [ ! -h "$h" ] || exec "$@"
command -v curl >/dev/null 2>&1 || exec "$@"
o=$(find "$h" "$d" -prune \( -perm -g+w -o -perm -o+w \) -print 2>/dev/null) && [ -z "$o" ] || exec "$@" # no find: Node

# How long to wait: the daemon writes its budget here, in seconds (daemon.clientBudgetMs, at most
# 1.5 s, the Node hook's own deadline); captures wait 1 s, as the Node client does. Anything but a
# plain number above zero is 0.25; more than 1.5 is 1.5 (`curl -m 0` would wait for ever).
b=0.25
t=5
if [ "$4" = user-prompt-submit ] || [ "$4" = pre-tool-use ]; then
  [ -f "$h/hook.budget" ] && [ ! -h "$h/hook.budget" ] && read -r b <"$h/hook.budget"
  case $b in '' | *[!0-9.]* | *.*.* | .*) b=0.25 ;; esac
  case $b in *[1-9]*) ;; *) b=0.25 ;; esac
  case $b in 0.* | 1 | 1. | 1.[0-4]* | 1.5 | 1.50*) ;; *) b=1.5 ;; esac
  case $b in 1.5*[1-9]*) b=1.5 ;; esac
  t=1
else
  b=1
fi

# The payload, read for at most $t seconds (Claude Code closes stdin at once; a writer that never
# does must not hold the hook until it is killed), and kept so that the Node hook can have it if
# the daemon cannot answer.
p=$(
  exec 2>/dev/null 3<&0
  cat <&3 &
  c=$!
  (
    # The watchdog: ends cat after $t seconds, and its own sleep whenever it is ended itself (a
    # TERM before the sleep's pid is known is remembered, so that no sleep is left behind).
    exec 3<&-
    k=
    trap 'k=1' TERM
    sleep "$t" &
    z=$!
    trap 'kill "$z"; exit 0' TERM
    [ -z "$k" ] || { kill "$z"; exit 0; }
    wait "$z" && kill "$c"
  ) >/dev/null 2>&1 &
  w=$!
  wait "$c"
  kill "$w" 2>/dev/null
)

# curl: -q first (no ~/.curlrc), no proxy, no "Expect: 100-continue" wait, fail on any HTTP error,
# and its output printed only when it succeeded (never half an answer).
out=$(printf '%s' "$p" | curl -q -s -f --noproxy '*' -m "$b" --unix-socket "$s" -H 'Expect:' -H 'Content-Type: application/json' --data-binary @- "http://mem/hook/$4")
r=$?
if [ "$r" -eq 0 ]; then
  [ -n "$out" ] && printf '%s\n' "$out"
  exit 0
fi
# 28: the daemon is there but slow. A prompt goes on without memories, a tool call unchecked
# (logged here); a capture is written by the Node hook itself, without asking the daemon again.
if [ "$r" -eq 28 ]; then
  if [ "$4" = user-prompt-submit ] || [ "$4" = pre-tool-use ]; then
    l=$h/hooks.log # as the Node client logs it; never through a symlink or into a FIFO
    if [ ! -h "$l" ] && { [ -f "$l" ] || [ ! -e "$l" ]; }; then
      (umask 077 && printf '%s %s: the daemon did not answer the curl client within %s s; injected nothing\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$4" "$b" >>"$l") 2>/dev/null
    fi
    exit 0
  fi
  MEM_NO_DAEMON=1
  export MEM_NO_DAEMON
fi
printf '%s' "$p" | "$@"
exit 0
