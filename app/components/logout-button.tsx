import { Form } from 'react-router';
import { paths } from '../lib/paths.ts';

/** Logout is a POST (a link could be triggered by another site or a prefetch). */
export function LogoutButton({ className, children = 'Logout' }: { className: string; children?: React.ReactNode }) {
  return (
    <Form method="post" action={paths.logout} className="contents">
      <button type="submit" className={className}>
        {children}
      </button>
    </Form>
  );
}
