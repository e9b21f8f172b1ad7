/**
 * Which prompts need no memory: very short ones, acknowledgements and go-aheads, slash commands and the
 * messages Claude Code injects itself (`<task-notification>` and friends). Pure.
 */
const ACK = /^(ok(ay)?|k|yes|yep|yeah|no|nope|y|n|sure|thanks?( you)?|thx|ty|lgtm|looks good|sounds good|great|nice|cool|perfect|good|done|go( ahead)?|continue|proceed|do it|next|retry|again|stop|wait|hm+|yes please|please do|ship it)[\s.!?]*$/i;

/**
 * The words of a go-ahead: a prompt made of these only ("yeah let's do it", "ok let's keep going",
 * "let's continue please") agrees, thanks or says to go on, and names nothing a memory could be about.
 */
const GO_ON = new Set(
  ("ok okay k yes yep yeah yup y sure fine alright right great good nice cool perfect thanks thank you ty thx please pls lgtm " +
    "go ahead on continue proceed keep going carry do it that this let lets s us now then so and sounds looks done next again retry ship")
    .split(" "),
);

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
  if (words.every((w) => GO_ON.has(w.toLowerCase().replace(/\u2019/g, "")))) return "acknowledgement";
  return undefined;
}
