// The pure core: string in, string out, no file system. The file layer is src/node.ts.
export { EditError, isEditError } from "./errors.ts";
export { replace } from "./formats/str-replace.ts";

export type { EditErrorCode, EditErrorDetail, LineRange } from "./errors.ts";
export type { MatchReport, ReplaceOptions, ReplaceResult } from "./formats/str-replace.ts";
export type { PresetName } from "./match/cascade.ts";
export type { StrategyName } from "./match/types.ts";
