/**
 * The POSIX supervisor: one `/bin/sh` per gateway (about 1 MB), reading "+<pgid>" / "-<pgid>"
 * lines on its stdin. When that pipe closes (the gateway exited, however it exited, `kill -9`
 * included) or it gets SIGTERM/SIGHUP, it sends SIGTERM to every process group it holds, waits up
 * to the grace period for them to go, then SIGKILLs whatever is left. SIGINT is ignored: a Ctrl-C
 * in a terminal reaches the gateway, whose exit closes the pipe.
 *
 * Arguments: $1 = grace period in tenths of a second. Prints "ready" once its traps are set.
 */
export const POSIX_SUPERVISOR_SCRIPT = `
ticks="$1"
groups=""
alive() { for g in $groups; do kill -s 0 -- "-$g" 2>/dev/null && return 0; done; return 1; }
stop() {
  trap '' TERM HUP INT
  for g in $groups; do kill -s TERM -- "-$g" 2>/dev/null; done
  n=0
  while [ "$n" -lt "$ticks" ] && alive; do sleep 0.1; n=$((n + 1)); done
  for g in $groups; do kill -s KILL -- "-$g" 2>/dev/null; done
  exit 0
}
trap stop TERM HUP
trap '' INT PIPE
echo ready
while IFS= read -r line; do
  case "$line" in
    +*) groups="$groups \${line#+}" ;;
    -*) gone="\${line#-}"; left=""; for g in $groups; do [ "$g" = "$gone" ] || left="$left $g"; done; groups="$left" ;;
  esac
done
stop
`;
