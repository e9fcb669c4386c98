export declare function inputsFile(root: string, name: string): string;
export declare function bundleIsFresh(root: string, name?: string): boolean;
