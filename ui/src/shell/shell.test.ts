import { describe, expect, it } from "vitest";
import { asArrayBuffer, asCommandError, connect, withCommandErrors, type Commands } from "./shell";

/** A `Commands` whose listed commands run `impl`; the rest are never called here. */
const fakeCommands = (impl: Partial<Record<keyof Commands, (...args: never[]) => Promise<unknown>>>) => impl as unknown as Commands;

describe("the shell access", () => {
  it("passes a command's answer and arguments through", async () => {
    const seen: unknown[] = [];
    const shell = withCommandErrors(fakeCommands({ chatSearch: async (q: string) => (seen.push(q), [{ id: "m1" }]) }));
    await expect(shell.chatSearch("tea")).resolves.toEqual([{ id: "m1" }]);
    expect(seen).toEqual(["tea"]);
  });

  it("rejects with the shell's CommandError as it came", async () => {
    const shell = withCommandErrors(fakeCommands({ openChat: async () => Promise.reject({ code: "invalid", message: "no chat here" }) }));
    await expect(shell.openChat()).rejects.toEqual({ code: "invalid", message: "no chat here" });
  });

  it("turns any other rejection, thrown ones too, into a CommandError", async () => {
    const shell = withCommandErrors(
      fakeCommands({
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
