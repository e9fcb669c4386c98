// Database URLs without the driver: the CLI parses --store before it knows
// it will connect, and `arena --help` must not load pg.
/** Where a URL points, for messages: host, port and database; never the user's password. */
export function describeTarget(url: string): string {
  try {
    const u = new URL(url);
    const socket = u.searchParams.get('host');
    const host = socket ?? (u.hostname || 'localhost');
    return `${host}${u.port ? `:${u.port}` : ''}${u.pathname && u.pathname !== '/' ? u.pathname : ''}`;
  } catch {
    return 'the database (the URL does not parse)';
  }
}

/** postgres:// or postgresql://: the --store value that names a database rather than a directory. */
export function isDatabaseUrl(text: string): boolean {
  return /^postgres(ql)?:\/\//i.test(text.trim());
}
