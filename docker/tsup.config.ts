// Bundle config for the api and worker images (docker/Dockerfile.api, Dockerfile.worker), run
// from the app's directory: `tsup --config ../../docker/tsup.config.ts`. Workspace packages
// (@staging/*, TypeScript sources) are compiled into dist/main.js; every third-party package stays
// an import resolved from the image's node_modules (installed by `pnpm deploy`), because several
// read files next to their code at runtime (bullmq's Lua scripts, Prisma's query compiler, sharp's
// native binding, pino's worker transports).
// A plain object (no `defineConfig` import): this file sits outside the apps, where tsup itself
// is not resolvable, and tsup accepts any default-exported options object.
export default {
  entry: ['src/main.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  clean: true,
  splitting: false,
  sourcemap: true,
  dts: false,
  noExternal: [/^@staging\//],
  esbuildPlugins: [
    {
      name: 'external-third-party',
      setup(build: {
        onResolve(
          options: { filter: RegExp },
          callback: (args: { path: string }) => { path: string; external: boolean } | undefined,
        ): void;
      }) {
        build.onResolve({ filter: /^[^./]/ }, (args) => {
          if (args.path.startsWith('@staging/')) return undefined;
          return { path: args.path, external: true };
        });
      },
    },
  ],
};
