/** The alphabets and encodings the fake-secret corpora (./secrets.ts, ./secret-shapes.ts, test/redact/held-out-shapes.ts) make values from. */
export const LOWER = "abcdefghijklmnopqrstuvwxyz";
export const UPPER = LOWER.toUpperCase();
export const DIGITS = "0123456789";
export const HEX = "0123456789abcdef";
export const ALNUM = UPPER + LOWER + DIGITS;
export const B64 = `${ALNUM}+/`;
export const B64URL = `${ALNUM}-_`;
export const b64 = (s: string) => Buffer.from(s).toString("base64");
/** What a query string makes of a command line: spaces as `+`, the rest percent-encoded. */
export const formEncode = (s: string) => encodeURIComponent(s).replace(/%20/g, "+");
