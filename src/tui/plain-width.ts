// The width of `--plain` output in a pipe, apart from the renderer so that
// `arena replay --help` can name it without loading the TUI.
export const PLAIN_DEFAULT_WIDTH = 100;
