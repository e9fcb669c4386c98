// Wraps the private pages: they render only for a signed-in user.
import type { ReactNode } from 'react';
import type { User } from '../../protocol/index';
import { Link, paths } from '../router';
import { useSession } from '../session';
import { PageTitle } from './page-title';

export function SignedIn({ title, children }: { title: string; children: (user: User) => ReactNode }) {
  const { user, error } = useSession();
  if (user === undefined)
    return (
      <>
        <PageTitle>{title}</PageTitle>
        <p aria-busy="true">Loading…</p>
      </>
    );
  if (user === null) {
    return (
      <>
        <PageTitle>{title}</PageTitle>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <p>
          This page is for signed-in users. <Link href={paths.signin()}>Sign in with your e-mail</Link>.
        </p>
      </>
    );
  }
  return <>{children(user)}</>;
}
