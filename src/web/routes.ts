/** Every page of the explorer by its path (after the token). */
import type { Route } from "./request.js";
import { healthRoute } from "./views/health.js";
import { legsRoute } from "./views/legs.js";
import { searchRoute } from "./views/search.js";

export const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ["/search", searchRoute],
  ["/legs", legsRoute],
  ["/health", healthRoute],
]);
