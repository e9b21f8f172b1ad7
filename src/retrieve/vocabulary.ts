/**
 * The vocabulary of the trade: names developers shorten ("postgres", "k8s", "tf"), English word
 * forms the Porter stemmer leaves apart ("chose"/"choose", "deploy"/"deployment",
 * "decide"/"decision"); identifiers written as one token ("getUserName") are split by
 * src/util/identifiers.ts. A word's
 * alternatives are what a search for it also looks for, and what the relevance floor counts as
 * the same word. Pure; the tables are data (tested in test/retrieve/vocabulary.test.ts).
 *
 * Each line below is one group of forms that mean the same in a developer's notes; a form may be a
 * phrase ("security group"). A word's alternatives are every other form of every group it is in:
 * not transitive ("auth" is both "authentication" and "authorization", which are not each other).
 */

const ALIASES = `
postgres, postgresql, psql | k8s, kubernetes | tf, terraform | gha, github actions | js, javascript | ts, typescript
py, python | rb, ruby | db, database | dbs, databases | auth, authentication | auth, authorization
authn, authentication | authz, authorization | repo, repository | repos, repositories | env, environment
envs, environments | config, configuration | configs, configurations | prod, production | dev, development
infra, infrastructure | perf, performance | cert, certificate | certs, certificates | tls, ssl
sg, security group | sgs, security groups | asg, auto scaling group | asg, autoscaling group | lb, load balancer
elb, elastic load balancer | alb, application load balancer | vm, virtual machine | vms, virtual machines
mongo, mongodb | es, elasticsearch | msg, message | msgs, messages | deps, dependencies | dep, dependency
pkg, package | pkgs, packages | arg, argument | args, arguments | param, parameter | params, parameters
fn, function | func, function | impl, implementation | docs, documentation | dir, directory | dirs, directories
img, image | imgs, images | ci, continuous integration | cd, continuous delivery | cd, continuous deployment
pr, pull request | prs, pull requests | mr, merge request | aws, amazon web services | gcp, google cloud
ui, user interface | iac, infrastructure as code | tz, timezone | ttl, time to live | mq, message queue
async, asynchronous | temp, temporary | tmp, temporary | admin, administrator | admins, administrators
mgmt, management | ops, operations | stg, staging | qa, quality assurance | e2e, end to end
os, operating system | info, information | spec, specification | specs, specifications | ws, websocket
regex, regular expression | regexp, regular expression | ml, machine learning | ai, artificial intelligence
vpc, virtual private cloud | cdn, content delivery network | datacenter, datacentre, data center, data centre
i18n, internationalization, internationalisation | l10n, localization, localisation | a11y, accessibility
o11y, observability | saas, software as a service | paas, platform as a service | iaas, infrastructure as a service
ioc, inversion of control | di, dependency injection | ctor, constructor | ctors, constructors | dtor, destructor
argv, command line arguments | cli, command line interface | cli, command line | dsl, domain specific language
rdbms, relational database | orm, object relational mapping | sdk, software development kit | jvm, java virtual machine
ide, integrated development environment | vcs, version control | gc, garbage collection | ssr, server side rendering
spa, single page application | dto, data transfer object | jwt, json web token | sso, single sign on
mfa, multi factor authentication | rbac, role based access control | acl, access control list | oom, out of memory
ocr, optical character recognition | llm, large language model | rag, retrieval augmented generation
nlp, natural language processing | changelog, release notes | changelogs, release notes
`;

