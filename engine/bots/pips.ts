// The bots' measure of a number token: PIPS[token] is how many of the 36
// rolls of two dice make it (7 and the desert's 0 count nothing).
export const PIPS: readonly number[] = [0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1];
