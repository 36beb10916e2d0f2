import { defineConfig } from "vite";

// The game server serves the build: index.html at / and /play/..., assets at /assets/.
export default defineConfig({
  base: "/",
  build: {
    outDir: "../src/gameshelf/server/static",
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
    },
  },
});
