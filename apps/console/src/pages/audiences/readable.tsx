import type { CSSProperties, ReactNode } from 'react';

/** Error texts of the inputs below in a red dark enough to read on white (WCAG AA contrast). */
export function Readable({ children }: { children: ReactNode }) {
  return (
    <div style={{ '--mantine-color-error': 'var(--mantine-color-red-9)' } as CSSProperties}>{children}</div>
  );
}
