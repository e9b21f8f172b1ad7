/** What a team's decision record turned down (src/team/turned-down.ts): table-driven over the ways MADR and its variants write it. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { optionName, recordStatements, turnedDown } from "../../src/team/turned-down.js";

test("optionName: a list item's option, without its link target, emphasis or description", () => {
  const cases: [string, string][] = [
    ["ES256", "ES256"],
    ["[MADR](https://adr.github.io/madr/) 4.0.0 – The Markdown Architectural Decision Records", "MADR 4.0.0"],
    ["**Redis** - an in-memory store", "Redis"],
    ["`npm run migrate:force`: the quick way", "`npm run migrate:force`"],
    ["SLF4J with Log4j2 binding", "SLF4J with Log4j2 binding"],
  ];
  for (const [item, want] of cases) assert.equal(optionName(item), want, item);
});

test("turnedDown: the considered options but the chosen one, and why it was chosen", () => {
  const madr = "# Logging\n\n## Considered Options\n\n* [Log4j2](https://logging.apache.org/)\n* SLF4J with Log4j2 binding\n* SLF4J with Logback binding\n\n## Decision Outcome\n\nChosen option: \"SLF4J with Log4j2 binding\", because comes out best (see below).\n";
  assert.deepEqual(turnedDown(madr), { chosen: "SLF4J with Log4j2 binding", options: ["Log4j2", "SLF4J with Logback binding"], reason: "comes out best (see below)" });
  // "Considered Alternatives", numbered items, no reason.
  assert.deepEqual(turnedDown("## Considered Alternatives\n1. Postgres\n2. MySQL\n\n## Decision Outcome\nChosen option: \"Postgres\"\n"), { chosen: "Postgres", options: ["MySQL"], reason: "" });
  // No chosen option, or nothing else considered: nothing turned down.
  assert.equal(turnedDown("## Considered Options\n* A1\n* B2\n"), undefined);
  assert.equal(turnedDown("## Considered Options\n* Postgres\n\nChosen option: \"Postgres\", because it is there.\n"), undefined);
  // The options list ends at the next heading: the pros and cons after it are no options.
  assert.deepEqual(turnedDown("## Considered Options\n* gRPC\n* REST\n## Decision Outcome\nChosen option: \"gRPC\", because of streaming.\n## Pros and Cons\n* Good, because fast\n")?.options, ["REST"]);
});

test("recordStatements: an accepted record's turned-down options as 'chosen over' (the reason is the chosen one's), a rejected record's title", () => {
  const text = "## Considered Options\n* ES256\n* HS256\n\nChosen option: \"ES256\", because a verifier holds only the public key.\n";
  assert.deepEqual(recordStatements("decision", "Sign tokens with ES256", text), [{ kind: "decision", text: 'Chosen option: "ES256" over "HS256"', instead: 'in favour of "ES256", because a verifier holds only the public key' }]);
  assert.deepEqual(recordStatements("decision", "Logs", "## Considered Options\n* Log4j2\n* Logback\n\nChosen option: \"Log4j2\"\n")[0]?.instead, 'in favour of "Log4j2"', "no reason given");
  assert.deepEqual(recordStatements("decision", "Use ES256 instead of HS256", "# Use ES256 instead of HS256\n"), [{ kind: "decision", text: "Use ES256 instead of HS256" }]);
  assert.deepEqual(recordStatements("rejected", "Use MongoDB for the event store", "..."), [{ kind: "rejected", text: "Use MongoDB for the event store" }]);
  assert.deepEqual(recordStatements("superseded", "Use HS256", text), [], "history is no rule");
  assert.deepEqual(recordStatements("rejected", "  ", ""), []);
});
