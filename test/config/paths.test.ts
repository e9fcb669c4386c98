import { describe, expect, it } from 'vitest';
import { homedir } from 'node:os';
import { configDir, defaultKeyPath, profilePath } from '../../src/config/paths';

describe('configDir', () => {
  it('prefers ARENA_CONFIG_DIR', () => {
    expect(configDir({ ARENA_CONFIG_DIR: '/tmp/a', XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/tmp/a');
  });
  it('then $XDG_CONFIG_HOME/arena', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/arena');
  });
  it('ignores a relative XDG_CONFIG_HOME, as XDG requires', () => {
    expect(configDir({ XDG_CONFIG_HOME: 'rel', HOME: '/h' })).toBe('/h/.config/arena');
  });
  it('falls back to ~/.config/arena', () => {
    expect(configDir({ HOME: '/h' })).toBe('/h/.config/arena');
    expect(configDir({})).toBe(`${homedir()}/.config/arena`);
  });
  it('places the profile and the default key inside it', () => {
    expect(profilePath({ ARENA_CONFIG_DIR: '/c' })).toBe('/c/profile.json');
    expect(defaultKeyPath({ ARENA_CONFIG_DIR: '/c' })).toBe('/c/keys/id_ed25519.pem');
  });
});
