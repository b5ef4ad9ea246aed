/** Every URL the app links to, in one place. */
export const paths = {
  home: '/',
  search: (query: string, page = 1) => {
    const params = new URLSearchParams();
    if (query.trim()) params.set('q', query.trim());
    if (page > 1) params.set('page', String(page));
    const text = params.toString();
    return text ? `/?${text}` : '/';
  },
  categories: (slug?: string) => (slug ? `/categories?category=${encodeURIComponent(slug)}` : '/categories'),
  vehicle: (id: number | string) => `/vehicle/${encodeURIComponent(String(id))}`,
  wishlist: '/wishlist',
  profile: '/profile',
  login: '/login',
  signup: '/signup',
  about: '/about',
  contact: '/contact',
  requestVehicle: '/request-vehicle',
  sellVehicle: '/sell-vehicle',
  privacy: '/privacy',
} as const;
