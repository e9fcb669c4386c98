// The rules version every match record names, in a module of its own so that
// naming it (`arena --version`) does not build the board's tables.
export const RULES_VERSION = 'pioneers/1';
