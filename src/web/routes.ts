/** Every page of the explorer by its path (after the token). */
import type { Route } from "./request.js";
import { searchRoute } from "./views/search.js";
import { promptRoute, promptsRoute } from "./views/prompts.js";
import { sessionRoute, sessionsRoute } from "./views/sessions.js";

export const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ["/search", searchRoute],
  ["/prompts", promptsRoute],
  ["/prompt", promptRoute],
  ["/sessions", sessionsRoute],
  ["/session", sessionRoute],
]);
