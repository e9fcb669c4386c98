// Who is signed in: GET /me (no-store) once at start and after sign-in,
// handle change or sign-out. Nothing about the user is kept anywhere else.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { User } from '../protocol/index';
import { errorText, getMe } from './api';

export interface Session {
  /** undefined while loading; null when signed out. */
  user: User | null | undefined;
  error: string | null;
  refresh: () => Promise<void>;
  setUser: (u: User | null) => void;
}

const SessionContext = createContext<Session>({
  user: undefined,
  error: null,
  refresh: async () => {},
  setUser: () => {},
});

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(async () => {
    try {
      setUser(await getMe());
      setError(null);
    } catch (err) {
      setError(errorText(err));
      setUser(null);
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return <SessionContext.Provider value={{ user, error, refresh, setUser }}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  return useContext(SessionContext);
}
