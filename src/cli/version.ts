// What `arena --version` prints: the package version, the rules version the
// engine plays (every match record names it) and the commit the build came
// from, which scripts/build.mjs and scripts/build-binary.mjs embed.
import { RULES_VERSION } from '../../engine/rules-version';
// Inlined by the bundler, so the version is right wherever the bundle runs.
import pkg from '../../package.json' with { type: 'json' };

declare const __ARENA_COMMIT__: string | undefined;

/** The commit of the build, or "unknown" (sources run without a build, or a build outside git). */
export const BUILD_COMMIT: string =
  typeof __ARENA_COMMIT__ === 'string' && __ARENA_COMMIT__ ? __ARENA_COMMIT__ : 'unknown';

export function versionText(): string {
  return `arena ${pkg.version}\nrules ${RULES_VERSION}\ncommit ${BUILD_COMMIT}`;
}
