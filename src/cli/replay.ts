/** `fuzzpatch report [ID]` and `fuzzpatch apply --replay BUNDLE`: reproduction bundles (fs/report-bundle.ts). */

import path from "node:path";
import { EditError } from "../errors.ts";
import { journalDirOf } from "../fs/journal-find.ts";
import { makeBundle, readBundle, replayBundle, writeBundle } from "../fs/report-bundle.ts";
import { resolveRoot } from "../fs/safe-path.ts";
import { VERSION } from "../version.ts";
import { colorsFor, type Streams, writeError } from "./output.ts";

export interface ReportCommandOptions {
  /** Write here (default `fuzzpatch-report-<id>.json`, or `…-<id>/` with --dir). */
  output?: string;
  dir: boolean;
  redact: boolean;
  /** Without an id: the last write under this directory. */
  root: string;
}

/** Exit codes: 0 written, 1 no such write or it cannot be redacted, 2 bad usage or I/O. */
export async function runReport(id: string | undefined, options: ReportCommandOptions, streams: Streams): Promise<number> {
  try {
    const bundle = await makeBundle(journalDirOf(undefined), { redact: options.redact, ...(id !== undefined ? { id } : { root: await resolveRoot(options.root) }) });
    const target = options.output ?? `fuzzpatch-report-${bundle.id}${options.dir ? "" : ".json"}`;
    await writeBundle(bundle, path.resolve(target), options.dir);
    const shown = options.dir ? `${target}/ (bundle.json, the input, before/ and after/)` : target;
    streams.out.write(`Wrote ${shown}: write ${bundle.id}${bundle.redacted ? ", redacted (replayed: it reproduces)" : ""}. Replay it with: fuzzpatch apply --replay ${target}\n`);
    return 0;
  } catch (error) {
    const e = error instanceof EditError ? error : new EditError("IO", String((error as Error)?.message ?? error));
    if ((error as { code?: string }).code === "EEXIST") writeError(streams, new EditError("IO", `${options.output ?? "the report"} already exists; choose another name with --output.`));
    else writeError(streams, e);
    return e.code === "NOT_FOUND" || (e.code === "INVALID_INPUT" && options.redact) ? 1 : 2;
  }
}

/** Exit codes: 0 the replay gives the same result byte for byte, 1 it differs, 2 the bundle cannot be read. */
export async function runReplay(where: string, options: { json: boolean }, streams: Streams): Promise<number> {
  try {
    const bundle = await readBundle(where);
    const replay = await replayBundle(bundle);
    if (options.json) {
      streams.out.write(`${JSON.stringify({ same: replay.same, differences: replay.differences, id: bundle.id, version: bundle.version, diff: replay.result.diff }, null, 2)}\n`);
      return replay.same ? 0 : 1;
    }
    const c = colorsFor(streams, "out");
    if (replay.same) {
      streams.out.write(`${c.green("reproduced:")} write ${bundle.id} (recorded by fuzzpatch ${bundle.version}) gives the same result byte for byte with fuzzpatch ${VERSION}.\n`);
      return 0;
    }
    streams.out.write(`${c.red("differs:")} write ${bundle.id} (recorded by fuzzpatch ${bundle.version}) gives another result with fuzzpatch ${VERSION}:\n`);
    for (const d of replay.differences) streams.out.write(`  ${d}\n`);
    return 1;
  } catch (error) {
    writeError(streams, error instanceof EditError ? error : new EditError("IO", String((error as Error)?.message ?? error)));
    return 2;
  }
}
