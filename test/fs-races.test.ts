/**
 * Issue 22, items 1-3: the file layer against a concurrent attacker inside
 * the root. Bounded stress tests (helpers/race-scenarios.ts): a few hundred
 * rounds each, a few seconds in all; nothing lands outside the root, no temp
 * or lock file is left, no outside content is served or written, no call
 * outlives its budget.
 */
import { test } from "node:test";
import { directorySwapRace, fifoSwapRace, fileSwapRace } from "./helpers/race-scenarios.ts";

test("item 1: a directory swapped for a symlink out of the root during applies: nothing lands outside, no temp or lock file is left, every call ends within its budget", { timeout: 60_000 }, (t) => directorySwapRace(t));

test("item 2: a file swapped for a symlink out of the root: read_file never serves the outside file, an edit never writes its content into the root", { timeout: 60_000 }, (t) => fileSwapRace(t));

test("item 3: a file swapped for a FIFO between the type check and the read: no call hangs, every call ends within its budget", { timeout: 60_000 }, (t) => fifoSwapRace(t));
