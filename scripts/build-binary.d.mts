export declare function binaryPath(platform?: string, arch?: string): string;
export declare function buildBinary(opts?: { quiet?: boolean }): Promise<string>;
