/**
 * How the browser is sent to the explorer without anything secret on a command line (another local
 * account can read every process's arguments in /proc): a small HTML page in the data home,
 * readable by the user only (0600, never written through a link), that carries the opening link
 * and sends the browser on to it; the browser's opener is given that page's file:// address only.
 * The link inside works once and for OPEN_LINK_MS (./guard.ts): a page left behind leads nowhere.
 * The page has its own Content-Security-Policy (nothing may load or run); the redirect is a meta
 * refresh, with a plain link for a browser that does not follow it.
 */
import { join } from "node:path";
import { OPEN_PAGE_FILE } from "../config/paths.cjs";
import { pathToFileURL } from "node:url";
import { replacePrivate } from "../util/private-file.cjs";
import { escapeHtml } from "./html.js";

/** The page's place in the data home. */
export const openPagePath = (home: string): string => join(home, OPEN_PAGE_FILE);

/** The page's HTML for an opening link (`http://127.0.0.1:PORT/open?…`). Pure. */
export function openPageHtml(link: string): string {
  const href = escapeHtml(link);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}">
<title>mem ui</title>
</head>
<body>
<p>Opening the mem explorer… If nothing happens, <a href="${href}">open it</a>.</p>
</body>
</html>
`;
}

/** Writes the page for `link` (replacing an older one) and returns its file:// address. Throws what the write throws. */
export function writeOpenPage(home: string, link: string): string {
  const path = openPagePath(home);
  replacePrivate(path, openPageHtml(link));
  return pathToFileURL(path).href;
}
