import { redirect } from 'react-router';

/** /admin is the dashboard's old address. */
export function loader() {
  throw redirect('/admin-panel');
}
