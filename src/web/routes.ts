/** Every page of the explorer by its path (after the token). */
import type { Route } from "./request.js";
import { addRoute } from "./views/add.js";
import { memoriesRoute } from "./views/memories.js";
import { editRoute, forgetRoute } from "./views/memory-actions.js";
import { memoryRoute } from "./views/memory.js";
import { healthRoute } from "./views/health.js";
import { legsRoute } from "./views/legs.js";
import { searchRoute } from "./views/search.js";
import { sourceRoute, sourcesRoute } from "./views/sources.js";
import { taskDoneRoute, tasksRoute } from "./views/tasks.js";
import { promptRoute, promptsRoute } from "./views/prompts.js";
import { sessionRoute, sessionsRoute } from "./views/sessions.js";
import { teamRoute } from "./views/team.js";

export const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ["/search", searchRoute],
  ["/memories", memoriesRoute],
  ["/memories/new", addRoute],
  ["/memory", memoryRoute],
  ["/memory/edit", editRoute],
  ["/memory/forget", forgetRoute],
  ["/team", teamRoute],
  ["/tasks", tasksRoute],
  ["/task/done", taskDoneRoute],
  ["/sources", sourcesRoute],
  ["/source", sourceRoute],
  ["/legs", legsRoute],
  ["/health", healthRoute],
  ["/prompts", promptsRoute],
  ["/prompt", promptRoute],
  ["/sessions", sessionsRoute],
  ["/session", sessionRoute],
]);
