/** One request as a view sees it, and what a view answers. */
import type { Html } from "./html.js";
import type { UiContext } from "./context.js";

export interface UiRequest {
  /** The path after the token: `/search`. */
  path: string;
  query: URLSearchParams;
  /** A POST's form fields. */
  form: URLSearchParams;
  /** The address's base: `/TOKEN`; every link and form of a page starts with it. */
  base: string;
}

export type Answer = Html | { redirect: string } | { status: number; body: Html };

/** A link inside the explorer: its base, a path, and the parameters that are set. */
export function href(base: string, path: string, params: Record<string, string | number | undefined | null> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return `${base}${path}${s ? `?${s}` : ""}`;
}

/** A page: a view for GET, an action for POST (./routes.ts lists them by path). */
export interface Route {
  get?: (ctx: UiContext, req: UiRequest) => Promise<Answer> | Answer;
  post?: (ctx: UiContext, req: UiRequest) => Promise<Answer> | Answer;
}