const FORMS = `
choose chose chosen choice | decide decided decision | deploy deployment deployed deploying
build built | rebuild rebuilt | write wrote written | rewrite rewrote rewritten | break broke broken
buy bought | send sent | spend spent | hide hid hidden | freeze froze frozen | begin began begun
drive drove driven | grow grew grown | throw threw thrown | feed fed | fight fought | catch caught
teach taught | bring brought | seek sought | sell sold | win won | stick stuck | strike struck
spin spun | hang hung | dig dug | shake shook | wear wore worn | tear tore torn | lose lost
forget forgot forgotten | override overrode overridden | undo undid undone | redo redid redone
withdraw withdrew withdrawn | run ran | lead led | hold held
include inclusion | exclude exclusion | conclude conclusion | permit permission | submit submission
admit admission | omit omission | transmit transmission | describe description | subscribe subscription
resolve resolution | solve solution | assume assumption | consume consumption | reduce reduction
introduce introduction | expand expansion | extend extension | suspend suspension
intend intention | divide division | collide collision | revise revision | fail failure
analyse analysis | analyze analysis | retain retention | detect detection | compress compression
validate validation | encrypt encryption | decrypt decryption | persist persistence | maintain maintenance
approve approval
`;

/**
 * British and American spellings, which the Porter stemmer leaves apart ("licence" is "licenc",
 * "license" "licens"): a record written in one is found by a question in the other. Word forms,
 * each pair a group; a pair the stemmer already joins ("modelling", "modeling") is not listed.
 */
const SPELLINGS = `
colour color | colours colors | behaviour behavior | behaviours behaviors | favour favor | favourite favorite
honour honor | neighbour neighbor | licence license | licences licenses | licenced licensed | defence defense
offence offense | centre center | centres centers | metre meter | catalogue catalog | catalogues catalogs
dialogue dialog | dialogues dialogs | analyse analyze | analysed analyzed | organise organize | organised organized
organisation organization | organisations organizations | initialise initialize | initialised initialized
initialisation initialization | serialise serialize | serialised serialized | serialisation serialization
deserialise deserialize | deserialisation deserialization | normalise normalize | normalised normalized
normalisation normalization | optimise optimize | optimised optimized | optimisation optimization
customise customize | customised customized | customisation customization | summarise summarize
summarisation summarization | prioritise prioritize | minimise minimize | maximise maximize
synchronise synchronize | synchronisation synchronization | utilise utilize | visualise visualize
visualisation visualization | standardise standardize | centralise centralize | centralised centralized
localise localize | localised localized | localisation localization | tokenise tokenize | tokeniser tokenizer
recognise recognize | realise realize | grey gray
artefact artifact | artefacts artifacts | enquiry inquiry
`;

/**
 * Agent nouns and their verbs, which the stemmer leaves apart too ("parser" is "parser", "parse"
 * "pars"): "the argv parser" finds the record that says the library parses the command line.
 */
const AGENTS = `
logger log | parser parse | printer print | formatter format | exporter export | importer import | loader load
reader read | writer write | builder build | runner run | compiler compile | scheduler schedule | renderer render
linter lint | checker check | watcher watch | fetcher fetch | serializer serialize | tokenizer tokenize
validator validate | generator generate | converter convert | installer install | launcher launch | bundler bundle
uploader upload | downloader download | listener listen | publisher publish | subscriber subscribe
consumer consume | producer produce | handler handle | mapper map | resolver resolve | encoder encode | decoder decode
executor execute | processor process | emitter emit | crawler crawl | scraper scrape | migrator migrate
`;

/** The groups of a table: `|` or a line ends a group, `,` (ALIASES) or a space (FORMS) ends a form. */
function groups(table: string, sep: RegExp): string[][] {
  return table
    .split(/[|\n]/)
    .map((g) => g.split(sep).map((f) => f.trim().toLowerCase().split(/\s+/).join(" ")).filter(Boolean))
    .filter((g) => g.length >= 2);
}

const ALTERNATIVES = new Map<string, Set<string>>();
/** The same, from one table each: what a search takes when one of the two is switched off (./query-rules.ts). */
const ALIAS_ALTERNATIVES = new Map<string, Set<string>>();
const FORM_ALTERNATIVES = new Map<string, Set<string>>();
/**
 * The long forms of the aliases ("production", "authorization"): looked up by a stem, they would
 * stand for other words of that stem ("product", "author"), so the floor, which sees stems, takes
 * the alternatives of the short forms and the word forms only (`stemSafeEntries`).
 */
