/**
 * The journal's full prune and its index (journal-prune-index.ts): the
 * prune decides the same entries and versions to drop with the index, without
 * it, with a stale one and with a damaged one, and an index that matches reads
 * no entry at all.
 */
import assert from "node:assert/strict";
import { cp, lstat, mkdtemp, readdir, readFile, rename, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import { preparePrivateDir } from "../src/fs/journal-dir.ts";
import type { JournalEntry } from "../src/fs/journal-entry.ts";
import { PRUNE_INDEX, parsePruneIndex, serializePruneIndex } from "../src/fs/journal-prune-index.ts";
import { type JournalBounds, listEntryIds, newEntryId, pruneJournal, readEntryInfo, writeEntry } from "../src/fs/journal-store.ts";
import { hashBytes } from "../src/fs/read-file.ts";

const base = await mkdtemp(path.join(tmpdir(), "fuzzpatch-prune-test-"));
after(() => rm(base, { recursive: true, force: true }));

const version = (k: number) => Buffer.from(`version ${k}\n${"x".repeat(2000 + k)}\n`);
/** Versions no entry names yet: a stray (another process's write under way, or debris) and the one a replaced entry will name. */
const STRAY = Buffer.from("a stray version\n");
const LATE = Buffer.from("named only by the replaced entry\n");

function entryOf(id: string, k: number, extra: Buffer[] = [], inputBytes = 1000 * k): JournalEntry {
  return {
    format: 1,
    id,
    time: new Date().toISOString(),
    root: "/tmp/project",
    source: "test",
    version: "0.0.0",
    files: [{ path: "a.txt", kind: "write", before: hashBytes(version(k - 1)), after: hashBytes(version(k)) }],
    read: [{ path: "a.txt", exists: true, blob: hashBytes(version(k - 1)) }, ...extra.map((b, n) => ({ path: `r${n}.txt`, exists: true, blob: hashBytes(b) }))],
    input: { kind: "text", text: "i".repeat(inputBytes) },
  };
}

const entryFile = (dir: string, id: string) => path.join(dir, "entries", `${id}.json`);

/** Six writes of a.txt, and two versions no entry names; every version written 30 s ago (younger than the prune's grace for strays). */
async function buildJournal(dir: string): Promise<string[]> {
  preparePrivateDir(dir);
  const ids: string[] = [];
  for (let k = 1; k <= 6; k++) {
    const id = newEntryId();
    ids.push(id);
    await writeEntry(dir, entryOf(id, k), new Map([[hashBytes(version(k - 1)), version(k - 1)], [hashBytes(version(k)), version(k)]]));
  }
  for (const b of [STRAY, LATE]) await writeFile(path.join(dir, "blobs", hashBytes(b)), b, { mode: 0o600 });
  const then = new Date(Date.now() - 30_000);
  for (const name of await readdir(path.join(dir, "blobs"))) await utimes(path.join(dir, "blobs", name), then, then);
  return ids;
}

const original = path.join(base, "original");
const ids = await buildJournal(original);
let copies = 0;
async function copyJournal(): Promise<string> {
  const dir = path.join(base, `copy-${++copies}`);
  await cp(original, dir, { recursive: true, preserveTimestamps: true });
  return dir;
}

/** The bounds of the decisions: about half the bytes, so the oldest writes and the versions only they used go. */
async function boundsOf(dir: string): Promise<JournalBounds> {
  let total = 0;
  for (const sub of ["blobs", "entries"]) for (const f of await readdir(path.join(dir, sub))) total += (await lstat(path.join(dir, sub, f))).size;
  return { maxEntries: 1000, maxAgeMs: 1e12, maxBytes: Math.floor(total / 2) };
}
/** Two minutes on: the strays are past their grace. */
const later = () => Date.now() + 120_000;

/** A prune that counts the entries it reads. */
async function prune(dir: string, bounds: JournalBounds, now = later()): Promise<{ dropped: string[]; entries: string[]; blobs: string[]; reads: number }> {
  let reads = 0;
  const dropped = await pruneJournal(dir, bounds, now, (d, id) => {
    reads++;
    return readEntryInfo(d, id);
  });
  const blobs = (await readdir(path.join(dir, "blobs"))).sort();
  return { dropped: dropped.sort(), entries: listEntryIds(dir), blobs, reads };
}
const decisions = ({ dropped, entries, blobs }: { dropped: string[]; entries: string[]; blobs: string[] }) => ({ dropped, entries, blobs });

/** A prune that drops and removes nothing (no bound reached, the strays young): it leaves the index of every entry. */
const buildIndex = (dir: string) => prune(dir, { maxEntries: 1000, maxAgeMs: 1e12, maxBytes: 1e12 }, Date.now());

const bounds = await boundsOf(original);
const baseline = await prune(await copyJournal(), bounds);

test("the baseline decides something: the oldest writes go by size, with the versions only they used and the strays past their grace", () => {
  assert.equal(baseline.reads, ids.length);
  assert.ok(baseline.dropped.length > 0 && baseline.dropped.length < ids.length, String(baseline.dropped.length));
  assert.deepEqual(baseline.entries, ids.slice(baseline.dropped.length));
  assert.ok(!baseline.blobs.includes(hashBytes(version(0))));
  assert.ok(!baseline.blobs.includes(hashBytes(STRAY)) && !baseline.blobs.includes(hashBytes(LATE)));
  assert.ok(baseline.blobs.includes(hashBytes(version(6))));
});

test("with an index that matches, the prune reads no entry and decides the same; the index it leaves lists the entries kept", async () => {
  const dir = await copyJournal();
  const built = await buildIndex(dir);
  assert.equal(built.reads, ids.length);
  assert.deepEqual(built.dropped, []);
  const again = await buildIndex(dir);
  assert.equal(again.reads, 0);
  const decided = await prune(dir, bounds);
  assert.equal(decided.reads, 0);
  assert.deepEqual(decisions(decided), decisions(baseline));
  const index = parsePruneIndex(await readFile(path.join(dir, PRUNE_INDEX), "utf8"));
  assert.deepEqual([...index.keys()].sort(), baseline.entries);
  assert.equal((await lstat(path.join(dir, PRUNE_INDEX))).mode & 0o777, 0o600);
});

/** An entry replaced under the same name, naming LATE besides its own versions: by a rename (a new file of the same size) or rewritten in place (another size). */
const replacements: { name: string; replace: (dir: string, id: string, k: number) => Promise<void> }[] = [
  {
    name: "replaced by another file of the same size",
    replace: async (dir, id, k) => {
      const e = entryOf(id, k);
      // Same length: the read record's hash swapped for LATE's.
      (e.read[0] as { blob: string }).blob = hashBytes(LATE);
      const text = `${JSON.stringify(e)}\n`;
      assert.equal(Buffer.byteLength(text), (await lstat(entryFile(dir, id))).size);
      await writeFile(`${entryFile(dir, id)}.new`, text, { mode: 0o600 });
      await rename(`${entryFile(dir, id)}.new`, entryFile(dir, id));
    },
  },
  {
    name: "rewritten in place with another size",
    replace: (dir, id, k) => writeFile(entryFile(dir, id), `${JSON.stringify(entryOf(id, k, [LATE], 10))}\n`),
  },
];

for (const r of replacements) {
  test(`a stale index (an entry ${r.name}) is not trusted for that entry: it is read again, and the prune keeps what the new entry names`, async () => {
    const last = ids.length - 1;
    const id = ids[last] as string;
    // The decisions to match: a prune without an index of a journal with the same replacement.
    const fresh = await copyJournal();
    await r.replace(fresh, id, last + 1);
    const expected = await prune(fresh, bounds);
    assert.ok(expected.blobs.includes(hashBytes(LATE)), "the replaced entry is kept and names LATE");
    const dir = await copyJournal();
    await buildIndex(dir);
    await r.replace(dir, id, last + 1);
    const decided = await prune(dir, bounds);
    assert.equal(decided.reads, 1);
    assert.deepEqual(decisions(decided), decisions(expected));
  });
}

test("a damaged, missing or foreign index is rebuilt by reading every entry, never an error, and the decisions are the same", async () => {
  const good = await (async () => {
    const dir = await copyJournal();
    await buildIndex(dir);
    return readFile(path.join(dir, PRUNE_INDEX), "utf8");
  })();
  const hash = hashBytes(version(1));
  const damaged: [string, string | undefined][] = [
    ["missing", undefined],
    ["empty", ""],
    ["torn", good.slice(0, good.length >> 1)],
    ["not an object", "null"],
    ["another format", good.replace('"format":1', '"format":2')],
    ["a record that is not a list", JSON.stringify({ format: 1, entries: { [ids[0] as string]: { size: 1 } } })],
    ["a record whose hash is malformed", JSON.stringify({ format: 1, entries: { [ids[0] as string]: [1, 2, 3, 4, "zz"] } })],
    ["a record with a negative size", JSON.stringify({ format: 1, entries: { [ids[0] as string]: [1, -2, 3, 4, hash] } })],
    ["an id that is not an entry's", `{"format":1,"entries":{"__proto__":[1,2,3,4,"${hash}"]}}`],
  ];
  for (const [name, text] of damaged) {
    const dir = await copyJournal();
    if (text !== undefined) await writeFile(path.join(dir, PRUNE_INDEX), text, { mode: 0o600 });
    const decided = await prune(dir, bounds);
    assert.equal(decided.reads, ids.length, name);
    assert.deepEqual(decisions(decided), decisions(baseline), name);
    // The prune left a good index: the next one reads nothing.
    assert.equal((await buildIndex(dir)).reads, 0, name);
  }
});

test("an index that is a symbolic link is neither read nor written through: it is replaced by a file of the journal's own", async () => {
  const dir = await copyJournal();
  const target = path.join(base, "not-the-index.json");
  await writeFile(target, "keep me");
  await symlink(target, path.join(dir, PRUNE_INDEX));
  const decided = await prune(dir, bounds);
  assert.equal(decided.reads, ids.length);
  assert.deepEqual(decisions(decided), decisions(baseline));
  assert.equal(await readFile(target, "utf8"), "keep me");
  assert.ok((await lstat(path.join(dir, PRUNE_INDEX))).isFile());
});

test("two prunes at once, both building the index, decide as one, and the index the last one left is good", async () => {
  const dir = await copyJournal();
  const now = later();
  const [a, b] = await Promise.all([prune(dir, bounds, now), prune(dir, bounds, now)]);
  assert.deepEqual(a.dropped, baseline.dropped);
  assert.deepEqual(b.dropped, baseline.dropped);
  const third = await prune(dir, bounds);
  assert.equal(third.reads, 0);
  assert.deepEqual(decisions(third), { ...decisions(baseline), dropped: [] });
});

test("property: an index read back throws nothing on any content, and a written one reads back as written", () => {
  fc.assert(
    fc.property(fc.oneof(fc.string(), fc.json(), fc.constantFrom(serializePruneIndex(new Map()))), (text) => {
      assert.ok(parsePruneIndex(text) instanceof Map);
    }),
  );
  const stat = { ino: 12, size: 345, mtimeMs: 1795979608602.0881, ctimeMs: 1795979608602.5 };
  const index = new Map([[ids[0] as string, { stat, info: { size: 345, blobs: [hashBytes(version(0)), hashBytes(version(1))] } }]]);
  assert.deepEqual(parsePruneIndex(serializePruneIndex(index)), index);
});

test("a temporary index a killed prune left beside the journal's files goes at the next prune; the index itself stays", async () => {
  const dir = await copyJournal();
  await buildIndex(dir);
  const left = path.join(dir, `.${PRUNE_INDEX}.fuzzpatch-${"0".repeat(6)}-1-${"a".repeat(8)}.tmp`);
  await writeFile(left, "{", { mode: 0o600 });
  const old = new Date(Date.now() - 11 * 60_000);
  await utimes(left, old, old);
  await prune(dir, bounds);
  assert.deepEqual((await readdir(dir)).sort(), ["blobs", "entries", PRUNE_INDEX]);
});
