import { index, layout, route, type RouteConfig } from '@react-router/dev/routes';

export default [
  route('sitemap.xml', 'routes/sitemap.ts'),
  route('robots.txt', 'routes/robots.ts'),
  layout('components/site-layout.tsx', [
    index('routes/home.tsx'),
    route('categories', 'routes/categories.tsx'),
    route('vehicle/:id', 'routes/vehicle.tsx'),
    route('about', 'routes/about.tsx'),
    route('contact', 'routes/contact.tsx'),
    route('*', 'routes/not-found.tsx'),
  ]),
] satisfies RouteConfig;