const LONG_FORMS = new Set(groups(ALIASES, /,/).flatMap((g) => g.slice(1)));
const FORM_GROUPS = [...groups(FORMS, /\s+/), ...groups(SPELLINGS, /\s+/), ...groups(AGENTS, /\s+/)];
for (const g of FORM_GROUPS) for (const f of g) LONG_FORMS.delete(f);
function addGroups(into: Map<string, Set<string>>, gs: readonly string[][]): void {
  for (const g of gs) {
    for (const form of g) {
      let alts = into.get(form);
      if (!alts) into.set(form, (alts = new Set()));
      for (const other of g) if (other !== form) alts.add(other);
    }
  }
}
addGroups(ALTERNATIVES, [...groups(ALIASES, /,/), ...FORM_GROUPS]);
addGroups(ALIAS_ALTERNATIVES, groups(ALIASES, /,/));
addGroups(FORM_ALTERNATIVES, FORM_GROUPS);

/** Which tables a lookup takes: the aliases, the word forms, or both (the default). */
export interface Tables {
  aliases: boolean;
  wordForms: boolean;
}

/** The other forms of a lower-case word (each a word or a phrase), from the tables. */
export function alternativesOf(word: string, tables: Tables = { aliases: true, wordForms: true }): string[] {
  const map = tables.aliases && tables.wordForms ? ALTERNATIVES : tables.aliases ? ALIAS_ALTERNATIVES : tables.wordForms ? FORM_ALTERNATIVES : undefined;
  return [...(map?.get(word) ?? [])];
}

/** The longest phrase of the tables, in words. */
const LONGEST_PHRASE = Math.max(...[...ALTERNATIVES.keys()].map((k) => k.split(" ").length));

/**
 * The phrases of the tables that a run of `words` (lower-case, in the text's order) spells out
 * ("pull request", "security group"), each with its other forms: a question that writes the long
 * form finds the short one ("pull request" finds "PR"), as "pr" finds "pull request". Longest
 * phrases first, each once; a phrase is not looked up inside a longer one found ("command line
 * arguments" is `argv`, not `cli` too), but is where it stands alone.
 */
export function phrasesIn(words: readonly string[], tables: Tables = { aliases: true, wordForms: true }): { phrase: string; alternatives: string[] }[] {
  const out: { phrase: string; alternatives: string[] }[] = [];
  const seen = new Set<string>();
  const taken = new Uint8Array(words.length); // words inside a longer phrase found
  for (let n = Math.min(LONGEST_PHRASE, words.length); n >= 2; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      if (taken.subarray(i, i + n).every((t) => t === 1)) continue;
      const phrase = words.slice(i, i + n).join(" ");
      if (seen.has(phrase)) {
        taken.fill(1, i, i + n);
        continue;
      }
      const alternatives = alternativesOf(phrase, tables);
      if (alternatives.length === 0) continue;
      seen.add(phrase);
      out.push({ phrase, alternatives });
      taken.fill(1, i, i + n);
    }
  }
  return out;
}

/**
 * Every form of the tables with its alternatives, but the long forms of the aliases (the floor
 * stems them once, and "production" stemmed is "product": see `LONG_FORMS`).
 */
export function stemSafeEntries(): [string, string[]][] {
  return [...ALTERNATIVES].filter(([form]) => !LONG_FORMS.has(form)).map(([form, alts]) => [form, [...alts]]);
}

/**
 * The phrases of the tables with their other forms ("pull request" → "pr"): safe for the floor
 * by their words together, which no other phrase stems to.
 */
export function phraseEntries(): [string, string[]][] {
  return [...ALTERNATIVES].filter(([form]) => form.includes(" ")).map(([form, alts]) => [form, [...alts]]);
}
