// The defaults of `arena play`, apart from planPlay so that help texts can
// name them without loading the seed generator (node:crypto).
export const PLAY_DEFAULTS = { games: 10, concurrency: 4, deadlineMs: 5000, timeBankSeconds: 120 } as const;
