import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

export default [
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('robots.txt', 'routes/robots.ts'),
  route('logout', 'routes/logout.ts'),
  route('auth/continue', 'routes/auth-continue.ts'),
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
