/**
 * The indentation level map of a line merge: which file indentation each
 * model indentation stands for, learnt from the lines of the find text the
 * strategy aligned with file lines.
 *
 * Levels, not a scale: a model that quotes a block at base 2 with nested
 * lines at 6 (its own step 4) in a file at base 4, step 4 has told us
 * 2 -> 4 and 6 -> 8 directly. A ratio of columns fitted over such pairs
 * (one pair at depth 0 is enough to skew a median) writes lines at 3, which
 * is no level of either. Only levels the aligned lines never showed are
 * interpolated, one model step being one unit of the file.
 */
import { detectIndentUnit } from "../text/document.ts";
import { isBlank, leadingWhitespace } from "../text/normalize.ts";

const TAB_WIDTH = 4;

export function columns(indent: string): number {
  let cols = 0;
  for (const ch of indent) cols += ch === "\t" ? TAB_WIDTH : 1;
  return cols;
}

export interface IndentPair {
  /** Indentation as the model wrote it. */
  model: string;
  /** Indentation of the file line it stands for. */
  file: string;
}

export interface LevelMapInput {
  pairs: readonly IndentPair[];
  /** Every line the model wrote in this frame (to measure its step when the pairs show one level). */
  modelLines: readonly string[];
  /** The file's indentation unit ("\t", "  ", ...). */
  fileUnit: string;
  /** Whether new indentation is written with tabs (a function: asked only when a level is rendered or a tab/space mix is judged). */
  fileUsesTabs: boolean | (() => boolean);
}

/** A function from model indentation to file indentation; `identity` when it changes nothing. */
export type LevelMap = ((indent: string) => string) & { identity?: boolean };

const identityMap: LevelMap = Object.assign((indent: string) => indent, { identity: true });

/** The smallest positive difference between the distinct widths, or undefined. */
function smallestStep(widths: readonly number[]): number | undefined {
  const sorted = [...new Set(widths)].sort((a, b) => a - b);
  let step: number | undefined;
  for (let k = 1; k < sorted.length; k++) {
    const d = (sorted[k] ?? 0) - (sorted[k - 1] ?? 0);
    if (d > 0 && (step === undefined || d < step)) step = d;
  }
  return step;
}

/**
 * The model's step read from two seen levels several file levels apart:
 * their model gap over the number of file units between them (`\t` at 2
 * spaces and `\t\t\t\t` at 8 is a step of one tab, not the 3 tabs between
 * them). The smallest whole one over consecutive levels.
 */
function proportionalStep(seen: readonly { w: number; file: string }[], unitCols: number): number | undefined {
  let step: number | undefined;
  for (let k = 1; k < seen.length; k++) {
    const a = seen[k - 1] as { w: number; file: string };
    const b = seen[k] as { w: number; file: string };
    const units = (columns(b.file) - columns(a.file)) / unitCols;
    if (!Number.isInteger(units) || units < 1) continue;
    const d = (b.w - a.w) / units;
    if (Number.isInteger(d) && d >= 1 && (step === undefined || d < step)) step = d;
  }
  return step;
}

/**
 * The model's step when its quoted lines show one level only, written in
 * spaces where the file has tabs (`\t\t` as 4 spaces): the spaces per tab.
 * The widths of the lines it adds cannot tell it (they are the lines to map:
 * new lines at column 0 made a step of 4, and were written one tab in).
 */
function tabsWrittenAsSpaces(seen: readonly { w: number; file: string }[]): number | undefined {
  const only = seen.length === 1 ? seen[0] : undefined;
  if (!only || only.w === 0 || !/^\t+$/.test(only.file)) return undefined;
  const tabs = only.file.length;
  return only.w % tabs === 0 ? only.w / tabs : undefined;
}

export function levelMap(input: LevelMapInput): LevelMap {
  const { pairs, fileUnit } = input;
  if (pairs.every((p) => p.model === p.file)) return identityMap;
  // Each model width seen -> the file indentation most often paired with it.
  const votes = new Map<number, Map<string, number>>();
  for (const p of pairs) {
    const w = columns(p.model);
    const byFile = votes.get(w) ?? new Map<string, number>();
    byFile.set(p.file, (byFile.get(p.file) ?? 0) + 1);
    votes.set(w, byFile);
  }
  const seen = [...votes.entries()]
    .map(([w, byFile]) => {
      let best = "";
      let count = -1;
      for (const [f, c] of byFile) {
        if (c > count) {
          best = f;
          count = c;
        }
      }
      return { w, file: best };
    })
    .sort((a, b) => a.w - b.w);
  const unitCols = Math.max(1, columns(fileUnit));
  // The step and the file's tab use are read on first need: most new lines sit at a seen level (a hunk
  // of thousands pays for neither).
  let step: number | undefined;
  const modelStep = (): number => {
    if (step !== undefined) return step;
    const modelLines = input.modelLines.filter((l) => !isBlank(l) && leadingWhitespace(l) !== "");
    const modelWidths = input.modelLines.filter((l) => !isBlank(l)).map((l) => columns(leadingWhitespace(l)));
    step =
      proportionalStep(seen, unitCols) ??
      smallestStep(seen.map((s) => s.w)) ??
      tabsWrittenAsSpaces(seen) ??
      // Lines indented with tabs only: a tab is a level (their widths may skip one: 5 tabs and 3).
      (modelLines.length > 0 && modelLines.every((l) => /^\t+\S/.test(l)) ? TAB_WIDTH : undefined) ??
      smallestStep(modelWidths) ??
      Math.max(1, columns(detectIndentUnit([...input.modelLines])));
    return step;
  };
  let tabsKnown: boolean | undefined;
  const fileUsesTabs = (): boolean => {
    tabsKnown ??= typeof input.fileUsesTabs === "function" ? input.fileUsesTabs() : input.fileUsesTabs;
    return tabsKnown;
  };
  const render = (cols: number) =>
    fileUsesTabs() ? "\t".repeat(Math.floor(cols / TAB_WIDTH)) + " ".repeat(cols % TAB_WIDTH) : " ".repeat(cols);

  const modelTabs = pairs.some((p) => p.model.includes("\t"));
  const modelSpaces = pairs.some((p) => p.model.includes(" "));
  return (indent) => {
    // Written in the file's whitespace where the model's quoted lines used the other (tabs for spaces): already the file's.
    const tabs = indent.includes("\t");
    if (indent !== "" && (tabs ? modelSpaces && !modelTabs && fileUsesTabs() : modelTabs && !modelSpaces && !fileUsesTabs())) return indent;
    const w = columns(indent);
    const exact = seen.find((s) => s.w === w);
    if (exact) return exact.file;
    if (seen.length === 0) return indent;
    // The nearest seen level below (else above), moved by whole model steps in file units.
    let ref = seen[0] as { w: number; file: string };
    for (const s of seen) if (s.w < w) ref = s;
    const steps = Math.round((w - ref.w) / modelStep());
    const next = seen.find((s) => s.w > ref.w);
    const cols = columns(ref.file) + steps * unitCols;
    if (next && w < next.w && cols >= columns(next.file)) {
      // Between two seen levels but no whole step from either: the nearer one, never a level of neither.
      return w - ref.w <= next.w - w ? ref.file : next.file;
    }
    if (steps > 0) return ref.file + fileUnit.repeat(steps);
    return render(Math.max(0, cols));
  };
}
