export interface WebManifest {
  builtAt: string;
  startedAt: number;
  js: string;
  css: string;
  files: Record<string, { bytes: number; gzip: number; brotli: number }>;
  inputs: string[];
}
export declare const WEB_DIR: string;
export declare function buildWeb(opts?: { quiet?: boolean }): Promise<WebManifest>;
export declare function webIsFresh(): boolean;
