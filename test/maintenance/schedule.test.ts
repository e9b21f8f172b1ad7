/**
 * `mem schedule`: what it writes for each scheduler (a crontab block, systemd user units, a launchd
 * plist) and that it removes exactly that. The schedulers' programs are outside programs: the
 * tests put fake `crontab` and `systemctl` scripts (shell built-ins only) first and alone on PATH,
 * with a temporary crontab file, a temporary unit directory and a temporary HOME, so the real
 * ones are never reached.
 */
import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { jobCommand, ScheduleError } from "../../src/maintenance/schedule/command.js";
import { CRON_BEGIN, CRON_END, cronBlock, withBlock, withoutBlock } from "../../src/maintenance/schedule/cron.js";
import { LABEL, plist } from "../../src/maintenance/schedule/launchd.js";
import { serviceUnit, timerUnit, unitQuote } from "../../src/maintenance/schedule/systemd.js";
import { BIN, jsonOf, runMem, show } from "../helpers/mem-cli.js";

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "mem-schedule-")));
after(() => rmSync(tmp, { recursive: true, force: true }));

const NODE = "/opt/node 20/bin/node";
const job = (env: NodeJS.ProcessEnv = {}) => jobCommand(env, NODE, "/home/me/mem/bin/mem.cjs");

describe("what each scheduler is given", () => {
  test("the crontab block: three lines between markers, every % escaped, values shell-quoted", () => {
    const block = cronBlock(job({ MEM_HOME: "/data/100% mine", OLLAMA_HOST: "127.0.0.1:11434", UNRELATED: "x" }));
    assert.deepEqual(block, [CRON_BEGIN, "17 3 * * 0 MEM_HOME='/data/100\\% mine' OLLAMA_HOST=127.0.0.1:11434 '/opt/node 20/bin/node' /home/me/mem/bin/mem.cjs reindex -q", CRON_END]);
  });

  test("adding the block keeps every other line, twice is once, and removing it gives the crontab back byte for byte", () => {
    const mine = "MAILTO=me@example.com\n# my backups\n0 2 * * * /usr/local/bin/backup --all\n";
    const added = withBlock(mine, job());
    assert.equal(added.changed, true);
    assert.ok(added.text.startsWith(mine));
    assert.equal(withBlock(added.text, job()).changed, false);
    assert.equal(withoutBlock(added.text).text, mine);
    assert.deepEqual(withoutBlock(added.text).removed, cronBlock(job()));
    assert.deepEqual(withoutBlock(mine), { text: mine, removed: [] });
    // An older block (another checkout) is replaced where it stands.
    const older = `${mine}${withBlock("", jobCommand({}, "/old/node", "/old/mem.cjs")).text}0 5 * * * after\n`;
    const replaced = withBlock(older, job());
    assert.equal(replaced.text, `${mine}${cronBlock(job()).join("\n")}\n0 5 * * * after\n`);
    assert.equal(withBlock("", job()).text, `${cronBlock(job()).join("\n")}\n`);
  });

  test("a crontab with mem's opening marker and no closing one is refused, not guessed at", () => {
    assert.throws(() => withoutBlock(`${CRON_BEGIN}\n17 3 * * 0 something\n`), /without its closing one/);
  });

  test("values that cannot be written intact (a newline) are refused", () => {
    assert.throws(() => job({ MEM_HOME: "/a\nrm -rf ~" }), ScheduleError);
  });

  test("the systemd units: a oneshot service and a weekly persistent timer, quoting kept literal", () => {
    const svc = serviceUnit(job({ MEM_HOME: '/d/"q"%h$HOME\\x' }));
    assert.match(svc, /^# Written by `mem schedule install`/);
    assert.ok(svc.includes("Type=oneshot\n"));
    assert.ok(svc.includes('Environment="MEM_HOME=/d/\\"q\\"%%h$HOME\\\\x"\n'), svc);
    assert.ok(svc.includes('ExecStart="/opt/node 20/bin/node" "/home/me/mem/bin/mem.cjs" reindex -q\n'), svc);
    assert.equal(unitQuote("a$b%c", true), '"a$$b%%c"');
    const timer = timerUnit();
    for (const line of ["OnCalendar=Sun *-*-* 03:17:00", "Persistent=true", "WantedBy=timers.target"]) assert.ok(timer.includes(`${line}\n`), line);
  });

  test("the launchd plist: label, arguments, environment and calendar, XML-escaped", () => {
    const text = plist(job({ MEM_HOME: "/d/<a&b>" }), "/d/schedule.log");
    assert.ok(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist'));
    assert.ok(text.includes(`<key>Label</key><string>${LABEL}</string>`));
    assert.ok(text.includes("<string>/opt/node 20/bin/node</string>\n    <string>/home/me/mem/bin/mem.cjs</string>\n    <string>reindex</string>\n    <string>-q</string>"), text);
    assert.ok(text.includes("<key>MEM_HOME</key><string>/d/&lt;a&amp;b&gt;</string>"));
    assert.ok(text.includes("<key>Weekday</key><integer>0</integer><key>Hour</key><integer>3</integer><key>Minute</key><integer>17</integer>"));
    assert.ok(text.includes("<key>StandardErrorPath</key><string>/d/schedule.log</string>"));
    assert.equal(text.match(/<dict>/g)?.length, text.match(/<\/dict>/g)?.length);
    assert.ok(!/<!--[\s\S]*--[\s\S]*-->/.test(text.replace(/<!--(?:(?!--)[\s\S])*-->/g, "")), "comments hold no --");
  });
});

/** Fake schedulers: shell built-ins only, so PATH can hold them and nothing else. */
function fakeBin(dir: string): string {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const script = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!/bin/sh\nprintf '%s %s\\n' "${name}" "$*" >> "$FAKE_LOG"\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  const cat = (file: string) => `while IFS= read -r line || [ -n "$line" ]; do printf '%s\\n' "$line"; done < "${file}"`;
  script(
    "crontab",
    `case "$1" in
  -l) if [ -f "$FAKE_CRONTAB" ]; then ${cat("$FAKE_CRONTAB")}; else echo "no crontab for tester" >&2; exit 1; fi ;;
  -) : > "$FAKE_CRONTAB"; while IFS= read -r line || [ -n "$line" ]; do printf '%s\\n' "$line" >> "$FAKE_CRONTAB"; done ;;
  *) echo "fake crontab: $*" >&2; exit 2 ;;
esac`,
  );
  script(
    "systemctl",
    `[ "$1" = "--user" ] || exit 1
state=disabled; [ -f "$FAKE_STATE" ] && read -r state < "$FAKE_STATE"
case "$2" in
  show-environment) [ -n "$FAKE_NO_SYSTEMD" ] && { echo "Failed to connect to bus" >&2; exit 1; }; echo "HOME=$HOME" ;;
  daemon-reload) ;;
  enable) printf 'enabled\\n' > "$FAKE_STATE" ;;
  disable) printf 'disabled\\n' > "$FAKE_STATE" ;;
  is-enabled) echo "$state"; [ "$state" = enabled ] ;;
  is-active) if [ "$state" = enabled ]; then echo active; else echo inactive; exit 3; fi ;;
  show) echo "Sun 2026-11-29 03:17:00 UTC" ;;
  *) exit 1 ;;
esac`,
  );
  return bin;
}

describe("mem schedule on a temporary crontab and a temporary unit directory", () => {
  const dir = join(tmp, "sched");
  const bin = fakeBin(dir);
  const crontab = join(dir, "crontab.txt");
  const log = join(dir, "calls.log");
  const env: NodeJS.ProcessEnv = { PATH: bin, HOME: join(dir, "home"), XDG_CONFIG_HOME: join(dir, "config"), MEM_HOME: join(dir, "mem home"), FAKE_CRONTAB: crontab, FAKE_LOG: log, FAKE_STATE: join(dir, "timer-state") };
  const units = join(dir, "config", "systemd", "user");
  const mine = "MAILTO=me@example.com\n0 2 * * * /usr/local/bin/backup --all\n";
  const mem = async (args: string[], extra: NodeJS.ProcessEnv = {}, code = 0) => {
    const r = await runMem(["schedule", ...args], { env: { ...env, ...extra } });
    assert.equal(r.code, code, show(r));
    return r;
  };
  const calls = () => (existsSync(log) ? readFileSync(log, "utf8") : "");
  const noSystemd = { FAKE_NO_SYSTEMD: "1" };

  test("without a systemd user manager: the crontab; dry run first, then exactly the block, once", async () => {
    writeFileSync(crontab, mine);
    const dry = await mem(["install", "--dry-run"], noSystemd);
    assert.equal(readFileSync(crontab, "utf8"), mine, "a dry run writes nothing");
    assert.ok(dry.stdout.includes(`would write crontab:\n    | ${CRON_BEGIN}\n`), dry.stdout);
    assert.ok(dry.stdout.includes("would run: crontab -"));
    const r = jsonOf<{ method: string; changed: boolean; parts: { writes: { content: string }[] }[] }>(await mem(["install", "--json"], noSystemd));
    assert.deepEqual([r.method, r.changed], ["cron", true]);
    const text = readFileSync(crontab, "utf8");
    assert.ok(text.startsWith(mine));
    const block = text.slice(mine.length);
    assert.equal(r.parts[0]!.writes[0]!.content, block, "what it says it wrote is what is there");
    assert.match(block, new RegExp(`^17 3 \\* \\* 0 MEM_HOME='${dir}/mem home' \\S+ ${BIN} reindex -q$`, "m"));
    const again = await mem(["install"], noSystemd);
    assert.match(again.stdout, /already scheduled as it should be: nothing changed/);
    assert.equal(readFileSync(crontab, "utf8"), text);
    const status = jsonOf<{ status: { method: string; installed: boolean }[]; lastRun: unknown }>(await mem(["status", "--json"], noSystemd));
    assert.deepEqual(status.status.map((s) => [s.method, s.installed]), [["systemd", false], ["cron", true]]);
    assert.equal(status.lastRun, null);
  });

  test("remove takes out only mem's lines: the crontab is as it was", async () => {
    const dry = await mem(["remove", "--dry-run"], noSystemd);
    assert.ok(dry.stdout.includes(`would remove from the crontab:\n    | ${CRON_BEGIN}`), dry.stdout);
    assert.notEqual(readFileSync(crontab, "utf8"), mine);
    await mem(["remove"], noSystemd);
    assert.equal(readFileSync(crontab, "utf8"), mine);
    assert.match((await mem(["remove"], noSystemd)).stdout, /nothing of mem's was scheduled/);
  });

  test("with a systemd user manager: two units and an enabled timer; installing again does nothing", async () => {
    await mem(["install"], noSystemd); // in the crontab first: moving to systemd takes it out
    writeFileSync(log, "");
    const r = await mem(["install"]);
    assert.match(r.stdout, /^scheduled with systemd: /);
    const service = readFileSync(join(units, "mem-reindex.service"), "utf8");
    const timer = readFileSync(join(units, "mem-reindex.timer"), "utf8");
    assert.ok(service.includes(`Environment="MEM_HOME=${dir}/mem home"\n`), service);
    assert.ok(service.includes(`"${BIN}" reindex -q\n`), service);
    assert.equal(timer, timerUnit());
    assert.ok(r.stdout.includes(`wrote ${join(units, "mem-reindex.service")}:\n    | # Written by`), r.stdout);
    assert.ok(calls().includes("systemctl --user daemon-reload\nsystemctl --user enable --now mem-reindex.timer\n"), calls());
    assert.equal(readFileSync(crontab, "utf8"), mine, "one schedule, never two: the crontab block is gone");
    assert.match(r.stdout, /scheduled with systemd: .*mem-reindex.service, .*mem-reindex.timer \(enabled, active; next run Sun 2026-11-29 03:17:00 UTC\)/);

    writeFileSync(log, "");
    const again = await mem(["install"]);
    assert.match(again.stdout, /nothing changed/);
    assert.ok(!calls().includes("enable --now") && !calls().includes("daemon-reload"), calls());
  });

  test("remove disables the timer and deletes exactly mem's units", async () => {
    writeFileSync(join(units, "other.service"), "[Service]\nExecStart=/bin/true\n");
    writeFileSync(log, "");
    const r = jsonOf<{ parts: { method: string; removes: { target: string }[]; commands: string[] }[] }>(await mem(["remove", "--json"]));
    const sd = r.parts.find((p) => p.method === "systemd")!;
    assert.deepEqual(sd.removes.map((x) => x.target), [join(units, "mem-reindex.service"), join(units, "mem-reindex.timer")]);
    assert.deepEqual(sd.commands, ["systemctl --user disable --now mem-reindex.timer", "systemctl --user daemon-reload"]);
    assert.ok(!existsSync(join(units, "mem-reindex.service")) && !existsSync(join(units, "mem-reindex.timer")));
    assert.ok(existsSync(join(units, "other.service")));
  });

  test("a unit file of the same name that mem did not write is neither overwritten nor removed", async () => {
    const foreign = "[Unit]\nDescription=someone else's\n";
    writeFileSync(join(units, "mem-reindex.service"), foreign);
    const r = await mem(["install"], {}, 1);
    assert.match(r.stderr, /exists and was not written by mem; not touching it/);
    const removed = await mem(["remove"]);
    assert.match(removed.stdout, /was not written by mem; left as it is/);
    assert.equal(readFileSync(join(units, "mem-reindex.service"), "utf8"), foreign);
  });

  test("bad usage exits 2", async () => {
    await mem([], {}, 2);
    await mem(["install", "--via", "launchd"], {}, 1);
    await mem(["status", "--dry-run"], {}, 2);
    await mem(["remove", "--via", "cron"], {}, 2);
  });
});
