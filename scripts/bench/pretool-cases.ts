/**
 * bench:pretool's scripted set: a decision or a rejected approach, then a tool call that brings it
 * back (a regression the check must catch) or one that comes close without doing so (a near miss
 * it must leave alone). Written by hand, in two halves: the rule was tuned on "tune" only; "check"
 * is reported apart, as a measure of what the rule does on cases it was not shaped on.
 */
export interface ScriptedCase {
  name: string;
  half: "tune" | "check";
  memory: { kind: "decision" | "rejected"; text: string; files?: string[] };
  call: { tool: string; input: Record<string, unknown> };
  /** A regression (the check must warn) or a near miss (it must not). */
  warn: boolean;
}

const AUTH = "/repo/src/auth.ts";
const HS = { kind: "rejected" as const, text: "We rejected HS256 for token signing because it shares the secret with every verifier.", files: [AUTH] };
const MIGRATE = { kind: "rejected" as const, text: "Never run `npm run migrate:force` on shared databases: it dropped the staging data." };
const edit = (file: string, oldS: string, newS: string) => ({ tool: "Edit", input: { file_path: file, old_string: oldS, new_string: newS } });
const bash = (command: string) => ({ tool: "Bash", input: { command, description: "run" } });
const write = (file: string, content: string) => ({ tool: "Write", input: { file_path: file, content } });

