export declare const TYPES_DIR: string;
export declare function buildTypes(): void;
