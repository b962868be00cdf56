/**
 * The format registry: every edit format, once. Response detection, the
 * file layer, the CLI and the tool server look formats up here. Order is
 * detection priority: a format's `split` runs on the lines the ones before
 * it did not take (V4A patches first, whose `@@` and `-`/`+` lines a diff
 * reader would misread, then JSON fences, then diffs, then SEARCH/REPLACE in
 * the rest; lazy snippets last, from the fences no other format took). Adding a format: one module exporting a `FormatEntry`, one
 * line here (docs/adding-a-format.md).
 */
import { anchoredFormat } from "./anchored-format.ts";
import { lazyFormat } from "./lazy-format.ts";
import { searchReplaceFormat } from "./search-replace-format.ts";
import { strReplaceFormat } from "./str-replace-format.ts";
import type { FormatEntry } from "./types.ts";
import { udiffFormat } from "./udiff-format.ts";
import { v4aFormat } from "./v4a-format.ts";
import { wholeFormat } from "./whole-format.ts";

export const FORMATS: readonly FormatEntry<never>[] = Object.freeze([v4aFormat, strReplaceFormat, udiffFormat, searchReplaceFormat, wholeFormat, anchoredFormat, lazyFormat] as FormatEntry<never>[]);

/** A format's name: "str-replace", "search-replace", "udiff", ... (the registry is the list). */
export type EditFormat = string;
/** A format's name, or "auto" to find every format in a response. */
export type ResponseFormat = "auto" | EditFormat;

/** The entry of a format by name (own properties only: user input picks it). */
export function formatByName(name: string): FormatEntry<never> | undefined {
  return FORMATS.find((f) => f.name === name);
}

export function formatNames(): string[] {
  return FORMATS.map((f) => f.name);
}
