#!/usr/bin/env node
// Generates YUI's default character, ui/public/characters/yui.vrm: a VRM 1.0
// avatar (a glTF 2.0 binary) built from procedural meshes. No dependencies,
// no randomness, no timestamps: every run writes the same bytes.
//
//   node scripts/gen-character.mjs           write the file
//   node scripts/gen-character.mjs --check   exit 1 if the committed file is stale
//   node scripts/gen-character.mjs --out F   write somewhere else
//
// This file is the command line; the generator itself is the modules under
// scripts/character/ (one concept each; model.mjs puts them together).
//
// The script is under the project's MIT license; the character it writes is
// released under CC0-1.0 (see LICENSE-assets.md). docs/character.md explains
// how the model is put together.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCharacter } from "./character/model.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_OUT = resolve(ROOT, "ui/public/characters/yui.vrm");

/** Parse the CLI (--check, --out F), build the file, and write or compare it. */
function main() {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const oi = args.indexOf("--out");
  const out = oi >= 0 ? resolve(args[oi + 1]) : DEFAULT_OUT;
  const bytes = buildCharacter();
  const rel = relative(process.cwd(), out) || out;
  if (check) {
    if (!existsSync(out)) {
      console.error(`${rel} is missing; run: node scripts/gen-character.mjs`);
      process.exit(1);
    }
    if (!readFileSync(out).equals(bytes)) {
      console.error(`${rel} is stale; run: node scripts/gen-character.mjs`);
      process.exit(1);
    }
    console.log(`${rel} is up to date (${bytes.length} bytes)`);
    return;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, bytes);
  console.log(`wrote ${rel} (${bytes.length} bytes)`);
}

main();
