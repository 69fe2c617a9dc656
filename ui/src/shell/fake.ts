// A stand-in for the shell's commands, typed by the generated `commands`: the
// commands given answer as written; every other one rejects with a
// `CommandError` naming it, as a shell without that command would. For unit
// tests of code that takes `Commands`, and for a page's browser fake.

import { commands } from "../bindings/commands";
import { withCommandErrors, type Commands } from "./shell";

/** Commands that answer with `answers` (rejections mapped to `CommandError`s); the rest reject. */
export function fakeCommands(answers: Partial<Commands>): Commands {
  const all: Record<string, unknown> = {};
  for (const name of Object.keys(commands)) {
    all[name] = answers[name as keyof Commands] ?? (() => Promise.reject({ code: "closed", message: `${name}: not in this fake` }));
  }
  return withCommandErrors(all as Commands);
}
