import { describe, expect, it } from "vitest";
import { commands } from "../bindings/commands";
import type { SearchHit } from "../bindings/index";
import { fakeCommands } from "./fake";
import { asArrayBuffer, asCommandError, connect, withCommandErrors, type Commands } from "./shell";

/** Only the listed commands, untyped: for the wrapper's own tests. */
const some = (impl: Record<string, (...args: never[]) => unknown>) => impl as unknown as Commands;

describe("the shell access", () => {
  it("passes a command's answer and arguments through", async () => {
    const seen: unknown[] = [];
    const hit = { conversation_id: "c1", message_id: "m1" } as unknown as SearchHit;
    const shell = withCommandErrors(some({ chatSearch: async (q: string) => (seen.push(q), [hit]) }));
    await expect(shell.chatSearch("tea")).resolves.toEqual([hit]);
    expect(seen).toEqual(["tea"]);
  });

  it("rejects with the shell's CommandError as it came", async () => {
    const shell = withCommandErrors(some({ openChat: async () => Promise.reject({ code: "unsupported", message: "no chat here" }) }));
    await expect(shell.openChat()).rejects.toEqual({ code: "unsupported", message: "no chat here" });
  });

  it("turns any other rejection, thrown ones too, into a CommandError", async () => {
    const shell = withCommandErrors(
      some({
        openChat: async () => Promise.reject("ipc down"),
        micEnabled: () => {
          throw new TypeError("no __TAURI_INTERNALS__");
        },
      }),
    );
    await expect(shell.openChat()).rejects.toEqual({ code: "closed", message: "ipc down" });
    await expect(shell.micEnabled()).rejects.toEqual({ code: "closed", message: "TypeError: no __TAURI_INTERNALS__" });
    expect(asCommandError(new Error("x"))).toEqual({ code: "closed", message: "Error: x" });
  });

  it("fakes every generated command: the given ones answer, the rest reject naming themselves", async () => {
    const fake = fakeCommands({ micEnabled: async () => true, setMic: () => Promise.reject("no device") });
    expect(Object.keys(fake).sort()).toEqual(Object.keys(commands).sort());
    await expect(fake.micEnabled()).resolves.toBe(true);
    await expect(fake.setMic(true)).rejects.toEqual({ code: "closed", message: "no device" });
    await expect(fake.openChat()).rejects.toEqual({ code: "closed", message: "openChat: not in this fake" });
  });

  it("picks the page's fake outside the Tauri shell", async () => {
    await expect(connect(() => "tauri", async () => "fake")).resolves.toBe("fake");
  });

  it("reads bytes from every shape a command answers with", () => {
    expect(new Uint8Array(asArrayBuffer([1, 2, 3]))).toEqual(new Uint8Array([1, 2, 3]));
    expect(new Uint8Array(asArrayBuffer(new Uint8Array([9, 8]).subarray(1)))).toEqual(new Uint8Array([8]));
    expect(asArrayBuffer(null).byteLength).toBe(0);
    expect(() => asArrayBuffer("x")).toThrow(/expected bytes/);
  });
});
