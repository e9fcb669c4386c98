// The page's h1. After a client-side navigation, focus moves here and the
// document title follows, so keyboard and screen-reader users land on the
// new page rather than on the link they left.
import { useEffect, useRef, type ReactNode } from 'react';

let firstPage = true;

export function PageTitle({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const text = typeof children === 'string' ? children : Array.isArray(children) ? children.join('') : '';
  useEffect(() => {
    document.title = text ? `${text} — Bot Arena` : 'Bot Arena';
  }, [text]);
  useEffect(() => {
    if (firstPage) {
      firstPage = false;
      return;
    }
    ref.current?.focus({ preventScroll: false });
  }, []);
  return (
    <h1 ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}
