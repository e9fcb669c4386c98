// The built-in bots' names, apart from the bots, so that listing them (help
// texts, argument checks) does not load the engine.
export type BuiltinBotName = 'random' | 'greedy' | 'search';
export const BUILTIN_BOTS: readonly BuiltinBotName[] = ['random', 'greedy', 'search'];
