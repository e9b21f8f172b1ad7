/** A hook's answer: the context for the model, and (SessionStart) a notice for the user. */
export interface HookAnswer {
  context: string | undefined;
  notice?: string;
}
