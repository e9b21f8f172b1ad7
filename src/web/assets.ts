/**
 * The explorer's style sheet and its one small script, served as they are (no build step). The
 * pages work without the script: it only asks before a forget and puts `/` on the search box.
 */
export const STYLE = `
:root { color-scheme: light dark; --fg: #1d232b; --muted: #5d6875; --bg: #fbfbfa; --panel: #ffffff; --line: #e1e4e8; --accent: #2f5fb3; --ok: #2d7a3e; --warn: #a3620a; --bad: #b3261e; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
@media (prefers-color-scheme: dark) { :root { --fg: #e4e7eb; --muted: #9aa4b0; --bg: #15181c; --panel: #1c2026; --line: #2d333b; --accent: #7aa7ff; --ok: #6cc17f; --warn: #e0a64b; --bad: #ff7b72; } }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 1.2rem; align-items: center; padding: .6rem 1.2rem; border-bottom: 1px solid var(--line); background: var(--panel); position: sticky; top: 0; }
header .brand { font-weight: 700; color: var(--fg); text-decoration: none; }
header nav { display: flex; gap: .9rem; flex-wrap: wrap; }
header nav a { color: var(--muted); text-decoration: none; }
header nav a[aria-current=page] { color: var(--fg); font-weight: 600; border-bottom: 2px solid var(--accent); }
header .project { margin-left: auto; color: var(--muted); font-family: ui-monospace, monospace; font-size: .85rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.2rem 3rem; }
h1 { font-size: 1.3rem; margin: .4rem 0 1rem; }
h2 { font-size: 1.05rem; margin: 1.4rem 0 .5rem; }
a { color: var(--accent); }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; margin-bottom: 1rem; }
form.filters label { display: flex; flex-direction: column; font-size: .8rem; color: var(--muted); }
input, select, textarea, button { font: inherit; color: var(--fg); background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: .3rem .5rem; }
input[type=search] { min-width: 24rem; }
textarea { width: 100%; min-height: 8rem; font-family: ui-monospace, monospace; font-size: .9rem; }
button { cursor: pointer; background: var(--accent); color: #fff; border-color: var(--accent); }
button.danger { background: var(--bad); border-color: var(--bad); }
button.plain { background: var(--panel); color: var(--fg); border-color: var(--line); }
ol.results, ul.items { list-style: none; padding: 0; margin: 0; }
.result, .item { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; margin-bottom: .6rem; }
.meta { color: var(--muted); font-size: .82rem; display: flex; flex-wrap: wrap; gap: .3rem .8rem; }
.id { font-family: ui-monospace, monospace; }
.text, pre { white-space: pre-wrap; word-break: break-word; margin: .3rem 0 0; font-family: ui-monospace, monospace; font-size: .86rem; }
mark { background: #fff3b0; color: inherit; }
@media (prefers-color-scheme: dark) { mark { background: #5a4b00; } }
details { margin-top: .3rem; font-size: .85rem; }
summary { cursor: pointer; color: var(--muted); }
table { border-collapse: collapse; width: 100%; font-size: .86rem; background: var(--panel); }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: var(--ok); } .warn { color: var(--warn); } .bad { color: var(--bad); }
.badge { display: inline-block; padding: 0 .4rem; border-radius: 3px; border: 1px solid var(--line); font-size: .78rem; }
.assistant { display: inline-block; padding: 0 .4rem; border-radius: 3px; border: 1px dashed var(--line); font-size: .78rem; font-weight: 600; }
.note { color: var(--muted); font-size: .9rem; }
.notice { border-left: 3px solid var(--warn); padding: .3rem .7rem; background: var(--panel); margin: .5rem 0; }
.pager { display: flex; gap: 1rem; justify-content: center; margin: 1rem 0; color: var(--muted); }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); gap: .7rem; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .6rem .8rem; }
.card .big { font-size: 1.4rem; font-weight: 600; }
.card, .item, .result, section.injected { min-width: 0; overflow-wrap: anywhere; }
code, .note, .meta, header .project { overflow-wrap: anywhere; } td, th { overflow-wrap: break-word; }
.actions { display: flex; gap: .5rem; margin-top: .5rem; flex-wrap: wrap; }
.actions form { margin: 0; }
svg.chart { width: 100%; height: 160px; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; }
svg.chart polyline { fill: none; stroke: var(--accent); stroke-width: 1.5; }
svg.chart text { fill: var(--muted); font-size: 10px; }
svg.chart circle.point { fill: var(--accent); }
nav.tabs { display: flex; flex-wrap: wrap; gap: .3rem 1rem; margin: 0 0 .8rem; border-bottom: 1px solid var(--line); }
nav.tabs a { color: var(--muted); text-decoration: none; padding: .2rem 0; }
nav.tabs a[aria-current=page] { color: var(--fg); font-weight: 600; border-bottom: 2px solid var(--accent); }
table.details { margin: .8rem 0; } table.details th { width: 9rem; }
ul.files, ol.statements { margin: 0; padding-left: 1.1rem; }
ol.history, ol.chunks { padding-left: 1.6rem; } ol.history > li, ol.chunks > li { margin-bottom: .7rem; }
form.edit, form.add { display: flex; flex-direction: column; gap: .5rem; margin: .5rem 0 1rem; } form.edit label, form.add label { display: flex; flex-direction: column; gap: .2rem; }
.item form.done { margin-top: .4rem; }
.card h2 { margin: 0 0 .3rem; font-size: .85rem; color: var(--muted); }
.card table { background: none; } .card ul.checks, .card ul.problems { padding-left: 1rem; margin: .3rem 0; font-size: .85rem; }
.warn-card { border-left: 3px solid var(--warn); } .bad-card { border-left: 3px solid var(--bad); } .ok-card { border-left: 3px solid var(--ok); }
svg.chart line.axis { stroke: var(--line); } svg.chart line.p50, svg.chart line.p95 { stroke: var(--muted); stroke-dasharray: 4 3; } svg.chart line.p95 { stroke: var(--warn); }
ol.timeline { list-style: none; padding: 0 0 0 .8rem; margin: 0; border-left: 2px solid var(--line); }
ol.timeline > li[data-type=prompt] { border-left: 3px solid var(--accent); }
ol.timeline > li[data-type=briefing] { border-left: 3px solid var(--ok); }
section.injected { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: .2rem .8rem .6rem; }
`;

export const SCRIPT = `
for (const form of document.querySelectorAll("form[data-confirm]")) {
  form.addEventListener("submit", (e) => { if (!confirm(form.dataset.confirm)) e.preventDefault(); });
}
document.addEventListener("keydown", (e) => {
  const box = document.querySelector("input[type=search]");
  if (e.key === "/" && box && document.activeElement !== box && !(document.activeElement instanceof HTMLTextAreaElement) && !(document.activeElement instanceof HTMLInputElement)) { e.preventDefault(); box.focus(); }
});
`;
