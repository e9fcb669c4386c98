export declare const ENTRIES: Record<string, string>;
export declare function buildCommit(dir?: string): string;
export declare function buildAll(opts?: { quiet?: boolean }): Promise<void>;
