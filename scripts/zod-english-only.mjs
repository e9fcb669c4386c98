// An esbuild plugin for the programs' bundles: zod's `locales` namespace
// re-exports all of its ~50 translations of error messages, half of zod's
// bundled size (about 360 KiB of 755 KiB) that every command importing zod
// would parse at start-up. Arena speaks English only (zod's default, which
// zod sets itself from locales/en.js), so the namespace keeps `en` alone.
export function zodEnglishOnly() {
  return {
    name: 'zod-english-only',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
        contents: "export { default as en } from './en.js';",
        loader: 'js',
      }));
    },
  };
}
