/** Long work on the daemon's thread is done in slices of this many rows, the event loop running between them. */
export const SLICE = 8_192;

/** Lets the event loop run (timers, sockets: a prompt's answer) before going on. */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));
