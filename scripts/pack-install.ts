/**
 * Packs this repository the way `npm publish` would and installs the tarball
 * into a fresh temporary directory as a user would (`npm install`, no dev
 * dependencies; runtime dependencies come from the registry). Shared by the
 * pack-and-install test and the start-up benchmark.
 */

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("..", import.meta.url));

export interface Installed {
  /** The consumer project: package.json, node_modules/fuzzpatch. */
  dir: string;
  /** The tarball that was installed. */
  tarball: string;
  /** Removes the temporary directories. */
  dispose(): void;
}

/** `npm pack` (which runs the build through `prepare`) into a temporary directory; returns the tarball's path. */
export function packTarball(into: string): string {
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", into], { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
  const [info] = JSON.parse(out) as { filename: string }[];
  if (!info) throw new Error("npm pack printed no tarball");
  return join(into, info.filename);
}

/** Installs `tarball` (or a fresh pack of the repository) into a new directory. */
export function installTarball(tarball?: string): Installed {
  const packDir = mkdtempSync(join(tmpdir(), "fuzzpatch-pack-"));
  const dir = mkdtempSync(join(tmpdir(), "fuzzpatch-consumer-"));
  const dispose = (): void => {
    rmSync(packDir, { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const file = tarball === undefined ? packTarball(packDir) : resolve(tarball);
    writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`);
    // --ignore-scripts: the tarball carries no lifecycle script (prepack strips `prepare`, the
    // build for clones) and runtime dependencies have none; nothing is to run.
    execFileSync("npm", ["install", "--omit=dev", "--ignore-scripts", "--no-audit", "--no-fund", "--no-package-lock", file], {
      cwd: dir,
      stdio: ["ignore", "ignore", "inherit"],
    });
    return { dir, tarball: file, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}
