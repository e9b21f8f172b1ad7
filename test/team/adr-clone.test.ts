/**
 * Team memory, flow 4 (real git): a repository whose ADR folder was written by hand (MADR front
 * matter and adr-tools' `## Status`, no `mem share`) is cloned from scratch by B. B's first
 * SessionStart indexes docs/adr in the background (a decision folder no root covers); from the
 * next session on, B is briefed by status: accepted records as decisions, rejected ones as
 * rejected approaches, superseded, deprecated and proposed ones never as current.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { gitSkip, teamRepo } from "../helpers/team-repo.js";

const madr = (status: string, date: string, makers: string, title: string, outcome: string) =>
  `---\nstatus: ${status}\ndate: ${date}\ndecision-makers: ${makers}\n---\n# ${title}\n\n## Context and Problem Statement\n\nWe need to decide.\n\n## Decision Outcome\n\n${outcome}\n`;
const adrTools = (n: number, title: string, date: string, status: string, decision: string) => `# ${n}. ${title}\n\nDate: ${date}\n\n## Status\n\n${status}\n\n## Context\n\nWe need to decide.\n\n## Decision\n\n${decision}\n`;

const FILES = {
  "docs/adr/0001-record-architecture-decisions.md": adrTools(1, "Record architecture decisions", "2025-01-10", "Accepted", "We will use Architecture Decision Records."),
  "docs/adr/0002-use-mongodb-for-events.md": adrTools(2, "Use MongoDB for events", "2025-02-01", "Superseded by [6. Use Kafka for events](0006-use-kafka-for-events.md)", "We store events in MongoDB."),
  "docs/adr/0003-run-our-own-kubernetes.md": madr("rejected", "2025-03-03", "[Carol, Dan]", "Run our own Kubernetes cluster", "Rejected: the managed service costs less than one engineer."),
  "docs/adr/0004-offer-a-graphql-api.md": madr("proposed", "2025-04-04", "Erin", "Offer a GraphQL API", "Proposed: a GraphQL gateway in front of the REST services."),
  "docs/adr/0005-use-moment-for-dates.md": madr("deprecated", "2025-05-05", "Frank", "Use Moment for dates", "Moment is in maintenance mode."),
  "docs/adr/0006-use-kafka-for-events.md": madr("accepted", "2025-06-06", "Carol, Grace", "Use Kafka for events", "Chosen option: Kafka, because consumers replay from an offset."),
  "docs/adr/0007-keep-a-monorepo.md": adrTools(7, "Keep a monorepo", "2025-07-07", "Rejected", "We split the repository per service."),
  "docs/adr/README.md": "# Architecture decisions\n\nOne file per decision.\n",
};

test("an ADR folder cloned from scratch is briefed by status at B's first sessions, without mem share", { skip: gitSkip }, async () => {
  const { b, cleanup } = teamRepo("adr", FILES);
  try {
    const first = await b.session("b-first");
    assert.doesNotMatch(first, /Kafka/, "the folder is indexed in the background: the first briefing has no records yet");
    await b.settled();
    // The first session's background index normally covers it; a later session would if it were still running.
    await b.sessionsUntil(async () => (await b.list()).length === 7, "the seven records in B's index");
    const byTitle = new Map((await b.list()).map((m) => [m.record?.title, m]));
    assert.deepEqual(
      [...byTitle.entries()].map(([t, m]) => [t, m.kind, m.record?.status]).sort(),
      [
        ["1. Record architecture decisions", "decision", "accepted"],
        ["2. Use MongoDB for events", "superseded", "superseded by 6. use kafka for events"],
        ["7. Keep a monorepo", "rejected", "rejected"],
        ["Offer a GraphQL API", "proposed", "proposed"],
        ["Run our own Kubernetes cluster", "rejected", "rejected"],
        ["Use Kafka for events", "decision", "accepted"],
        ["Use Moment for dates", "superseded", "deprecated"],
      ],
    );
    assert.equal(byTitle.get("2. Use MongoDB for events")!.record?.supersededBy, "0006-use-kafka-for-events.md");

    const briefing = await b.session("b-second");
    const section = (name: string) => new RegExp(`## ${name}\\n((?:- .*\\n)*)`).exec(briefing)?.[1] ?? "";
    const decisions = section("Decisions");
    assert.match(decisions, /- Use Kafka for events \[team record docs\/adr\/0006-use-kafka-for-events\.md · accepted · 2025-06-06 · by Carol, Grace\]/);
    assert.match(decisions, /- 1\. Record architecture decisions \[team record docs\/adr\/0001-record-architecture-decisions\.md · accepted · 2025-01-10\]/);
    const rejected = section("Rejected approaches");
    assert.match(rejected, /- Run our own Kubernetes cluster \[team record docs\/adr\/0003-run-our-own-kubernetes\.md · rejected · 2025-03-03 · by Carol, Dan\]/);
    assert.match(rejected, /- 7\. Keep a monorepo \[team record docs\/adr\/0007-keep-a-monorepo\.md · rejected · 2025-07-07\]/);
    assert.doesNotMatch(briefing, /MongoDB|GraphQL|Moment/, "superseded, deprecated and proposed records are never briefed as current");
    assert.doesNotMatch(decisions, /Kubernetes|monorepo/, "rejected records are not among the decisions");
  } finally {
    await cleanup();
  }
});
