/**
 * The hook's environment as Claude Code gave it: bin/mem-hook.sh moves NODE_EXTRA_CA_CERTS aside
 * (to MEM_NODE_EXTRA_CA_CERTS) so that Node does not parse the bundle at every hook; a process a
 * hook starts (the daemon, a re-index), and what a hook compares with the install, get it back.
 */
export function withCaCertsBack(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { MEM_NODE_EXTRA_CA_CERTS: ca, ...rest } = env;
  return ca && !rest.NODE_EXTRA_CA_CERTS ? { ...rest, NODE_EXTRA_CA_CERTS: ca } : rest;
}
