import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { dataDir } from '../../src/config/paths';

describe('dataDir', () => {
  it('prefers --data', () => {
    expect(dataDir({ ARENA_DATA_DIR: '/a', XDG_DATA_HOME: '/x', HOME: '/h' }, '/flag')).toBe('/flag');
  });
  it('then $ARENA_DATA_DIR', () => {
    expect(dataDir({ ARENA_DATA_DIR: '/a', XDG_DATA_HOME: '/x', HOME: '/h' })).toBe('/a');
    expect(dataDir({ ARENA_DATA_DIR: '/a' }, '  ')).toBe('/a');
  });
  it('then $XDG_DATA_HOME/arena, only when absolute', () => {
    expect(dataDir({ XDG_DATA_HOME: '/x', HOME: '/h' })).toBe('/x/arena');
    expect(dataDir({ XDG_DATA_HOME: 'rel', HOME: '/h' })).toBe('/h/.local/share/arena');
  });
  it('falls back to ~/.local/share/arena', () => {
    expect(dataDir({ HOME: '/h' })).toBe('/h/.local/share/arena');
    expect(dataDir({})).toBe(`${homedir()}/.local/share/arena`);
  });
});
