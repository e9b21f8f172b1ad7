/**
 * Which prompts need no memory: very short ones, acknowledgements, slash commands and the
 * messages Claude Code injects itself (`<task-notification>` and friends). Pure.
 */
const ACK = /^(ok(ay)?|k|yes|yep|yeah|no|nope|y|n|sure|thanks?( you)?|thx|ty|lgtm|looks good|sounds good|great|nice|cool|perfect|good|done|go( ahead)?|continue|proceed|do it|next|retry|again|stop|wait|hm+|yes please|please do|ship it)[\s.!?]*$/i;

export function skipReason(prompt: string): string | undefined {
  const p = prompt.trim();
  if (p === "") return "empty";
  if (/^<(task-notification|command-name|command-message|local-command-stdout|system-reminder|bash-input|bash-stdout)\b/i.test(p)) return "injected by Claude Code";
  if (p.startsWith("/")) return "slash command";
  if (ACK.test(p)) return "acknowledgement";
  // Words: runs between spaces and ASCII punctuation. A Unicode-aware /[\p{L}\p{N}]+/u gives the
  // same count for real prompts but costs the hook process ~1 ms to compile.
  const words = p.match(/[^\s!-/:-@[-^`{-~]+/g) ?? [];
  if (words.length < 3 || p.length < 12) return "too short";
  return undefined;
}
