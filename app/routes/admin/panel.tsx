import { Link, Outlet, useLocation } from 'react-router';
import { adminPaths } from '../../lib/paths.ts';

/** SPEC 2, Admin dashboard: the card grid only on exactly /admin-panel; otherwise the nested page. */
const cards = [
  { to: adminPaths.aliases.addVehicle, title: 'Add Vehicle', text: 'List a new car with photos, inspection and finance details.' },
  { to: adminPaths.vehicles, title: 'Manage Vehicles', text: 'Edit, mark sold or remove cars in the inventory.' },
  { to: adminPaths.addCategory, title: 'Add Category', text: 'Create a new category such as SUVs or Rental Cars.' },
  { to: adminPaths.categories, title: 'Manage Categories', text: 'Rename, change the image of or delete categories.' },
  { to: adminPaths.statistics, title: 'Statistics', text: 'Inventory, sales and leads at a glance.' },
  { to: adminPaths.sellingVehicles, title: 'Selling Vehicles', text: 'Cars visitors offered to sell to you.' },
  { to: adminPaths.requestedVehicles, title: 'Requested Vehicles', text: 'Cars visitors asked you to find.' },
  { to: adminPaths.settings, title: 'Settings', text: 'Site name, items per page, notifications, maintenance.' },
  { to: adminPaths.registerAdmin, title: 'Create Admin Account', text: 'Give another allow-listed colleague access.' },
  { to: adminPaths.auditLog, title: 'Audit Log', text: 'Who changed what, and when.' },
];

export default function AdminPanel() {
  const { pathname } = useLocation();
  if (pathname.replace(/\/+$/, '') !== adminPaths.dashboard) return <Outlet />;
  return (
    <div className="flex flex-col gap-5">
      <h1 className="text-2xl font-extrabold tracking-tight">Admin Dashboard</h1>
      <ul className="grid gap-4 [grid-template-columns:repeat(auto-fill,minmax(min(100%,320px),1fr))]">
        {cards.map((card) => (
          <li key={card.to}>
            <Link to={card.to} className="block h-full rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 hover:ring-brand-600">
              <h2 className="text-lg font-bold">{card.title}</h2>
              <p className="mt-1 text-slate-600">{card.text}</p>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
