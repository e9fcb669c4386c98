export declare function buildAll(opts?: { quiet?: boolean }): Promise<void>;
