/**
 * PostToolUse payloads of Claude Code's task tools (TodoWrite, TaskCreate, TaskUpdate) as a hook
 * receives them, each call with a fresh tool_use_id.
 */
export type Todo = { content: string; status: string };

let call = 0;
export const toolPayload = (session: string, tool: string, input: Record<string, unknown>, response: unknown) => ({
  session_id: session, hook_event_name: "PostToolUse", tool_name: tool, tool_use_id: `toolu_${call++}`, tool_input: input, tool_response: response,
});
export type ToolPayload = ReturnType<typeof toolPayload>;

export const todoWrite = (session: string, todos: Todo[]) => toolPayload(session, "TodoWrite", { todos: todos.map((t) => ({ ...t, activeForm: t.content })) }, { newTodos: todos });
export const taskCreate = (session: string, id: string, subject: string) => toolPayload(session, "TaskCreate", { subject, description: "" }, { task: { id, subject } });
export const taskUpdate = (session: string, id: string, input: Record<string, unknown>) => toolPayload(session, "TaskUpdate", { taskId: id, ...input }, { success: true, taskId: id });
