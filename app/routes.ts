import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

export default [
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('robots.txt', 'routes/robots.ts'),
  route('logout', 'routes/logout.ts'),
  route('auth/continue', 'routes/auth-continue.ts'),
  route('admin-login', 'routes/admin/login.tsx'),
  route('setup-admin', 'routes/admin/setup.tsx'),
  // Everything below sits behind the admin guard (routes/admin/layout.tsx).
  layout('routes/admin/layout.tsx', [
    route('admin', 'routes/admin/index.ts'),
    route('admin-panel', 'routes/admin/panel.tsx', [
      route('vehicles', 'routes/admin/vehicles.tsx'),
      route('vehicles/add', 'routes/admin/vehicle-add.tsx'),
      route('vehicles/edit/:category/:id', 'routes/admin/vehicle-edit.tsx'),
      route('categories', 'routes/admin/categories.tsx'),
    ]),
    route('admin/add-vehicle', 'routes/admin/vehicle-add.tsx', { id: 'admin-add-vehicle' }),
    route('admin/manage-vehicles', 'routes/admin/vehicles.tsx', { id: 'admin-manage-vehicles' }),
    route('admin/add-category', 'routes/admin/category-add.tsx'),
    route('admin/manage-categories', 'routes/admin/categories.tsx', { id: 'admin-manage-categories' }),
    route('admin/register-admin', 'routes/admin/register-admin.tsx'),
    route('admin/statistics', 'routes/admin/statistics.tsx'),
    route('admin/settings', 'routes/admin/settings.tsx'),
    route('admin/audit-log', 'routes/admin/audit-log.tsx'),
  ]),
  layout('components/site-layout.tsx', [
    index('routes/home.tsx'),
    route('categories', 'routes/categories.tsx'),
    route('vehicle/:id', 'routes/vehicle.tsx'),
    route('about', 'routes/about.tsx'),
    route('contact', 'routes/contact.tsx'),
    route('signup', 'routes/signup.tsx'),
    route('login', 'routes/login.tsx'),
    route('profile', 'routes/profile.tsx'),
    route('profile-complete', 'routes/profile-complete.tsx'),
    route('wishlist', 'routes/wishlist.tsx'),
    route('dev/outbox', 'routes/dev-outbox.tsx'),
    route('*', 'routes/not-found.tsx'),
  ]),
] satisfies RouteConfig;
