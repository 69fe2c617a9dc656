// Vite for the pet window: root is ui/, output ui/dist (Tauri's frontendDist),
// dev server on the fixed port tauri.conf.json's devUrl names.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root,
  clearScreen: false,
  server: {
    port: 5173,
    strictPort: true,
    watch: { ignored: ["**/src-tauri/**"] },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "safari15",
    // three.js + three-vrm make the pet page one ~840 kB chunk, loaded from disk.
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      // Four pages: the pet window, the settings window, the chat window and the welcome.
      input: {
        pet: fileURLToPath(new URL("index.html", import.meta.url)),
        settings: fileURLToPath(new URL("settings.html", import.meta.url)),
        chat: fileURLToPath(new URL("chat.html", import.meta.url)),
        welcome: fileURLToPath(new URL("welcome.html", import.meta.url)),
      },
    },
  },
  test: {
    include: ["src/**/*.test.ts"],
    environment: "node",
  },
});
