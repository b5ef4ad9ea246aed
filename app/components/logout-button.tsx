import { Form } from 'react-router';
import { paths } from '../lib/paths.ts';
import { commonText as t } from '../lib/i18n/common.ts';

/** Logout is a POST (a link could be triggered by another site or a prefetch). */
export function LogoutButton({ className, children = t('logout') }: { className: string; children?: React.ReactNode }) {
  return (
    <Form method="post" action={paths.logout} className="contents">
      <button type="submit" className={className}>
        {children}
      </button>
    </Form>
  );
}
