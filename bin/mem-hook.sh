# mem's hooks run through this (`/bin/sh mem-hook.sh <node> <mem.cjs> hook <event>`) when they
# were installed from an environment that sets NODE_EXTRA_CA_CERTS. Node 20 and 22 parse that
# certificate bundle at every start, 30-50 ms before any code runs, and a hook makes no TLS
# connection. So it is moved aside to MEM_NODE_EXTRA_CA_CERTS, from where the daemon a hook
# starts gets it back (it may download models over HTTPS).
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then
  MEM_NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS
  export MEM_NODE_EXTRA_CA_CERTS
  unset NODE_EXTRA_CA_CERTS
fi
exec "$@"