export const SCRIPTED: ScriptedCase[] = [
  // Regressions.
  { name: "HS256 back in auth.ts", half: "tune", memory: HS, call: edit(AUTH, "algorithm: 'ES256'", "algorithm: 'HS256'"), warn: true },
  { name: "the forbidden migration command", half: "check", memory: MIGRATE, call: bash("npm run migrate:force"), warn: true },
  { name: "moment back after date-fns won", half: "tune", memory: { kind: "decision", text: "We chose date-fns over moment.js because moment is huge and mutable." }, call: write("/repo/src/dates.ts", "import moment from 'moment';\nexport const today = () => moment().format('YYYY-MM-DD');\n"), warn: true },
  { name: "Redis for the queue", half: "check", memory: { kind: "rejected", text: "Decided against Redis for the job queue since Postgres advisory locks suffice.", files: ["/repo/src/queue.ts"] }, call: edit("/repo/src/queue.ts", "const lock = await pg.advisoryLock(id);", "const client = new Redis(process.env.REDIS_URL);"), warn: true },
  { name: "axios back after fetch", half: "tune", memory: { kind: "decision", text: "Use fetch instead of axios to keep the bundle small." }, call: edit("/repo/src/http.ts", "", "import axios from 'axios';"), warn: true },
  { name: "force push to main", half: "check", memory: { kind: "rejected", text: "Rejected `git push --force` on main: it rewrote shared history twice." }, call: bash("git push --force origin main"), warn: true },
  { name: "jest after the move to Vitest", half: "tune", memory: { kind: "decision", text: "Switched from Jest to Vitest for speed." }, call: bash("npx jest --watch src/"), warn: true },
  { name: "MD5 for passwords", half: "check", memory: { kind: "decision", text: "Use bcrypt rather than MD5 for password hashes.", files: ["/repo/src/password.ts"] }, call: edit("/repo/src/password.ts", "return bcrypt.hash(pw, 12);", "return createHash('md5').update(pw).digest('hex');"), warn: true },
  { name: "process.exit in a handler", half: "tune", memory: { kind: "decision", text: "Never call `process.exit()` inside request handlers; it kills in-flight requests." }, call: edit("/repo/src/server.ts", "res.status(500).end();", "process.exit(1);"), warn: true },
  { name: "lodash back", half: "check", memory: { kind: "rejected", text: "Dropped lodash because native array methods suffice." }, call: write("/repo/src/util.ts", "import _ from 'lodash';\nexport const uniq = _.uniq;\n"), warn: true },
  { name: "rm -rf node_modules in CI", half: "tune", memory: { kind: "rejected", text: "`rm -rf node_modules` in CI scripts was rejected: it wipes the shared cache." }, call: bash("rm -rf node_modules && npm ci"), warn: true },
  { name: "GraphQL for the public API", half: "check", memory: { kind: "decision", text: "Chose REST over GraphQL for the public API because our clients are simple." }, call: write("/repo/src/api/schema.ts", "import { GraphQLSchema } from 'graphql';\n"), warn: true },
  { name: "localStorage for the session id", half: "tune", memory: { kind: "rejected", text: "Rejected storing sessions in localStorage because of XSS exposure.", files: ["/repo/src/session.ts"] }, call: edit("/repo/src/session.ts", "cookies.set('sid', id, { httpOnly: true });", "localStorage.setItem('sid', id);"), warn: true },
  { name: "HS256 through MultiEdit", half: "check", memory: { kind: "decision", text: "Use ES256 instead of HS256 for JWT signing.", files: [AUTH] }, call: { tool: "MultiEdit", input: { file_path: AUTH, edits: [{ old_string: "const alg = 'ES256';", new_string: "const alg = 'HS256';" }, { old_string: "a", new_string: "b" }] } }, warn: true },
  { name: "eval back", half: "tune", memory: { kind: "decision", text: "Never use `eval()`: it opened an injection hole in the calculator." }, call: edit("/repo/src/calc.ts", "return parse(expr);", "return eval(expr);"), warn: true },
  { name: "Docker Compose for local dev", half: "check", memory: { kind: "rejected", text: "Decided against Docker Compose for local dev because of slow file sync on macOS." }, call: bash("docker compose up -d"), warn: true },
  { name: "docker-compose spelled with a hyphen", half: "tune", memory: { kind: "rejected", text: "Decided against Docker Compose for local dev because of slow file sync on macOS." }, call: bash("docker-compose up -d db"), warn: true },
  { name: "Node 22 pinned again", half: "check", memory: { kind: "decision", text: "Pinned Node 20 rather than Node 22 because better-sqlite3 prebuilds lag." }, call: write("/repo/.nvmrc", "22\n"), warn: true },
  { name: "MySQL connector back", half: "tune", memory: { kind: "decision", text: 'Chosen option: "Use MariaDB Connector" over "Use MySQL Connector", because it is the drop-in replacement.' }, call: edit("/repo/build.gradle", "", "implementation 'mysql:mysql-connector-java:8.0.33' // MySQL Connector"), warn: true },
  { name: "the migration inside a longer command", half: "check", memory: MIGRATE, call: bash("cd api && npm run migrate:force -- --yes"), warn: true },

  // Near misses.
  { name: "HS256 replaced by ES256", half: "tune", memory: HS, call: edit(AUTH, "algorithm: 'HS256'", "algorithm: 'ES256'"), warn: false },
  { name: "grep for HS256", half: "check", memory: HS, call: bash("grep -rn HS256 src/"), warn: false },
  { name: "a test that HS256 is refused", half: "tune", memory: HS, call: edit("/repo/test/auth.test.ts", "", "expect(() => verify(token, 'HS256')).toThrow();"), warn: false },
  { name: "a comment saying HS256 is not allowed", half: "check", memory: HS, call: edit(AUTH, "", "// HS256 is not allowed: see the signing decision"), warn: false },
  { name: "HS256 in another file than the anchored one", half: "tune", memory: HS, call: edit("/repo/src/legacy/verify.ts", "", "const legacy = 'HS256';"), warn: false },
  { name: "the ordinary migration", half: "check", memory: MIGRATE, call: bash("npm run migrate"), warn: false },
  { name: "looking for the forbidden script", half: "tune", memory: MIGRATE, call: bash("cat package.json | grep migrate:force"), warn: false },
  { name: "date-fns added", half: "check", memory: { kind: "decision", text: "We chose date-fns over moment.js because moment is huge and mutable." }, call: edit("/repo/src/dates.ts", "", "import { format } from 'date-fns';"), warn: false },
  { name: "the Redis decision written down", half: "tune", memory: { kind: "rejected", text: "Decided against Redis for the job queue since Postgres advisory locks suffice." }, call: edit("/repo/docs/queue.md", "", "We decided against Redis: advisory locks are enough."), warn: false },
  { name: "an ordinary auth edit", half: "check", memory: HS, call: edit(AUTH, "const ttl = 3600;", "const ttl = 900; // shorter tokens"), warn: false },
  { name: "npm ls axios", half: "tune", memory: { kind: "decision", text: "Use fetch instead of axios to keep the bundle small." }, call: bash("npm ls axios"), warn: false },
  { name: "an ordinary push", half: "check", memory: { kind: "rejected", text: "Rejected `git push --force` on main: it rewrote shared history twice." }, call: bash("git push origin main"), warn: false },
  { name: "a note that Jest is gone", half: "tune", memory: { kind: "decision", text: "Switched from Jest to Vitest for speed." }, call: edit("/repo/vitest.config.ts", "", "// migrated from Jest in March"), warn: false },
  { name: "evaluate is not eval", half: "check", memory: { kind: "decision", text: "Never use `eval()`: it opened an injection hole in the calculator." }, call: edit("/repo/src/calc.ts", "", "return evaluate(expr);"), warn: false },
  { name: "docker build is not Compose", half: "tune", memory: { kind: "rejected", text: "Decided against Docker Compose for local dev because of slow file sync on macOS." }, call: bash("docker build -t api ."), warn: false },
  { name: "a decision with nothing ruled out", half: "check", memory: { kind: "decision", text: "Tokens are signed with ES256 now.", files: [AUTH] }, call: edit(AUTH, "", "const alg = 'ES256';"), warn: false },
  { name: "MariaDB connector kept", half: "tune", memory: { kind: "decision", text: 'Chosen option: "Use MariaDB Connector" over "Use MySQL Connector", because it is the drop-in replacement.' }, call: edit("/repo/build.gradle", "", "implementation 'org.mariadb.jdbc:mariadb-java-client:3.1.4'"), warn: false },
  { name: "git log for the force push", half: "check", memory: { kind: "rejected", text: "Rejected `git push --force` on main: it rewrote shared history twice." }, call: bash("git log --oneline | head -5"), warn: false },
];
